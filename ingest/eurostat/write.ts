// Writers of the real Eurostat forms, for the sample generators of the domains that read Eurostat
// datasets (energy, macro): whatever they write, parse.ts reads back to the same observations.
//   await writeEurostatTsv('data/sample/energy/estat_nrg_bal_s.tsv', 'nrg_bal_s', rows)
//   await writeEurostatSdmxCsv('x/nrg_bal_s.csv', 'nrg_bal_s', rows, { version: '1.0', lastUpdate: '2025-02-14T23:00:00' })
// A name ending in .gz is gzip-compressed. Values are written with JS's shortest round-trip form,
// so they read back exactly. Rows must not repeat a (series, period).
import { createWriteStream } from 'node:fs';
import { basename } from 'node:path';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { datasetIdFromFileName } from './parse.ts';
import { parsePeriod, type Period } from './periods.ts';

export interface EurostatWriteRow {
  /** Every dimension except time, in the dataset's order (the first row's key order is used): { freq: 'A', unit: 'PC', geo: 'AT' }. */
  dims: Readonly<Record<string, string>>;
  /** Any accepted spelling: 2023, 2023-Q1, 2023-01, 2023-S1. */
  time_period: string;
  obs_value: number | null;
  obs_flag?: string | null;
}

interface Pivot {
  keys: string[];
  periods: Period[];
  series: Array<{ values: string[]; cells: Map<string, { value: number | null; flag: string | null }> }>;
}

function pivot(rows: readonly EurostatWriteRow[]): Pivot {
  if (rows.length === 0) throw new Error('writeEurostat: no rows');
  const keys = Object.keys(rows[0]!.dims);
  const periods = new Map<string, Period>();
  const series = new Map<string, Pivot['series'][number]>();
  for (const row of rows) {
    const values = keys.map((key) => {
      if (!Object.hasOwn(row.dims, key)) throw new Error(`writeEurostat: a row lacks dimension ${key}`);
      return row.dims[key]!;
    });
    if (Object.keys(row.dims).length !== keys.length) throw new Error('writeEurostat: rows differ in their dimensions');
    const period = parsePeriod(row.time_period);
    if (!period) throw new Error(`writeEurostat: ${row.time_period} is not a period`);
    periods.set(period.label, period);
    const id = values.join('\u001f');
    let entry = series.get(id);
    if (!entry) series.set(id, (entry = { values, cells: new Map() }));
    if (entry.cells.has(period.label)) throw new Error(`writeEurostat: ${values.join('.')} ${period.label} given twice`);
    entry.cells.set(period.label, { value: row.obs_value, flag: row.obs_flag ?? null });
  }
  const ordered = [...periods.values()].sort((a, b) => (a.start === b.start ? (a.label < b.label ? -1 : 1) : a.start < b.start ? -1 : 1));
  return { keys, periods: ordered, series: [...series.values()] };
}

function checkName(file: string, dataset: string): void {
  const named = datasetIdFromFileName(file);
  if (named !== dataset.toLowerCase()) {
    throw new Error(`writeEurostat: the reader would take ${basename(file)} for dataset ${named ?? '(none)'}, not ${dataset}: name it estat_${dataset.toLowerCase()}.tsv`);
  }
}

async function writeLines(file: string, lines: Iterable<string>): Promise<void> {
  const out = createWriteStream(file);
  let target: Writable = out;
  if (file.endsWith('.gz')) {
    const gzip = createGzip();
    gzip.pipe(out);
    target = gzip;
  }
  for (const line of lines) {
    if (!target.write(line)) await once(target, 'drain');
  }
  target.end();
  await finished(out);
}

/**
 * Writes the TSV form (`freq,...,geo\TIME_PERIOD`, period labels and cells with Eurostat's trailing
 * space, `:` for missing, `value flag`). The file name must be one the reader maps to `dataset`
 * (estat_<dataset>.tsv, <dataset>.tsv, optionally .gz). Series keep the order of their first row.
 */
export async function writeEurostatTsv(file: string, dataset: string, rows: readonly EurostatWriteRow[]): Promise<void> {
  checkName(file, dataset);
  const { keys, periods, series } = pivot(rows);
  function* lines(): Generator<string> {
    yield `${keys.join(',')}\\TIME_PERIOD\t${periods.map((p) => `${p.label} `).join('\t')}\n`;
    for (const s of series) {
      const cells = periods.map((p) => {
        const cell = s.cells.get(p.label);
        if (!cell) return ': ';
        const text = cell.value === null ? ':' : String(cell.value);
        return cell.flag ? `${text} ${cell.flag}` : `${text} `;
      });
      yield `${s.values.join(',')}\t${cells.join('\t')}\n`;
    }
  }
  await writeLines(file, lines());
}

function csvCell(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export interface SdmxCsvWriteOptions {
  /** '1.0' (DATAFLOW,LAST UPDATE,...; default) or '2.0' (STRUCTURE,STRUCTURE_ID,...). */
  version?: '1.0' | '2.0';
  /** LAST UPDATE of a 1.0 file, ISO (YYYY-MM-DDTHH:MM:SS); written dd/mm/yy hh:mm:ss. Default 2025-01-01T00:00:00. */
  lastUpdate?: string;
}

/** Writes SDMX-CSV (1.0 or 2.0) with OBS_FLAG, one line per row in the order given (periods as normalised labels). */
export async function writeEurostatSdmxCsv(file: string, dataset: string, rows: readonly EurostatWriteRow[], options: SdmxCsvWriteOptions = {}): Promise<void> {
  if (rows.length === 0) throw new Error('writeEurostat: no rows');
  const keys = Object.keys(rows[0]!.dims);
  const flow = `ESTAT:${dataset.toUpperCase()}(1.0)`;
  const stamp = options.lastUpdate ?? '2025-01-01T00:00:00';
  const m = /^(\d{2})(\d{2})-(\d{2})-(\d{2})[T ](\d{2}:\d{2}:\d{2})$/.exec(stamp);
  if (!m) throw new Error(`writeEurostat: lastUpdate ${stamp} is not YYYY-MM-DDTHH:MM:SS`);
  const lastUpdate = `${m[4]}/${m[3]}/${m[2]} ${m[5]}`;
  const v2 = options.version === '2.0';
  function* lines(): Generator<string> {
    yield `${v2 ? 'STRUCTURE,STRUCTURE_ID' : 'DATAFLOW,LAST UPDATE'},${keys.join(',')},TIME_PERIOD,OBS_VALUE,OBS_FLAG\n`;
    for (const row of rows) {
      const period = parsePeriod(row.time_period);
      if (!period) throw new Error(`writeEurostat: ${row.time_period} is not a period`);
      const lead = v2 ? ['dataflow', flow] : [flow, lastUpdate];
      const cells = [...lead, ...keys.map((key) => row.dims[key] ?? ''), period.label, row.obs_value === null ? '' : String(row.obs_value), row.obs_flag ?? ''];
      yield `${cells.map(csvCell).join(',')}\n`;
    }
  }
  await writeLines(file, lines());
}
