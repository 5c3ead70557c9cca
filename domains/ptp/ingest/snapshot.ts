// Writes the PTP Parquet snapshot, all or nothing: every new file is parsed and checked before anything
// is written; the merged accidents are re-clustered and both tables are committed with the import ledger.
// A new file replaces the accidents already held for the days it covers (its first to its last accident
// date): the ministry republishes one growing resource, so a newer file supersedes an older one.
import { mkdir } from 'node:fs/promises';
import { setImmediate } from 'node:timers/promises';
import { basename, extname } from 'node:path';
import { Database } from '../../../engine/database.ts';
import { columnNames, createTableSql, loadDataset, stagedSelectSql, stagingTableSql } from '../../../engine/dataset.ts';
import {
  appendImportRecords, commitTables, importRecordsOf, IngestRejectedError, loadImportLedger, MalformedSourceError, parseNewFiles, type ImportRecord, type NewFile, type SnapshotWriteOptions } from '../../../ingest/commit.ts';
import { checkShrink, type ShrinkCheck } from '../../../ingest/shrink.ts';
import { PTP_CRASHES, PTP_LOCATIONS } from '../datasets.ts';
import { CLUSTER_RADIUS_M, clusterSites, type Cluster, type Site } from './clusters.ts';
import { stagePtpCsv, type Meanwhile, type StagedPtpCsv } from './csv.ts';
import { parsePtpFile } from './parse.ts';
import type { CoordinateFix, PtpRecord, PtpSourceFormat } from './types.ts';

/** The dataset name of the import records. */
export const PTP_DATASET = PTP_CRASHES.name;
export const PTP_TABLES = { crashes: PTP_CRASHES.name, locations: PTP_LOCATIONS.name } as const;
export const PTP_DATASET_URL = 'https://data.egov.bg/data/view/4b948dd7-c9ef-4239-b2de-9b8e1c312467';

// Staging holds only VARCHAR and INTEGER, the types the appender writes; casts happen on insert.
// location_id is not staged: the clustering sets it once the accidents are merged.
const STAGING = { omit: ['location_id'] } as const;
const CREATE_STAGE = stagingTableSql(PTP_CRASHES, 'stage_crashes', STAGING);

/** A file replaces the days it covers (its first to last day). */
export interface PtpIngestOptions extends SnapshotWriteOptions {
  onProgress?: (done: number, total: number) => void;
}

export type CoordinateCounts = Record<CoordinateFix, number>;

export interface PtpIngestResult {
  imported: ImportRecord[];
  /** Files whose bytes were already imported (or repeated in the batch). */
  skipped: string[];
  /** How the new rows' coordinates were read (swapped, missing, outside Bulgaria). */
  coordinates: CoordinateCounts;
  /** Accidents and clusters in the snapshot after the ingest. */
  crashes: number;
  clusters: number;
}

/**
 * A new file with the first and last accident day it covers: a CSV read by DuckDB into a scratch
 * table of the ingest's database, a JSON file parsed into records.
 */
type DatedPtpFile = { format: PtpSourceFormat; rows: number; firstDay: string; lastDay: string } & (
  | { records: PtpRecord[] }
  | { staged: StagedPtpCsv }
);
type ParsedFile = NewFile<DatedPtpFile>;

const isCsv = (file: string) => extname(file).toLowerCase() === '.csv';

async function readPtpCsv(db: Database, file: string, meanwhile: Meanwhile): Promise<DatedPtpFile> {
  const staged = await stagePtpCsv(db, file, meanwhile);
  return { format: 'mvr-csv', rows: staged.records, firstDay: staged.firstDay, lastDay: staged.lastDay, staged };
}

/** A JSON file (or a file of no known type, which parsePtpFile refuses) parsed in JavaScript. */
async function readPtpJson(file: string): Promise<DatedPtpFile> {
  const result = await parsePtpFile(file);
  // ISO dates order as text; a pass for the first and last instead of sorting every row's day.
  let firstDay = result.records[0]!.crashDatetime.slice(0, 10);
  let lastDay = firstDay;
  for (const { crashDatetime } of result.records) {
    const day = crashDatetime.slice(0, 10);
    if (day < firstDay) firstDay = day;
    else if (day > lastDay) lastDay = day;
  }
  return { format: result.format, rows: result.records.length, firstDay, lastDay, records: result.records };
}

/**
 * The batch's new JSON files, parsed while DuckDB normalises a CSV file's rows on one of its threads
 * (this one is free meanwhile), or else at their turn. A result, or its error, waits for its turn.
 */
class JsonAhead {
  private readonly results = new Map<string, Promise<DatedPtpFile>>();
  private readonly queue: string[] = [];

  /** A new JSON file, to parse at the next chance. */
  add(file: string): void {
    this.queue.push(file);
  }

  readonly parseNext: Meanwhile = async () => {
    const file = this.queue.shift();
    if (file === undefined) return;
    const result = readPtpJson(file);
    this.results.set(file, result);
    // Handled here (its error is kept for the file's turn), so it never counts as unhandled.
    await result.then(() => undefined, () => undefined);
  };

  take(file: string): Promise<DatedPtpFile> {
    const ahead = this.results.get(file);
    if (ahead) {
      this.results.delete(file);
      return ahead;
    }
    const queued = this.queue.indexOf(file);
    if (queued >= 0) this.queue.splice(queued, 1);
    return readPtpJson(file);
  }
}

/** What the first pass knows of a new file: a CSV file read (or refused), a JSON file for later. */
type FirstPass = { csv: DatedPtpFile } | { refused: MalformedSourceError } | { json: string };

/**
 * Every file not imported before, parsed; two new files covering overlapping days are refused.
 * First pass: hashes, and every CSV file read by DuckDB (JSON files parsed meanwhile). Second pass,
 * in file order: the JSON files' records, and the overlap rule against the files accepted before.
 * Every refused file is listed (IngestRejectedError), as parseNewFiles lists them.
 */
async function parseNewPtpFiles(db: Database, files: readonly string[], knownHashes: Set<string>, options: PtpIngestOptions) {
  const ahead = new JsonAhead();
  // Progress counts a JSON file when it is parsed, in the second pass.
  let waiting = 0;
  let reported = 0;
  const report = (done: number) => {
    if (done > reported) options.onProgress?.((reported = done), files.length);
  };
  const { parsed: firstPass, skipped } = await parseNewFiles<FirstPass>(files, knownHashes, async (file) => {
    if (!isCsv(file)) {
      waiting++;
      ahead.add(file);
      return { json: file };
    }
    try {
      return { csv: await readPtpCsv(db, file, ahead.parseNext) };
    } catch (error) {
      if (error instanceof MalformedSourceError) return { refused: error };
      throw error;
    }
  }, (done) => report(done - waiting));
  const parsed: ParsedFile[] = [];
  const problems: MalformedSourceError[] = [];
  let done = files.length - waiting;
  for (const { file, hash, parsed: first } of firstPass) {
    try {
      if ('refused' in first) throw first.refused;
      const entry = 'csv' in first ? first.csv : await ahead.take(first.json).finally(() => report(++done));
      const overlap = parsed.find(({ parsed: other }) => other.firstDay <= entry.lastDay && entry.firstDay <= other.lastDay);
      if (overlap) {
        throw new MalformedSourceError(file, null,
          `covers ${entry.firstDay}..${entry.lastDay}, overlapping ${basename(overlap.file)} (${overlap.parsed.firstDay}..${overlap.parsed.lastDay}) in the same batch`);
      }
      parsed.push({ file, hash, parsed: entry });
    } catch (error) {
      if (!(error instanceof MalformedSourceError)) throw error;
      problems.push(error);
    }
  }
  if (problems.length > 0) throw new IngestRejectedError(problems);
  return { parsed, skipped };
}

/**
 * Imports PTP files into the snapshot in options.dataDir. Files already imported (same sha256) are
 * skipped; nothing is written when any file is malformed or when there is nothing new.
 */
export async function ingestPtpFiles(files: readonly string[], options: PtpIngestOptions): Promise<PtpIngestResult> {
  await mkdir(options.dataDir, { recursive: true });
  const db = await Database.open({ connections: 1 });
  try {
    for (const sql of [createTableSql(PTP_LOCATIONS), CREATE_STAGE]) await db.run(sql);
    const ledger = await loadImportLedger(db, options.dataDir);
    const known = new Set(ledger.filter((r) => r.dataset === PTP_DATASET).map((r) => r.fileHash));
    const { parsed, skipped } = await parseNewPtpFiles(db, files, known, options);
    const coordinates: CoordinateCounts = { as_given: 0, swapped: 0, missing: 0, out_of_area: 0 };
    for (const { parsed: p } of parsed) {
      if ('records' in p) for (const r of p.records) coordinates[r.coordinateFix]++;
      else {
        for (const row of await db.all(`SELECT coordinate_fix, count(*)::INTEGER AS n FROM ${p.staged.table} GROUP BY ALL`)) {
          coordinates[row.coordinate_fix as CoordinateFix] += Number(row.n);
        }
      }
    }
    if (parsed.length === 0) return { imported: [], skipped, coordinates, crashes: 0, clusters: 0 };

    const imported = importRecordsOf(parsed, options, (p) => ({ dataset: PTP_DATASET, source: p.format, defaultUrl: PTP_DATASET_URL, rowCount: p.rows }));

    // The held accidents, then the merged ones, are ptp_held; ptp_crashes is written once the clusters are known.
    await loadDataset(db, PTP_CRASHES, options.dataDir, { table: 'ptp_held' });
    await stage(db, parsed);
    await checkShrink(db, shrinkCheck(parsed), options.shrink ?? { allow: true }, imported);
    const clusters = await mergeAndCluster(db, parsed);
    await appendImportRecords(db, imported);
    await commitTables(db, options.dataDir, [PTP_CRASHES, PTP_LOCATIONS]);
    // ptp_crashes has ptp_held's rows (a LEFT JOIN on a key unique in ptp_site_location).
    const [{ crashes }] = await db.all('SELECT count(*)::INTEGER AS crashes FROM ptp_held');
    return { imported, skipped, coordinates, crashes: Number(crashes), clusters };
  } finally {
    await db.close();
  }
}

/**
 * The JSON files' records into stage_crashes. A CSV file's rows stay in the scratch table DuckDB read
 * them into (the same text forms): the shrink check and the merge read them there, rather than
 * copying every row once more.
 */
async function stage(db: Database, parsed: readonly ParsedFile[]): Promise<void> {
  for (const { file, parsed: p } of parsed) {
    if ('staged' in p) continue;
    await db.appendRows('stage_crashes', p.records.map((r) => [
      r.crashDatetime, r.regionCode, r.region, r.municipality, r.location, r.crashType, r.ptpPlace,
      r.latitude, r.longitude, r.died, r.injured, r.participants, String(r.isMajor), basename(file), r.sourceRow,
    ]));
  }
}

/** The scratch tables of the batch's CSV files. */
function stagedCsvTables(parsed: readonly ParsedFile[]): string[] {
  return parsed.flatMap(({ parsed: p }) => ('staged' in p ? [p.staged.table] : []));
}

/** Per day each new file covers (first..last day): the accidents held, and those of the file. */
function shrinkCheck(parsed: readonly ParsedFile[]): ShrinkCheck {
  const ranges = parsed.map(({ file, parsed: { firstDay, lastDay } }, i) => ({ file: basename(file), firstDay, lastDay, i }));
  const params = Object.fromEntries(ranges.flatMap((r) => [[`file${r.i}`, r.file], [`first${r.i}`, r.firstDay], [`last${r.i}`, r.lastDay]]));
  const scope = ranges.map((r) => `SELECT CAST($first${r.i} AS DATE) AS first, CAST($last${r.i} AS DATE) AS last, $file${r.i} AS file`).join(' UNION ALL ');
  const held = '(SELECT CAST(crash_datetime AS DATE) AS day FROM ptp_held)';
  const replacement = `(${['stage_crashes', ...stagedCsvTables(parsed)]
    .map((table) => `SELECT CAST(CAST(crash_datetime AS TIMESTAMP) AS DATE) AS day FROM ${table}`).join(' UNION ALL ')})`;
  return {
    dataset: PTP_CRASHES.name,
    key: ['day'],
    covered: `SELECT day, scope.file FROM (SELECT day FROM ${held} UNION SELECT day FROM ${replacement}) JOIN (${scope}) AS scope ON day BETWEEN scope.first AND scope.last`,
    held,
    replacement,
    params,
  };
}

/** The new accidents as ptp_held's rows: the staged JSON records, then each CSV file's table (a SELECT each, with its parameters). */
function newAccidents(parsed: readonly ParsedFile[]): Array<{ sql: string; params: Record<string, string> }> {
  return [
    { sql: `SELECT ${stagedSelectSql(PTP_CRASHES, STAGING)} FROM stage_crashes`, params: {} },
    ...parsed.flatMap(({ file, parsed: p }, i) => ('staged' in p
      ? [{
          sql: `SELECT ${stagedSelectSql(PTP_CRASHES, STAGING)} FROM (SELECT *, $file${i} AS source_file, line AS source_row FROM ${p.staged.table})`,
          params: { [`file${i}`]: basename(file) },
        }]
      : [])),
  ];
}

/**
 * Merges the new accidents into ptp_held (the held ones of the days each new file covers dropped
 * first), clusters every accident with coordinates (old and new), defines ptp_crashes (the merged
 * accidents with their cluster's location_id) and fills ptp_locations. The sites are read from the
 * same rows the merge inserts, before it: DuckDB inserts on one of its threads while the clustering
 * runs on this one. A cluster's region and location are the pair most of its accidents carry (ties:
 * by name).
 */
async function mergeAndCluster(db: Database, parsed: readonly ParsedFile[]): Promise<number> {
  for (const { parsed: { firstDay, lastDay } } of parsed) {
    await db.run('DELETE FROM ptp_held WHERE CAST(crash_datetime AS DATE) BETWEEN CAST($first AS DATE) AND CAST($last AS DATE)', {
      first: firstDay,
      last: lastDay,
    });
  }
  const parts = newAccidents(parsed);
  const params = Object.assign({}, ...parts.map((part) => part.params));
  // Each distinct coordinate pair is a site, numbered; the clustering names sites by number.
  await db.run(`CREATE TABLE ptp_sites AS SELECT row_number() OVER (ORDER BY latitude, longitude)::INTEGER - 1 AS site, latitude, longitude,
      count(*)::INTEGER AS crashes, sum(died_count)::INTEGER AS died
    FROM (${['SELECT * FROM ptp_held', ...parts.map((part) => part.sql)]
      .map((sql) => `SELECT latitude, longitude, died_count FROM (${sql}) AS part(${columnNames(PTP_CRASHES).join(', ')})`).join(' UNION ALL ')})
    WHERE latitude IS NOT NULL AND longitude IS NOT NULL GROUP BY latitude, longitude`, params);
  const sites = await readSites(db);
  // One statement, so that all of it runs while JavaScript clusters.
  const merged = (async () => {
    await db.run(`INSERT INTO ptp_held ${parts.map((part) => part.sql).join(' UNION ALL ')}`, params);
    for (const { parsed: p } of parsed) if ('staged' in p) await p.staged.drop();
  })();
  // Awaited below: a failure while the clustering runs is not an unhandled rejection.
  merged.catch(() => undefined);
  // The INSERT reaches DuckDB's thread before the clustering takes this one.
  await setImmediate();
  let clusters: Cluster[];
  try {
    clusters = clusterSites(sites);
  } finally {
    await merged;
  }
  await db.run('CREATE TABLE ptp_clusters (cluster INTEGER, location_id VARCHAR, centre_lat VARCHAR, centre_lon VARCHAR)');
  await db.appendRows('ptp_clusters', clusters.map((c, i) => [i, String(c.locationId), c.latitude, c.longitude]));
  // Every site is in one cluster: their numbers in site order as one text, split by DuckDB (a
  // fifth of the time of appending a row per site).
  const clusterOfSite = new Int32Array(sites.length);
  clusters.forEach((c, i) => c.members.forEach((site) => (clusterOfSite[site] = i)));
  await db.run(`CREATE TABLE ptp_site_cluster AS SELECT (generate_subscripts(clusters, 1) - 1)::INTEGER AS site, CAST(unnest(clusters) AS INTEGER) AS cluster
    FROM (SELECT string_split($clusters, ',') AS clusters) WHERE $clusters <> ''`, { clusters: clusterOfSite.join(',') });
  // ptp_crashes is a view the commit writes out in one pass (and the location rows below read), rather
  // than a copy of every accident: one row per site, so each accident matches at most one.
  await db.run(`CREATE TABLE ptp_site_location AS
    SELECT s.latitude, s.longitude, CAST(c.location_id AS BIGINT) AS location_id
      FROM ptp_sites s JOIN ptp_site_cluster USING (site) JOIN ptp_clusters c USING (cluster)`);
  await db.run(`CREATE VIEW ptp_crashes AS
    SELECT ${columnNames(PTP_CRASHES).map((c) => (c === 'location_id' ? 'coalesce(l.location_id, h.location_id) AS location_id' : `h.${c}`)).join(', ')}
      FROM ptp_held h LEFT JOIN ptp_site_location l ON l.latitude = h.latitude AND l.longitude = h.longitude`);
  await db.run(`INSERT INTO ptp_locations
    WITH centres AS (SELECT CAST(location_id AS BIGINT) AS location_id, CAST(centre_lat AS DECIMAL(11,8)) AS latitude,
                            CAST(centre_lon AS DECIMAL(11,8)) AS longitude FROM ptp_clusters),
    names AS (
      SELECT location_id, region, location, count(*) AS n FROM ptp_crashes WHERE location_id IS NOT NULL GROUP BY ALL
    ),
    ranked AS (
      SELECT *, row_number() OVER (PARTITION BY location_id ORDER BY n DESC, region, location NULLS LAST) AS pick FROM names
    ),
    totals AS (SELECT location_id, count(*)::INTEGER AS crash_count FROM ptp_crashes WHERE location_id IS NOT NULL GROUP BY ALL)
    SELECT c.location_id, c.latitude, c.longitude, ${CLUSTER_RADIUS_M}, r.region, r.location, t.crash_count
      FROM centres c JOIN ranked r ON r.location_id = c.location_id AND r.pick = 1 JOIN totals t ON t.location_id = c.location_id`);
  return clusters.length;
}

/**
 * ptp_sites in site order, read as one text (a row per line, its fields comma-separated: coordinates
 * as DuckDB prints the stored decimals, then the counts): converting one value instead of four per
 * site saves most of the read at 100k sites.
 */
async function readSites(db: Database): Promise<Site[]> {
  const [{ sites }] = await db.all(`SELECT coalesce(string_agg(concat_ws(',', CAST(latitude AS VARCHAR), CAST(longitude AS VARCHAR), crashes, coalesce(died, 0)), chr(10)
      ORDER BY site), '') AS sites FROM ptp_sites`);
  const text = String(sites);
  if (text === '') return [];
  return text.split('\n').map((line) => {
    const [latitude, longitude, crashes, died] = line.split(',');
    return { latitude: latitude!, longitude: longitude!, crashes: Number(crashes), died: Number(died) };
  });
}
