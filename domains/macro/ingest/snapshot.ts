// Writes the macro part of the Parquet snapshot, all or nothing, one function per source:
//   macro_ecb_observations  (series_key, date, value, source_file, file_hash): ECB csvdata rows, any flow;
//   macro_eurofxref         (date, currency, rate, source_file, file_hash): the reference-rate bulk file,
//                           one row per published cell (N/A cells are not stored);
//   macro_fred_observations (series_id, date, value, source_file, file_hash): FRED series, missing as null;
//   macro_fred_licenses     (series_id, status, changed_at, seq, via, note): every licence status set, the
//                           newest (changed_at, seq) per series is the one in force.
// A new file REPLACES the held rows of the keys it carries ((series, date) or (date, currency)) and adds
// the others: the sources revise history, so the newest file wins; within one batch, the later file
// (a folder: by name) wins. Re-ingesting identical bytes is a no-op. Every ingest and every licence
// change appends records to the import ledger (imports.parquet) with its time.
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { basename } from 'node:path';
import { Database, type SqlParams } from '../../../engine/database.ts';
import { datasetFile, loadDataset, type Dataset } from '../../../engine/dataset.ts';
import { currentGeneration } from '../../../engine/generation.ts';
import { sqlStringLiteral } from '../../../engine/parquet.ts';
import { MACRO_ECB, MACRO_EUROFXREF, MACRO_FRED, MACRO_FRED_LICENSES } from '../datasets.ts';
import { appendImportRecords, commitTables, importRecordsOf, loadImportLedger, parseNewFiles, type ImportRecord } from '../../../ingest/commit.ts';
import { parseEurofxref, stageEcbCsv, stageFredFile } from './parse.ts';
import {
  ECB_DATASET, ECB_SOURCE_FORMAT, ECB_SOURCE_URL, EUROFXREF_DATASET, EUROFXREF_SOURCE_FORMAT, EUROFXREF_SOURCE_URL, FRED_DATASET,
  FRED_LICENSE_DATASET, FRED_LICENSE_SOURCE, FRED_SOURCE_FORMAT, FRED_SOURCE_URL, type LicenseStatus,
} from './types.ts';

interface SeriesTable {
  dataset: Dataset;
  /** Key column besides date (series_key, series_id or currency). */
  key: string;
  valueColumn: string;
}

const ECB_TABLE: SeriesTable = { dataset: MACRO_ECB, key: 'series_key', valueColumn: 'value' };
const EUROFXREF_TABLE: SeriesTable = { dataset: MACRO_EUROFXREF, key: 'currency', valueColumn: 'rate' };
const FRED_TABLE: SeriesTable = { dataset: MACRO_FRED, key: 'series_id', valueColumn: 'value' };

export interface MacroIngestOptions {
  dataDir: string;
  sourceUrl?: string;
  now?: () => Date;
  onProgress?: (done: number, total: number) => void;
}

export interface MacroIngestResult {
  imported: ImportRecord[];
  skipped: string[];
  /** Rows the table holds after the ingest (0 when nothing was written). */
  rows: number;
}

type StagedRow = [key: string, date: string, value: number | null];

/** Where a file's rows go in the stage table: file name, hash and the file's position in the batch. */
interface StageTarget {
  name: string;
  hash: string;
  order: number;
}

/**
 * A parsed file's rows for the stage table: JavaScript rows (appended), or a query over scratch tables
 * of the ingest's database (k, d, v as the text of a number or NULL), which `drop` removes.
 */
type SeriesRows = { rows: StagedRow[] } | { query: string; count: number; drop: () => Promise<void> };

/** The shared ingest of one series table: parse the new files, stage, merge (newest file wins), commit. */
async function ingestSeriesFiles<T>(
  files: readonly string[],
  options: MacroIngestOptions,
  spec: {
    table: SeriesTable;
    dataset: string;
    source: string;
    sourceUrl: string;
    /** Reads a file, into the ingest's database when DuckDB reads it. */
    parse: (db: Database, file: string) => Promise<T>;
    rows: (parsed: T) => SeriesRows;
    /** Extra work in the scratch database before the commit (the FRED licences). */
    extra?: (db: Database, parsed: T[], importDate: string) => Promise<{ dataset: Dataset; records: ImportRecord[] } | null>;
  },
): Promise<MacroIngestResult> {
  await mkdir(options.dataDir, { recursive: true });
  const db = await Database.open({ connections: 1 });
  try {
    const ledger = await loadImportLedger(db, options.dataDir);
    const known = new Set(ledger.filter((r) => r.dataset === spec.dataset).map((r) => r.fileHash));
    const { parsed, skipped } = await parseNewFiles(files, known, (file) => spec.parse(db, file), options.onProgress);
    if (parsed.length === 0) return { imported: [], skipped, rows: 0 };
    const rowsOf = parsed.map(({ parsed: p }) => spec.rows(p));
    const imported = importRecordsOf(parsed, options, (p) => {
      const rows = rowsOf[parsed.findIndex((q) => q.parsed === p)]!;
      return { dataset: spec.dataset, source: spec.source, defaultUrl: spec.sourceUrl, rowCount: 'rows' in rows ? rows.rows.length : rows.count };
    });
    const t = spec.table;
    const table = t.dataset.name;
    await loadDataset(db, t.dataset, options.dataDir, { table: `${table}_held` });
    await db.run(`CREATE TABLE stage (k VARCHAR, d VARCHAR, v VARCHAR, source_file VARCHAR, file_hash VARCHAR, file_order INTEGER)`);
    for (const [order, { file, hash }] of parsed.entries()) {
      const rows = rowsOf[order]!;
      await stageRows(db, rows, { name: basename(file), hash, order });
    }
    // The table is a view the commit writes out in one pass: the held rows of the (key, date) pairs no
    // new file carries, and each staged row whose pair no later file of the batch carries.
    await db.run(`CREATE VIEW ${table} AS
      SELECT ${t.key}, date, ${t.valueColumn}, source_file, file_hash FROM ${table}_held held
        ANTI JOIN (SELECT DISTINCT k, CAST(d AS DATE) AS date FROM stage) n ON n.k = held.${t.key} AND n.date = held.date
      UNION ALL
      SELECT k, CAST(d AS DATE), CAST(v AS DOUBLE), source_file, file_hash FROM stage s
        ANTI JOIN stage later ON later.k = s.k AND later.d = s.d AND later.file_order > s.file_order`);
    const tables: Dataset[] = [t.dataset];
    const extra = await spec.extra?.(db, parsed.map((p) => p.parsed), imported[0].importDate);
    if (extra) tables.push(extra.dataset);
    await appendImportRecords(db, [...imported, ...(extra?.records ?? [])]);
    await commitTables(db, options.dataDir, tables);
    const [{ n }] = await db.all(`SELECT count(*)::INTEGER AS n FROM read_parquet(${sqlStringLiteral(datasetFile(options.dataDir, t.dataset))})`);
    return { imported, skipped, rows: Number(n) };
  } finally {
    await db.close();
  }
}

/** Puts a file's rows into the stage table. */
async function stageRows(db: Database, rows: SeriesRows, target: StageTarget): Promise<void> {
  if ('rows' in rows) {
    await db.appendRows('stage', rows.rows.map(([k, d, v]) => [k, d, v === null ? null : String(v), target.name, target.hash, target.order]));
    return;
  }
  await db.run(`INSERT INTO stage SELECT k, d, v, $name, $hash, CAST($order AS INTEGER) FROM (${rows.query})`, { ...target });
  await rows.drop();
}

export function ingestEcbFiles(files: readonly string[], options: MacroIngestOptions): Promise<MacroIngestResult> {
  return ingestSeriesFiles(files, options, {
    table: ECB_TABLE, dataset: ECB_DATASET, source: ECB_SOURCE_FORMAT, sourceUrl: ECB_SOURCE_URL,
    // The csvdata file is read by DuckDB into the ingest's database.
    parse: (db, file) => stageEcbCsv(db, file),
    rows: (p) => ({ query: `SELECT series_key AS k, date AS d, value AS v FROM ${p.lined} WHERE ok`, count: p.observations, drop: p.drop }),
  });
}

export function ingestEurofxrefFiles(files: readonly string[], options: MacroIngestOptions): Promise<MacroIngestResult> {
  return ingestSeriesFiles(files, options, {
    table: EUROFXREF_TABLE, dataset: EUROFXREF_DATASET, source: EUROFXREF_SOURCE_FORMAT, sourceUrl: EUROFXREF_SOURCE_URL,
    parse: (_db, file) => parseEurofxref(file),
    rows: (p) => ({ rows: p.rates.map((r): StagedRow => [r.currency, r.date, r.rate]) }),
  });
}

export interface FredIngestOptions extends MacroIngestOptions {
  /**
   * Licence status to record for every series of the files. Absent: a series new to the snapshot gets
   * PENDING and a series already held keeps its status.
   */
  license?: LicenseStatus;
  /** Series id of `date,value` and API JSON files (default: the file name up to its first dot). */
  series?: string;
}

export function ingestFredFiles(files: readonly string[], options: FredIngestOptions): Promise<MacroIngestResult> {
  return ingestSeriesFiles(files, options, {
    table: FRED_TABLE, dataset: FRED_DATASET, source: FRED_SOURCE_FORMAT, sourceUrl: FRED_SOURCE_URL,
    // A CSV is read by DuckDB into the ingest's database; an API JSON file in JavaScript.
    parse: (db, file) => stageFredFile(db, file, { series: options.series }),
    rows: (p) => ('count' in p
      ? { query: `SELECT series_id AS k, date AS d, value AS v FROM (${p.observations})`, count: p.count, drop: p.drop }
      : { rows: p.observations.map((o): StagedRow => [o.seriesId, o.date, o.value]) }),
    async extra(db, parsed, importDate) {
      await loadDataset(db, MACRO_FRED_LICENSES, options.dataDir);
      const current = await currentLicenses(db);
      const series = [...new Set(parsed.flatMap((p) => p.seriesIds))].sort();
      const changes = series
        .filter((id) => options.license !== undefined || !current.has(id))
        .map((id) => ({ seriesId: id, status: options.license ?? ('PENDING' as LicenseStatus) }));
      const records = await recordLicenses(db, changes, importDate, 'ingest');
      return { dataset: MACRO_FRED_LICENSES, records };
    },
  });
}

/** The status in force per series: the newest (changed_at, seq) row. */
export async function currentLicenses(db: Database): Promise<Map<string, { status: LicenseStatus; changedAt: string }>> {
  const rows = await db.all(`SELECT series_id, status, strftime(changed_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS changed_at FROM (
      SELECT *, row_number() OVER (PARTITION BY series_id ORDER BY changed_at DESC, seq DESC) AS pick FROM ${FRED_LICENSE_DATASET})
    WHERE pick = 1 ORDER BY series_id`);
  return new Map(rows.map((r) => [String(r.series_id), { status: String(r.status) as LicenseStatus, changedAt: String(r.changed_at) }]));
}

/**
 * Inserts licence rows (one per change, in one statement of bound rows: a batch of series is one round
 * trip) and returns their import records.
 */
async function recordLicenses(db: Database, changes: ReadonlyArray<{ seriesId: string; status: LicenseStatus }>, time: string, via: 'ingest' | 'license'): Promise<ImportRecord[]> {
  const [{ seq }] = await db.all(`SELECT coalesce(max(seq), 0)::INTEGER AS seq FROM ${FRED_LICENSE_DATASET}`);
  let next = Number(seq);
  const records: ImportRecord[] = [];
  const params: SqlParams = { time, via };
  const rows: string[] = [];
  for (const [i, change] of changes.entries()) {
    next += 1;
    Object.assign(params, { [`series${i}`]: change.seriesId, [`status${i}`]: change.status, [`seq${i}`]: String(next) });
    rows.push(`($series${i}, $status${i}, CAST(rtrim(replace($time, 'T', ' '), 'Z') AS TIMESTAMP), CAST($seq${i} AS INTEGER), $via, NULL)`);
    records.push({
      dataset: FRED_LICENSE_DATASET,
      source: FRED_LICENSE_SOURCE,
      sourceFile: `${change.seriesId}=${change.status}`,
      sourceUrl: null,
      fileHash: createHash('sha256').update(`${change.seriesId}|${change.status}|${time}|${next}`).digest('hex'),
      importDate: time,
      rowCount: 1,
    });
  }
  if (rows.length > 0) await db.run(`INSERT INTO ${FRED_LICENSE_DATASET} VALUES ${rows.join(', ')}`, params);
  return records;
}

export class UnknownSeriesError extends Error {}

/**
 * `npm run license -- <series> <status>`: records a new status for a series already ingested, with its
 * time, in macro_fred_licenses and the import ledger; the observations are not touched.
 */
export async function setFredLicense(seriesId: string, status: LicenseStatus, options: { dataDir: string; now?: () => Date }): Promise<{ previous: LicenseStatus; record: ImportRecord }> {
  const db = await Database.open({ connections: 1 });
  try {
    await loadDataset(db, MACRO_FRED_LICENSES, options.dataDir);
    const current = await currentLicenses(db);
    const held = current.get(seriesId);
    if (!held) {
      const known = [...current.keys()];
      throw new UnknownSeriesError(`series ${seriesId} is not in the snapshot (ingest it first with npm run ingest -- fred <file>); held: ${known.length > 0 ? known.join(', ') : 'none'}`);
    }
    await loadImportLedger(db, options.dataDir);
    const time = (options.now ?? (() => new Date()))().toISOString();
    const [record] = await recordLicenses(db, [{ seriesId, status }], time, 'license');
    await appendImportRecords(db, [record]);
    await commitTables(db, options.dataDir, [MACRO_FRED_LICENSES]);
    return { previous: held.status, record };
  } finally {
    await db.close();
  }
}

/** `npm run license -- list`: the status in force of every FRED series in the served generation of DATA_DIR. */
export async function listFredLicenses(dataDir: string): Promise<Array<{ seriesId: string; status: LicenseStatus; changedAt: string }>> {
  const db = await Database.open({ connections: 1 });
  try {
    await loadDataset(db, MACRO_FRED_LICENSES, currentGeneration(dataDir).dir);
    return [...(await currentLicenses(db))].map(([seriesId, { status, changedAt }]) => ({ seriesId, status, changedAt }));
  } finally {
    await db.close();
  }
}
