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
import { Database } from '../../engine/database.ts';
import type { Row } from '../../engine/json.ts';
import {
  jsTrimmedTextSql, readCsvHead, readCsvInto, type BadRecord, type CsvHeadRecord,
} from '../duckdbCsv.ts';
import { MalformedSourceError } from '../errors.ts';
import { MalformedCellError } from '../eurostat/errors.ts';
import { stageCsv } from '../staging.ts';

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

type CsvKind = 'data' | 'country-metadata' | 'indicator-metadata';

/** What the lines above the first record say: the kind of file, its header and the vintage. */
interface CsvHead {
  kind: CsvKind;
  /** Header cells, without the empty ones of a trailing comma. */
  header: string[];
  /** Cells of the header line including the empty one(s) of a trailing comma: every line must have as many. */
  headerWidth: number;
  /** Line of the header. */
  headerLine: number;
  /** Year of each column after the four name and code columns (data files). */
  years: number[];
  vintage: string | null;
}

/** The preamble and header of a WDI CSV from its first records; a MalformedSourceError names the problem. */
function readHead(records: readonly CsvHeadRecord[], file: string): CsvHead {
  let vintage: string | null = null;
  for (const { record, line } of records) {
    const cells = trimHeader(record);
    const head = (kind: CsvKind, years: number[] = []): CsvHead => ({ kind, header: cells, headerWidth: record.length, headerLine: line, years, vintage });
    const first = cells[0] ?? '';
    if (first === 'Country Name') {
      const expected = ['Country Name', 'Country Code', 'Indicator Name', 'Indicator Code'];
      expected.forEach((name, i) => {
        if (cells[i] !== name) throw new MalformedCellError(file, line, i + 1, null, `header ${JSON.stringify(cells[i] ?? '')} where ${name} was expected`);
      });
      const years = cells.slice(4).map((label, i) => {
        if (!YEAR.test(label)) throw new MalformedCellError(file, line, i + 5, null, `header ${JSON.stringify(label)} is not a year`);
        return Number(label);
      });
      if (years.length === 0) throw new MalformedSourceError(file, line, 'the header has no year column');
      return head('data', years);
    } else if (first === 'Country Code' && cells.includes('Region')) {
      return head('country-metadata');
    } else if (first === 'INDICATOR_CODE') {
      return head('indicator-metadata');
    } else if (first === 'Last Updated Date') {
      vintage = isoDate(cells[1] ?? '');
      if (vintage === null) throw new MalformedCellError(file, line, 2, 'Last Updated Date', `${JSON.stringify(cells[1] ?? '')} is not a YYYY-MM-DD date`);
    } else if (first === 'Data Source' || (line <= 6 && cells.length <= 2)) {
      // preamble line
    } else {
      throw new MalformedSourceError(file, line, `not a World Bank WDI file: expected a "Country Name" header, found ${JSON.stringify(cells.slice(0, 4).join(','))}`);
    }
  }
  throw new MalformedSourceError(file, null, 'no "Country Name" (data), "Country Code" (country metadata) or "INDICATOR_CODE" header found');
}

/** The checks every line after the header gets: as many cells as the header line, nothing past the last header column. */
function checkWidth(record: string[], line: number, head: CsvHead, file: string): void {
  if (record.length !== head.headerWidth) {
    throw new MalformedCellError(file, line, Math.min(record.length, head.headerWidth) + 1, null, `the line has ${record.length} cells, the header ${head.headerWidth}`);
  }
  if (record.slice(head.header.length).some((c) => c.trim() !== '')) {
    throw new MalformedCellError(file, line, head.header.length + 1, null, 'a value past the last header column');
  }
}

/** A data line's codes and names, checked (the repeated-key check is the caller's). */
function dataLine(record: string[], line: number, file: string) {
  const cell = (i: number) => record[i]!.trim();
  const [countryName, countryCode, indicatorName, indicatorCode] = [cell(0), cell(1), cell(2), cell(3)];
  if (!COUNTRY_CODE.test(countryCode)) throw new MalformedCellError(file, line, 2, 'Country Code', `${JSON.stringify(countryCode)} is not a country code`);
  if (!INDICATOR_CODE.test(indicatorCode)) throw new MalformedCellError(file, line, 4, 'Indicator Code', `${JSON.stringify(indicatorCode)} is not an indicator code`);
  return { countryName, countryCode, indicatorName, indicatorCode, cell };
}

/** A data line's observations (blank years give none); a cell that is not a number is refused. */
function dataObservations(record: string[], line: number, head: CsvHead, file: string, vintage: string | null): WdiObservation[] {
  const { countryName, countryCode, indicatorName, indicatorCode, cell } = dataLine(record, line, file);
  const observations: WdiObservation[] = [];
  head.years.forEach((year, i) => {
    const text = cell(i + 4);
    if (text === '') return;
    if (!NUMBER.test(text)) throw new MalformedCellError(file, line, i + 5, String(year), `${JSON.stringify(text)} is not a number`);
    observations.push({ indicator_code: indicatorCode, indicator_name: indicatorName, country_code: countryCode, country_name: countryName, year, value: Number(text), vintage, line });
  });
  return observations;
}

/** A metadata file's lines, read in JavaScript (a few hundred lines, read by DuckDB). */
function readMetadata(rows: readonly Row[], head: CsvHead, file: string): WdiFileSummary {
  const countryMeta: WdiCountryMetadata[] = [];
  const indicatorMeta: WdiIndicatorMetadata[] = [];
  const column = (name: string) => head.header.indexOf(name);
  for (const row of rows) {
    const line = Number(row.line);
    const record = recordOf(row, head.headerWidth);
    checkWidth(record, line, head, file);
    const code = record[0]!.trim();
    const get = (name: string) => (column(name) >= 0 ? blankToNull(record[column(name)]) : null);
    if (head.kind === 'country-metadata') {
      if (!COUNTRY_CODE.test(code)) throw new MalformedCellError(file, line, 1, 'Country Code', `${JSON.stringify(code)} is not a country code`);
      countryMeta.push({ code, region: get('Region'), income_group: get('IncomeGroup'), special_notes: get('SpecialNotes'), name: get('TableName') });
    } else {
      if (!INDICATOR_CODE.test(code)) throw new MalformedCellError(file, line, 1, 'INDICATOR_CODE', `${JSON.stringify(code)} is not an indicator code`);
      indicatorMeta.push({ code, name: get('INDICATOR_NAME') ?? code, source_note: get('SOURCE_NOTE'), source_organization: get('SOURCE_ORGANIZATION') });
    }
  }
  return head.kind === 'country-metadata' ? { kind: 'country-metadata', file, countries: countryMeta } : { kind: 'indicator-metadata', file, indicators: indicatorMeta };
}

/** A staged record's cells (see readCsvInto): its fields up to the first padding NULL. */
function recordOf(row: Row, width: number): string[] {
  return presentFields(Array.from({ length: width }, (_, i) => (row[`c${i}`] === null || row[`c${i}`] === undefined ? null : String(row[`c${i}`]))));
}

/** A record's fields up to the first a short record lacks. */
function presentFields(fields: ReadonlyArray<string | null>): string[] {
  const end = fields.indexOf(null);
  return (end < 0 ? fields : fields.slice(0, end)) as string[];
}

// The data lines in SQL: a line whose codes and cells are in the forms below is read by the SQL (the
// same values); every other line goes through dataObservations, which reads it or names the problem.
// Surrounding whitespace fails every pattern, so only the names are trimmed in SQL; the year cells are
// checked by one pattern over the line's joined cells (a pattern per cell makes the statement itself
// costly to plan, and most files are a few hundred lines).
const COUNTRY_CODE_SQL = "'[A-Z0-9]{2,3}'";
const INDICATOR_CODE_SQL = "'[A-Za-z0-9][A-Za-z0-9._]*'";
const CELL_SEPARATOR = '\u001f';
/**
 * A plain number, read the same by DuckDB and by Number(): digits with an optional fraction, a minus
 * sign only before a number that is not zero (Number gives 0 for -0, DuckDB -0).
 */
const PLAIN_NUMBER = String.raw`(?:\d+(?:\.\d+)?|-0*[1-9]\d*(?:\.\d+)?|-0+\.0*[1-9]\d*)`;
const YEAR_CELLS_SQL = `'(?:${PLAIN_NUMBER})?(?:${CELL_SEPARATOR}(?:${PLAIN_NUMBER})?)*'`;

/** The query over a data file's records: names and codes, the year cells (y0..), and `ok`. */
function dataSql(source: string, head: CsvHead): string {
  const width = head.headerWidth;
  const years = head.years.map((_, i) => `c${i + 4}`);
  const past = Array.from({ length: width - head.header.length }, (_, i) => `c${head.header.length + i} = ''`);
  return `SELECT c${width - 1} IS NOT NULL ${past.length > 0 ? `AND ${past.join(' AND ')}` : ''}
        AND regexp_full_match(c1, ${COUNTRY_CODE_SQL}) AND regexp_full_match(c3, ${INDICATOR_CODE_SQL})
        AND regexp_full_match(concat_ws('${CELL_SEPARATOR}', ${years.join(', ')}), ${YEAR_CELLS_SQL}) AS ok,
      ${jsTrimmedTextSql(0)} AS country_name, c1 AS country_code, ${jsTrimmedTextSql(2)} AS indicator_name, c3 AS indicator_code,
      ${years.map((c, i) => `${c} AS y${i}`).join(', ')}
    FROM ${source}`;
}

/** The staged observations of a data file's table: one row per non-blank year cell of a line read. */
function observationsSql(lined: string, head: CsvHead): string {
  const years = `[${head.years.join(', ')}]`;
  return `SELECT indicator_code, indicator_name, country_code, country_name, ${years}[CAST(cell[2:] AS INTEGER) + 1] AS year, value, line
    FROM (UNPIVOT (SELECT * FROM ${lined} WHERE ok) ON COLUMNS('^y[0-9]+$') INTO NAME cell VALUE value) WHERE value <> ''`;
}

export interface StagedWdiCsv {
  summary: WdiFileSummary;
  /** A data file: the query of its observations (indicator_code, indicator_name, country_code, country_name, year, value as text, line). */
  observations: string | null;
  drop: () => Promise<void>;
}

let fileCounter = 0;

/** Reads a WDI CSV with DuckDB into a scratch table of `db` (data lines checked in SQL); throws MalformedSourceError on any problem. */
async function stageWdiCsv(db: Database, path: string, file: string): Promise<StagedWdiCsv> {
  const head = readHead(await readCsvHead(path, 20), file);
  const options = { skipLines: head.headerLine, fields: head.headerWidth, padShortRecords: true };
  const table = `wdi_file_${++fileCounter}`;
  if (head.kind !== 'data') {
    const raw = await readCsvInto(db, path, table, options);
    try {
      const bad = raw.firstBadRecord;
      const rows = await db.all(`SELECT * FROM ${raw.lined} ${bad?.line ? 'WHERE line < $before' : ''} ORDER BY line`, bad?.line ? { before: bad.line } : {});
      const summary = readMetadata(rows, head, file);
      if (bad) throw badRecordError(bad, head, file);
      return { summary, observations: null, drop: async () => undefined };
    } finally {
      await raw.drop();
    }
  }
  const { read } = await stageCsv(db, {
    file, path, table, csv: options,
    query: (source) => dataSql(source, head),
    badRecord: (bad) => badRecordError(bad, head, file),
    merge: { update: ['country_name', 'country_code', 'indicator_name', 'indicator_code', ...head.years.map((_, i) => `y${i}`)] },
    reader: (fields, line) => {
      const record = presentFields(fields);
      checkWidth(record, line, head, file);
      dataObservations(record, line, head, file, head.vintage);
      // The line's cells as Number() reads them.
      const cells = record.map((c) => c.trim());
      return [...cells.slice(0, 4), ...head.years.map((_, i) => (cells[i + 4] === '' ? '' : String(Number(cells[i + 4]))))];
    },
    uniqueKey: {
      columns: [['indicator_code', 'indicator_code'], ['country_code', 'country_code']],
      problem: (repeated) => new MalformedCellError(file, repeated.line, 2, 'Country Code', `${repeated.key.country_code} ${repeated.key.indicator_code} also on line ${repeated.firstLine}`),
    },
  });
  try {
    // Names in file order: the first a code is given with.
    const names = async (code: string, name: string) => new Map((await db.all(
      `SELECT ${code} AS code, arg_min(${name}, line) AS name FROM ${read.lined} GROUP BY ${code} ORDER BY min(line)`,
    )).map((r) => [String(r.code), String(r.name)]));
    const [{ n }] = await db.all(`SELECT count(*)::INTEGER AS n FROM (${observationsSql(read.lined, head)})`);
    const summary: WdiDataSummary = {
      kind: 'data', file, format: 'wdi-bulk-csv', vintage: head.vintage, indicators: await names('indicator_code', 'indicator_name'),
      countries: await names('country_code', 'country_name'), observationCount: Number(n), page: null, pages: null,
    };
    return { summary, observations: observationsSql(read.lined, head), drop: read.drop };
  } catch (error) {
    await read.drop();
    throw error;
  }
}

/** A record DuckDB could not read, as the JavaScript reader named it. */
function badRecordError(bad: BadRecord, head: CsvHead, file: string): MalformedSourceError {
  const found = /Found: (\d+)/.exec(bad.message)?.[1];
  if (bad.kind === 'TOO MANY COLUMNS' && found && bad.line !== null) {
    return new MalformedCellError(file, bad.line, head.headerWidth + 1, null, `the line has ${found} cells, the header ${head.headerWidth}`);
  }
  return new MalformedSourceError(file, bad.line, `not valid CSV: ${bad.message}`);
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
 * Reads one WDI file (bulk CSV, Metadata_Country / Metadata_Indicator CSV or JSON API page) into `db`:
 * a CSV through DuckDB (its observations are the returned query, over scratch tables `drop` removes),
 * a JSON page in JavaScript (its observations go to onBatch). Throws MalformedSourceError on any problem.
 */
export async function stageWdiFile(
  db: Database,
  path: string,
  onBatch: (batch: WdiObservation[]) => void | Promise<void>,
): Promise<StagedWdiCsv> {
  const file = basename(path);
  const first = await firstNonBlankChar(path);
  if (first === '') throw new MalformedSourceError(file, null, 'the file is empty');
  if (first === '[' || first === '{') return { summary: await readJson(path, file, onBatch), observations: null, drop: async () => undefined };
  return stageWdiCsv(db, path, file);
}

/** Reads a whole file into memory (tests, small files). */
export async function parseWdiFile(path: string): Promise<WdiFileSummary & { observations: WdiObservation[] }> {
  const db = await Database.open({ connections: 1 });
  try {
    const observations: WdiObservation[] = [];
    const staged = await stageWdiFile(db, path, (batch) => {
      for (const o of batch) observations.push(o);
    });
    if (staged.observations !== null) {
      const vintage = staged.summary.kind === 'data' ? staged.summary.vintage : null;
      for (const r of await db.all(`${staged.observations} ORDER BY line, year`)) {
        observations.push({
          indicator_code: String(r.indicator_code), indicator_name: String(r.indicator_name), country_code: String(r.country_code),
          country_name: String(r.country_name), year: Number(r.year), value: Number(r.value), vintage, line: Number(r.line),
        });
      }
    }
    return { ...staged.summary, observations };
  } finally {
    await db.close();
  }
}
