// Reading a CSV source with DuckDB's read_csv, the way every CSV ingest here needs it: every field as
// text (no type guessing: columns c0..c<n-1> VARCHAR, declared, the sniffer off), each record with the
// line it ends on (the header is line 1; blank lines are not records, a quoted line break continues the
// record, exactly as csv-parse numbered them), and the first record DuckDB could not read (too many or
// too few fields, a stray quote, invalid UTF-8) by line. A source's ingest then normalises and checks
// the staged text in SQL. Ingest runs in a scratch database of its own, before any lockDown, so
// read_csv may open the operator's file; its path is written as an escaped literal (read_csv cannot
// bind one), never concatenated raw.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { parse } from 'csv-parse';
import type { Database } from '../engine/database.ts';
import type { Row } from '../engine/json.ts';
import { sqlStringLiteral } from '../engine/parquet.ts';
import { boundPassed, ingestBounds } from './bounds.ts';

/** The characters String.prototype.trim removes (ECMAScript WhiteSpace and LineTerminator). */
export const JS_WHITESPACE = '\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';

/** SQL for `text.trim()` of JavaScript (DuckDB's one-argument trim removes spaces only). Slow: see trimCheckedSql. */
export function jsTrimSql(expression: string): string {
  return `trim(${expression}, ${sqlStringLiteral(JS_WHITESPACE)})`;
}

/**
 * SQL for `CAST(<text> AS DECIMAL(precision, scale))` that gives the same value faster: DuckDB parses
 * text into a DECIMAL wider than 18 digits about a hundred times slower than into DECIMAL(18, scale),
 * so a text with at most 15 digits before the point (it cannot round past 18) goes through the narrow
 * type. `expression` must be a number's text (checked) or NULL.
 */
export function decimalFromTextSql(expression: string, precision: number, scale: number): string {
  if (precision <= 18) return `CAST(${expression} AS DECIMAL(${precision}, ${scale}))`;
  return `CASE WHEN length(split_part(ltrim(${expression}, '+-'), '.', 1)) <= ${18 - scale - 1} ` +
    `THEN CAST(CAST(${expression} AS DECIMAL(18, ${scale})) AS DECIMAL(${precision}, ${scale})) ` +
    `ELSE CAST(${expression} AS DECIMAL(${precision}, ${scale})) END`;
}

/** An RE2 class of the characters in JS_WHITESPACE (JavaScript's \\s). */
export const JS_WHITESPACE_CLASS = '[\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}]';
const FIELD_SEPARATOR = '\u001f';

/**
 * The records of `source` (fields c0..c<fields-1>) with `needs_trim`: whether any field (of `only`,
 * when given) starts or ends with whitespace. One regular expression over the joined fields per record
 * is far cheaper than a check per field, and almost no record needs trimming (trimmedFieldSql reads it).
 */
export function trimCheckedSql(source: string, fields: number, only?: readonly number[]): string {
  const checked = only ?? Array.from({ length: fields }, (_, i) => i);
  const joined = `concat_ws('${FIELD_SEPARATOR}', ${checked.map((i) => `c${i}`).join(', ')})`;
  const edge = `(^|${FIELD_SEPARATOR})${JS_WHITESPACE_CLASS}|${JS_WHITESPACE_CLASS}(${FIELD_SEPARATOR}|$)`;
  return `(SELECT *, regexp_matches(${joined}, '${edge}') AS needs_trim FROM ${source})`;
}

/**
 * SQL for a field trimmed like JavaScript's trim(), over trimCheckedSql's records: the column's text
 * ('' for a field a short record lacks), or '' when the file has no such column.
 */
export function trimmedFieldSql(column: number | undefined): string {
  return column === undefined ? "''" : `coalesce(CASE WHEN needs_trim THEN ${jsTrimSql(`c${column}`)} ELSE c${column} END, '')`;
}

/** SQL for an optional field as it is: the column's text ('' for a field a short record lacks), or '' when the file has no such column. */
export function fieldSql(column: number | undefined): string {
  return column === undefined ? "''" : `coalesce(c${column}, '')`;
}

/**
 * SQL for an optional field trimmed like JavaScript's trim(), for a free-text column (one a pattern
 * does not check): the trim runs only on a text that starts or ends with whitespace.
 */
export function jsTrimmedTextSql(column: number | undefined): string {
  if (column === undefined) return "''";
  const c = `c${column}`;
  return `coalesce(CASE WHEN regexp_matches(${c}, '^${JS_WHITESPACE_CLASS}|${JS_WHITESPACE_CLASS}$') THEN ${jsTrimSql(c)} ELSE ${c} END, '')`;
}

export interface CsvHeadRecord {
  record: string[];
  /** 1-based line the record ends on. */
  line: number;
}

/**
 * The first `count` records of a file (its header, and the preamble some sources put above it),
 * read with csv-parse from the top of the file only. Blank lines are skipped; a file shorter than
 * `count` records gives what it has.
 */
export async function readCsvHead(path: string, count: number, options: { delimiter?: string; trim?: boolean } = {}): Promise<CsvHeadRecord[]> {
  const stream = createReadStream(path, { highWaterMark: 16 * 1024 });
  const parser = parse({
    bom: true, skip_empty_lines: true, relax_column_count: true, relax_quotes: true, info: true, to: count,
    delimiter: options.delimiter ?? ',', trim: options.trim ?? false,
  });
  const records: CsvHeadRecord[] = [];
  try {
    for await (const { record, info } of stream.pipe(parser) as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      records.push({ record, line: info.lines });
      if (records.length >= count) break;
    }
  } catch {
    // A head that is not CSV is judged by the caller from what was read (none: an empty or unreadable file).
  } finally {
    stream.destroy();
  }
  return records;
}

export interface RecordLines {
  /** Records after the skipped lines (a blank line is not a record). */
  records: number;
  /** Where the numbering jumps: from record `index` on, record i ends on line `line + (i - index)` (none for an empty file). */
  breaks: Array<{ index: number; line: number }>;
}

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const QUOTE = 0x22;

/**
 * The line each record ends on, as csv-parse numbers them (quote '"', a doubled quote inside quotes
 * is one quote, blank lines skipped; inside quotes csv-parse counts the CR and the LF of a CRLF as a
 * line each), after the first `skipLines` physical lines. Streams the bytes once; only the places
 * where numbering jumps (a blank line, a quoted line break) are kept.
 */
export async function scanRecordLines(path: string, skipLines: number): Promise<RecordLines> {
  let line = 0;
  let inQuotes = false;
  let lineHasContent = false;
  let recordHasContent = false;
  let records = 0;
  let offset = Number.NaN;
  const breaks: RecordLines['breaks'] = [];
  let previousByte = -1;
  const endLine = (crBefore: boolean) => {
    line += inQuotes && crBefore ? 2 : 1;
    if (line <= skipLines) {
      inQuotes = false;
      lineHasContent = false;
      return;
    }
    if (lineHasContent) recordHasContent = true;
    lineHasContent = false;
    if (inQuotes || !recordHasContent) return;
    recordHasContent = false;
    if (line - records !== offset) {
      offset = line - records;
      breaks.push({ index: records, line });
    }
    records++;
  };
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) {
    const bytes = chunk as Buffer;
    let position = 0;
    let nextQuote = bytes.indexOf(QUOTE);
    while (position <= bytes.length) {
      const newline = bytes.indexOf(NEWLINE, position);
      const end = newline < 0 ? bytes.length : newline;
      if (end > position && !lineHasContent) lineHasContent = end - position > 1 || bytes[position] !== CARRIAGE_RETURN;
      while (nextQuote >= 0 && nextQuote < end) {
        inQuotes = !inQuotes;
        nextQuote = bytes.indexOf(QUOTE, nextQuote + 1);
      }
      if (newline < 0) break;
      endLine((newline > 0 ? bytes[newline - 1] : previousByte) === CARRIAGE_RETURN);
      position = newline + 1;
    }
    if (bytes.length > 0) previousByte = bytes[bytes.length - 1]!;
  }
  // The last line, when the file does not end with a line break (an unterminated quote ends it too).
  if (lineHasContent || recordHasContent) {
    inQuotes = false;
    endLine(false);
  }
  return { records, breaks };
}

export interface CsvStageOptions {
  /** Physical lines above the first record: the header and any preamble. */
  skipLines: number;
  /** Fields per record: the header's. */
  fields: number;
  /** Default ','. */
  delimiter?: string;
  /** A record with fewer fields is padded with NULLs (csv-parse's relax_column_count) instead of refused. */
  padShortRecords?: boolean;
  /**
   * Bytes that are not UTF-8: 'replace' reads them as U+FFFD (what csv-parse does), 'refuse' makes
   * the record a bad one. Default 'replace'.
   */
  invalidUtf8?: 'replace' | 'refuse';
}

/** A record DuckDB could not read. */
export interface BadRecord {
  /** 1-based line the record starts on (null when the reader and the line scan disagree). */
  line: number | null;
  /** DuckDB's kind of error: TOO MANY COLUMNS, MISSING COLUMNS, UNQUOTED VALUE, INVALID ENCODING, ... */
  kind: string;
  /** The record's text as DuckDB saw it. */
  text: string;
  message: string;
}

export interface CsvTable {
  /** The table: the SELECT list's columns, one row per record read, in file order. */
  table: string;
  /** A view of the table with `line` (INTEGER, the line each record ends on) and `row_index` (the table's rowid) before its columns. */
  lined: string;
  /** Records read (bad records not counted). */
  records: number;
  /** The first record DuckDB could not read, or null. Lines of the records after it may be off: the first problem wins. */
  firstBadRecord: BadRecord | null;
  /** Drops the table, the view and the scratch tables of the read. */
  drop: () => Promise<void>;
}

/** A rare character sequence as DuckDB's null string, so that empty fields stay '' and only padding is NULL. */
const NO_NULL_TEXT = '\u0001\u0002';

let readCounter = 0;

/** A query over the records (a FROM-able `source` with the fields c0..c<n-1>): projections only, one row per record in order. */
export type RecordQuery = (source: string) => string;

/**
 * Reads a CSV file's records into a new table of `db` through `query` over the fields c0..c<fields-1>
 * (VARCHAR: a field the record has is text, '' when empty, quoted or not; NULL only pads a short
 * record), so a source reads and normalises in one pass. The query must keep one row per record, in
 * order (no filter, join or aggregate): row i of the table is record i. The caller has read the
 * header (readCsvHead) to know `skipLines` and `fields`.
 */
export async function readCsvInto(db: Database, path: string, table: string, options: CsvStageOptions, query: RecordQuery = (source) => `SELECT * FROM ${source}`): Promise<CsvTable> {
  const read = await readOnce(db, path, table, options, query);
  if (read.firstBadRecord?.kind !== 'INVALID ENCODING' || (options.invalidUtf8 ?? 'replace') !== 'replace') return read;
  // csv-parse reads bytes that are not UTF-8 as U+FFFD: so does a UTF-8 copy made the same way.
  await read.drop();
  return withUtf8Copy(path, 'utf-8', (copy) => readOnce(db, copy, table, options, query));
}

/**
 * The fields of some records (by line, see readCsvInto) as text, with `line`, in file order: the rows
 * a source's SQL did not read itself go to its JavaScript row reader. Reads the file again; none
 * asked, nothing read.
 */
export async function rawRecords(db: Database, path: string, options: CsvStageOptions, lines: readonly number[]): Promise<Row[]> {
  if (lines.length === 0) return [];
  const raw = await readCsvInto(db, path, `csv_raw_${++readCounter}`, options);
  try {
    return await db.all(`SELECT * FROM ${raw.lined} WHERE line IN (SELECT unnest(CAST($lines AS INTEGER[]))) ORDER BY line`, { lines: `[${lines.join(',')}]` });
  } finally {
    await raw.drop();
  }
}

async function readOnce(db: Database, path: string, table: string, options: CsvStageOptions, query: RecordQuery): Promise<CsvTable> {
  const id = `csv_read_${++readCounter}`;
  const rejects = `${id}_rejects`;
  const scans = `${id}_scans`;
  const lined = `${table}_lined`;
  const columns = Array.from({ length: options.fields }, (_, i) => `'c${i}': 'VARCHAR'`).join(', ');
  const read = `read_csv(${sqlStringLiteral(path)}, columns = {${columns}}, header = false, skip = ${options.skipLines},
    auto_detect = false, delim = ${sqlStringLiteral(options.delimiter ?? ',')}, quote = '"', escape = '"',
    nullstr = ${sqlStringLiteral(NO_NULL_TEXT)}, allow_quoted_nulls = false, null_padding = ${options.padShortRecords ? 'true' : 'false'},
    max_line_size = ${ingestBounds().maxCellBytes},
    store_rejects = true, rejects_table = '${rejects}', rejects_scan = '${scans}')`;
  // One statement (each costs a round trip).
  const drop = () => db.run([
    `DROP VIEW IF EXISTS ${lined}`, `DROP TABLE IF EXISTS ${table}`, `DROP TABLE IF EXISTS ${id}_breaks`,
    `DROP TABLE IF EXISTS temp.${rejects}`, `DROP TABLE IF EXISTS temp.${scans}`,
  ].join('; '));
  try {
    // DuckDB reads on its threads while the line scan runs on this one. The table keeps the file's
    // order (insertion order is preserved), so rowid i is the i-th record read.
    const [lines] = await Promise.all([scanRecordLines(path, options.skipLines), db.run(`CREATE TABLE ${table} AS ${query(read)}`)]);
    // The count and the first reject in one statement.
    const [{ n, at, kind, text, message }] = await db.all(
      `SELECT (SELECT count(*) FROM ${table})::INTEGER AS n, r.* FROM (SELECT 1) LEFT JOIN (
         SELECT line_byte_position::BIGINT AS at, error_type::VARCHAR AS kind, csv_line AS text, error_message AS message
           FROM temp.${rejects} ORDER BY byte_position, line_byte_position LIMIT 1) r ON true`,
    );
    const records = Number(n);
    const reject = at === null ? undefined : { at, kind, text, message };
    let firstBadRecord: BadRecord | null = null;
    if (reject) {
      firstBadRecord = {
        line: await lineAtByte(path, Number(reject.at)), kind: String(reject.kind), text: String(reject.text).replace(/^\r?\n/, ''), message: String(reject.message),
      };
      if (firstBadRecord.kind === 'LINE SIZE OVER MAXIMUM') firstBadRecord.message = boundPassed('maxCellBytes', 'a record too long');
    } else if (records !== lines.records) {
      firstBadRecord = {
        line: null, kind: 'RECORD COUNT', text: '',
        message: `DuckDB read ${records} record(s) where the line scan found ${lines.records} (a quote inside an unquoted field?)`,
      };
    }
    // The line of record i: one offset per stretch between jumps.
    if (lines.breaks.length <= 1) {
      const [only] = lines.breaks;
      const shift = only ? only.line - only.index : options.skipLines + 1;
      await db.run(`CREATE VIEW ${lined} AS SELECT (rowid + ${shift})::INTEGER AS line, rowid AS row_index, * FROM ${table}`);
    } else {
      await db.run(`CREATE TABLE ${id}_breaks (record_index INTEGER, shift INTEGER)`);
      await db.appendRows(`${id}_breaks`, lines.breaks.map((b) => [b.index, b.line - b.index]));
      await db.run(`CREATE VIEW ${lined} AS SELECT (t.rowid + b.shift)::INTEGER AS line, t.rowid AS row_index, t.*
        FROM ${table} t ASOF JOIN ${id}_breaks b ON t.rowid >= b.record_index`);
    }
    return { table, lined, records, firstBadRecord, drop };
  } catch (error) {
    await drop();
    throw error;
  }
}

/**
 * A bad record's problem in csv-parse's words where they say the same ("Invalid Record Length: expect
 * 11, got 12 on line 2"), else DuckDB's.
 */
export function csvParseMessage(bad: BadRecord, expected: number): string {
  const found = /Found: (\d+)/.exec(bad.message)?.[1];
  if ((bad.kind === 'TOO MANY COLUMNS' || bad.kind === 'MISSING COLUMNS') && found !== undefined) {
    return `Invalid Record Length: expect ${expected}, got ${found} on line ${bad.line}`;
  }
  return bad.message;
}

/** 1-based line of a byte position: the line breaks before it, plus one. */
async function lineAtByte(path: string, position: number): Promise<number> {
  let lines = 1;
  if (position <= 0) return lines;
  for await (const chunk of createReadStream(path, { end: position - 1 })) {
    const bytes = chunk as Buffer;
    for (let at = bytes.indexOf(NEWLINE); at >= 0; at = bytes.indexOf(NEWLINE, at + 1)) lines++;
  }
  return lines;
}

/**
 * `use` run on a UTF-8 copy of `file` decoded as `encoding` (DuckDB and the JSON scanner read UTF-8
 * only), the copy removed once it is done.
 */
export async function withUtf8Copy<T>(file: string, encoding: 'utf-8' | 'windows-1251', use: (copy: string) => Promise<T>): Promise<T> {
  const temporary = await mkdtemp(join(tmpdir(), 'utf8-copy-'));
  try {
    const copy = join(temporary, `utf8${extname(file)}`);
    await transcodeToUtf8(file, copy, encoding);
    return await use(copy);
  } finally {
    await rm(temporary, { recursive: true, force: true });
  }
}

/** A UTF-8 copy of a file, decoded as `encoding` (bytes that are not valid become U+FFFD). */
export async function transcodeToUtf8(from: string, to: string, encoding: 'utf-8' | 'windows-1251'): Promise<void> {
  const decoder = new TextDecoder(encoding);
  await pipeline(
    createReadStream(from),
    async function* (chunks: AsyncIterable<Buffer>) {
      for await (const chunk of chunks) yield decoder.decode(chunk, { stream: true });
      yield decoder.decode();
    },
    createWriteStream(to),
  );
}

/** A table's first repeated key, in file order: the line giving it again and the line that gave it first. */
export interface RepeatedKey {
  line: number;
  firstLine: number;
  /** The key columns' values. */
  key: Record<string, unknown>;
}

/**
 * The first row (lowest line) whose key an earlier row already had, among `relation`'s rows; the
 * key columns are given as SQL expressions over the relation (`name AS expression` pairs).
 */
export async function firstRepeatedKey(db: Database, relation: string, key: ReadonlyArray<readonly [string, string]>): Promise<RepeatedKey | null> {
  const names = key.map(([name]) => name).join(', ');
  const rows = await db.all(
    `WITH keyed AS (SELECT line, ${key.map(([name, expression]) => `${expression} AS ${name}`).join(', ')} FROM ${relation}),
       repeated AS (SELECT ${names} FROM keyed GROUP BY ALL HAVING count(*) > 1)
     SELECT line, first_line, ${names} FROM (
       SELECT line, min(line) OVER (PARTITION BY ${names}) AS first_line, ${names} FROM keyed SEMI JOIN repeated USING (${names})
     ) WHERE line > first_line ORDER BY line LIMIT 1`,
  );
  const [row] = rows;
  if (!row) return null;
  const { line, first_line: firstLine, ...values } = row;
  return { line: Number(line), firstLine: Number(firstLine), key: values };
}

/** The problem a reader going through the file in order meets first: the lowest line (ties: the earlier in the list; none last). */
export function firstProblem<T extends { row: number | null }>(problems: readonly T[]): T | undefined {
  return [...problems].sort((a, b) => (a.row ?? Infinity) - (b.row ?? Infinity))[0];
}
