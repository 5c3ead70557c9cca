// Import records of every dataset (dataset, source, file, hash, import date, rows).
import type { Database } from '../engine/database.ts';
import { loadParquetInto } from '../engine/parquet.ts';

const IMPORT_COLUMNS = ['dataset', 'source', 'source_file', 'source_url', 'file_hash', 'import_date', 'row_count'] as const;

export async function loadImports(db: Database, dataDir: string): Promise<void> {
  await db.run(`CREATE TABLE imports (
    dataset VARCHAR NOT NULL, source VARCHAR NOT NULL, source_file VARCHAR NOT NULL, source_url VARCHAR,
    file_hash VARCHAR NOT NULL, import_date TIMESTAMP NOT NULL, row_count INTEGER NOT NULL)`);
  await loadParquetInto(db, 'imports', dataDir, 'imports', IMPORT_COLUMNS);
}

/** The newest import date of the snapshot (ISO timestamp), null when nothing was imported. */
export async function snapshotImportDate(db: Database): Promise<string | null> {
  const [row] = await db.all(`SELECT strftime(max(import_date), '%Y-%m-%dT%H:%M:%SZ') AS imported FROM imports`);
  return (row?.imported as string | null) ?? null;
}
