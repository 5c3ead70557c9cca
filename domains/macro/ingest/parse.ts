// Parsers of the macro sources, each by column name and streaming where the file can be large:
//   ECB Data API csvdata (full or detail=dataonly): KEY, TIME_PERIOD, OBS_VALUE are read by name; the
//     dimension columns differ per flow and TITLE / TITLE_COMPL hold quoted commas, so nothing is
//     read by position. OBS_VALUE empty or NaN is a missing value (kept as null).
//   ECB reference-rate bulk file eurofxref-hist.csv (or the zip it comes in): `Date,USD,JPY,...,`
//     newest first, a trailing comma on every line (an empty last column), `N/A` for missing cells.
//   FRED: the graph CSV `observation_date,<ID>[,<ID>...]` (older `DATE,<ID>`), missing as `.` or
//     empty; the normalised `date,value` copies (series id from --series or the file name); the API
//     JSON `{"observations": [{"date", "value"}]}` with "." for missing (series id likewise).
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { Database } from '../../../engine/database.ts';
import { sqlStringLiteral } from '../../../engine/parquet.ts';
import { csvParseMessage, firstRepeatedKey, readCsvHead, trimCheckedSql } from '../../../ingest/duckdbCsv.ts';
import { MalformedSourceError } from '../../../ingest/errors.ts';
import { csvParseTrim, stageCsv } from '../../../ingest/staging.ts';
import { inflateEntry, openBoundedZip } from '../../../ingest/zip.ts';
import { csvErrorProblem, ingestBounds } from '../../../ingest/bounds.ts';
import type { EcbObservation, FredObservation, ReferenceRate } from './types.ts';

const NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH = /^(\d{4})-(\d{2})$/;
const ECB_KEY = /^[A-Z0-9_]+(\.[A-Za-z0-9_]+)+$/;
const SERIES_ID = /^[A-Z0-9_]{1,40}$/;
const CURRENCY = /^[A-Z]{3}$/;

/** A YYYY-MM-DD that is a real calendar date, else null. */
export function isoDay(text: string): string | null {
  const match = DAY.exec(text);
  if (!match) return null;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d ? text : null;
}

/** YYYY-MM-DD, or YYYY-MM (a monthly period, dated its first day). */
function periodDate(text: string): string | null {
  const month = MONTH.exec(text);
  if (month) return Number(month[2]) >= 1 && Number(month[2]) <= 12 ? `${text}-01` : null;
  return isoDay(text);
}

function numberOrNull(text: string, missing: readonly string[]): number | null | undefined {
  if (missing.includes(text)) return null;
  if (!NUMBER.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/** Rows of a CSV source as arrays of trimmed fields, with their 1-based line; csv errors name the line. */
async function* csvRows(file: string, input: Readable): AsyncGenerator<{ fields: string[]; line: number }> {
  const parser = input.pipe(parse({ bom: true, relax_column_count: true, skip_empty_lines: true, trim: true, info: true, max_record_size: ingestBounds().maxCellBytes }));
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      yield { fields: record, line: info.lines };
    }
  } catch (error) {
    if (error instanceof CsvError) throw new MalformedSourceError(file, (error as CsvError & { lines?: number }).lines ?? null, csvErrorProblem(error));
    throw error;
  }
}

function columnIndex(header: string[]): Map<string, number> {
  const index = new Map<string, number>();
  header.forEach((name, i) => {
    if (!index.has(name)) index.set(name, i);
  });
  return index;
}

// ---------------------------------------------------------------------------------------------
// ECB Data API csvdata

export interface EcbFile {
  observations: EcbObservation[];
  /** Distinct series keys, sorted. */
  seriesKeys: string[];
}

/** An ECB csvdata row read in JavaScript: the rows the SQL leaves to it (see stageEcbCsv); the repeated-key check is the caller's. */
function ecbRow(name: string, fields: string[], line: number, columns: { key: number; period: number; value: number }): EcbObservation {
  const key = fields[columns.key] ?? '';
  if (!ECB_KEY.test(key)) throw new MalformedSourceError(name, line, `column KEY: ${JSON.stringify(key)} is not an ECB series key`);
  const period = fields[columns.period] ?? '';
  const date = periodDate(period);
  if (date === null) throw new MalformedSourceError(name, line, `column TIME_PERIOD: ${JSON.stringify(period)} is not a YYYY-MM-DD date`);
  const text = fields[columns.value] ?? '';
  const value = numberOrNull(text, ['', 'NaN']);
  if (value === undefined) throw new MalformedSourceError(name, line, `column OBS_VALUE: ${JSON.stringify(text)} is not a number`);
  return { seriesKey: key, date, value, row: line };
}

/**
 * Fields csv-parse reads past the header's count (relax_column_count): DuckDB is given this many more
 * columns, so a record up to that long reads as csv-parse read it (a longer one is refused).
 */
const SPARE_FIELDS = 16;

// The SQL reads a row whose cells read have no surrounding whitespace (csv-parse trims fewer
// characters than JavaScript's trim), a key and a date in the forms below and a plain number (no
// exponent: DuckDB's and Number()'s readings of it are the same double); other rows go to ecbRow.
const ECB_KEY_SQL = String.raw`'[A-Z0-9_]+(\.[A-Za-z0-9_]+)+'`;
const PLAIN_NUMBER_SQL = String.raw`'-?\d{1,20}(\.\d{1,20})?'`;

/** SQL: a plain number (PLAIN_NUMBER_SQL) other than a negative zero (Number gives 0, DuckDB -0). */
function plainNumberSql(text: string): string {
  return `regexp_full_match(${text}, ${PLAIN_NUMBER_SQL}) AND (NOT starts_with(${text}, '-') OR regexp_matches(${text}, '[1-9]'))`;
}

/** SQL: TIME_PERIOD as periodDate reads it (YYYY-MM -> its first day, a real YYYY-MM-DD as is), NULL otherwise. */
function periodDateSql(period: string): string {
  return String.raw`CASE WHEN regexp_full_match(${period}, '\d{4}-(0[1-9]|1[0-2])') THEN ${period} || '-01'
    WHEN regexp_full_match(${period}, '\d{4}-\d{2}-\d{2}') AND strftime(try_cast(${period} AS DATE), '%Y-%m-%d') = ${period} THEN ${period} END`;
}

export interface StagedEcbCsv {
  /** Scratch table of the file's records: ok, series_key, date (YYYY-MM-DD), value (a number's text or NULL). */
  table: string;
  /** The table with `line` first; the observations are its rows WHERE ok. */
  lined: string;
  observations: number;
  seriesKeys: string[];
  drop: () => Promise<void>;
}

let fileCounter = 0;

/** An ECB csvdata file read by DuckDB into a scratch table of `db`, checked in SQL (the first problem in file order refuses it). */
export async function stageEcbCsv(db: Database, file: string): Promise<StagedEcbCsv> {
  const name = basename(file);
  const [head] = await readCsvHead(file, 1, { trim: true });
  if (!head) throw new MalformedSourceError(name, null, 'empty file: no csvdata header');
  const index = columnIndex(head.record);
  const missing = ['KEY', 'TIME_PERIOD', 'OBS_VALUE'].filter((c) => !index.has(c));
  if (missing.length > 0) throw new MalformedSourceError(name, head.line, `not an ECB csvdata file: no column ${missing.join(', ')} in the header`);
  const columns = { key: index.get('KEY')!, period: index.get('TIME_PERIOD')!, value: index.get('OBS_VALUE')! };
  const fields = head.record.length + SPARE_FIELDS;
  const options = { skipLines: head.line, fields, padShortRecords: true };
  const cell = (at: number) => `coalesce(c${at}, '')`;
  const { read } = await stageCsv(db, {
    file: name, path: file, table: `ecb_file_${++fileCounter}`, csv: options,
    query: (source) => `SELECT
      NOT needs_trim AND regexp_full_match(${cell(columns.key)}, ${ECB_KEY_SQL}) AND ${periodDateSql(cell(columns.period))} IS NOT NULL
        AND (${cell(columns.value)} IN ('', 'NaN') OR ${plainNumberSql(cell(columns.value))}) AS ok,
      ${cell(columns.key)} AS series_key, ${periodDateSql(cell(columns.period))} AS date,
      CASE WHEN ${cell(columns.value)} IN ('', 'NaN') THEN NULL ELSE ${cell(columns.value)} END AS value
    FROM ${trimCheckedSql(source, fields, [columns.key, columns.period, columns.value])}`,
    badRecord: (bad) => new MalformedSourceError(name, bad.line, csvParseMessage(bad, head.record.length)),
    merge: { update: ['series_key', 'date', 'value'] },
    reader: (record, line) => {
      const o = ecbRow(name, csvParseTrimmed(record), line, columns);
      return [o.seriesKey, o.date, o.value === null ? null : String(o.value)];
    },
    uniqueKey: {
      columns: [['series_key', 'series_key'], ['date', 'date']],
      problem: (repeated) => new MalformedSourceError(name, repeated.line, `series ${repeated.key.series_key} has ${repeated.key.date} twice`),
    },
  });
  try {
    const keys = await db.all(`SELECT DISTINCT series_key FROM ${read.table} WHERE ok ORDER BY series_key`);
    const [{ n }] = await db.all(`SELECT count(*)::INTEGER AS n FROM ${read.table} WHERE ok`);
    return { table: read.table, lined: read.lined, observations: Number(n), seriesKeys: keys.map((r) => String(r.series_key)), drop: read.drop };
  } catch (error) {
    await read.drop();
    throw error;
  }
}

/** A record's fields as csv-parse with `trim` and relax_column_count read them: up to the first field a short record lacks. */
function csvParseTrimmed(record: ReadonlyArray<string | null>): string[] {
  const present = record.indexOf(null);
  return (present < 0 ? record : record.slice(0, present)).map((field) => csvParseTrim(field!));
}

export async function parseEcbCsv(file: string): Promise<EcbFile> {
  const db = await Database.open({ connections: 1 });
  try {
    const staged = await stageEcbCsv(db, file);
    const rows = await db.all(`SELECT line, series_key, date, value FROM ${staged.lined} WHERE ok ORDER BY line`);
    const observations = rows.map((r): EcbObservation => ({
      seriesKey: String(r.series_key), date: String(r.date), value: r.value === null ? null : Number(r.value), row: Number(r.line),
    }));
    return { observations, seriesKeys: staged.seriesKeys };
  } finally {
    await db.close();
  }
}

// ---------------------------------------------------------------------------------------------
// eurofxref-hist.csv / eurofxref-hist.zip

export interface ReferenceRateFile {
  rates: ReferenceRate[];
  currencies: string[];
  dates: number;
}

async function referenceRateStream(file: string): Promise<{ name: string; input: Readable }> {
  const name = basename(file);
  if (!name.toLowerCase().endsWith('.zip')) return { name, input: createReadStream(file) };
  // Entry count and sizes checked before inflating; inflating stops at INGEST_MAX_UNZIPPED_BYTES.
  const opened = await openBoundedZip(file, name, 'zip file', (message) => `not a readable zip file (${message})`);
  const entries = Object.values(opened.zip.files).filter((entry) => !entry.dir && entry.name.toLowerCase().endsWith('.csv'));
  if (entries.length !== 1) throw new MalformedSourceError(name, null, `the zip holds ${entries.length} .csv files; expected one (eurofxref-hist.csv)`);
  return { name: `${name}:${entries[0].name}`, input: Readable.from([await inflateEntry(opened, entries[0])]) };
}

export async function parseEurofxref(file: string): Promise<ReferenceRateFile> {
  const { name, input } = await referenceRateStream(file);
  const rates: ReferenceRate[] = [];
  let currencies: Array<string | null> | null = null;
  const dates = new Set<string>();
  for await (const { fields, line } of csvRows(name, input)) {
    if (currencies === null) {
      if (fields[0] !== 'Date') throw new MalformedSourceError(name, line, `not a reference-rate file: the header starts with ${JSON.stringify(fields[0])}, not Date`);
      currencies = fields.slice(1).map((code, i) => {
        if (code === '' && i === fields.length - 2) return null; // the trailing comma
        if (!CURRENCY.test(code)) throw new MalformedSourceError(name, line, `column ${i + 2}: ${JSON.stringify(code)} is not a currency code`);
        return code;
      });
      if (currencies.every((c) => c === null)) throw new MalformedSourceError(name, line, 'no currency columns');
      continue;
    }
    const date = isoDay(fields[0]);
    if (date === null) throw new MalformedSourceError(name, line, `column Date: ${JSON.stringify(fields[0])} is not a YYYY-MM-DD date`);
    if (dates.has(date)) throw new MalformedSourceError(name, line, `${date} appears twice`);
    dates.add(date);
    for (let i = 1; i < fields.length; i++) {
      const currency = currencies[i - 1];
      const text = fields[i];
      if (currency === undefined) {
        if (text === '') continue;
        throw new MalformedSourceError(name, line, `column ${i + 1}: a value beyond the header's columns`);
      }
      if (currency === null) continue;
      const value = numberOrNull(text, ['N/A', '']);
      if (value === undefined || (value !== null && value <= 0)) throw new MalformedSourceError(name, line, `column ${currency}: ${JSON.stringify(text)} is not a positive rate`);
      if (value !== null) rates.push({ date, currency, rate: value });
    }
  }
  if (currencies === null) throw new MalformedSourceError(name, null, 'empty file: no header');
  return { rates, currencies: currencies.filter((c): c is string => c !== null), dates: dates.size };
}

// ---------------------------------------------------------------------------------------------
// FRED

export interface FredFile {
  observations: FredObservation[];
  seriesIds: string[];
}

/** The series id a `date,value` copy or an API JSON file holds: --series, else the file name up to its first dot. */
export function seriesIdFor(file: string, given?: string): string | null {
  const id = (given ?? basename(file).split('.')[0]).toUpperCase();
  return SERIES_ID.test(id) ? id : null;
}

function fredValue(name: string, line: number, column: string, text: string): number | null {
  const value = numberOrNull(text, ['.', '', 'NaN']);
  if (value === undefined) throw new MalformedSourceError(name, line, `column ${column}: ${JSON.stringify(text)} is not a number (missing is "." or empty)`);
  return value;
}

export async function parseFredFile(file: string, options: { series?: string } = {}): Promise<FredFile> {
  const db = await Database.open({ connections: 1 });
  try {
    const staged = await stageFredFile(db, file, options);
    if ('observations' in staged && Array.isArray(staged.observations)) return staged as FredFile;
    const csv = staged as StagedFredCsv;
    const rows = await db.all(`SELECT series_id, date, value, line FROM (${csv.observations}) ORDER BY line, column_order`);
    const observations = rows.map((r): FredObservation => ({
      seriesId: String(r.series_id), date: String(r.date), value: r.value === null ? null : Number(r.value), row: Number(r.line),
    }));
    return { observations, seriesIds: csv.seriesIds };
  } finally {
    await db.close();
  }
}

/** A FRED CSV staged by DuckDB: its observations as a query (series_id, date, value as a number's text or NULL, line, column_order). */
export interface StagedFredCsv {
  observations: string;
  count: number;
  seriesIds: string[];
  drop: () => Promise<void>;
}

/** A FRED file: a CSV read by DuckDB into a scratch table of `db`, an API JSON file in JavaScript. */
export async function stageFredFile(db: Database, file: string, options: { series?: string } = {}): Promise<FredFile | StagedFredCsv> {
  const name = basename(file);
  if (!name.toLowerCase().endsWith('.json')) return stageFredCsv(db, file, options.series);
  const observations = await parseFredJson(file, options.series);
  const seen = new Set<string>();
  for (const o of observations) {
    const id = `${o.seriesId}|${o.date}`;
    if (seen.has(id)) throw new MalformedSourceError(name, o.row, `series ${o.seriesId} has ${o.date} twice`);
    seen.add(id);
  }
  return { observations, seriesIds: [...new Set(observations.map((o) => o.seriesId))].sort() };
}

/** The series of a FRED CSV header (the date column first), or the problem. */
function fredHeader(file: string, fields: string[], line: number, series?: string): string[] {
  const name = basename(file);
  const first = fields[0];
  if (first === 'date' && fields.length === 2 && fields[1].toLowerCase() === 'value') {
    const id = seriesIdFor(file, series);
    if (id === null) throw new MalformedSourceError(name, line, 'a date,value file: give the series id with --series (or name the file <SERIES_ID>.csv)');
    return [id];
  }
  if (first === 'observation_date' || first === 'DATE') {
    if (fields.length < 2) throw new MalformedSourceError(name, line, 'no series column after the date');
    const ids = fields.slice(1).map((id, i) => {
      if (!SERIES_ID.test(id)) throw new MalformedSourceError(name, line, `column ${i + 2}: ${JSON.stringify(id)} is not a FRED series id`);
      return id;
    });
    if (series !== undefined && (ids.length !== 1 || ids[0] !== series.toUpperCase())) {
      throw new MalformedSourceError(name, line, `--series ${series} does not match the file's series ${ids.join(', ')}`);
    }
    return ids;
  }
  throw new MalformedSourceError(name, line, `not a FRED CSV: the header starts with ${JSON.stringify(first)} (expected observation_date, DATE or date)`);
}

/** A FRED CSV row read in JavaScript: the rows the SQL leaves to it. */
function fredRow(name: string, fields: string[], line: number, ids: string[]): FredObservation[] {
  const date = isoDay(fields[0]);
  if (date === null) throw new MalformedSourceError(name, line, `column ${ids.length === 1 ? 'date' : 'observation_date'}: ${JSON.stringify(fields[0])} is not a YYYY-MM-DD date`);
  if (fields.length > ids.length + 1) throw new MalformedSourceError(name, line, `${fields.length} fields, the header has ${ids.length + 1}`);
  return ids.map((id, i) => ({ seriesId: id, date, value: fredValue(name, line, id, fields[i + 1] ?? ''), row: line }));
}

/**
 * A FRED graph CSV read by DuckDB: a row whose cells have no surrounding whitespace, a real YYYY-MM-DD
 * date and plain numbers or the missing marks is read by the SQL; other rows go to fredRow. Any
 * problem of a row comes first (in file order); then a date given twice.
 */
async function stageFredCsv(db: Database, file: string, series?: string): Promise<StagedFredCsv> {
  const name = basename(file);
  const [head] = await readCsvHead(file, 1, { trim: true });
  if (!head) throw new MalformedSourceError(name, null, 'empty file: no header');
  const ids = fredHeader(file, head.record, head.line, series);
  const fields = ids.length + 1;
  const options = { skipLines: head.line, fields, padShortRecords: true };
  const cell = (at: number) => `coalesce(c${at}, '')`;
  const valueOk = (at: number) => `(${cell(at)} IN ('.', '', 'NaN') OR ${plainNumberSql(cell(at))})`;
  const { read } = await stageCsv(db, {
    file: name, path: file, table: `fred_file_${++fileCounter}`, csv: options,
    query: (source) => String.raw`SELECT
      NOT needs_trim AND regexp_full_match(c0, '\d{4}-\d{2}-\d{2}') AND strftime(try_cast(c0 AS DATE), '%Y-%m-%d') = c0
        AND ${ids.map((_, i) => valueOk(i + 1)).join(' AND ')} AS ok,
      c0 AS date, ${ids.map((_, i) => `CASE WHEN ${cell(i + 1)} IN ('.', '', 'NaN') THEN NULL ELSE ${cell(i + 1)} END AS v${i}`).join(', ')}
    FROM ${trimCheckedSql(source, fields)}`,
    badRecord: (bad) => {
      const found = /Found: (\d+)/.exec(bad.message)?.[1];
      return new MalformedSourceError(name, bad.line, bad.kind === 'TOO MANY COLUMNS' && found ? `${found} fields, the header has ${fields}` : csvParseMessage(bad, fields));
    },
    merge: { update: ['date', ...ids.map((_, i) => `v${i}`)] },
    reader: (record, line) => {
      const row = fredRow(name, csvParseTrimmed(record), line, ids);
      return [row[0]!.date, ...row.map((o) => (o.value === null ? null : String(o.value)))];
    },
  });
  try {
    // Every row holds every series: a date given twice repeats the first series first. A row's problem comes before it.
    const repeated = await firstRepeatedKey(db, read.lined, [['date', 'date']]);
    if (repeated) throw new MalformedSourceError(name, repeated.line, `series ${ids[0]} has ${repeated.key.date} twice`);
    const observations = ids.map((id, i) => `SELECT ${sqlStringLiteral(id)} AS series_id, date, v${i} AS value, line, ${i} AS column_order FROM ${read.lined}`).join(' UNION ALL ');
    // Every record read is a row of the table (the rows fredRow read were updated in place, none added).
    return { observations, count: read.records * ids.length, seriesIds: [...ids].sort(), drop: read.drop };
  } catch (error) {
    await read.drop();
    throw error;
  }
}

async function parseFredJson(file: string, series?: string): Promise<FredObservation[]> {
  const name = basename(file);
  const id = seriesIdFor(file, series);
  if (id === null) throw new MalformedSourceError(name, null, 'an API JSON file: give the series id with --series (or name the file <SERIES_ID>.json)');
  let document: unknown;
  try {
    document = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new MalformedSourceError(name, null, `not JSON (${(error as Error).message})`);
  }
  const list = (document as { observations?: unknown })?.observations;
  if (!Array.isArray(list)) throw new MalformedSourceError(name, null, 'not a FRED observations document: no "observations" array');
  return list.map((item: unknown, i) => {
    const entry = item as { date?: unknown; value?: unknown };
    const where = `observations[${i}]`;
    if (typeof entry?.date !== 'string' || isoDay(entry.date) === null) throw new MalformedSourceError(name, null, `${where}.date: ${JSON.stringify(entry?.date)} is not a YYYY-MM-DD date`);
    if (typeof entry.value !== 'string' && typeof entry.value !== 'number') throw new MalformedSourceError(name, null, `${where}.value: ${JSON.stringify(entry.value)} is not a number or "."`);
    const value = typeof entry.value === 'number' ? entry.value : numberOrNull(entry.value.trim(), ['.', '', 'NaN']);
    if (value === undefined || (typeof value === 'number' && !Number.isFinite(value))) throw new MalformedSourceError(name, null, `${where}.value: ${JSON.stringify(entry.value)} is not a number or "."`);
    return { seriesId: id, date: entry.date, value, row: i + 1 };
  });
}
