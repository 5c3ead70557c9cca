// The snapshot tables of the country domain, declared once for the writer (ingest) and the loader
// (queries).

/** OECD observations, one row per (indicator, area, freq, period) and imported file: every vintage. */
export const COOP_DATASET = 'coop_observations';

export const COOP_COLUMNS = [
  'indicator', 'area', 'area_name', 'freq', 'period', 'value', 'flag', 'source_series', 'source_format', 'vintage',
  'import_date', 'batch_order', 'source_file', 'source_row', 'file_hash',
] as const;

export const CREATE_COOP_OBSERVATIONS = `CREATE TABLE ${COOP_DATASET} (
  indicator VARCHAR NOT NULL, area VARCHAR NOT NULL, area_name VARCHAR, freq VARCHAR NOT NULL, period VARCHAR NOT NULL,
  value DOUBLE, flag VARCHAR, source_series VARCHAR NOT NULL, source_format VARCHAR NOT NULL, vintage DATE NOT NULL,
  import_date TIMESTAMP NOT NULL, batch_order INTEGER NOT NULL, source_file VARCHAR NOT NULL, source_row INTEGER NOT NULL,
  file_hash VARCHAR NOT NULL)`;

/** (key, file_hash) is unique, so this order is total. */
export const COOP_ORDER = 'indicator, area, freq, period, vintage, import_date, batch_order, file_hash';

