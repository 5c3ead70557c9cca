// One generic reader for any World Bank WDI indicator, in the forms the World Bank publishes
// (told by content, not by file name):
//   bulk CSV   API_<ID>_DS2_en_csv_v2_<n>.csv: UTF-8 BOM, CRLF, a preamble ("Data Source","World Development
//              Indicators", / "Last Updated Date","2023-10-26",), then "Country Name","Country Code",
//              "Indicator Name","Indicator Code","1960",...,"2022", - every cell quoted, a trailing comma,
//              missing = "". The preamble is optional (WDIData.csv has none and holds many indicators).
//   Metadata_Country_...csv   "Country Code","Region","IncomeGroup","SpecialNotes","TableName", (blank Region = aggregate)
//   Metadata_Indicator_...csv "INDICATOR_CODE","INDICATOR_NAME","SOURCE_NOTE","SOURCE_ORGANIZATION",
//   JSON API   [ {page,pages,per_page,total,sourceid,lastupdated}, [ {indicator:{id,value}, country:{id,value},
//              countryiso3code, date, value, unit, obs_status, decimal}, ... ] ] (one file per page)
// Decisions: a blank year (or a JSON value null) yields no observation, never 0; the vintage is the
// "Last Updated Date" (JSON: lastupdated), null when the file states none; the JSON country code is
// countryiso3code, or country.id when that is empty; only annual dates (YYYY) are accepted.
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { CsvError, parse } from 'csv-parse';
import { MalformedSourceError } from '../errors.ts';
import { MalformedCellError } from '../eurostat/errors.ts';

export type WdiFormat = 'wdi-bulk-csv' | 'wdi-api-json';

export interface WdiObservation {
  indicator_code: string;
  indicator_name: string;
  /** ISO 3166-1 alpha-3 for economies, the WDI code for aggregates (EUU, WLD, HIC...). */
  country_code: string;
  country_name: string;
  year: number;
  value: number;
  /** Last Updated Date of the file, YYYY-MM-DD, or null. */
  vintage: string | null;
  /** 1-based line (CSV) or record number in the data array (JSON). */
  line: number;
}

export interface WdiDataSummary {
  kind: 'data';
  file: string;
  format: WdiFormat;
  vintage: string | null;
  /** Indicator code -> name, in file order. */
  indicators: Map<string, string>;
  /** Country code -> name for every country row of the file (also those with no value). */
  countries: Map<string, string>;
  observationCount: number;
  /** JSON API page and page count (null for the bulk CSV). */
  page: number | null;
  pages: number | null;
}

export interface WdiCountryMetadata {
  code: string;
  /** null when blank: the code is an aggregate. */
  region: string | null;
  income_group: string | null;
  special_notes: string | null;
  /** TableName, the short name. */
  name: string | null;
}

export interface WdiIndicatorMetadata {
  code: string;
  name: string;
  source_note: string | null;
  source_organization: string | null;
}

export type WdiFileSummary =
  | WdiDataSummary
  | { kind: 'country-metadata'; file: string; countries: WdiCountryMetadata[] }
  | { kind: 'indicator-metadata'; file: string; indicators: WdiIndicatorMetadata[] };

const NUMBER = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;
const COUNTRY_CODE = /^[A-Z0-9]{2,3}$/;
const INDICATOR_CODE = /^[A-Za-z0-9][A-Za-z0-9._]*$/;
const YEAR = /^\d{4}$/;

function isoDate(text: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(text.trim());
  if (!m) return null;
  const date = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return date.getUTCMonth() === Number(m[2]) - 1 && date.getUTCDate() === Number(m[3]) ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

async function firstNonBlankChar(path: string): Promise<string> {
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 4096 })) {
    const text = (chunk as string).replace(/^\uFEFF/, '').trimStart();
    if (text.length > 0) return text[0]!;
  }
  return '';
}

type Row = { record: string[]; info: { lines: number } };

/** Header cells without the empty ones a trailing comma leaves at the end. */
function trimHeader(record: string[]): string[] {
  const cells = record.map((c) => c.replace(/^\uFEFF/, '').trim());
  while (cells.length > 0 && cells[cells.length - 1] === '') cells.pop();
  return cells;
}

function blankToNull(text: string | undefined): string | null {
  const t = (text ?? '').trim();
  return t === '' ? null : t;
}

async function readCsv(path: string, file: string, onBatch: (batch: WdiObservation[]) => void | Promise<void>, batchSize: number): Promise<WdiFileSummary> {
  const parser = createReadStream(path).pipe(parse({ bom: true, relax_column_count: true, skip_empty_lines: true, info: true }));
  let vintage: string | null = null;
  let kind: 'data' | 'country-metadata' | 'indicator-metadata' | null = null;
  let header: string[] = [];
  /** Cells of the header line including the empty one(s) of a trailing comma: every line must have as many. */
  let headerWidth = 0;
  let years: Array<number | null> = [];
  const indicators = new Map<string, string>();
  const countries = new Map<string, string>();
  const seen = new Map<string, number>();
  const countryMeta: WdiCountryMetadata[] = [];
  const indicatorMeta: WdiIndicatorMetadata[] = [];
  let batch: WdiObservation[] = [];
  let count = 0;
  for await (const { record, info } of parser as AsyncIterable<Row>) {
    const line = info.lines;
    if (kind === null) {
      const cells = trimHeader(record);
      headerWidth = record.length;
      const first = cells[0] ?? '';
      if (first === 'Country Name') {
        kind = 'data';
        header = cells;
        const expected = ['Country Name', 'Country Code', 'Indicator Name', 'Indicator Code'];
        expected.forEach((name, i) => {
          if (cells[i] !== name) throw new MalformedCellError(file, line, i + 1, null, `header ${JSON.stringify(cells[i] ?? '')} where ${name} was expected`);
        });
        years = cells.slice(4).map((label, i) => {
          if (!YEAR.test(label)) throw new MalformedCellError(file, line, i + 5, null, `header ${JSON.stringify(label)} is not a year`);
          return Number(label);
        });
        if (years.length === 0) throw new MalformedSourceError(file, line, 'the header has no year column');
      } else if (first === 'Country Code' && cells.includes('Region')) {
        kind = 'country-metadata';
        header = cells;
      } else if (first === 'INDICATOR_CODE') {
        kind = 'indicator-metadata';
        header = cells;
      } else if (first === 'Last Updated Date') {
        vintage = isoDate(cells[1] ?? '');
        if (vintage === null) throw new MalformedCellError(file, line, 2, 'Last Updated Date', `${JSON.stringify(cells[1] ?? '')} is not a YYYY-MM-DD date`);
      } else if (first === 'Data Source' || (line <= 6 && cells.length <= 2)) {
        // preamble line
      } else {
        throw new MalformedSourceError(file, line, `not a World Bank WDI file: expected a "Country Name" header, found ${JSON.stringify(cells.slice(0, 4).join(','))}`);
      }
      continue;
    }
    // Lines have as many cells as the header line (both end with the empty cell of the trailing comma).
    if (record.length !== headerWidth) {
      throw new MalformedCellError(file, line, Math.min(record.length, headerWidth) + 1, null, `the line has ${record.length} cells, the header ${headerWidth}`);
    }
    if (record.slice(header.length).some((c) => c.trim() !== '')) {
      throw new MalformedCellError(file, line, header.length + 1, null, 'a value past the last header column');
    }
    const cell = (i: number) => record[i]!.trim();
    const column = (name: string) => header.indexOf(name);
    if (kind === 'country-metadata') {
      const code = cell(0);
      if (!COUNTRY_CODE.test(code)) throw new MalformedCellError(file, line, 1, 'Country Code', `${JSON.stringify(code)} is not a country code`);
      const get = (name: string) => (column(name) >= 0 ? blankToNull(record[column(name)]) : null);
      countryMeta.push({ code, region: get('Region'), income_group: get('IncomeGroup'), special_notes: get('SpecialNotes'), name: get('TableName') });
      continue;
    }
    if (kind === 'indicator-metadata') {
      const code = cell(0);
      if (!INDICATOR_CODE.test(code)) throw new MalformedCellError(file, line, 1, 'INDICATOR_CODE', `${JSON.stringify(code)} is not an indicator code`);
      const get = (name: string) => (column(name) >= 0 ? blankToNull(record[column(name)]) : null);
      indicatorMeta.push({ code, name: get('INDICATOR_NAME') ?? code, source_note: get('SOURCE_NOTE'), source_organization: get('SOURCE_ORGANIZATION') });
      continue;
    }
    const [countryName, countryCode, indicatorName, indicatorCode] = [cell(0), cell(1), cell(2), cell(3)];
    if (!COUNTRY_CODE.test(countryCode)) throw new MalformedCellError(file, line, 2, 'Country Code', `${JSON.stringify(countryCode)} is not a country code`);
    if (!INDICATOR_CODE.test(indicatorCode)) throw new MalformedCellError(file, line, 4, 'Indicator Code', `${JSON.stringify(indicatorCode)} is not an indicator code`);
    const key = `${indicatorCode}|${countryCode}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) throw new MalformedCellError(file, line, 2, 'Country Code', `${countryCode} ${indicatorCode} also on line ${earlier}`);
    seen.set(key, line);
    if (!indicators.has(indicatorCode)) indicators.set(indicatorCode, indicatorName);
    if (!countries.has(countryCode)) countries.set(countryCode, countryName);
    for (let i = 0; i < years.length; i++) {
      const text = cell(i + 4);
      if (text === '') continue;
      if (!NUMBER.test(text)) throw new MalformedCellError(file, line, i + 5, String(years[i]), `${JSON.stringify(text)} is not a number`);
      batch.push({
        indicator_code: indicatorCode, indicator_name: indicatorName, country_code: countryCode, country_name: countryName,
        year: years[i]!, value: Number(text), vintage, line,
      });
      count++;
    }
    if (batch.length >= batchSize) {
      await onBatch(batch);
      batch = [];
    }
  }
  if (kind === null) throw new MalformedSourceError(file, null, 'no "Country Name" (data), "Country Code" (country metadata) or "INDICATOR_CODE" header found');
  if (kind === 'country-metadata') return { kind, file, countries: countryMeta };
  if (kind === 'indicator-metadata') return { kind, file, indicators: indicatorMeta };
  if (batch.length > 0) await onBatch(batch);
  return { kind: 'data', file, format: 'wdi-bulk-csv', vintage, indicators, countries, observationCount: count, page: null, pages: null };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

async function readJson(path: string, file: string, onBatch: (batch: WdiObservation[]) => void | Promise<void>): Promise<WdiDataSummary> {
  let data: unknown;
  try {
    data = JSON.parse((await readFile(path, 'utf8')).replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new MalformedSourceError(file, null, `not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (!Array.isArray(data) || !isRecord(data[0])) throw new MalformedSourceError(file, null, 'not a World Bank API answer: expected [ {page, ..., lastupdated}, [ ... ] ]');
  const meta = data[0];
  if (Array.isArray(meta.message)) {
    const messages = meta.message.map((m) => (isRecord(m) ? `${String(m.key ?? '')}: ${String(m.value ?? '')}` : String(m))).join('; ');
    throw new MalformedSourceError(file, null, `the World Bank API answered with an error: ${messages}`);
  }
  let vintage: string | null = null;
  if (meta.lastupdated !== undefined && meta.lastupdated !== null) {
    vintage = isoDate(String(meta.lastupdated));
    if (vintage === null) throw new MalformedSourceError(file, null, `lastupdated ${JSON.stringify(meta.lastupdated)} is not a YYYY-MM-DD date`);
  }
  const whole = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : null);
  const page = whole(meta.page);
  const pages = whole(meta.pages);
  if (meta.page !== undefined && page === null) throw new MalformedSourceError(file, null, `page ${JSON.stringify(meta.page)} is not a page number`);
  if (meta.pages !== undefined && pages === null) throw new MalformedSourceError(file, null, `pages ${JSON.stringify(meta.pages)} is not a page count`);
  const rows = data[1] ?? [];
  if (!Array.isArray(rows)) throw new MalformedSourceError(file, null, 'the second element is not the array of observations');
  const indicators = new Map<string, string>();
  const countries = new Map<string, string>();
  const seen = new Map<string, number>();
  const observations: WdiObservation[] = [];
  rows.forEach((row: unknown, i) => {
    const n = i + 1;
    const bad = (problem: string) => new MalformedSourceError(file, n, `record ${n} of the data array: ${problem}`);
    if (!isRecord(row) || !isRecord(row.indicator) || !isRecord(row.country)) throw bad('expected {indicator:{id,value}, country:{id,value}, ...}');
    const indicatorCode = String(row.indicator.id ?? '');
    if (!INDICATOR_CODE.test(indicatorCode)) throw bad(`indicator.id ${JSON.stringify(row.indicator.id)} is not an indicator code`);
    const iso3 = typeof row.countryiso3code === 'string' ? row.countryiso3code.trim() : '';
    const countryCode = iso3 !== '' ? iso3 : String(row.country.id ?? '').trim();
    if (!COUNTRY_CODE.test(countryCode)) throw bad(`country code ${JSON.stringify(countryCode)} (countryiso3code, else country.id) is not a code`);
    const date = String(row.date ?? '');
    if (!YEAR.test(date)) throw bad(`date ${JSON.stringify(row.date)} is not a year`);
    const indicatorName = String(row.indicator.value ?? indicatorCode);
    const countryName = String(row.country.value ?? countryCode);
    if (!indicators.has(indicatorCode)) indicators.set(indicatorCode, indicatorName);
    if (!countries.has(countryCode)) countries.set(countryCode, countryName);
    const key = `${indicatorCode}|${countryCode}|${date}`;
    const earlier = seen.get(key);
    if (earlier !== undefined) throw bad(`${countryCode} ${indicatorCode} ${date} also in record ${earlier}`);
    seen.set(key, n);
    if (row.value === null || row.value === undefined || row.value === '') return;
    const value = typeof row.value === 'number' ? row.value : typeof row.value === 'string' && NUMBER.test(row.value.trim()) ? Number(row.value) : NaN;
    if (!Number.isFinite(value)) throw bad(`value ${JSON.stringify(row.value)} is not a number`);
    observations.push({ indicator_code: indicatorCode, indicator_name: indicatorName, country_code: countryCode, country_name: countryName, year: Number(date), value, vintage, line: n });
  });
  if (observations.length > 0) await onBatch(observations);
  return { kind: 'data', file, format: 'wdi-api-json', vintage, indicators, countries, observationCount: observations.length, page, pages };
}

/**
 * Reads one WDI file (bulk CSV, Metadata_Country / Metadata_Indicator CSV or JSON API page).
 * Observations of a data file go to onBatch in file order. Throws MalformedSourceError on any problem.
 */
export async function readWdiFile(
  path: string,
  onBatch: (batch: WdiObservation[]) => void | Promise<void>,
  options: { batchSize?: number } = {},
): Promise<WdiFileSummary> {
  const file = basename(path);
  try {
    const first = await firstNonBlankChar(path);
    if (first === '') throw new MalformedSourceError(file, null, 'the file is empty');
    if (first === '[' || first === '{') return await readJson(path, file, onBatch);
    return await readCsv(path, file, onBatch, options.batchSize ?? 50_000);
  } catch (error) {
    if (error instanceof CsvError) {
      const e = error as CsvError & { lines?: number; column?: number | string };
      if (typeof e.lines === 'number' && typeof e.column === 'number') throw new MalformedCellError(file, e.lines, e.column + 1, null, `not valid CSV: ${e.message}`);
      throw new MalformedSourceError(file, e.lines ?? null, `not valid CSV: ${e.message}`);
    }
    throw error;
  }
}

/** Reads a whole file into memory (tests, small files). */
export async function parseWdiFile(path: string): Promise<WdiFileSummary & { observations: WdiObservation[] }> {
  const observations: WdiObservation[] = [];
  const summary = await readWdiFile(path, (batch) => {
    for (const o of batch) observations.push(o);
  });
  return { ...summary, observations };
}
