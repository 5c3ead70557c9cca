// Data at scale: each source's sample generated at a tier's factor in its real formats, ingested
// through the real ingest path (timed: rows per second), next to DuckDB reading the same files
// directly (read_csv / read_json into a table) as the floor.
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import ExcelJS from 'exceljs';
import { basename, extname, join } from 'node:path';
import { Database } from '../engine/database.ts';
import { sqlStringLiteral } from '../engine/parquet.ts';
import { buildServing, DOMAINS } from '../domains/index.ts';
import { sampleSourcesOf } from '../domains/registry.ts';
import type { SampleSource } from '../ingest/sampleSource.ts';
import { TIER_NAMES } from './names.ts';
import { isScaled, scaleOf, type BulkForm } from './scales.ts';
import { splitIngest, type IngestProfile } from './ingestProfile.ts';
import { observeStatements, type StatementEvent } from './statementObserver.ts';
import { medianBy, perSecond, ratio, REPEAT_UNDER_MS, TIMED_RUNS } from './stats.ts';

export interface Tier {
  name: string;
  /** Per source: the generator's scale factor (absent: 1, the sample itself). */
  factors: Record<string, number>;
}

const SAMPLE_SOURCES: readonly SampleSource[] = sampleSourcesOf(DOMAINS);

/** x1 is the sample itself; x10 and x100 take each source's factor from the bench's table (bench/scales.ts). */
export const TIERS: readonly Tier[] = TIER_NAMES.map((name) => ({
  name,
  factors: name === 'x1' ? {} : Object.fromEntries(SAMPLE_SOURCES.flatMap((source) => {
    const factor = scaleOf(source.name).factors[name];
    return factor === undefined ? [] : [[source.name, factor]];
  })),
}));

/** Sources whose generator takes a scale; the others are benchmarked at x1 in every tier. */
export const SCALED_SOURCES: ReadonlySet<string> = new Set(SAMPLE_SOURCES.filter((source) => isScaled(source.name)).map((source) => source.name));

/** Why some sources are not scaled (or not fully), for the report. */
export const SCALE_NOTES: ReadonlyMap<string, string> = new Map(
  SAMPLE_SOURCES.flatMap((source) => {
    const note = scaleOf(source.name).note;
    return note ? [[source.name, note] as const] : [];
  }),
);

export interface IngestFigures {
  files: number;
  bytes: number;
  rows: number;
  ms: number;
  rowsPerSec: number | null;
  /** Where the ingest's wall time went (absent in reports written before it was measured). */
  profile?: IngestProfile;
  /**
   * What the ingest's threads did meanwhile (absent in reports before 2026-11-28-i): the main
   * (JavaScript) thread's busy time, by its event loop's utilisation, and the process's CPU on all
   * its threads (DuckDB's, libuv's, V8's helpers). The profile's JS is only the time no call was in
   * flight; JavaScript running beside a statement shows here.
   */
  threads?: IngestThreads;
  /** Timed runs of which this is the median (absent: one run, as in reports before repeats). */
  runs?: number;
}

export interface IngestThreads {
  /** Event-loop active time during the ingest (ms): the JavaScript thread not waiting. */
  mainThreadBusyMs: number;
  /** process.cpuUsage() user + system over the ingest (ms). */
  processCpuMs: number;
}

export interface SourceData {
  source: string;
  /** Scale factor actually applied. */
  factor: number;
  /** File form the bulk was written in (mof-xlsx, portal-json, mixed ...). */
  form: string;
  generateMs: number;
  ingest: IngestFigures;
  /** DuckDB reading the same files into a table: null for XLSX (no reader without a download). */
  floor: { form: string; files: number; ms: number; rowsPerSec: number | null; runs?: number } | null;
  /** ingest rows/s divided by floor rows/s. */
  ingestVsFloor: number | null;
  /**
   * The least a publishing ingest of the same files does (leastIngest: open, the floor's reads, the
   * workbooks streamed, the Parquet writes and moves), timed as often as the floor; null without a
   * floor (absent in reports written before it was measured).
   */
  least?: { ms: number; runs: number } | null;
  /** floor ms / least ms: about the highest ingest / floor these files allow (an estimate: see leastIngest). */
  leastVsFloor?: number | null;
  /** SEBRA above x1: the XLSX form measured on SEBRA_XLSX_PROBE_DAYS days at the same scale. */
  xlsxProbe?: IngestFigures;
  note?: string;
}

async function filesIn(dir: string): Promise<Array<{ file: string; bytes: number }>> {
  const names = (await readdir(dir)).sort();
  return Promise.all(names.map(async (name) => ({ file: join(dir, name), bytes: (await stat(join(dir, name))).size })));
}

/** The floor's reader of a file: DuckDB's own CSV or JSON reader, detecting the types; null for any other file. */
function floorReader(file: string): string | null {
  const extension = extname(file).toLowerCase();
  if (extension === '.csv') return `read_csv(${sqlStringLiteral(file)})`;
  if (extension === '.json') return `read_json(${sqlStringLiteral(file)}, maximum_object_size = 2000000000)`;
  return null;
}

/** DuckDB reads each CSV / JSON file straight into a table; XLSX files are not counted. */
export async function duckdbFloor(files: readonly string[]): Promise<{ files: number; ms: number }> {
  const db = await Database.open({ connections: 1 });
  try {
    let ms = 0;
    let count = 0;
    for (const [i, file] of files.entries()) {
      const reader = floorReader(file);
      if (!reader) continue;
      const started = performance.now();
      await db.run(`CREATE TABLE floor_${i} AS SELECT * FROM ${reader}`);
      ms += performance.now() - started;
      await db.run(`DROP TABLE floor_${i}`);
      count++;
    }
    return { files: count, ms };
  } finally {
    await db.close();
  }
}

/**
 * The least a publishing ingest of these files does, whatever it checks or merges: open DuckDB, read
 * each file into a table as the floor does, stream each workbook's rows through ExcelJS (DuckDB reads
 * no XLSX here: `readFiles` holds the floor's CSV copy of it), write every table to Parquet in a
 * scratch folder and move it into `dir`. Timed from before the open to after the last move. An
 * estimate, not a strict bound: its reads are the floor's, with DuckDB's type detection, which an
 * ingest that declares its columns skips (the ECB ingest beat it on 2026-12-03). An ingest far slower
 * than 2x the floor by this alone is held back by what every ingest does, not by its checks.
 */
export async function leastIngest(files: readonly string[], readFiles: readonly string[], dir: string): Promise<{ ms: number; parquetRows: number; workbookRows: number }> {
  const scratch = join(dir, '.least-scratch');
  await rm(dir, { recursive: true, force: true });
  await mkdir(scratch, { recursive: true });
  const started = performance.now();
  const db = await Database.open({ connections: 1 });
  try {
    const tables: string[] = [];
    for (const [i, file] of readFiles.entries()) {
      const reader = floorReader(file);
      if (!reader) continue;
      await db.run(`CREATE TABLE least_${i} AS SELECT * FROM ${reader}`);
      tables.push(`least_${i}`);
    }
    let workbookRows = 0;
    for (const file of files.filter((f) => extname(f).toLowerCase() === '.xlsx')) workbookRows += await streamWorkbookRows(file);
    for (const table of tables) await db.run(`COPY ${table} TO ${sqlStringLiteral(join(scratch, `${table}.parquet`))} (FORMAT PARQUET)`);
    for (const table of tables) await rename(join(scratch, `${table}.parquet`), join(dir, `${table}.parquet`));
    const ms = performance.now() - started;
    // Outside the timing: what was written, for the tests.
    const [{ n }] = tables.length === 0 ? [{ n: 0 }]
      : await db.all(`SELECT count(*)::INTEGER AS n FROM read_parquet([${tables.map((t) => sqlStringLiteral(join(dir, `${t}.parquet`))).join(', ')}], union_by_name = true)`);
    return { ms, parquetRows: Number(n), workbookRows };
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Every row of every worksheet of a workbook, through ExcelJS's streaming reader, doing nothing with them. */
async function streamWorkbookRows(file: string): Promise<number> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, { sharedStrings: 'cache', hyperlinks: 'ignore', styles: 'ignore', worksheets: 'emit' });
  let rows = 0;
  for await (const worksheet of reader) {
    for await (const _row of worksheet as unknown as AsyncIterable<ExcelJS.Row>) rows++;
  }
  return rows;
}

/** A cell's plain value as CSV text: formulas give their result, rich text its text, dates their ISO day. */
function csvCell(value: ExcelJS.CellValue): string {
  let plain: unknown = value;
  if (value instanceof Date) plain = value.toISOString().slice(0, 10);
  else if (value !== null && typeof value === 'object') {
    if ('richText' in value) plain = value.richText.map((part) => part.text).join('');
    else if ('result' in value) return csvCell((value.result ?? null) as ExcelJS.CellValue);
    else if ('text' in value) plain = value.text;
    else plain = null;
  }
  const text = plain === null || plain === undefined ? '' : String(plain);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/**
 * The first sheet's table (its first row with 3 or more cells, the header row, and every row after it)
 * as a CSV file in dir; returns its path. The floor's copy of a workbook, written outside its timing.
 */
export async function xlsxTableAsCsv(file: string, dir: string): Promise<string> {
  const target = join(dir, `${basename(file, extname(file))}.csv`);
  const out = createWriteStream(target);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, { sharedStrings: 'cache', hyperlinks: 'ignore', styles: 'ignore', worksheets: 'emit' });
  let width = 0;
  for await (const worksheet of reader) {
    for await (const row of worksheet as unknown as AsyncIterable<ExcelJS.Row>) {
      const values = (row.values as ExcelJS.CellValue[]).slice(1);
      if (width === 0) {
        if (values.filter((v) => v !== null && v !== undefined).length < 3) continue;
        width = values.length;
      }
      const cells = Array.from({ length: width }, (_, i) => csvCell(values[i] ?? null));
      if (!out.write(`${cells.join(',')}\n`)) await once(out, 'drain');
    }
    break; // the first worksheet only
  }
  out.end();
  await once(out, 'finish');
  return target;
}

/** Ingests one source's sample, timed, with the split of its wall time over the Database calls it made. */
export async function timedIngest(source: SampleSource, sampleDir: string, dataDir: string): Promise<IngestFigures> {
  const files = await filesIn(sampleDir);
  const events: StatementEvent[] = [];
  const unsubscribe = observeStatements((event) => events.push(event));
  const loopBefore = performance.eventLoopUtilization();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  let ended: number;
  let rows: number;
  try {
    ({ rows } = await source.ingest({ dataDir, sampleDir, log: () => undefined }));
  } finally {
    ended = performance.now();
    unsubscribe();
  }
  const cpu = process.cpuUsage(cpuBefore);
  const ms = ended - started;
  return {
    files: files.length, bytes: files.reduce((sum, f) => sum + f.bytes, 0), rows, ms, rowsPerSec: perSecond(rows, ms),
    profile: splitIngest(events, started, ended),
    threads: { mainThreadBusyMs: performance.eventLoopUtilization(loopBefore).active, processCpuMs: (cpu.user + cpu.system) / 1000 },
  };
}

function formOf(files: readonly string[]): string {
  const extensions = [...new Set(files.map((f) => extname(f).slice(1).toLowerCase()))].sort();
  return extensions.join('+');
}

/** One more timed ingest of the same files, into a scratch data folder (a first import, as the kept one was), removed after. */
async function scratchIngest(source: SampleSource, sampleDir: string, tierDir: string): Promise<IngestFigures> {
  const dataDir = await mkdtemp(join(tierDir, 'ingest-repeat-'));
  try {
    return await timedIngest(source, sampleDir, dataDir);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Generates, ingests and floors one source at one tier into workDir/<tier>/{sample,parquet}. */
export async function prepareSource(source: SampleSource, tier: Tier, workDir: string, log: (line: string) => void): Promise<SourceData> {
  const scaled = SCALED_SOURCES.has(source.name);
  const factor = scaled ? (tier.factors[source.name] ?? 1) : 1;
  const { bulkForm, floorCopy } = scaleOf(source.name);
  const sampleDir = join(workDir, tier.name, 'sample', source.name);
  const dataDir = join(workDir, tier.name, 'parquet');
  await rm(sampleDir, { recursive: true, force: true });
  log(`${tier.name} ${source.name}: generating at x${factor}`);
  let started = performance.now();
  // Above x1 a source may be written in another of its forms (bench/scales.ts), its own form probed.
  const bulk = factor > 1 ? bulkForm : undefined;
  if (bulk) await bulk.write(sampleDir, factor);
  else await source.generate(sampleDir, { scale: factor });
  const generateMs = performance.now() - started;
  log(`${tier.name} ${source.name}: ingesting`);
  const first = await timedIngest(source, sampleDir, dataDir);
  const files = (await filesIn(sampleDir)).map((f) => f.file);
  // Only a source with a floor has a ratio to steady.
  const floored = files.some((f) => ['.csv', '.json', '.xlsx'].includes(extname(f).toLowerCase()));
  const repeats = floored && first.ms < REPEAT_UNDER_MS ? TIMED_RUNS - 1 : 0;
  let floorFiles = files;
  let floorNote: string | undefined;
  if (floorCopy && !bulk) {
    // The same data in a form DuckDB reads (it reads no XLSX without downloading an extension).
    const copyDir = join(workDir, tier.name, 'floor-copy', source.name);
    await rm(copyDir, { recursive: true, force: true });
    floorFiles = await floorCopy.write(copyDir, factor);
    floorNote = floorCopy.note;
  } else if (!floorCopy && files.some((f) => extname(f).toLowerCase() === '.xlsx')) {
    // The ingest's rows include the workbook's: the floor reads the CSV files and a CSV copy of the workbook's table.
    const copyDir = join(workDir, tier.name, 'floor-copy', source.name);
    await rm(copyDir, { recursive: true, force: true });
    await mkdir(copyDir, { recursive: true });
    floorFiles = await Promise.all(files.map((f) => (extname(f).toLowerCase() === '.xlsx' ? xlsxTableAsCsv(f, copyDir) : Promise.resolve(f))));
    floorNote = 'floor: DuckDB read_csv of the CSV files and of a CSV copy of the workbook\'s table (written by the bench from its first sheet, header row on; DuckDB reads no XLSX without a downloaded extension)';
  }
  // Round by round (floor, least ingest, then the next ingest), so that the machine's drift over the
  // measurement moves the figures of a round alike instead of the ingest's runs against the floor's.
  log(`${tier.name} ${source.name}: DuckDB floor and least ingest, ${repeats + 1} round(s)`);
  const leastDir = join(workDir, tier.name, 'least', source.name);
  const ingestRuns = [first];
  const floorRuns: Array<{ files: number; ms: number }> = [];
  const leastRuns: Array<{ ms: number }> = [];
  for (let round = 0; round <= repeats; round++) {
    if (round > 0) ingestRuns.push(await scratchIngest(source, sampleDir, join(workDir, tier.name)));
    floorRuns.push(await duckdbFloor(floorFiles));
    if (floorRuns[0]!.files > 0) leastRuns.push(await leastIngest(files, floorFiles, leastDir));
  }
  const ingest = { ...medianBy(ingestRuns, (run) => run.ms), runs: ingestRuns.length };
  const floorRun = medianBy(floorRuns, (run) => run.ms);
  const floor = floorRun.files > 0
    ? { form: formOf(floorFiles), files: floorRun.files, ms: floorRun.ms, rowsPerSec: perSecond(ingest.rows, floorRun.ms), runs: floorRuns.length }
    : null;
  const least: SourceData['least'] = leastRuns.length > 0 ? { ms: medianBy(leastRuns, (run) => run.ms).ms, runs: leastRuns.length } : null;
  const result: SourceData = {
    source: source.name, factor, form: formOf(files), generateMs, ingest, floor,
    ingestVsFloor: ratio(ingest.rowsPerSec, floor?.rowsPerSec ?? null),
    least, leastVsFloor: floor && least ? floor.ms / least.ms : null,
    ...(floorNote ? { note: floorNote } : {}),
  };
  const why = SCALE_NOTES.get(source.name) ?? (scaled ? undefined : 'generator takes no scale: x1 data');
  if (why && (tier.name !== 'x1' || !scaled)) result.note = `${result.note ? `${result.note}; ` : ''}${why}`;
  if (bulk) {
    result.note = bulk.note;
    result.xlsxProbe = await probeOwnForm(source, bulk, factor, join(workDir, tier.name, 'xlsx-probe'), log);
  }
  return result;
}

/** The sample's own form at a tier's scale, on the bulk form's probe slice (generated and ingested into a scratch snapshot). */
async function probeOwnForm(source: SampleSource, bulk: BulkForm, factor: number, probeDir: string, log: (line: string) => void): Promise<IngestFigures> {
  await rm(probeDir, { recursive: true, force: true });
  log(`${source.name} ${bulk.probe} at x${factor}`);
  await bulk.writeProbe(join(probeDir, 'sample'), factor);
  const figures = await timedIngest(source, join(probeDir, 'sample'), join(probeDir, 'parquet'));
  await rm(probeDir, { recursive: true, force: true });
  return figures;
}

/**
 * Every sample source at one tier, then the snapshot's serving database (what an ingest builds
 * before publishing a generation; timed once here rather than after every source). Returns the
 * snapshot folder, the per-source figures and the build time.
 */
export async function prepareTier(tier: Tier, workDir: string, sources: readonly string[] | undefined, log: (line: string) => void): Promise<{ dataDir: string; sources: SourceData[]; servingBuildMs: number }> {
  const dataDir = join(workDir, tier.name, 'parquet');
  await rm(join(workDir, tier.name), { recursive: true, force: true });
  const figures: SourceData[] = [];
  for (const source of SAMPLE_SOURCES) {
    if (sources && !sources.includes(source.name)) continue;
    figures.push(await prepareSource(source, tier, workDir, log));
  }
  log(`${tier.name}: building the serving database`);
  const started = performance.now();
  await buildServing(dataDir);
  return { dataDir, sources: figures, servingBuildMs: performance.now() - started };
}
