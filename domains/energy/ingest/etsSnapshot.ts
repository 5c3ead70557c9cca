// Writes the EU ETS part of the Parquet snapshot (tables declared in ../datasets.ts), all or nothing:
//   ets_installations  one row per (registry_code, installation_identifier): name, permit, activity, city;
//   ets_emissions      one row per (registry_code, installation_identifier, year): verified emissions
//                      (t CO2e) and free allocation, each null when not published.
// A new file replaces the held rows of the keys it carries (a yearly workbook restates every past year;
// the registry revises them), and adds the others. Within a batch, files are taken in the order given
// (a folder: by name), a later file winning. For installations, a field the newer file does not carry
// (the CSV has no permit, the workbook no city) keeps its held value.
import { mkdir } from 'node:fs/promises';
import { basename } from 'node:path';
import { Database } from '../../../engine/database.ts';
import { loadDataset } from '../../../engine/dataset.ts';
import { ETS_EMISSIONS as ETS_EMISSIONS_DATASET, ETS_INSTALLATIONS as ETS_INSTALLATIONS_DATASET } from '../datasets.ts';
import { appendImportRecords, commitTables, importRecordsOf, loadImportLedger, parseNewFiles, type ImportRecord } from '../../../ingest/commit.ts';
import { parseEtsFile, stageEutlCsv, type EtsFile, type StagedEutlCsv } from './etsParse.ts';

export const ETS_SOURCE_URL = 'https://climate.ec.europa.eu/eu-action/eu-emissions-trading-system-eu-ets/union-registry_en';
const ETS_INSTALLATIONS = ETS_INSTALLATIONS_DATASET.name;
export const ETS_EMISSIONS = ETS_EMISSIONS_DATASET.name;

export interface EtsIngestOptions {
  dataDir: string;
  sourceUrl?: string;
  now?: () => Date;
  onProgress?: (done: number, total: number) => void;
}

export interface EtsIngestResult {
  imported: ImportRecord[];
  skipped: string[];
  /** Installation-years held after the ingest (0 when nothing was written). */
  emissions: number;
  installations: number;
}

const SOURCE_FORMAT = { 'registry-xlsx': 'eu-registry-xlsx', 'eutl-installation-csv': 'eutl-installation-csv', 'eutl-compliance-csv': 'eutl-compliance-csv' } as const;

/** Imports ETS files (registry workbooks, installation.csv, compliance.csv) into the snapshot. */
export async function ingestEtsFiles(files: readonly string[], options: EtsIngestOptions): Promise<EtsIngestResult> {
  await mkdir(options.dataDir, { recursive: true });
  // A scratch database of this ingest only: no request waits on it, so no query timeout (bench sizes take long).
  const db = await Database.open({ connections: 1, queryTimeoutMs: 24 * 3600_000 });
  try {
    const ledger = await loadImportLedger(db, options.dataDir);
    const known = new Set(ledger.filter((r) => r.dataset === ETS_EMISSIONS || r.dataset === ETS_INSTALLATIONS).map((r) => r.fileHash));
    // A relational CSV is read by DuckDB into a scratch table of this database; a workbook in JavaScript.
    const { parsed, skipped } = await parseNewFiles<EtsFile | StagedEutlCsv>(files, known, (file) => stageEtsFile(db, file), options.onProgress);
    if (parsed.length === 0) return { imported: [], skipped, emissions: 0, installations: 0 };

    const imported = importRecordsOf(parsed, options, (p) => ({
      dataset: p.kind === 'eutl-installation-csv' ? ETS_INSTALLATIONS : ETS_EMISSIONS,
      source: SOURCE_FORMAT[p.kind],
      defaultUrl: ETS_SOURCE_URL,
      rowCount: 'rows' in p ? p.rows : p.kind === 'eutl-installation-csv' ? p.installations.length : p.years.length,
    }));

    await loadDataset(db, ETS_INSTALLATIONS_DATASET, options.dataDir);
    await loadDataset(db, ETS_EMISSIONS_DATASET, options.dataDir);
    // Staging: VARCHAR and INTEGER only (what the appender writes); amounts as text (they can pass 2^31).
    await db.run(`CREATE TABLE stage_inst (registry_code VARCHAR, installation_identifier VARCHAR, installation_name VARCHAR,
      permit_identifier VARCHAR, main_activity_code INTEGER, city VARCHAR, source_file VARCHAR, file_hash VARCHAR, file_order INTEGER)`);
    await db.run(`CREATE TABLE stage_em (registry_code VARCHAR, installation_identifier VARCHAR, year INTEGER, verified_emissions VARCHAR,
      allocation VARCHAR, source_file VARCHAR, source_row INTEGER, file_hash VARCHAR, file_order INTEGER)`);
    for (const [order, { file, hash, parsed: p }] of parsed.entries()) {
      const name = basename(file);
      if ('lined' in p) {
        const params = { name, hash, order };
        if (p.kind === 'eutl-installation-csv') {
          await db.run(`INSERT INTO stage_inst SELECT registry, identifier, name, NULL, NULL, city, $name, $hash, CAST($order AS INTEGER)
            FROM ${p.lined} WHERE ok`, params);
        } else {
          await db.run(`INSERT INTO stage_em SELECT registry, identifier, year, verified, allocation, $name, line, $hash, CAST($order AS INTEGER)
            FROM ${p.lined} WHERE ok`, params);
        }
        await p.drop();
        continue;
      }
      await db.appendRows('stage_inst', p.installations.map((i) => [
        i.registry, i.identifier, i.name, i.permitIdentifier, i.activityCode, i.city, name, hash, order,
      ]));
      await db.appendRows('stage_em', p.years.map((y) => [
        y.registry, y.identifier, y.year, y.verified === null ? null : String(y.verified), y.allocation === null ? null : String(y.allocation),
        name, y.sourceRow, hash, order,
      ]));
    }
    await merge(db);
    await appendImportRecords(db, imported);
    await commitTables(db, options.dataDir, [ETS_INSTALLATIONS_DATASET, ETS_EMISSIONS_DATASET]);
    const [{ e, i }] = await db.all(`SELECT (SELECT count(*) FROM ${ETS_EMISSIONS})::INTEGER AS e, (SELECT count(*) FROM ${ETS_INSTALLATIONS})::INTEGER AS i`);
    return { imported, skipped, emissions: Number(e), installations: Number(i) };
  } finally {
    await db.close();
  }
}

async function merge(db: Database): Promise<void> {
  // Installations: fields of the files of the batch, newest first, then the held row.
  await db.run(`CREATE TABLE inst_new AS
    SELECT registry_code, installation_identifier,
      arg_max(installation_name, file_order) FILTER (WHERE installation_name IS NOT NULL) AS installation_name,
      arg_max(permit_identifier, file_order) FILTER (WHERE permit_identifier IS NOT NULL) AS permit_identifier,
      arg_max(main_activity_code, file_order) FILTER (WHERE main_activity_code IS NOT NULL) AS main_activity_code,
      arg_max(city, file_order) FILTER (WHERE city IS NOT NULL) AS city,
      arg_max(source_file, file_order) AS source_file, arg_max(file_hash, file_order) AS file_hash
    FROM stage_inst GROUP BY registry_code, installation_identifier`);
  await db.run(`CREATE TABLE inst_merged AS
    SELECT n.registry_code, n.installation_identifier,
      coalesce(n.installation_name, h.installation_name) AS installation_name, coalesce(n.permit_identifier, h.permit_identifier) AS permit_identifier,
      coalesce(n.main_activity_code, h.main_activity_code) AS main_activity_code, coalesce(n.city, h.city) AS city, n.source_file, n.file_hash
    FROM inst_new n LEFT JOIN ${ETS_INSTALLATIONS} h USING (registry_code, installation_identifier)`);
  await db.run(`DELETE FROM ${ETS_INSTALLATIONS} h WHERE EXISTS (SELECT 1 FROM inst_merged n
    WHERE n.registry_code = h.registry_code AND n.installation_identifier = h.installation_identifier)`);
  await db.run(`INSERT INTO ${ETS_INSTALLATIONS} SELECT * FROM inst_merged`);

  // Emissions: per key, the row of the batch's newest file carrying it (a file carries a key once: its
  // reader refuses a repeated one), read from the staging table as it is inserted, without a sorted copy.
  await db.run(`DELETE FROM ${ETS_EMISSIONS} h WHERE EXISTS (SELECT 1 FROM stage_em n
    WHERE n.registry_code = h.registry_code AND n.installation_identifier = h.installation_identifier AND n.year = h.year)`);
  await db.run(`INSERT INTO ${ETS_EMISSIONS} SELECT registry_code, installation_identifier, year, CAST(verified_emissions AS BIGINT),
    CAST(allocation AS BIGINT), source_file, source_row, file_hash FROM stage_em s
    WHERE NOT EXISTS (SELECT 1 FROM stage_em t WHERE t.registry_code = s.registry_code AND t.installation_identifier = s.installation_identifier
      AND t.year = s.year AND t.file_order > s.file_order)`);
  for (const table of ['inst_new', 'inst_merged', 'stage_inst', 'stage_em']) await db.run(`DROP TABLE ${table}`);
}

/** A relational CSV staged by DuckDB, any other file (a workbook) parsed in JavaScript by parseEtsFile. */
function stageEtsFile(db: Database, file: string): Promise<EtsFile | StagedEutlCsv> {
  return /\.csv$/i.test(file) ? stageEutlCsv(db, file) : parseEtsFile(file);
}
