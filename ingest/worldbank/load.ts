// World Bank WDI tables for the domains that read WDI indicators (country, energy, macro):
//   await loadWorldBank(db, dataDir)   // creates the three tables (empty when the snapshot has no WDI file); idempotent
//
// wdi_observations: one row per (indicator_code, country_code, year) WITH a value (a blank year has no row; never 0)
//   indicator_code VARCHAR  'NE.EXP.GNFS.ZS'
//   country_code   VARCHAR  ISO 3166-1 alpha-3 for economies ('DEU', 'BGR'; Kosovo 'XKX'), WDI code for aggregates ('EUU', 'WLD', 'HIC')
//   year           INTEGER
//   value          DOUBLE   as published (full precision)
//   vintage        DATE     the file's "Last Updated Date" (JSON: lastupdated), null when it stated none
// wdi_indicators: one row per indicator
//   code VARCHAR, name VARCHAR, vintage DATE, source_note VARCHAR, source_organization VARCHAR (from a Metadata_Indicator file, else null),
//   format VARCHAR ('wdi-bulk-csv' | 'wdi-api-json'), source_files VARCHAR[], observation_count BIGINT, first_year INTEGER, last_year INTEGER
// wdi_countries: one row per code seen (data files or Metadata_Country)
//   code VARCHAR, name VARCHAR, is_aggregate BOOLEAN, region VARCHAR, income_group VARCHAR (null unless a Metadata_Country file gave them),
//   aggregate_basis VARCHAR: 'metadata' (blank Region in Metadata_Country = aggregate) or 'builtin-list' (WDI_AGGREGATE_CODES, aggregates.ts)
// Example: SELECT o.country_code, o.value FROM wdi_observations o JOIN wdi_countries c ON c.code = o.country_code
//           WHERE o.indicator_code = 'NE.EXP.GNFS.ZS' AND o.year = 2022 AND NOT c.is_aggregate
// Ingest: npm run ingest -- worldbank <file-or-folder>; writer for samples: writeWdiBulkCsv (./write.ts).
import { Database } from '../../engine/database.ts';
import { loadParquetInto } from '../../engine/parquet.ts';
import {
  CREATE_WDI_TABLES, WDI_COUNTRIES, WDI_COUNTRY_COLUMNS, WDI_INDICATOR_COLUMNS, WDI_INDICATORS, WDI_OBSERVATION_COLUMNS, WDI_OBSERVATIONS,
} from './tables.ts';

export { WDI_COUNTRIES, WDI_INDICATORS, WDI_OBSERVATIONS };
export { WDI_AGGREGATE_CODES } from './aggregates.ts';
// The writers (./write.ts) are not re-exported: they are sample code, and the server loads this file.

/**
 * Creates wdi_observations, wdi_indicators and wdi_countries in db and fills them from the snapshot in dataDir.
 * Idempotent: several domains may call it on one database; the second call finds the tables and does nothing.
 */
export async function loadWorldBank(db: Database, dataDir: string): Promise<void> {
  const existing = await db.all(`SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE table_name = $name AND schema_name = 'main'`, { name: WDI_COUNTRIES });
  if (Number(existing[0]?.n) > 0) return;
  for (const sql of CREATE_WDI_TABLES) await db.run(sql);
  await loadParquetInto(db, WDI_OBSERVATIONS, dataDir, WDI_OBSERVATIONS, WDI_OBSERVATION_COLUMNS);
  await loadParquetInto(db, WDI_INDICATORS, dataDir, WDI_INDICATORS, WDI_INDICATOR_COLUMNS);
  await loadParquetInto(db, WDI_COUNTRIES, dataDir, WDI_COUNTRIES, WDI_COUNTRY_COLUMNS);
}

/** The indicator codes in the snapshot in dataDir ([] when none): for a sample source's isLoaded. */
export async function worldBankIndicatorsInSnapshot(dataDir: string): Promise<string[]> {
  const db = await Database.open({ connections: 1 });
  try {
    await loadWorldBank(db, dataDir);
    return (await db.all(`SELECT code FROM ${WDI_INDICATORS} WHERE observation_count > 0 ORDER BY code`)).map((row) => String(row.code));
  } finally {
    await db.close();
  }
}
