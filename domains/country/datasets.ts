// The snapshot table of the country domain, declared once for the writer (ingest/oecdSnapshot.ts) and
// the loader (queries/coopTables.ts). The WDI tables are the generic reader's (ingest/worldbank/tables.ts).
import { defineDataset } from '../../engine/dataset.ts';

/** OECD observations, one row per (indicator, area, freq, period) and imported file: every vintage is kept. */
export const COOP_OBSERVATIONS = defineDataset({
  name: 'coop_observations',
  columns: [
    { name: 'indicator', type: 'VARCHAR', notNull: true },
    { name: 'area', type: 'VARCHAR', notNull: true },
    { name: 'area_name', type: 'VARCHAR' },
    { name: 'freq', type: 'VARCHAR', notNull: true },
    { name: 'period', type: 'VARCHAR', notNull: true },
    { name: 'value', type: 'DOUBLE' },
    { name: 'flag', type: 'VARCHAR' },
    { name: 'source_series', type: 'VARCHAR', notNull: true },
    { name: 'source_format', type: 'VARCHAR', notNull: true },
    { name: 'vintage', type: 'DATE', notNull: true },
    { name: 'import_date', type: 'TIMESTAMP', notNull: true },
    { name: 'batch_order', type: 'INTEGER', notNull: true },
    { name: 'source_file', type: 'VARCHAR', notNull: true },
    { name: 'source_row', type: 'INTEGER', notNull: true },
    { name: 'file_hash', type: 'VARCHAR', notNull: true },
  ],
  /** (key, file_hash) is unique, so this order is total. */
  orderBy: ['indicator', 'area', 'freq', 'period', 'vintage', 'import_date', 'batch_order', 'file_hash'],
});

export const COOP_DATASET = COOP_OBSERVATIONS.name;
