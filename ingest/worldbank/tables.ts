// The World Bank WDI snapshot tables, declared once (ingest writes them, load.ts reads them back).

export const WDI_OBSERVATIONS = 'wdi_observations';
export const WDI_INDICATORS = 'wdi_indicators';
export const WDI_COUNTRIES = 'wdi_countries';

export const WDI_OBSERVATION_COLUMNS = ['indicator_code', 'country_code', 'year', 'value', 'vintage'] as const;
export const WDI_INDICATOR_COLUMNS = [
  'code', 'name', 'vintage', 'source_note', 'source_organization', 'format', 'source_files', 'observation_count', 'first_year', 'last_year',
] as const;
export const WDI_COUNTRY_COLUMNS = ['code', 'name', 'is_aggregate', 'region', 'income_group', 'aggregate_basis'] as const;

export const CREATE_WDI_TABLES = [
  `CREATE TABLE ${WDI_OBSERVATIONS} (indicator_code VARCHAR NOT NULL, country_code VARCHAR NOT NULL, year INTEGER NOT NULL,
     value DOUBLE NOT NULL, vintage DATE)`,
  `CREATE TABLE ${WDI_INDICATORS} (code VARCHAR NOT NULL, name VARCHAR NOT NULL, vintage DATE, source_note VARCHAR,
     source_organization VARCHAR, format VARCHAR, source_files VARCHAR[] NOT NULL, observation_count BIGINT NOT NULL,
     first_year INTEGER, last_year INTEGER)`,
  `CREATE TABLE ${WDI_COUNTRIES} (code VARCHAR NOT NULL, name VARCHAR NOT NULL, is_aggregate BOOLEAN NOT NULL, region VARCHAR,
     income_group VARCHAR, aggregate_basis VARCHAR NOT NULL)`,
] as const;

/** Total orders: one row per (indicator, country, year), per indicator code, per country code. */
export const WDI_ORDER = {
  [WDI_OBSERVATIONS]: 'indicator_code, country_code, year',
  [WDI_INDICATORS]: 'code',
  [WDI_COUNTRIES]: 'code',
} as const;
