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
import JSZip from 'jszip';
import { MalformedSourceError } from '../../../ingest/errors.ts';
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
  const parser = input.pipe(parse({ bom: true, relax_column_count: true, skip_empty_lines: true, trim: true, info: true }));
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      yield { fields: record, line: info.lines };
    }
  } catch (error) {
    if (error instanceof CsvError) throw new MalformedSourceError(file, (error as CsvError & { lines?: number }).lines ?? null, error.message);
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

export async function parseEcbCsv(file: string): Promise<EcbFile> {
  const name = basename(file);
  const observations: EcbObservation[] = [];
  let columns: { key: number; period: number; value: number } | null = null;
  const seen = new Set<string>();
  for await (const { fields, line } of csvRows(name, createReadStream(file))) {
    if (columns === null) {
      const index = columnIndex(fields);
      const missing = ['KEY', 'TIME_PERIOD', 'OBS_VALUE'].filter((c) => !index.has(c));
      if (missing.length > 0) throw new MalformedSourceError(name, line, `not an ECB csvdata file: no column ${missing.join(', ')} in the header`);
      columns = { key: index.get('KEY')!, period: index.get('TIME_PERIOD')!, value: index.get('OBS_VALUE')! };
      continue;
    }
    const key = fields[columns.key] ?? '';
    if (!ECB_KEY.test(key)) throw new MalformedSourceError(name, line, `column KEY: ${JSON.stringify(key)} is not an ECB series key`);
    const period = fields[columns.period] ?? '';
    const date = periodDate(period);
    if (date === null) throw new MalformedSourceError(name, line, `column TIME_PERIOD: ${JSON.stringify(period)} is not a YYYY-MM-DD date`);
    const text = fields[columns.value] ?? '';
    const value = numberOrNull(text, ['', 'NaN']);
    if (value === undefined) throw new MalformedSourceError(name, line, `column OBS_VALUE: ${JSON.stringify(text)} is not a number`);
    const id = `${key}|${date}`;
    if (seen.has(id)) throw new MalformedSourceError(name, line, `series ${key} has ${date} twice`);
    seen.add(id);
    observations.push({ seriesKey: key, date, value, row: line });
  }
  if (columns === null) throw new MalformedSourceError(name, null, 'empty file: no csvdata header');
  return { observations, seriesKeys: [...new Set(observations.map((o) => o.seriesKey))].sort() };
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
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(await readFile(file));
  } catch (error) {
    throw new MalformedSourceError(name, null, `not a readable zip file (${(error as Error).message})`);
  }
  const entries = Object.values(zip.files).filter((entry) => !entry.dir && entry.name.toLowerCase().endsWith('.csv'));
  if (entries.length !== 1) throw new MalformedSourceError(name, null, `the zip holds ${entries.length} .csv files; expected one (eurofxref-hist.csv)`);
  return { name: `${name}:${entries[0].name}`, input: Readable.from([await entries[0].async('nodebuffer')]) };
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
  const name = basename(file);
  const observations = name.toLowerCase().endsWith('.json') ? await parseFredJson(file, options.series) : await parseFredCsv(file, options.series);
  const seen = new Set<string>();
  for (const o of observations) {
    const id = `${o.seriesId}|${o.date}`;
    if (seen.has(id)) throw new MalformedSourceError(name, o.row, `series ${o.seriesId} has ${o.date} twice`);
    seen.add(id);
  }
  return { observations, seriesIds: [...new Set(observations.map((o) => o.seriesId))].sort() };
}

async function parseFredCsv(file: string, series?: string): Promise<FredObservation[]> {
  const name = basename(file);
  const observations: FredObservation[] = [];
  let ids: string[] | null = null;
  for await (const { fields, line } of csvRows(name, createReadStream(file))) {
    if (ids === null) {
      const first = fields[0];
      if (first === 'date' && fields.length === 2 && fields[1].toLowerCase() === 'value') {
        const id = seriesIdFor(file, series);
        if (id === null) throw new MalformedSourceError(name, line, 'a date,value file: give the series id with --series (or name the file <SERIES_ID>.csv)');
        ids = [id];
      } else if (first === 'observation_date' || first === 'DATE') {
        if (fields.length < 2) throw new MalformedSourceError(name, line, 'no series column after the date');
        ids = fields.slice(1).map((id, i) => {
          if (!SERIES_ID.test(id)) throw new MalformedSourceError(name, line, `column ${i + 2}: ${JSON.stringify(id)} is not a FRED series id`);
          return id;
        });
        if (series !== undefined && (ids.length !== 1 || ids[0] !== series.toUpperCase())) {
          throw new MalformedSourceError(name, line, `--series ${series} does not match the file's series ${ids.join(', ')}`);
        }
      } else {
        throw new MalformedSourceError(name, line, `not a FRED CSV: the header starts with ${JSON.stringify(first)} (expected observation_date, DATE or date)`);
      }
      continue;
    }
    const date = isoDay(fields[0]);
    if (date === null) throw new MalformedSourceError(name, line, `column ${ids.length === 1 ? 'date' : 'observation_date'}: ${JSON.stringify(fields[0])} is not a YYYY-MM-DD date`);
    if (fields.length > ids.length + 1) throw new MalformedSourceError(name, line, `${fields.length} fields, the header has ${ids.length + 1}`);
    ids.forEach((id, i) => observations.push({ seriesId: id, date, value: fredValue(name, line, id, fields[i + 1] ?? ''), row: line }));
  }
  if (ids === null) throw new MalformedSourceError(name, null, 'empty file: no header');
  return observations;
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
