// JSON sources read through DuckDB: a file's top-level array of objects becomes a table in the ingest's
// scratch database in one read_json statement (explicit columns, each kept as JSON so that a value's
// type stays known, and the element's 1-based position), so that the source's checks and conversions
// run in SQL. What DuckDB's reader refuses (a syntax error, an element that is not an object, a repeated
// key, bytes that are not UTF-8) or reads where JSON.parse would not (NaN, Infinity) is left to
// streamJsonArray: a byte scanner that hands each element to JSON.parse, so the source's own JavaScript
// checks decide, with the same messages, and no export is ever held in one string.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Database } from '../engine/database.ts';
import { sqlStringLiteral } from '../engine/parquet.ts';
import type { NewFile } from './commit.ts';
import { IngestRejectedError, MalformedSourceError } from './errors.ts';

// JSON's structural bytes.
const SPACE = 0x20, TAB = 0x09, LF = 0x0a, CR = 0x0d, QUOTE = 0x22, BACKSLASH = 0x5c, COMMA = 0x2c;
const OPEN_ARRAY = 0x5b, CLOSE_ARRAY = 0x5d, OPEN_OBJECT = 0x7b, CLOSE_OBJECT = 0x7d;
const isSpace = (b: number) => b === SPACE || b === TAB || b === LF || b === CR;

/** The largest single element read_json accepts (an element, not the file: arrays are read element by element). */
const MAXIMUM_OBJECT_SIZE = 256 * 1024 * 1024;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A key of the source's objects, as a quoted SQL identifier (keys are checked to be plain identifiers). */
export function jsonKeyColumn(key: string): string {
  if (!IDENTIFIER.test(key)) throw new Error(`JSON key "${key}" is not a plain identifier`);
  return `"${key}"`;
}

/**
 * The FROM-able read of a file's top-level array of objects: `ordinal` (INTEGER, the element's 1-based
 * position) then one column per key, named as the key; a key absent from an object or null in it reads
 * as NULL. As VARCHAR a string reads as its text and any other value as DuckDB prints it (20, 1.5,
 * true, {"k":1}: see NOT_PLAINLY_TEXT); as JSON every value reads as its JSON text. DuckDB refuses,
 * when the statement runs, a file that is not such an array (invalid JSON, an element that is not an
 * object, a repeated key, bytes that are not UTF-8): see runJsonRead.
 */
export function jsonArraySource(file: string, keys: readonly string[], as: 'VARCHAR' | 'JSON'): string {
  const columns = keys.map((key) => `${sqlStringLiteral(key)}: '${as}'`).join(', ');
  return `(SELECT CAST(ordinality AS INTEGER) AS ordinal, ${keys.map(jsonKeyColumn).join(', ')}
    FROM read_json(${sqlStringLiteral(file)}, format = 'array', records = true, columns = {${columns}}, maximum_object_size = ${MAXIMUM_OBJECT_SIZE})
    WITH ORDINALITY)`;
}

/**
 * Runs a statement that reads a JSON file (jsonArraySource); returns DuckDB's reason when it fails
 * (the caller then reads the file with streamJsonArray, whose JSON.parse decides), else null.
 */
export async function runJsonRead(db: Database, sql: string): Promise<string | null> {
  try {
    await db.run(sql);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** The element at a 1-based position of the file's top-level array, as JSON.parse gives it (for exact messages about one element). */
export async function jsonArrayElement(db: Database, file: string, ordinal: number): Promise<unknown> {
  const rows = await db.all(
    `SELECT json FROM read_json_objects(${sqlStringLiteral(file)}, format = 'array', maximum_object_size = ${MAXIMUM_OBJECT_SIZE}) ` +
      'WITH ORDINALITY WHERE ordinality = $ordinal',
    { ordinal },
  );
  if (rows.length !== 1) throw new Error(`${file}: no element ${ordinal}`);
  return JSON.parse(String(rows[0]!.json));
}

const FIRST_READ = Symbol('first element read');

/**
 * The first element of the file's top-level array, read from the file's first bytes only; null when
 * there is none to be had that way (an empty array, another top-level value, a syntax error before it
 * ends): the caller's streamed reading then says which.
 */
export async function firstJsonArrayElement(file: string): Promise<{ value: unknown } | null> {
  let first: { value: unknown } | null = null;
  try {
    await streamJsonArray(file, (value) => {
      first = { value };
      throw FIRST_READ;
    });
  } catch (error) {
    if (error !== FIRST_READ && !(error instanceof JsonSyntaxError)) throw error;
  }
  return first;
}

/** The values of one row read by jsonArraySource (JSON text per key) as the object JSON.parse would give, keys with null or absent values left out. */
export function objectOfJsonColumns(row: Readonly<Record<string, unknown>>, keys: readonly string[]): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const key of keys) {
    const text = row[key];
    if (text !== null && text !== undefined) object[key] = JSON.parse(String(text));
  }
  return object;
}

/**
 * Rows of a query, read in pages ordered by `ordinal` (`sql` must select it and take `$after`:
 * `... WHERE ordinal > $after ORDER BY ordinal LIMIT $limit`), so that no result is held whole.
 */
export async function* pagesByOrdinal(db: Database, sql: string, pageSize = 10_000): AsyncGenerator<Record<string, unknown>> {
  let after = 0;
  for (;;) {
    const rows = await db.all(sql, { after, limit: pageSize });
    for (const row of rows) yield row;
    if (rows.length < pageSize) return;
    after = Number(rows[rows.length - 1]!.ordinal);
  }
}

// JavaScript's \s and String.prototype.trim set (WhiteSpace and LineTerminator) but the space, as RE2.
const JS_WHITESPACE_BUT_SPACE = '\\t\\n\\x{0B}\\f\\r\\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}';

/** SQL: the values joined, each between two chr(1) (NULL as ''), for one regular expression over a row's fields. */
export function sqlFieldList(values: readonly string[]): string {
  return `concat(chr(1), ${values.join(', chr(1), ')}, chr(1))`;
}

/**
 * RE2 over a sqlFieldList of VARCHAR-read values: some value is not plainly a string's text, for it
 * may be DuckDB's print of a value JSON.parse reads otherwise: a number with a fraction or an exponent
 * (1.50 prints "1.5" where JavaScript's String gives "1.5" too, but 1e3 prints "1000.0"), an integer of
 * 16 digits or more (JavaScript may round it), true or false, an object or an array, or the NaN and
 * Infinity DuckDB accepts and JSON.parse refuses. A plain integer prints alike both ways.
 */
export const NOT_PLAINLY_TEXT =
  '\\x{01}(?:true|false|[\\[{][^\\x{01}]*|-?(?:0|[1-9]\\d*)(?:\\.\\d+(?:[eE][+-]?\\d+)?|[eE][+-]?\\d+)|-?[1-9]\\d{15,}|(?i:[+-]?(?:nan|inf|infinity)))\\x{01}';

/** RE2 over a sqlFieldList: some value differs from its JavaScript `trim().replace(/\s+/g, ' ')` (other whitespace than single inner spaces). */
export const NOT_TIDY = `[${JS_WHITESPACE_BUT_SPACE}]|  |\\x{01} | \\x{01}`;

/** SQL: JavaScript's `text.trim().replace(/\s+/g, ' ')`, '' as NULL. */
export function sqlJsTrimCollapse(text: string): string {
  return `nullif(trim(regexp_replace(${text}, '[ ${JS_WHITESPACE_BUT_SPACE}]+', ' ', 'g'), ' '), '')`;
}

/** What a JSON reader gets besides the file: whether DuckDB's read of it can be trusted (see jsonFileCheck). */
export interface JsonFileRead {
  /** Resolves true when the file has none of the forms DuckDB reads and JSON.parse refuses. */
  strict: Promise<boolean>;
}

/**
 * parseNewFiles (ingest/commit.ts) for JSON readers that load a file into the scratch database: every
 * file whose bytes were not imported before (nor repeated in the batch) is read by `read`, which gets
 * the files accepted so far; MalformedSourceErrors are collected and IngestRejectedError lists them
 * all. One pass over the bytes gives the hash and the strictness check (jsonFileCheck). When no file
 * is known yet (a first import) that pass runs while DuckDB reads the file (the read of a file
 * repeated in the batch is then handed to `discard`); otherwise before, so that a known file is never read.
 */
export async function readNewJsonFiles<T>(
  files: readonly string[],
  knownHashes: ReadonlySet<string>,
  read: (file: string, accepted: ReadonlyArray<NewFile<T>>, check: JsonFileRead) => Promise<T>,
  discard: (result: T) => Promise<void>,
): Promise<{ parsed: Array<NewFile<T>>; skipped: string[] }> {
  const parsed: Array<NewFile<T>> = [];
  const skipped: string[] = [];
  const problems: MalformedSourceError[] = [];
  const seen = new Set(knownHashes);
  const alongside = knownHashes.size === 0;
  const settled = (promise: Promise<T>) => promise.then((value) => ({ value }), (error: unknown) => ({ error }));
  for (const file of files) {
    const checking = jsonFileCheck(file);
    const strict = checking.then((check) => check.strict, () => false);
    let reading = alongside ? settled(read(file, parsed, { strict })) : null;
    const { hash } = await checking;
    if (seen.has(hash)) {
      skipped.push(file);
      const outcome = reading ? await reading : null;
      if (outcome && 'value' in outcome) await discard(outcome.value);
      continue;
    }
    seen.add(hash);
    reading ??= settled(read(file, parsed, { strict }));
    const outcome = await reading;
    if ('value' in outcome) parsed.push({ file, hash, parsed: outcome.value });
    else if (outcome.error instanceof MalformedSourceError) problems.push(outcome.error);
    else throw outcome.error;
  }
  if (problems.length > 0) throw new IngestRejectedError(problems);
  return { parsed, skipped };
}

const LITERALS = new Set(['true', 'false', 'null']);

/** What one pass over a JSON file's bytes tells (jsonFileCheck). */
export interface JsonFileFacts {
  /** sha256 of the bytes, hex (as sha256OfFile). */
  hash: string;
  /** Free of what DuckDB's JSON reader takes and JSON.parse refuses; see jsonFileCheck. */
  strict: boolean;
  /** The keys of a top-level object as written (escapes decoded), in file order; [] for any other top-level value. */
  topKeys: string[];
}

/**
 * The file's sha256 and whether it is free of what DuckDB's JSON reader takes and JSON.parse refuses:
 * a comma before a closing bracket or brace, a word other than true, false and null outside strings
 * (NaN, Infinity, inf), a top-level array or object that does not end the file (DuckDB reads an array
 * cut after a comma). Not strict: the caller reads the file with JSON.parse semantics (streamJsonArray).
 * A strict file may still be refused by DuckDB, which is stricter elsewhere (UTF-8, repeated keys).
 */
export async function jsonFileCheck(file: string): Promise<JsonFileFacts> {
  const hash = createHash('sha256');
  const scan = new StrictnessScan();
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    if (scan.strict) scan.chunk(chunk);
  }
  return { hash: hash.digest('hex'), ...scan.end() };
}

/** jsonFileCheck's scan, chunk by chunk (a class of its own so that the byte loop is plain, optimisable code). */
class StrictnessScan {
  strict = true;
  private inString = false;
  private escaped = false; // inside a string, the byte after a backslash
  private comma = false;
  private word = '';
  private previous = 0; // the last byte outside strings that is not whitespace
  private opener = 0; // the first byte that is not whitespace (after a BOM)
  private depth = 0;
  private closed = false; // the top-level array or object has ended
  private key: Buffer[] | null = null; // the bytes of a string at depth 1 of a top-level object
  private lastString: string | null = null;
  private readonly topKeys: string[] = [];
  private first = true;

  chunk(buffer: Buffer): void {
    const chunk = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length);
    const length = chunk.length;
    let i = 0;
    if (this.first) {
      this.first = false;
      if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) i = 3;
    }
    // The state in locals for the loop, written back at the end.
    let { inString, escaped, comma, previous, depth, closed, strict } = this;
    while (i < length) {
      if (inString) {
        const start = i;
        for (; i < length; i++) {
          const b = chunk[i]!;
          if (escaped) escaped = false;
          else if (b === BACKSLASH) escaped = true;
          else if (b === QUOTE) break;
        }
        if (this.key && this.key.length < 64) this.key.push(buffer.subarray(start, i));
        if (i === length) break;
        // The closing quote.
        i++;
        inString = false;
        previous = QUOTE;
        if (this.key) {
          this.lastString = Buffer.concat(this.key).toString('utf8');
          this.key = null;
        }
        continue;
      }
      const b = chunk[i++]!;
      const kind = BYTE_KIND[b]!;
      if (kind === SPACE_KIND) continue;
      if (closed) strict = false;
      if (this.opener === 0) this.opener = b;
      if (kind === LETTER_KIND) {
        if (!(this.word === '' && (b === 0x65 || b === 0x45) && previous >= 0x30 && previous <= 0x39)) {
          this.word += String.fromCharCode(b);
          if (this.word.length > 5) strict = false;
          previous = b;
          continue;
        }
      } else if (this.word !== '') {
        if (!LITERALS.has(this.word)) strict = false;
        this.word = '';
      }
      if (kind === CLOSE_KIND) {
        if (comma) strict = false;
        closed = --depth === 0;
      } else if (kind === OPEN_KIND) {
        depth++;
      } else if (kind === QUOTE_KIND) {
        inString = true;
        if (depth === 1 && this.opener === OPEN_OBJECT) this.key = [];
      } else if (kind === COLON_KIND && this.lastString !== null) {
        // A key of the top-level object: as JSON.parse reads it (escapes decoded).
        try {
          this.topKeys.push(JSON.parse(`"${this.lastString}"`) as string);
        } catch {
          strict = false;
        }
      }
      comma = b === COMMA;
      if (kind !== QUOTE_KIND) this.lastString = null;
      previous = b;
    }
    Object.assign(this, { inString, escaped, comma, previous, depth, closed, strict });
  }

  end(): { strict: boolean; topKeys: string[] } {
    if (this.word !== '' && !LITERALS.has(this.word)) this.strict = false;
    const ended = this.closed &&
      ((this.opener === OPEN_ARRAY && this.previous === CLOSE_ARRAY) || (this.opener === OPEN_OBJECT && this.previous === CLOSE_OBJECT));
    return { strict: this.strict && !this.inString && ended, topKeys: this.opener === OPEN_OBJECT ? this.topKeys : [] };
  }
}

// Byte classes for jsonFileCheck's scan outside strings.
const OTHER_KIND = 0, SPACE_KIND = 1, LETTER_KIND = 2, OPEN_KIND = 3, CLOSE_KIND = 4, QUOTE_KIND = 5, COLON_KIND = 6;
const BYTE_KIND = new Uint8Array(256);
for (const b of [SPACE, TAB, LF, CR]) BYTE_KIND[b] = SPACE_KIND;
for (let b = 0x41; b <= 0x5a; b++) BYTE_KIND[b] = LETTER_KIND;
for (let b = 0x61; b <= 0x7a; b++) BYTE_KIND[b] = LETTER_KIND;
BYTE_KIND[OPEN_ARRAY] = OPEN_KIND;
BYTE_KIND[OPEN_OBJECT] = OPEN_KIND;
BYTE_KIND[CLOSE_ARRAY] = CLOSE_KIND;
BYTE_KIND[CLOSE_OBJECT] = CLOSE_KIND;
BYTE_KIND[QUOTE] = QUOTE_KIND;
BYTE_KIND[0x3a] = COLON_KIND;

/** JSON the streaming reader could not read: what JSON.parse said, for "not valid JSON (...)". */
export class JsonSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

export type StreamedJson = { kind: 'array'; elements: number } | { kind: 'value'; value: unknown };


/**
 * Reads a JSON file without holding it in one string. A top-level array gives each element, in order,
 * to onElement (its value as JSON.parse gives it, and its 1-based position); any other top-level value
 * is returned whole (a non-array file is not an export). The syntax is JSON.parse's (a UTF-8 BOM is
 * skipped, bytes that are not UTF-8 read as U+FFFD): an error throws JsonSyntaxError, even after
 * elements were handed out, so a caller for whom a syntax error comes first keeps reading after its
 * first bad element.
 */
export async function streamJsonArray(file: string, onElement: (value: unknown, ordinal: number) => void | Promise<void>): Promise<StreamedJson> {
  // first: after '[' (an element or ']'); next: after ',' (an element); after: after an element (',' or ']').
  let state: 'start' | 'value' | 'first' | 'next' | 'element' | 'after' | 'end' = 'start';
  let kind: 'string' | 'container' | 'primitive' = 'primitive';
  let depth = 0;
  let inString = false;
  let escaped = false;
  let parts: Buffer[] = [];
  let ordinal = 0;
  let offset = 0;
  let firstChunk = true;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    let i = 0;
    if (firstChunk) {
      firstChunk = false;
      if (chunk[0] === 0xef && chunk[1] === 0xbb && chunk[2] === 0xbf) i = 3;
    }
    if (state === 'value') {
      parts.push(chunk);
      offset += chunk.length;
      continue;
    }
    let elementStart = 0;
    for (; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (state === 'element') {
        if (inString) {
          if (escaped) escaped = false;
          else if (b === BACKSLASH) escaped = true;
          else if (b === QUOTE) {
            inString = false;
            if (kind === 'string') {
              state = 'after';
              await finish(chunk.subarray(elementStart, i + 1));
            }
          }
        } else if (kind === 'primitive') {
          if (b === COMMA || b === CLOSE_ARRAY || isSpace(b)) {
            state = 'after';
            await finish(chunk.subarray(elementStart, i));
            i--; // the byte belongs to what follows the element
          }
        } else if (b === QUOTE) {
          inString = true;
        } else if (b === OPEN_ARRAY || b === OPEN_OBJECT) {
          depth++;
        } else if ((b === CLOSE_ARRAY || b === CLOSE_OBJECT) && --depth === 0) {
          state = 'after';
          await finish(chunk.subarray(elementStart, i + 1));
        }
        continue;
      }
      if (isSpace(b)) continue;
      if (state === 'start') {
        if (b === OPEN_ARRAY) {
          state = 'first';
          continue;
        }
        state = 'value';
        parts = [chunk.subarray(i)];
        break;
      }
      if (state === 'first' || state === 'next') {
        if (state === 'first' && b === CLOSE_ARRAY) {
          state = 'end';
          continue;
        }
        if (b === CLOSE_ARRAY || b === COMMA) unexpected(b, offset + i);
        state = 'element';
        elementStart = i;
        parts = [];
        depth = 0;
        escaped = false;
        inString = b === QUOTE;
        kind = b === QUOTE ? 'string' : b === OPEN_ARRAY || b === OPEN_OBJECT ? 'container' : 'primitive';
        if (kind === 'container') depth = 1;
        continue;
      }
      if (state === 'after') {
        if (b === COMMA) state = 'next';
        else if (b === CLOSE_ARRAY) state = 'end';
        else unexpected(b, offset + i);
        continue;
      }
      throw new JsonSyntaxError(`Unexpected non-whitespace character after JSON at byte ${offset + i} of the file`);
    }
    if (state === 'element') parts.push(chunk.subarray(elementStart));
    offset += chunk.length;
  }
  if (state === 'value') return { kind: 'value', value: parseJson(Buffer.concat(parts)) };
  if (state !== 'end') throw new JsonSyntaxError(state === 'start' ? 'Unexpected end of JSON input' : 'Unexpected end of JSON input (the array is not closed)');
  return { kind: 'array', elements: ordinal };

  async function finish(last: Buffer): Promise<void> {
    parts.push(last);
    const value = parseJson(parts.length === 1 ? parts[0]! : Buffer.concat(parts));
    parts = [];
    await onElement(value, ++ordinal);
  }
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new JsonSyntaxError(error instanceof Error ? error.message : String(error));
  }
}

function unexpected(byte: number, at: number): never {
  throw new JsonSyntaxError(`Unexpected token '${String.fromCharCode(byte)}' at byte ${at} of the file`);
}
