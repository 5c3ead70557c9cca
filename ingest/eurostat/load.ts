// Eurostat tables for the domains that read Eurostat datasets (energy, macro/HICP, country):
//   await loadEurostat(db, dataDir)   // creates both tables (empty when the snapshot has no Eurostat file)
//
// estat_observations: one row per (dataset_id, series_key, time_period); missing cells without a flag have no row
//   dataset_id   VARCHAR  lower case: 'nrg_ind_ren', 'nrg_bal_s', 'prc_hicp_manr'
//   series_key   VARCHAR  the dimension values in the dataset's dimension order joined by '.': 'A.REN.PC.AT'
//   freq         VARCHAR  the freq dimension (A, Q, M, S, ...), or the period's frequency when the dataset has none
//   geo          VARCHAR  the geo dimension as Eurostat writes it (EL for Greece, EU27_2020, EA20...), null if no geo dimension
//   unit         VARCHAR  the unit dimension, null if the dataset has none
//   dims         MAP(VARCHAR, VARCHAR)  every dimension, keys lower case in file order: dims['siec'], dims['nrg_bal']
//   time_period  VARCHAR  normalised: '2023', '2023-Q1', '2023-01', '2023-S1' (daily: '2023-01-31')
//   period_start DATE     first day of the period (2023-S2 -> 2023-07-01)
//   obs_value    DOUBLE   null when missing (then obs_flag says why, e.g. 'c' confidential); never 0 for missing
//   obs_flag     VARCHAR  Eurostat flags as written ('p', 'e', 'b', 'ep', 'c'), null when none
// estat_datasets: one row per dataset
//   dataset_id VARCHAR, format VARCHAR ('estat-tsv' | 'sdmx-csv-1.0' | 'sdmx-csv-2.0', '+'-joined when mixed),
//   dimension_keys VARCHAR[] (file order), last_update TIMESTAMP (SDMX-CSV 1.0 LAST UPDATE, else null),
//   source_files VARCHAR[], imported_at TIMESTAMP, observation_count BIGINT, series_count BIGINT,
//   first_period VARCHAR, last_period VARCHAR
// Example: SELECT geo, time_period, obs_value FROM estat_observations
//           WHERE dataset_id = 'nrg_bal_s' AND dims['nrg_bal'] = 'GAE' AND dims['siec'] = 'TOTAL' AND unit = 'KTOE'
// Ingest: npm run ingest -- eurostat <file-or-folder> [--dataset CODE]; writers for samples: ./write.ts.
import { Database } from '../../engine/database.ts';
import { loadParquetInto } from '../../engine/parquet.ts';
import { CREATE_DATASETS, CREATE_OBSERVATIONS, DATASET_COLUMNS, ESTAT_DATASETS, ESTAT_OBSERVATIONS, OBSERVATION_COLUMNS } from './tables.ts';

// The writers (./write.ts) are not re-exported: they load the parser, and the server loads this file.
export { ESTAT_DATASETS, ESTAT_OBSERVATIONS };

/**
 * Creates estat_observations and estat_datasets in db and fills them from the snapshot in dataDir.
 * Idempotent: several domains may call it on one database; the second call finds the tables and does nothing.
 */
export async function loadEurostat(db: Database, dataDir: string): Promise<void> {
  const existing = await db.all(`SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE table_name = $name AND schema_name = 'main'`, { name: ESTAT_DATASETS });
  if (Number(existing[0]?.n) > 0) return;
  await db.run(CREATE_OBSERVATIONS);
  await db.run(CREATE_DATASETS);
  await loadParquetInto(db, ESTAT_OBSERVATIONS, dataDir, ESTAT_OBSERVATIONS, OBSERVATION_COLUMNS);
  await loadParquetInto(db, ESTAT_DATASETS, dataDir, ESTAT_DATASETS, DATASET_COLUMNS);
}

/** The dataset ids in the snapshot in dataDir ([] when none): for a sample source's isLoaded. */
export async function eurostatDatasetsInSnapshot(dataDir: string): Promise<string[]> {
  const db = await Database.open({ connections: 1 });
  try {
    await loadEurostat(db, dataDir);
    return (await db.all(`SELECT dataset_id FROM ${ESTAT_DATASETS} ORDER BY dataset_id`)).map((row) => String(row.dataset_id));
  } finally {
    await db.close();
  }
}
