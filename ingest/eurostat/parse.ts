// One generic, streaming reader for any Eurostat dataset, in the three forms the dissemination API
// and the databrowser produce (gzip or not, told by the file's first bytes, not its name):
//   TSV          freq,nrg_bal,unit,geo\TIME_PERIOD <TAB> 2004 <TAB> ... (older bulk files: ...,geo\time)
//                A,REN,PC,AT <TAB> 22.553 <TAB> 44440 p <TAB> : <TAB> : c
//   SDMX-CSV 1.0 DATAFLOW,LAST UPDATE,<dims>,TIME_PERIOD,OBS_VALUE[,OBS_FLAG][,CONF_STATUS]
//   SDMX-CSV 2.0 STRUCTURE,STRUCTURE_ID[,ACTION],<dims>,TIME_PERIOD,OBS_VALUE[,OBS_FLAG][,CONF_STATUS]
// The form is told by the header line. Every dimension of the file is kept (keys lower-cased, in file
// order); periods are normalised (periods.ts); flags are kept; a missing value is null, never 0.
// Decisions:
// - a missing cell without a flag (`:`, an empty cell, an empty OBS_VALUE without flag) yields no
//   observation (SDMX-CSV exports omit them too, so both forms give the same rows); a missing cell
//   with a flag (`: c`, `: z`) is kept with obs_value null and its flag;
// - SDMX CONF_STATUS other than F (free) adds the flag c (confidential), as the TSV form writes `: c`;
// - a value in a period that contradicts the series' freq code (freq A in a 2023-Q1 column) is an
//   error; a flagged missing cell there is dropped (mixed-frequency TSV files have such columns);
// - the dataset id is --dataset, else the file's DATAFLOW / STRUCTURE_ID, else its name
//   (estat_nrg_ind_ren.tsv, nrg_ind_ren.tsv.gz, sdg_08_10_tabular.tsv, estat_x_filtered_en.csv);
//   --dataset and a DATAFLOW that disagree are an error.
// Any problem rejects the file with its line (header = line 1) and, for a cell, its column.
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { pipeline, Transform, type Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { CsvError, parse } from 'csv-parse';
import { boundPassed, ingestBounds } from '../bounds.ts';
import { MalformedSourceError } from '../errors.ts';
import { MalformedCellError, parseTimestamp } from './errors.ts';
import { freqMismatch, parsePeriod, type Period } from './periods.ts';

export type EurostatFormat = 'estat-tsv' | 'sdmx-csv-1.0' | 'sdmx-csv-2.0';

export interface EurostatObservation {
  dataset_id: string;
  /** The dimension values in file order joined by '.', the SDMX series key (A.REN.PC.AT). */
  series_key: string;
  /** The freq dimension, or the frequency of the period label when the file has no freq dimension. */
  freq: string;
  geo: string | null;
  unit: string | null;
  /** Every dimension, in file order (freq, unit, geo included); a null-prototype object. */
  dims: Readonly<Record<string, string>>;
  /** Normalised: 2023, 2023-Q1, 2023-01, 2023-S1 (or 2023-01-31 for daily data). */
  time_period: string;
  /** First day of the period, YYYY-MM-DD. */
  period_start: string;
  obs_value: number | null;
  obs_flag: string | null;
  /** 1-based line of the source file. */
  line: number;
}

export interface EurostatFileSummary {
  file: string;
  format: EurostatFormat;
  datasetId: string;
  /** Dimension keys in file order, lower-cased. */
  dimensionKeys: string[];
  /** Latest LAST UPDATE of an SDMX-CSV 1.0 file (YYYY-MM-DDTHH:MM:SS), null for the other forms. */
  lastUpdate: string | null;
  observationCount: number;
  seriesCount: number;
  /** Earliest and latest normalised period with an observation (null when none). */
  firstPeriod: string | null;
  lastPeriod: string | null;
}

export interface EurostatReadOptions {
  /** Dataset id to use (overrides the file name; must agree with a DATAFLOW / STRUCTURE_ID in the file). */
  dataset?: string;
  /** Observations per onBatch call (default 50 000). */
  batchSize?: number;
}

/** Dataset codes: nrg_bal_s, prc_hicp_manr, and Comext's ds-045409. */
const DATASET_ID = /^[a-z][a-z0-9_-]{0,63}$/;
/** A dimension key: lower-case code as Eurostat writes them. */
const DIMENSION_KEY = /^[a-z][a-z0-9_]*$/;
/** A TSV cell: a number or ':' followed by optional flag letters. */
const TSV_CELL = /^(:|[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)\s*([A-Za-z]*)$/;
const NUMBER = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;
const FLAG = /^[A-Za-z]+$/;
/** Columns of SDMX-CSV that identify the file or row, not a dimension. */
const SDMX_ID_COLUMNS: ReadonlySet<string> = new Set(['DATAFLOW', 'LAST UPDATE', 'STRUCTURE', 'STRUCTURE_ID', 'STRUCTURE_NAME', 'ACTION']);

/** Normalises a --dataset value (lower case); null when it is not a dataset code. */
export function normaliseDatasetId(text: string): string | null {
  const id = text.trim().toLowerCase();
  return DATASET_ID.test(id) ? id : null;
}

/** `ESTAT:NRG_BAL_S(1.0)`, `ESTAT:NRG_BAL_S`, `NRG_BAL_S` -> `nrg_bal_s`; null when it is none of these. */
export function datasetIdFromStructure(text: string): string | null {
  const m = /^(?:[A-Za-z0-9_.@-]+:)?([A-Za-z][A-Za-z0-9_-]*)(?:\([^)]*\))?$/.exec(text.trim());
  return m ? normaliseDatasetId(m[1]!) : null;
}

/** The dataset a databrowser / API file name stands for: estat_nrg_ind_ren.tsv(.gz), sdg_08_10_tabular.tsv, estat_x_filtered_en.csv -> x. */
export function datasetIdFromFileName(path: string): string | null {
  let name = basename(path).toLowerCase();
  name = name.replace(/\.gz$/, '').replace(/\.(tsv|csv|txt)$/, '');
  name = name.replace(/^estat_/, '');
  name = name.replace(/(_page_spreadsheet|_spreadsheet|_filtered_en|_filtered|_tabular|_linear|_en)$/, '');
  return normaliseDatasetId(name);
}

/** The file's bytes as a stream, gunzipped when they start with the gzip magic bytes. */
async function openSource(path: string): Promise<Readable> {
  const handle = await open(path);
  let gzip = false;
  try {
    const { bytesRead, buffer } = await handle.read(Buffer.alloc(2), 0, 2, 0);
    gzip = bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await handle.close();
  }
  const raw = createReadStream(path);
  if (!gzip) return raw;
  // pipeline: a failure anywhere (the file, a corrupt gzip, the bound) destroys the stream read with that error.
  return pipeline(raw, createGunzip(), boundedBytes(path, ingestBounds().maxUnzippedBytes), () => {});
}

/** Passes bytes through until more than `max` have passed: then fails naming the file (a gzip bomb stops there). */
function boundedBytes(path: string, max: number): Transform {
  let passed = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      passed += chunk.length;
      if (passed > max) done(new MalformedSourceError(path, null, boundPassed('maxUnzippedBytes', 'the gzip file unzips past the bound')));
      else done(null, chunk);
    },
  });
}

/** The first line (without BOM and line end), read without holding more than a few chunks. */
async function readFirstLine(path: string): Promise<string> {
  const stream = await openSource(path);
  let text = '';
  try {
    for await (const chunk of stream) {
      text += (chunk as Buffer).toString('utf8');
      const end = text.indexOf('\n');
      if (end >= 0) {
        text = text.slice(0, end);
        break;
      }
      if (text.length > 4_000_000) break;
    }
  } finally {
    stream.destroy();
  }
  return text.replace(/^\uFEFF/, '').replace(/\r$/, '');
}

/** The form of a file from its header line, or null. */
export function detectEurostatFormat(headerLine: string): EurostatFormat | null {
  const firstTab = headerLine.indexOf('\t');
  const firstCell = firstTab >= 0 ? headerLine.slice(0, firstTab) : headerLine;
  if (/\\(time_period|time)\s*$/i.test(firstCell)) return 'estat-tsv';
  const first = headerLine.split(',')[0]!.replace(/"/g, '').trim().toUpperCase();
  if (first === 'DATAFLOW') return 'sdmx-csv-1.0';
  if (first === 'STRUCTURE') return 'sdmx-csv-2.0';
  return null;
}

interface Sink {
  /** Adds an observation (synchronous: an await per observation would cost more than the parsing). */
  push(observation: EurostatObservation): void;
  /** Hands a full batch to onBatch; called once per source line. */
  flushIfFull(): Promise<void>;
  finish(): Promise<void>;
}

class Tally {
  readonly series = new Set<string>();
  count = 0;
  first: Period | null = null;
  last: Period | null = null;
  addSeries(seriesKey: string): void {
    this.series.add(seriesKey);
  }
  /** One observation in `period`. */
  add(period: Period): void {
    this.count++;
    if (this.first === null || period.start < this.first.start || (period.start === this.first.start && period.label < this.first.label)) this.first = period;
    if (this.last === null || period.start > this.last.start || (period.start === this.last.start && period.label > this.last.label)) this.last = period;
  }
}

function makeSink(batchSize: number, onBatch: (batch: EurostatObservation[]) => void | Promise<void>): Sink {
  let batch: EurostatObservation[] = [];
  return {
    push(observation) {
      batch.push(observation);
    },
    async flushIfFull() {
      if (batch.length < batchSize) return;
      const full = batch;
      batch = [];
      await onBatch(full);
    },
    async finish() {
      if (batch.length > 0) await onBatch(batch);
      batch = [];
    },
  };
}

function dimsRecord(keys: readonly string[], values: readonly string[]): Record<string, string> {
  const dims = Object.create(null) as Record<string, string>;
  keys.forEach((key, i) => {
    dims[key] = values[i]!;
  });
  return dims;
}

/** Dimension keys from header names; `column` is the 1-based column to name in an error about the i-th name. */
function dimensionKeysOf(names: readonly string[], file: string, line: number, column: (i: number) => number): string[] {
  const keys: string[] = [];
  names.forEach((raw, i) => {
    const key = raw.trim().toLowerCase();
    if (!DIMENSION_KEY.test(key)) throw new MalformedCellError(file, line, column(i), null, `${JSON.stringify(raw)} is not a dimension code`);
    if (keys.includes(key)) throw new MalformedCellError(file, line, column(i), null, `dimension ${key} appears twice`);
    keys.push(key);
  });
  if (keys.length === 0) throw new MalformedSourceError(file, line, 'the header names no dimension');
  return keys;
}

type Row = { record: string[]; info: { lines: number } };

async function readTsv(path: string, file: string, datasetId: string, sink: Sink, tally: Tally): Promise<{ dimensionKeys: string[] }> {
  // The TSV form has no quoting: lines are split on tabs as they stream by (node:readline; csv-parse
  // was 15 times slower on a 45 MB export, for no gain on a format without quotes).
  const input = await openSource(path);
  const reader = createInterface({ input, crlfDelay: Infinity });
  let streamError: Error | null = null;
  input.on('error', (error: Error) => {
    streamError = error;
    reader.close();
  });
  let keys: string[] | null = null;
  let periods: Period[] = [];
  let headerLabels: string[] = [];
  let width = 0;
  let hasFreq = false;
  const seenSeries = new Map<string, number>();
  const mismatchCache = new Map<string, boolean[] | null>();
  let line = 0;
  try {
    for await (const text of reader) {
      line++;
      if (text.trim() === '') continue;
      const record = (line === 1 ? text.replace(/^\uFEFF/, '') : text).split('\t');
      // A trailing tab (some tools write one) leaves empty cells at the end: dropped.
      while (record.length > 1 && record[record.length - 1]!.trim() === '' && (keys === null || record.length > width)) record.pop();
      if (keys === null) {
        const [keyCell, ...labels] = record;
        const dimsPart = keyCell!.replace(/\\(time_period|time)\s*$/i, '');
        keys = dimensionKeysOf(dimsPart.split(','), file, line, () => 1);
        width = record.length;
        hasFreq = keys.includes('freq');
        headerLabels = labels.map((label) => label.trim());
        const seen = new Map<string, number>();
        periods = labels.map((label, i) => {
          const period = parsePeriod(label);
          if (!period) throw new MalformedCellError(file, line, i + 2, null, `${JSON.stringify(label)} is not a period (2023, 2023-Q1, 2023-01, 2023-S1)`);
          const earlier = seen.get(period.label);
          if (earlier !== undefined) throw new MalformedCellError(file, line, i + 2, label.trim(), `period ${period.label} also in column ${earlier}`);
          seen.set(period.label, i + 2);
          return period;
        });
        if (periods.length === 0) throw new MalformedSourceError(file, line, 'the header has no period column');
        continue;
      }
      if (record.length !== width) {
        throw new MalformedCellError(file, line, Math.min(record.length, width) + 1, null, `not valid TSV: the line has ${record.length} cells, the header ${width}`);
      }
      const values = record[0]!.split(',').map((v) => v.trim());
      if (values.length !== keys.length || values.some((v) => v === '')) {
        throw new MalformedCellError(file, line, 1, null, `series key ${JSON.stringify(record[0])} does not have ${keys.length} non-empty parts (${keys.join(',')})`);
      }
      const seriesKey = values.join('.');
      const earlier = seenSeries.get(seriesKey);
      if (earlier !== undefined) throw new MalformedCellError(file, line, 1, null, `series ${record[0]} also on line ${earlier}`);
      seenSeries.set(seriesKey, line);
      const dims = dimsRecord(keys, values);
      const freqCode = hasFreq ? dims.freq! : null;
      let mismatches = freqCode === null ? null : mismatchCache.get(freqCode);
      if (freqCode !== null && mismatches === undefined) mismatchCache.set(freqCode, (mismatches = periods.map((p) => freqMismatch(freqCode, p))));
      let any = false;
      for (let i = 0; i < periods.length; i++) {
        const cell = record[i + 1]!.trim();
        if (cell === '' || cell === ':') continue;
        const m = TSV_CELL.exec(cell);
        if (!m) throw new MalformedCellError(file, line, i + 2, headerLabels[i]!, `${JSON.stringify(record[i + 1])} is neither a value (12.3, 12.3 p) nor missing (:, : c)`);
        const value = m[1] === ':' ? null : Number(m[1]);
        const flag = m[2] === '' ? null : m[2]!;
        const period = periods[i]!;
        if (mismatches && mismatches[i]) {
          if (value === null) continue;
          throw new MalformedCellError(file, line, i + 2, headerLabels[i]!, `a value in period ${period.label} for a series of freq ${freqCode}`);
        }
        tally.add(period);
        any = true;
        sink.push({
          dataset_id: datasetId, series_key: seriesKey, freq: freqCode ?? period.freq, geo: dims.geo ?? null, unit: dims.unit ?? null, dims,
          time_period: period.label, period_start: period.start, obs_value: value, obs_flag: flag, line,
        });
      }
      if (any) tally.addSeries(seriesKey);
      await sink.flushIfFull();
    }
  } finally {
    input.destroy();
  }
  if (streamError !== null) throw streamError;
  if (keys === null) throw new MalformedSourceError(file, null, 'the file is empty (no header line)');
  return { dimensionKeys: keys };
}

async function readSdmxCsv(
  path: string,
  file: string,
  format: EurostatFormat,
  datasetOption: string | null,
  sink: Sink,
  tally: Tally,
): Promise<{ dimensionKeys: string[]; datasetId: string; lastUpdate: string | null }> {
  const parser = (await openSource(path)).pipe(parse({ bom: true, trim: true, skip_empty_lines: true, relax_column_count: false, info: true }));
  let header: string[] | null = null;
  let keys: string[] = [];
  let dimColumns: number[] = [];
  let at = { id: -1, lastUpdate: -1, time: -1, value: -1, flag: -1, conf: -1 };
  let datasetId: string | null = datasetOption;
  let datasetFromFile: string | null = null;
  let lastUpdate: string | null = null;
  for await (const { record, info } of parser as AsyncIterable<Row>) {
    const line = info.lines;
    if (header === null) {
      header = record.map((name) => name.replace(/^\uFEFF/, '').trim());
      const upper = header.map((name) => name.toUpperCase());
      const find = (name: string) => upper.indexOf(name);
      at = {
        id: format === 'sdmx-csv-1.0' ? find('DATAFLOW') : find('STRUCTURE_ID'),
        lastUpdate: find('LAST UPDATE'),
        time: find('TIME_PERIOD'),
        value: find('OBS_VALUE'),
        flag: find('OBS_FLAG'),
        conf: find('CONF_STATUS'),
      };
      const missing = [
        ...(at.id < 0 ? [format === 'sdmx-csv-1.0' ? 'DATAFLOW' : 'STRUCTURE_ID'] : []),
        ...(at.time < 0 ? ['TIME_PERIOD'] : []),
        ...(at.value < 0 ? ['OBS_VALUE'] : []),
      ];
      if (missing.length > 0) throw new MalformedSourceError(file, line, `not an SDMX-CSV file: missing column(s) ${missing.join(', ')}`);
      dimColumns = [];
      for (let i = 0; i < at.time; i++) if (!SDMX_ID_COLUMNS.has(upper[i]!)) dimColumns.push(i);
      keys = dimensionKeysOf(dimColumns.map((i) => header![i]!), file, line, (i) => dimColumns[i]! + 1);
      continue;
    }
    const cell = (i: number) => (i >= 0 ? record[i]! : '');
    const structure = cell(at.id);
    const fileId = datasetIdFromStructure(structure);
    if (fileId === null) throw new MalformedCellError(file, line, at.id + 1, header[at.id]!, `${JSON.stringify(structure)} is not a dataflow id (ESTAT:NRG_BAL_S(1.0))`);
    if (datasetFromFile === null) {
      datasetFromFile = fileId;
      if (datasetId !== null && datasetId !== fileId) {
        throw new MalformedCellError(file, line, at.id + 1, header[at.id]!, `the file holds dataset ${fileId}, not ${datasetId} as --dataset says`);
      }
      datasetId = fileId;
    } else if (fileId !== datasetFromFile) {
      throw new MalformedCellError(file, line, at.id + 1, header[at.id]!, `dataset ${fileId} after ${datasetFromFile}: one dataset per file`);
    }
    if (at.lastUpdate >= 0 && cell(at.lastUpdate) !== '') {
      const stamp = parseTimestamp(cell(at.lastUpdate));
      if (stamp === null) throw new MalformedCellError(file, line, at.lastUpdate + 1, 'LAST UPDATE', `${JSON.stringify(cell(at.lastUpdate))} is not a dd/mm/yy hh:mm:ss timestamp`);
      if (lastUpdate === null || stamp > lastUpdate) lastUpdate = stamp;
    }
    const values = dimColumns.map((i) => record[i]!);
    const empty = values.findIndex((v) => v === '');
    if (empty >= 0) throw new MalformedCellError(file, line, dimColumns[empty]! + 1, header[dimColumns[empty]!]!, 'empty dimension value');
    const rawPeriod = cell(at.time);
    const period = parsePeriod(rawPeriod);
    if (!period) throw new MalformedCellError(file, line, at.time + 1, 'TIME_PERIOD', `${JSON.stringify(rawPeriod)} is not a period (2023, 2023-Q1, 2023-01, 2023-S1)`);
    const rawValue = cell(at.value);
    let value: number | null = null;
    if (rawValue !== '' && rawValue !== ':') {
      if (!NUMBER.test(rawValue)) throw new MalformedCellError(file, line, at.value + 1, 'OBS_VALUE', `${JSON.stringify(rawValue)} is not a number`);
      value = Number(rawValue);
    }
    let flag = cell(at.flag);
    if (flag !== '' && !FLAG.test(flag)) throw new MalformedCellError(file, line, at.flag + 1, 'OBS_FLAG', `${JSON.stringify(flag)} is not a flag`);
    const conf = cell(at.conf).toUpperCase();
    if (conf !== '' && conf !== 'F' && !flag.includes('c')) flag += 'c';
    if (value === null && flag === '') continue;
    const dims = dimsRecord(keys, values);
    const freqCode = Object.hasOwn(dims, 'freq') ? dims.freq! : null;
    if (freqCode !== null && freqMismatch(freqCode, period)) {
      if (value === null) continue;
      throw new MalformedCellError(file, line, at.time + 1, 'TIME_PERIOD', `period ${period.label} for a series of freq ${freqCode}`);
    }
    const seriesKey = values.join('.');
    tally.addSeries(seriesKey);
    tally.add(period);
    sink.push({
      dataset_id: datasetFromFile, series_key: seriesKey, freq: freqCode ?? period.freq, geo: dims.geo ?? null, unit: dims.unit ?? null, dims,
      time_period: period.label, period_start: period.start, obs_value: value, obs_flag: flag === '' ? null : flag, line,
    });
    await sink.flushIfFull();
  }
  if (header === null) throw new MalformedSourceError(file, null, 'the file is empty (no header line)');
  if (datasetId === null) {
    datasetId = datasetIdFromFileName(path);
    if (datasetId === null) throw new MalformedSourceError(file, null, 'no data rows, and the file name names no dataset: pass --dataset');
  }
  return { dimensionKeys: keys, datasetId, lastUpdate };
}

/**
 * Streams one Eurostat file: observations go to onBatch in batches (awaited, in file order), and the
 * summary is returned at the end. Throws MalformedSourceError (MalformedCellError for a cell) on any problem.
 */
export async function readEurostatFile(
  path: string,
  onBatch: (batch: EurostatObservation[]) => void | Promise<void>,
  options: EurostatReadOptions = {},
): Promise<EurostatFileSummary> {
  const file = basename(path);
  let datasetOption: string | null = null;
  if (options.dataset !== undefined) {
    datasetOption = normaliseDatasetId(options.dataset);
    if (datasetOption === null) throw new MalformedSourceError(file, null, `--dataset ${JSON.stringify(options.dataset)} is not a dataset code`);
  }
  const sink = makeSink(options.batchSize ?? 50_000, onBatch);
  const tally = new Tally();
  try {
    const format = detectEurostatFormat(await readFirstLine(path));
    if (format === null) {
      throw new MalformedSourceError(file, 1, 'not a Eurostat file: the header is neither TSV (dims\\TIME_PERIOD) nor SDMX-CSV (DATAFLOW, STRUCTURE)');
    }
    let result: { dimensionKeys: string[]; datasetId: string; lastUpdate: string | null };
    if (format === 'estat-tsv') {
      const datasetId = datasetOption ?? datasetIdFromFileName(path);
      if (datasetId === null) throw new MalformedSourceError(file, null, 'the file name names no dataset (estat_<code>.tsv): pass --dataset');
      const { dimensionKeys } = await readTsv(path, file, datasetId, sink, tally);
      result = { dimensionKeys, datasetId, lastUpdate: null };
    } else {
      result = await readSdmxCsv(path, file, format, datasetOption, sink, tally);
    }
    await sink.finish();
    return {
      file, format, ...result,
      observationCount: tally.count, seriesCount: tally.series.size,
      firstPeriod: tally.first?.label ?? null, lastPeriod: tally.last?.label ?? null,
    };
  } catch (error) {
    if (error instanceof CsvError) {
      const e = error as CsvError & { lines?: number; column?: number | string };
      const problem = `not valid ${e.code === 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH' ? 'CSV: the line has another number of cells than the header' : `CSV: ${e.message}`}`;
      if (typeof e.lines === 'number' && typeof e.column === 'number') throw new MalformedCellError(file, e.lines, e.column + 1, null, problem);
      throw new MalformedSourceError(file, e.lines ?? null, problem);
    }
    if (error instanceof Error && 'code' in error && typeof error.code === 'string' && error.code.startsWith('Z_')) {
      throw new MalformedSourceError(file, null, `not a valid gzip file (${error.message})`);
    }
    throw error;
  }
}

/** Reads a whole file into memory (tests, small files): the summary and every observation. */
export async function parseEurostatFile(
  path: string,
  options: Omit<EurostatReadOptions, 'batchSize'> = {},
): Promise<EurostatFileSummary & { observations: EurostatObservation[] }> {
  const observations: EurostatObservation[] = [];
  const summary = await readEurostatFile(path, (batch) => {
    for (const observation of batch) observations.push(observation);
  }, options);
  return { ...summary, observations };
}
