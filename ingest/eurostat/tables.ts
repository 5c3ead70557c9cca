// The Eurostat snapshot tables, declared once (ingest writes them, load.ts reads them back).

export const ESTAT_OBSERVATIONS = 'estat_observations';
export const ESTAT_DATASETS = 'estat_datasets';

export const OBSERVATION_COLUMNS = [
  'dataset_id', 'series_key', 'freq', 'geo', 'unit', 'dims', 'time_period', 'period_start', 'obs_value', 'obs_flag',
] as const;

export const DATASET_COLUMNS = [
  'dataset_id', 'format', 'dimension_keys', 'last_update', 'source_files', 'imported_at', 'observation_count', 'series_count',
  'first_period', 'last_period',
] as const;

export const CREATE_OBSERVATIONS = `CREATE TABLE ${ESTAT_OBSERVATIONS} (
  dataset_id VARCHAR NOT NULL, series_key VARCHAR NOT NULL, freq VARCHAR NOT NULL, geo VARCHAR, unit VARCHAR,
  dims MAP(VARCHAR, VARCHAR) NOT NULL, time_period VARCHAR NOT NULL, period_start DATE NOT NULL, obs_value DOUBLE, obs_flag VARCHAR)`;

export const CREATE_DATASETS = `CREATE TABLE ${ESTAT_DATASETS} (
  dataset_id VARCHAR NOT NULL, format VARCHAR NOT NULL, dimension_keys VARCHAR[] NOT NULL, last_update TIMESTAMP,
  source_files VARCHAR[] NOT NULL, imported_at TIMESTAMP NOT NULL, observation_count BIGINT NOT NULL, series_count BIGINT NOT NULL,
  first_period VARCHAR, last_period VARCHAR)`;

/** Total orders (one row per dataset_id, series_key, time_period; period_start then label within a series). */
export const ESTAT_ORDER = {
  [ESTAT_OBSERVATIONS]: 'dataset_id, series_key, period_start, time_period',
  [ESTAT_DATASETS]: 'dataset_id',
} as const;
