// The macro snapshot tables, declared once for the writers (ingest/snapshot.ts) and the loader
// (queries/tables.ts). HICP lives in the Eurostat reader's estat_observations.
import { defineDataset } from '../../engine/dataset.ts';

const provenance = [
  { name: 'source_file', type: 'VARCHAR', notNull: true },
  { name: 'file_hash', type: 'VARCHAR', notNull: true },
] as const;

/** ECB Data API csvdata observations, any flow: value null = published as missing. */
export const MACRO_ECB = defineDataset({
  name: 'macro_ecb_observations',
  columns: [
    { name: 'series_key', type: 'VARCHAR', notNull: true },
    { name: 'date', type: 'DATE', notNull: true },
    { name: 'value', type: 'DOUBLE' },
    ...provenance,
  ],
  orderBy: ['series_key', 'date'],
  primaryKey: ['series_key', 'date'],
});

/** eurofxref-hist.csv, one row per published cell (N/A cells are not stored): EUR 1 = rate currency. */
export const MACRO_EUROFXREF = defineDataset({
  name: 'macro_eurofxref',
  columns: [
    { name: 'currency', type: 'VARCHAR', notNull: true },
    { name: 'date', type: 'DATE', notNull: true },
    { name: 'rate', type: 'DOUBLE' },
    ...provenance,
  ],
  orderBy: ['currency', 'date'],
  primaryKey: ['currency', 'date'],
});

/** FRED observations: value null = published as missing (`.` or empty). Never served raw. */
export const MACRO_FRED = defineDataset({
  name: 'macro_fred_observations',
  columns: [
    { name: 'series_id', type: 'VARCHAR', notNull: true },
    { name: 'date', type: 'DATE', notNull: true },
    { name: 'value', type: 'DOUBLE' },
    ...provenance,
  ],
  orderBy: ['series_id', 'date'],
  primaryKey: ['series_id', 'date'],
});

/** Every licence status set (via 'ingest' or 'license'); the newest (changed_at, seq) per series is in force. */
export const MACRO_FRED_LICENSES = defineDataset({
  name: 'macro_fred_licenses',
  columns: [
    { name: 'series_id', type: 'VARCHAR', notNull: true },
    { name: 'status', type: 'VARCHAR', notNull: true },
    { name: 'changed_at', type: 'TIMESTAMP', notNull: true },
    /** Increasing over the whole table: a total order. */
    { name: 'seq', type: 'INTEGER', notNull: true },
    { name: 'via', type: 'VARCHAR', notNull: true },
    { name: 'note', type: 'VARCHAR' },
  ],
  orderBy: ['series_id', 'changed_at', 'seq'],
  primaryKey: ['seq'],
});
