// Parsers of the EU ETS verified emissions per installation, in its two published forms:
//
// 1. The Union Registry's yearly workbook `verified_emissions_<YYYY>_en.xlsx`: a few title rows, then
//    the header row whose first cell is REGISTRY_CODE (never row 1), then one row per installation with
//    REGISTRY_CODE, INSTALLATION_NAME, INSTALLATION_IDENTIFIER, PERMIT_IDENTIFIER, MAIN_ACTIVITY_TYPE_CODE
//    and wide per-year columns VERIFIED_EMISSIONS_<YYYY> and ALLOCATION_<YYYY> (files up to 2016 spell
//    them ALLOCATED_<YYYY>). Markers such as "Excluded", "Not Reported", "-" and blanks are missing
//    values (null), never 0. Other columns (reserve allocations, the 2025 sub-columns) are not kept.
// 2. The relational re-publication (euets.info): `installation.csv`
//    (id,name,addressmain,postalcode,city,country_id,latitudegoogle,longitudegoogle) and `compliance.csv`
//    (installation_id,year,free,emission), where an id is `<REGISTRY>_<IDENTIFIER>`.
//
// Installations are keyed on (registry, identifier): an identifier is unique only within a registry.
// Registry codes are upper-cased; EL is stored as GR (the Union Registry's code for Greece), so both
// spellings are one registry. XI (Northern Ireland) and GB (until 2020) are registries of their own.
import { basename } from 'node:path';
import ExcelJS from 'exceljs';
import { Database } from '../../../engine/database.ts';
import { FieldError } from '../../../ingest/csvRecords.ts';
import { csvParseMessage, readCsvHead, trimCheckedSql } from '../../../ingest/duckdbCsv.ts';
import { MalformedSourceError } from '../../../ingest/errors.ts';
import { csvParseTrim, stageCsv } from '../../../ingest/staging.ts';
import { checkXlsxBounds } from '../../../ingest/zip.ts';

export interface EtsInstallation {
  registry: string;
  identifier: string;
  name: string | null;
  permitIdentifier: string | null;
  activityCode: number | null;
  city: string | null;
  sourceRow: number;
}

export interface EtsYearRow {
  registry: string;
  identifier: string;
  year: number;
  /** Verified emissions, t CO2e; null when missing or a marker. */
  verified: number | null;
  /** Free allocation, allowances; null when missing or a marker. */
  allocation: number | null;
  sourceRow: number;
}

export type EtsFileKind = 'registry-xlsx' | 'eutl-installation-csv' | 'eutl-compliance-csv';

export interface EtsFile {
  kind: EtsFileKind;
  installations: EtsInstallation[];
  years: EtsYearRow[];
}

const REGISTRY = /^[A-Z]{2}$/;
const IDENTIFIER = /^[0-9A-Za-z][0-9A-Za-z._/-]{0,39}$/;
const INTEGER_TEXT = /^-?\d+(\.\d+)?$/;
const MIN_YEAR = 2005;
const MAX_YEAR = 2100;

/** The stored registry code: upper case, EL -> GR (one registry for Greece). */
export function canonicalRegistry(text: string): string {
  const code = text.trim().toUpperCase();
  return code === 'EL' ? 'GR' : code;
}

function registryOf(value: unknown): string {
  const code = canonicalRegistry(String(value ?? ''));
  if (!REGISTRY.test(code)) throw new FieldError(`registry code ${JSON.stringify(value)} is not two letters`);
  return code;
}

function identifierOf(value: unknown): string {
  const text = typeof value === 'number' ? String(value) : String(value ?? '').trim();
  if (!IDENTIFIER.test(text)) throw new FieldError(`installation identifier ${JSON.stringify(value)} is not an identifier`);
  return text;
}

/**
 * A published amount: a number (or numeric text, thousands never separated) rounded to whole tonnes;
 * blanks and markers (Excluded, Not Reported, -, n/a, ...) are null. Negative amounts are refused.
 */
export function amountOf(value: unknown, column: string): number | null {
  if (value === null || value === undefined) return null;
  let number: number;
  if (typeof value === 'number') number = value;
  else {
    const text = String(value).trim();
    if (!INTEGER_TEXT.test(text)) return null;
    number = Number(text);
  }
  if (!Number.isFinite(number)) return null;
  if (number < 0) throw new FieldError(`${column}: negative amount ${number}`);
  return Math.round(number);
}

function textOf(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const text = String(value).trim();
  return text === '' || text === '-' ? null : text;
}

/** A cell's value: formulas give their result, rich text its plain text. */
function cellValue(value: ExcelJS.CellValue): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('formula' in value || 'sharedFormula' in value) return cellValue((value.result ?? null) as ExcelJS.CellValue);
    if ('hyperlink' in value) return value.text;
    if ('error' in value) return null;
  }
  return null;
}

interface WideColumns {
  registry: number;
  identifier: number;
  name: number | null;
  permit: number | null;
  activity: number | null;
  verified: Map<number, number>;
  allocation: Map<number, number>;
}

function wideColumns(header: unknown[], file: string, row: number): WideColumns {
  const names = header.map((cell) => String(cell ?? '').trim().toUpperCase());
  const find = (name: string) => {
    const at = names.indexOf(name);
    return at < 0 ? null : at;
  };
  const registry = find('REGISTRY_CODE');
  const identifier = find('INSTALLATION_IDENTIFIER');
  if (registry === null || identifier === null) {
    throw new MalformedSourceError(file, row, 'the header row lacks REGISTRY_CODE or INSTALLATION_IDENTIFIER');
  }
  const verified = new Map<number, number>();
  const allocation = new Map<number, number>();
  names.forEach((name, column) => {
    let match = /^VERIFIED_EMISSIONS_(\d{4})$/.exec(name);
    if (match) verified.set(Number(match[1]), column);
    match = /^ALLOCAT(?:ION|ED)_(\d{4})$/.exec(name);
    if (match && !allocation.has(Number(match[1]))) allocation.set(Number(match[1]), column);
  });
  if (verified.size === 0) throw new MalformedSourceError(file, row, 'the header row has no VERIFIED_EMISSIONS_<YYYY> column');
  for (const year of [...verified.keys(), ...allocation.keys()]) {
    if (year < MIN_YEAR || year > MAX_YEAR) throw new MalformedSourceError(file, row, `year ${year} of a per-year column is out of range`);
  }
  return { registry, identifier, name: find('INSTALLATION_NAME'), permit: find('PERMIT_IDENTIFIER'), activity: find('MAIN_ACTIVITY_TYPE_CODE'), verified, allocation };
}

/** Rows of a worksheet as arrays of plain values (index 0 = column A), with their sheet row numbers. */
async function* sheetRows(file: string): AsyncGenerator<{ row: number; cells: unknown[] }> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, { sharedStrings: 'cache', hyperlinks: 'ignore', styles: 'ignore', worksheets: 'emit' });
  let first = true;
  for await (const worksheet of reader) {
    if (!first) break; // the first worksheet only
    first = false;
    for await (const row of worksheet as unknown as AsyncIterable<ExcelJS.Row>) {
      const values = row.values as ExcelJS.CellValue[];
      const cells: unknown[] = [];
      for (let column = 1; column < values.length; column++) cells.push(cellValue(values[column]));
      yield { row: row.number, cells };
    }
  }
}

/** The Union Registry's verified emissions workbook. */
export async function parseRegistryXlsx(file: string): Promise<EtsFile> {
  const name = basename(file);
  const installations: EtsInstallation[] = [];
  const years: EtsYearRow[] = [];
  const seen = new Set<string>();
  let columns: WideColumns | null = null;
  // Entries, unzipped bytes, rows, cells and shared strings within ingest/bounds.ts before exceljs streams it.
  await checkXlsxBounds(file, name);
  try {
    for await (const { row, cells } of sheetRows(file)) {
      if (columns === null) {
        if (String(cells[0] ?? '').trim().toUpperCase() === 'REGISTRY_CODE') columns = wideColumns(cells, name, row);
        continue;
      }
      if (cells.every((cell) => cell === null || String(cell).trim() === '')) continue;
      try {
        const registry = registryOf(cells[columns.registry]);
        const identifier = identifierOf(cells[columns.identifier]);
        const key = `${registry}\u0000${identifier}`;
        if (seen.has(key)) throw new FieldError(`installation ${registry} ${identifier} appears twice`);
        seen.add(key);
        const at = (column: number | null) => (column === null ? null : cells[column]);
        const activity = amountOf(at(columns.activity), 'MAIN_ACTIVITY_TYPE_CODE');
        installations.push({
          registry, identifier, name: textOf(at(columns.name)), permitIdentifier: textOf(at(columns.permit)), activityCode: activity, city: null, sourceRow: row,
        });
        const allYears = [...new Set([...columns.verified.keys(), ...columns.allocation.keys()])].sort((a, b) => a - b);
        for (const year of allYears) {
          const verified = amountOf(at(columns.verified.get(year) ?? null), `VERIFIED_EMISSIONS_${year}`);
          const allocation = amountOf(at(columns.allocation.get(year) ?? null), `ALLOCATION_${year}`);
          if (verified === null && allocation === null) continue;
          years.push({ registry, identifier, year, verified, allocation, sourceRow: row });
        }
      } catch (error) {
        if (error instanceof FieldError) throw new MalformedSourceError(name, row, error.message);
        throw error;
      }
    }
  } catch (error) {
    if (error instanceof MalformedSourceError) throw error;
    throw new MalformedSourceError(name, null, `not a readable XLSX workbook: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (columns === null) throw new MalformedSourceError(name, null, 'no header row starting with REGISTRY_CODE in the first worksheet');
  return { kind: 'registry-xlsx', installations, years };
}

/** `AT_214400` -> registry AT, identifier 214400 (split at the first underscore). */
export function splitInstallationId(id: string): { registry: string; identifier: string } {
  const at = id.indexOf('_');
  if (at < 0) throw new FieldError(`installation id ${JSON.stringify(id)} is not <REGISTRY>_<IDENTIFIER>`);
  return { registry: registryOf(id.slice(0, at)), identifier: identifierOf(id.slice(at + 1)) };
}

const INSTALLATION_HEADER = ['id', 'name', 'addressmain', 'postalcode', 'city', 'country_id'];
const COMPLIANCE_HEADER = ['installation_id', 'year', 'free', 'emission'];

/** Which relational CSV a header is (by column names), or null. */
function csvKind(header: string[]): EtsFileKind | null {
  const names = new Set(header.map((h) => h.trim().toLowerCase()));
  if (COMPLIANCE_HEADER.every((c) => names.has(c))) return 'eutl-compliance-csv';
  if (['id', 'name', 'city'].every((c) => names.has(c))) return 'eutl-installation-csv';
  return null;
}

/** A relational CSV's rows read in JavaScript: the rows the SQL leaves to it (see stageEutlCsv). */
function eutlRowReader(kind: EtsFileKind, index: Map<string, number>, seen: Set<string>) {
  return (record: string[], line: number): EtsInstallation | EtsYearRow => {
    const get = (column: string) => record[index.get(column)!]!;
    if (kind === 'eutl-compliance-csv') {
      const { registry, identifier } = splitInstallationId(get('installation_id'));
      const yearText = get('year');
      if (!/^\d{4}$/.test(yearText) || Number(yearText) < MIN_YEAR || Number(yearText) > MAX_YEAR) throw new FieldError(`year ${JSON.stringify(yearText)} is not a year from ${MIN_YEAR}`);
      const key = `${registry}\u0000${identifier}\u0000${yearText}`;
      if (seen.has(key)) throw new FieldError(`installation ${registry} ${identifier} has year ${yearText} twice`);
      seen.add(key);
      return { registry, identifier, year: Number(yearText), verified: amountOf(get('emission'), 'emission'), allocation: amountOf(get('free'), 'free'), sourceRow: line };
    }
    const { registry, identifier } = splitInstallationId(get('id'));
    const key = `${registry}\u0000${identifier}`;
    if (seen.has(key)) throw new FieldError(`installation ${registry} ${identifier} appears twice`);
    seen.add(key);
    return { registry, identifier, name: textOf(get('name')), permitIdentifier: null, activityCode: null, city: textOf(get('city')), sourceRow: line };
  };
}

// The relational CSVs in SQL: a row with no field starting or ending with whitespace (csv-parse trims
// fewer characters than JavaScript's trim), an id `<2 letters>_<identifier>`, a year of four digits and
// amounts that are whole numbers or markers is read by the SQL (the same values); every other row goes
// through eutlRowReader, which reads it or names the problem.
const ID_SQL = "'[A-Za-z]{2}_[0-9A-Za-z][0-9A-Za-z._/-]{0,39}'";

/** Registry and identifier of an id the SQL reads (ID_SQL): upper case, EL -> GR. */
const ID_PARTS_SQL = (id: string) => `CASE upper(${id}[1:2]) WHEN 'EL' THEN 'GR' ELSE upper(${id}[1:2]) END AS registry, ${id}[4:] AS identifier`;

/** amountOf in SQL for the forms it reads: a whole number of up to 15 digits (as text), or a marker (NULL). */
const AMOUNT_READ = (v: string) => `(regexp_full_match(${v}, '\\d{1,15}') OR NOT regexp_full_match(${v}, '-?\\d+(\\.\\d+)?'))`;
const AMOUNT_SQL = (v: string) => `CASE WHEN regexp_full_match(${v}, '\\d{1,15}') THEN CAST(CAST(${v} AS BIGINT) AS VARCHAR) END`;

function eutlSql(source: string, kind: EtsFileKind, index: Map<string, number>, fields: number): string {
  const field = (column: string) => `coalesce(c${index.get(column)!}, '')`;
  if (kind === 'eutl-compliance-csv') {
    return `SELECT NOT needs_trim AND regexp_full_match(${field('installation_id')}, ${ID_SQL})
        AND regexp_full_match(${field('year')}, '\\d{4}') AND ${field('year')} BETWEEN '${MIN_YEAR}' AND '${MAX_YEAR}'
        AND ${AMOUNT_READ(field('emission'))} AND ${AMOUNT_READ(field('free'))} AS ok,
      ${ID_PARTS_SQL(field('installation_id'))}, TRY_CAST(${field('year')} AS INTEGER) AS year,
      ${AMOUNT_SQL(field('emission'))} AS verified, ${AMOUNT_SQL(field('free'))} AS allocation
    FROM ${trimCheckedSql(source, fields)}`;
  }
  const text = (column: string) => `CASE WHEN ${field(column)} IN ('', '-') THEN NULL ELSE ${field(column)} END`;
  return `SELECT NOT needs_trim AND regexp_full_match(${field('id')}, ${ID_SQL}) AS ok,
      ${ID_PARTS_SQL(field('id'))}, ${text('name')} AS name, ${text('city')} AS city
    FROM ${trimCheckedSql(source, fields)}`;
}

/** A relational CSV staged in a scratch table (one row per record: `ok` and the row's values). */
export interface StagedEutlCsv {
  kind: 'eutl-installation-csv' | 'eutl-compliance-csv';
  /** The table with each record's `line` and `row_index` first; the file's rows are those WHERE ok. */
  lined: string;
  rows: number;
  drop: () => Promise<void>;
}

/** The staged columns of each relational kind, after line (verified and allocation as the text of whole numbers). */
export const STAGED_EUTL_COLUMNS = {
  'eutl-compliance-csv': ['registry', 'identifier', 'year', 'verified', 'allocation'],
  'eutl-installation-csv': ['registry', 'identifier', 'name', 'city'],
} as const;

let fileCounter = 0;

/** installation.csv or compliance.csv of the relational re-publication (told apart by their header), read by DuckDB into `db`. */
export async function stageEutlCsv(db: Database, file: string): Promise<StagedEutlCsv> {
  const name = basename(file);
  const [head] = await readCsvHead(file, 1, { trim: true });
  if (!head) throw new MalformedSourceError(name, null, 'the file is empty');
  const kind = csvKind(head.record);
  if (kind === null || kind === 'registry-xlsx') {
    throw new MalformedSourceError(name, head.line, `header is neither installation.csv (${INSTALLATION_HEADER.join(',')}, ...) nor compliance.csv (${COMPLIANCE_HEADER.join(',')})`);
  }
  const index = new Map(head.record.map((h, i) => [h.trim().toLowerCase(), i]));
  const width = head.record.length;
  const reader = eutlRowReader(kind, index, new Set());
  const { read } = await stageCsv(db, {
    file: name, path: file, table: `eutl_file_${++fileCounter}`,
    csv: { skipLines: head.line, fields: width },
    query: (source) => eutlSql(source, kind, index, width),
    badRecord: (bad) => new MalformedSourceError(name, bad.line, csvParseMessage(bad, width)),
    merge: { update: STAGED_EUTL_COLUMNS[kind] },
    reader: (record, line) => {
      const r = reader(record.map((field) => csvParseTrim(field ?? '')), line);
      return 'year' in r
        ? [r.registry, r.identifier, r.year, r.verified === null ? null : String(r.verified), r.allocation === null ? null : String(r.allocation)]
        : [r.registry, r.identifier, r.name, r.city];
    },
    uniqueKey: {
      columns: (kind === 'eutl-compliance-csv' ? ['registry', 'identifier', 'year'] : ['registry', 'identifier']).map((c) => [c, c] as const),
      problem: ({ line, key: { registry, identifier, year } }) => new MalformedSourceError(name, line, kind === 'eutl-compliance-csv'
        ? `installation ${registry} ${identifier} has year ${year} twice` : `installation ${registry} ${identifier} appears twice`),
    },
  });
  try {
    const [{ n }] = await db.all(`SELECT count(*)::INTEGER AS n FROM ${read.table} WHERE ok`);
    return { kind, lined: read.lined, rows: Number(n), drop: read.drop };
  } catch (error) {
    await read.drop();
    throw error;
  }
}

/** installation.csv or compliance.csv (see stageEutlCsv), read into rows. */
export async function parseEutlCsv(file: string): Promise<EtsFile> {
  const db = await Database.open({ connections: 1 });
  try {
    const staged = await stageEutlCsv(db, file);
    const rows = await db.all(`SELECT * FROM ${staged.lined} WHERE ok ORDER BY line`);
    if (staged.kind === 'eutl-compliance-csv') {
      const years = rows.map((r): EtsYearRow => ({
        registry: String(r.registry), identifier: String(r.identifier), year: Number(r.year),
        verified: r.verified === null ? null : Number(r.verified), allocation: r.allocation === null ? null : Number(r.allocation), sourceRow: Number(r.line),
      }));
      return { kind: staged.kind, installations: [], years };
    }
    const installations = rows.map((r): EtsInstallation => ({
      registry: String(r.registry), identifier: String(r.identifier), name: r.name === null ? null : String(r.name),
      permitIdentifier: null, activityCode: null, city: r.city === null ? null : String(r.city), sourceRow: Number(r.line),
    }));
    return { kind: staged.kind, installations, years: [] };
  } finally {
    await db.close();
  }
}

/** Either form, by extension: .xlsx is the registry workbook, .csv a relational file. */
export async function parseEtsFile(file: string): Promise<EtsFile> {
  if (/\.xlsx$/i.test(file)) return parseRegistryXlsx(file);
  if (/\.csv$/i.test(file)) return parseEutlCsv(file);
  throw new MalformedSourceError(basename(file), null, 'not an .xlsx registry workbook nor an installation.csv / compliance.csv');
}
