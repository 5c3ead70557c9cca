// The import ledger, imports.parquet: one row per imported source file, written by every source's
// ingest (ingest/commit.ts) and read by the service (queries/imports.ts). It belongs to the snapshot
// format rather than to one domain, and the engine is the one module both sides may import.
import { defineDataset } from './dataset.ts';

export const IMPORTS_DATASET = defineDataset({
  name: 'imports',
  columns: [
    { name: 'dataset', type: 'VARCHAR', notNull: true },
    /** Source format id (for example 'mof-xlsx', 'mvr-json'). */
    { name: 'source', type: 'VARCHAR', notNull: true },
    /** Base name of the imported file. */
    { name: 'source_file', type: 'VARCHAR', notNull: true },
    { name: 'source_url', type: 'VARCHAR' },
    /** sha256 of the file bytes, hex. */
    { name: 'file_hash', type: 'VARCHAR', notNull: true },
    { name: 'import_date', type: 'TIMESTAMP', notNull: true },
    { name: 'row_count', type: 'INTEGER', notNull: true },
    /**
     * Rows held before for the keys (days, series, sets) this file republished; null when it replaced
     * nothing (all its keys new), for an additive source, or in a record written before the column existed.
     */
    { name: 'replaced_rows', type: 'INTEGER', optional: true },
    /** JSON [{key, before, after}] of the keys that lost rows (accepted with --allow-shrink); null when none. */
    { name: 'shrunk_keys', type: 'VARCHAR', optional: true },
  ],
  orderBy: ['import_date', 'dataset', 'source_file', 'file_hash'],
});
