// Writes Eurostat datasets into the Parquet snapshot, all or nothing (ingest/commit.ts).
// - A file whose bytes were imported before (any Eurostat dataset) is skipped: a re-run is a no-op
//   (and an older file imported again does not roll a newer vintage back).
// - The new files of one run are grouped by dataset; a dataset's group REPLACES every row that
//   dataset had (a new vintage), other datasets are kept. Several files of one dataset in one run
//   (extracts filtered by country, say) are combined; they must share the dimension keys, and an
//   observation (series, period) given twice, in one file or across them, rejects the run.
// - Observations are staged through the appender in batches while the file is read, so a large
//   export is never held in memory.
import { mkdir, readdir, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { Database } from '../../engine/database.ts';
import { loadParquetInto } from '../../engine/parquet.ts';
import {
  appendImportRecords, commitTables, IngestRejectedError, loadImportLedger, MalformedSourceError, parseNewFiles, type ImportRecord, type SnapshotWriteOptions } from '../commit.ts';
import { rejectRepeatedObservations } from '../errors.ts';
import { checkShrink } from '../shrink.ts';
import { insideFolder } from '../sourceFiles.ts';
import { readEurostatFile, type EurostatFileSummary, type EurostatFormat, type EurostatObservation } from './parse.ts';
import { parsePeriod } from './periods.ts';
import {
  CREATE_DATASETS, CREATE_OBSERVATIONS, DATASET_COLUMNS, ESTAT_DATASETS, ESTAT_OBSERVATIONS, ESTAT_ORDER, OBSERVATION_COLUMNS,
} from './tables.ts';

export { IngestRejectedError, type ImportRecord };

/** Import-ledger dataset name of a Eurostat dataset. */
export function eurostatLedgerDataset(datasetId: string): string {
  return `eurostat/${datasetId}`;
}

export interface EurostatIngestOptions extends SnapshotWriteOptions {
  /** A file or a folder (its .tsv, .csv, .tsv.gz, .csv.gz and .gz files, not recursive). */
  path: string;
  /** Dataset id for every file (else each file's DATAFLOW / STRUCTURE_ID or name). A batch replaces each dataset it holds. */
  dataset?: string;
  log?: (line: string) => void;
}

export interface EurostatIngestResult {
  imported: ImportRecord[];
  skipped: string[];
  /** Datasets whose rows were replaced. */
  datasets: string[];
}

const API = 'https://ec.europa.eu/eurostat/api/dissemination';

export function defaultEurostatUrl(format: EurostatFormat, datasetId: string): string {
  if (format === 'sdmx-csv-2.0') return `${API}/sdmx/3.0/data/dataflow/ESTAT/${datasetId}/1.0/*?format=csvdata&formatVersion=2.0`;
  if (format === 'sdmx-csv-1.0') return `${API}/sdmx/2.1/data/${datasetId}?format=SDMX-CSV`;
  return `${API}/sdmx/2.1/data/${datasetId}?format=TSV`;
}

const SOURCE_FILE = /\.(tsv|csv)(\.gz)?$|\.gz$/i;

/** The Eurostat files of a folder (sorted by name), or the file itself. */
export async function eurostatSourceFiles(path: string): Promise<string[]> {
  if (!(await stat(path)).isDirectory()) return [path];
  return insideFolder(path, (await readdir(path)).filter((name) => SOURCE_FILE.test(name) && !name.startsWith('.')).sort());
}

const SEP = '\u001f';

// Staging is normalised (a series once, then 5 values per observation): the appender's cost is per
// value, and building each series' dims MAP once instead of once per observation is 4 times faster.
const CREATE_STAGE = [
  `CREATE TABLE stage_series (series_id INTEGER, dataset_id VARCHAR, series_key VARCHAR, freq VARCHAR, geo VARCHAR, unit VARCHAR,
     dims_values VARCHAR, source_file VARCHAR)`,
  'CREATE TABLE stage_obs (series_id INTEGER, time_period VARCHAR, obs_value VARCHAR, obs_flag VARCHAR, source_line INTEGER)',
  'CREATE TABLE stage_periods (time_period VARCHAR, period_start VARCHAR, freq VARCHAR)',
  'CREATE TABLE stage_datasets (dataset_id VARCHAR, dimension_keys VARCHAR)',
];

/** Stages the observations of one batch run: series rows when first seen (per file), observation rows always. */
class Stager {
  private nextId = 0;
  private readonly periods = new Map<string, [string, string]>();
  constructor(private readonly db: Database) {}

  /** The onBatch of one file. */
  forFile(file: string): (batch: EurostatObservation[]) => Promise<void> {
    const ids = new Map<string, number>();
    return async (batch) => {
      const series: Array<Array<string | number | null>> = [];
      const obs: Array<Array<string | number | null>> = [];
      for (const o of batch) {
        let id = ids.get(o.series_key);
        if (id === undefined) {
          id = this.nextId++;
          ids.set(o.series_key, id);
          series.push([id, o.dataset_id, o.series_key, Object.hasOwn(o.dims, 'freq') ? o.freq : null, o.geo, o.unit, Object.values(o.dims).join(SEP), file]);
        }
        if (!this.periods.has(o.time_period)) this.periods.set(o.time_period, [o.period_start, parsePeriod(o.time_period)!.freq]);
        obs.push([id, o.time_period, o.obs_value === null ? null : String(o.obs_value), o.obs_flag, o.line]);
      }
      if (series.length > 0) await this.db.appendRows('stage_series', series);
      await this.db.appendRows('stage_obs', obs);
    };
  }

  async finish(): Promise<void> {
    await this.db.appendRows('stage_periods', [...this.periods].map(([label, [start, freq]]) => [label, start, freq]));
  }
}

/** Imports Eurostat files into the snapshot in options.dataDir; nothing is written when any file is malformed or none is new. */
export async function ingestEurostatFiles(options: EurostatIngestOptions): Promise<EurostatIngestResult> {
  const files = await eurostatSourceFiles(options.path);
  await mkdir(options.dataDir, { recursive: true });
  // Ingest statements may run long on big exports: no per-query timeout here.
  const db = await Database.open({ connections: 1, queryTimeoutMs: 24 * 3600_000 });
  try {
    await db.run(CREATE_OBSERVATIONS);
    await db.run(CREATE_DATASETS);
    for (const sql of CREATE_STAGE) await db.run(sql);
    const stager = new Stager(db);
    const ledger = await loadImportLedger(db, options.dataDir);
    const known = new Set(ledger.filter((r) => r.dataset.startsWith('eurostat/')).map((r) => r.fileHash));

    const { parsed, skipped } = await parseNewFiles<EurostatFileSummary>(files, known, async (file, accepted) => {
      const name = basename(file);
      const summary = await readEurostatFile(file, stager.forFile(name), {
        dataset: options.dataset,
      });
      const same = accepted.find((a) => a.parsed.datasetId === summary.datasetId);
      if (same && same.parsed.dimensionKeys.join(',') !== summary.dimensionKeys.join(',')) {
        throw new MalformedSourceError(name, 1, `dataset ${summary.datasetId} has dimensions ${summary.dimensionKeys.join(',')} here but ${same.parsed.dimensionKeys.join(',')} in ${basename(same.file)}`);
      }
      options.log?.(`eurostat: ${name}: ${summary.datasetId} (${summary.format}), ${summary.observationCount} observation(s) in ${summary.seriesCount} series`);
      return summary;
    });
    if (parsed.length === 0) return { imported: [], skipped, datasets: [] };
    await stager.finish();
    // A TSV file cannot repeat an observation (the reader refuses a repeated series); SDMX-CSV files and
    // several files of one dataset are checked here.
    const checked = new Map<string, number>();
    for (const { parsed: s } of parsed) checked.set(s.datasetId, (checked.get(s.datasetId) ?? 0) + (s.format === 'estat-tsv' ? 1 : 2));
    const toCheck = [...checked].filter(([, weight]) => weight > 1).map(([id]) => id);
    if (toCheck.length > 0) await rejectDuplicates(db, toCheck);

    const importedAt = (options.now ?? (() => new Date()))().toISOString();
    const imported: ImportRecord[] = parsed.map(({ file, hash, parsed: s }) => ({
      dataset: eurostatLedgerDataset(s.datasetId), source: s.format, sourceFile: basename(file),
      sourceUrl: options.sourceUrl ?? defaultEurostatUrl(s.format, s.datasetId), fileHash: hash, importDate: importedAt, rowCount: s.observationCount,
    }));

    const byDataset = new Map<string, EurostatFileSummary[]>();
    for (const { parsed: s } of parsed) byDataset.set(s.datasetId, [...(byDataset.get(s.datasetId) ?? []), s]);
    await db.appendRows('stage_datasets', [...byDataset].map(([id, group]) => [id, JSON.stringify(group[0]!.dimensionKeys)]));

    await loadParquetInto(db, ESTAT_OBSERVATIONS, options.dataDir, ESTAT_OBSERVATIONS, OBSERVATION_COLUMNS);
    await loadParquetInto(db, ESTAT_DATASETS, options.dataDir, ESTAT_DATASETS, DATASET_COLUMNS);
    // Per dataset: the observations held against the batch's; the first file of the dataset carries the counts.
    const firstFile = new Map<string, string>();
    for (const { file, parsed: s } of parsed) if (!firstFile.has(s.datasetId)) firstFile.set(s.datasetId, basename(file));
    const ids = [...firstFile];
    await checkShrink(db, {
      dataset: ESTAT_OBSERVATIONS,
      key: ['dataset_id'],
      covered: ids.map((_, i) => `SELECT $id${i} AS dataset_id, $file${i} AS file`).join(' UNION ALL '),
      held: `(SELECT dataset_id FROM ${ESTAT_OBSERVATIONS})`,
      replacement: '(SELECT s.dataset_id FROM stage_obs o JOIN stage_series s USING (series_id))',
      params: Object.fromEntries(ids.flatMap(([id, file], i) => [[`id${i}`, id], [`file${i}`, file]])),
    }, options.shrink ?? { allow: true }, imported);
    await db.run(`DELETE FROM ${ESTAT_OBSERVATIONS} WHERE dataset_id IN (SELECT dataset_id FROM stage_datasets)`);
    await db.run(`DELETE FROM ${ESTAT_DATASETS} WHERE dataset_id IN (SELECT dataset_id FROM stage_datasets)`);
    await db.run(`CREATE TEMP TABLE series AS
      SELECT s.series_id, s.dataset_id, s.series_key, s.freq, s.geo, s.unit,
             map(from_json(d.dimension_keys, '["VARCHAR"]'), string_split(s.dims_values, chr(31))) AS dims
        FROM stage_series s JOIN stage_datasets d USING (dataset_id)`);
    await db.run(`INSERT INTO ${ESTAT_OBSERVATIONS} (${OBSERVATION_COLUMNS.join(', ')})
      SELECT s.dataset_id, s.series_key, coalesce(s.freq, p.freq), s.geo, s.unit, s.dims, o.time_period, CAST(p.period_start AS DATE),
             CAST(o.obs_value AS DOUBLE), o.obs_flag
        FROM stage_obs o JOIN series s USING (series_id) JOIN stage_periods p USING (time_period)`);
    for (const [id, group] of byDataset) {
      const lastUpdates = group.map((s) => s.lastUpdate).filter((u): u is string => u !== null).sort();
      await db.run(
        `INSERT INTO ${ESTAT_DATASETS} (${DATASET_COLUMNS.join(', ')})
         SELECT $id, $format, from_json($keys, '["VARCHAR"]'), CAST($lastUpdate AS TIMESTAMP), from_json($files, '["VARCHAR"]'),
                CAST($importedAt AS TIMESTAMP), count(*), count(DISTINCT series_key), arg_min(time_period, (period_start, time_period)),
                arg_max(time_period, (period_start, time_period))
           FROM ${ESTAT_OBSERVATIONS} WHERE dataset_id = $id`,
        {
          id, format: [...new Set(group.map((s) => s.format))].sort().join('+'), keys: JSON.stringify(group[0]!.dimensionKeys),
          lastUpdate: lastUpdates.at(-1)?.replace('T', ' ') ?? null, files: JSON.stringify(group.map((s) => s.file)),
          importedAt: importedAt.replace('T', ' ').replace('Z', ''),
        },
      );
    }
    await appendImportRecords(db, imported);
    await commitTables(db, options.dataDir, [
      { table: ESTAT_OBSERVATIONS, orderBy: ESTAT_ORDER[ESTAT_OBSERVATIONS] },
      { table: ESTAT_DATASETS, orderBy: ESTAT_ORDER[ESTAT_DATASETS] },
    ]);
    return { imported, skipped, datasets: [...byDataset.keys()].sort() };
  } finally {
    await db.close();
  }
}

/** An observation (dataset, series, period) staged twice rejects the run, naming both places. */
async function rejectDuplicates(db: Database, datasets: string[]): Promise<void> {
  const rows = await db.all(
    `SELECT s.dataset_id, s.series_key, o.time_period, list(s.source_file ORDER BY s.source_file, o.source_line) AS files,
            list(o.source_line ORDER BY s.source_file, o.source_line) AS lines
       FROM stage_obs o JOIN stage_series s USING (series_id)
      WHERE s.dataset_id IN (SELECT unnest(from_json($datasets, '["VARCHAR"]')))
      GROUP BY s.dataset_id, s.series_key, o.time_period HAVING count(*) > 1
      ORDER BY 1, 2, 3 LIMIT 20`,
    { datasets: JSON.stringify(datasets) },
  );
  rejectRepeatedObservations(rows.map((row) => ({ key: `${row.dataset_id} ${row.series_key} ${row.time_period}`, files: row.files as string[], lines: row.lines as number[] })));
}
