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
// 0: any other byte.
const SPACE_KIND = 1, LETTER_KIND = 2, OPEN_KIND = 3, CLOSE_KIND = 4, QUOTE_KIND = 5, COLON_KIND = 6;
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

export type StreamedJson =
  | { kind: 'array'; elements: number }
  /** A top-level object whose `member` is an array: its elements were handed out; `value` is the object with that array as []. */
  | { kind: 'member'; elements: number; value: Record<string, unknown>; occurrences: number }
  | { kind: 'value'; value: unknown };

/** Where the scanner is: 'first' after '[' (an element or ']'), 'next' after ',' (an element), 'after' after an element (',' or ']'). */
type StreamState = 'start' | 'value' | 'object' | 'first' | 'next' | 'element' | 'after' | 'end';

/** A key longer than this is not looked at (member names are short). */
const MAX_KEY_BYTES = 256;

/**
 * Reads a JSON file without holding it in one string. A top-level array gives each element, in order,
 * to onElement (its value as JSON.parse gives it, and its 1-based position). With `member`, the array
 * under that key of a top-level object is handed out the same way (the portal's
 * {"success":true,"data":[...]}) and the rest of the object is parsed whole, that array read as []
 * (the first such member only: `occurrences` counts them, and a later one is in `value`, as JSON.parse
 * keeps the last). Any other top-level value is returned whole (it is not an export). The syntax is
 * JSON.parse's (a UTF-8 BOM is skipped, bytes that are not UTF-8 read as U+FFFD): an error throws
 * JsonSyntaxError, even after elements were handed out, so a caller for whom a syntax error comes
 * first keeps reading after its first bad element.
 */
export async function streamJsonArray(
  file: string,
  onElement: (value: unknown, ordinal: number) => void | Promise<void>,
  options: { member?: string } = {},
): Promise<StreamedJson> {
  let state: StreamState = 'start';
  let kind: 'string' | 'container' | 'primitive' = 'primitive';
  // A container element's nesting and strings (scanContainer); a string element's own.
  const container: ContainerScan = { depth: 0, inString: false, escaped: false };
  let inString = false;
  let escaped = false;
  let parts: Buffer[] = [];
  let ordinal = 0;
  let offset = 0;
  let firstChunk = true;
  // The top-level object around the member's array (state 'object'): its bytes but the array's
  // elements (`rest`, from `restStart` in the current chunk), its nesting and strings, the last string
  // closed at its depth 1 (a key once a colon follows; `key` gathers its bytes from `keyStart`), and
  // whether the member's value comes next. Its syntax is left to JSON.parse of the rest.
  const rest: Buffer[] = [];
  let restStart = 0;
  let objectDepth = 0;
  let objectInString = false;
  let objectEscaped = false;
  let key: Buffer[] | null = null;
  let keyStart = 0;
  let keyBytes = 0;
  let lastString: string | null = null;
  let memberNext = false;
  let occurrences = 0;
  // The elements that began and ended in the current chunk: bytes batchStart..batchEnd (-1: none yet).
  let batchStart = -1;
  let batchEnd = 0;
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
    let triedWhole = false;
    batchStart = -1;
    restStart = i;
    keyStart = 0;
    for (; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (state === 'element') {
        if (kind === 'container') {
          const close = scanContainer(chunk, i, container);
          if (close < 0) break; // the element goes on in the next chunk
          i = close;
          state = 'after';
          const pending = ended(chunk, elementStart, i + 1);
          if (pending) await pending; // a promise only for an element read across chunks
          continue;
        }
        if (inString) {
          if (escaped) escaped = false;
          else if (b === BACKSLASH) escaped = true;
          else if (b === QUOTE) {
            inString = false;
            state = 'after'; // a string element ends
            const pending = ended(chunk, elementStart, i + 1);
            if (pending) await pending; // a promise only for an element read across chunks
          }
        } else if (kind === 'primitive') {
          if (b === COMMA || b === CLOSE_ARRAY || isSpace(b)) {
            state = 'after';
            const pending = ended(chunk, elementStart, i);
            if (pending) await pending; // a promise only for an element read across chunks
            i--; // the byte belongs to what follows the element
          }
        }
        continue;
      }
      if (state === 'object') {
        if (objectInString) {
          if (objectEscaped) objectEscaped = false;
          else if (b === BACKSLASH) objectEscaped = true;
          else if (b === QUOTE) {
            objectInString = false;
            lastString = key ? keyText([...key, chunk.subarray(keyStart, i + 1)]) : null;
            key = null;
          }
          continue;
        }
        if (memberNext && !isSpace(b)) {
          memberNext = false;
          if (b === OPEN_ARRAY && occurrences++ === 0) {
            // The member's array: its '[' stays in the rest, its elements are handed out.
            rest.push(chunk.subarray(restStart, i + 1));
            state = 'first';
            continue;
          }
        }
        if (b === QUOTE) {
          objectInString = true;
          // A string at depth 1 may be a key: its bytes are gathered.
          key = objectDepth === 1 ? [] : null;
          keyStart = i;
          keyBytes = 0;
          continue;
        }
        if (b === 0x3a) memberNext = objectDepth === 1 && lastString === options.member;
        else if (b === OPEN_ARRAY || b === OPEN_OBJECT) objectDepth++;
        else if ((b === CLOSE_ARRAY || b === CLOSE_OBJECT) && --objectDepth === 0) {
          rest.push(chunk.subarray(restStart, i + 1));
          state = 'end';
        }
        if (!isSpace(b)) lastString = null;
        continue;
      }
      if (isSpace(b)) continue;
      if (state === 'start') {
        if (b === OPEN_ARRAY) {
          state = 'first';
          continue;
        }
        if (b === OPEN_OBJECT && options.member !== undefined) {
          state = 'object';
          restStart = i;
          objectDepth = 1;
          continue;
        }
        state = 'value';
        parts = [chunk.subarray(i)];
        break;
      }
      if (state === 'first' || state === 'next') {
        if (state === 'first' && b === CLOSE_ARRAY) {
          closeArray(i);
          continue;
        }
        if (b === CLOSE_ARRAY || b === COMMA) unexpected(b, offset + i);
        state = 'element';
        elementStart = i;
        parts = [];
        escaped = false;
        inString = b === QUOTE;
        kind = b === QUOTE ? 'string' : b === OPEN_ARRAY || b === OPEN_OBJECT ? 'container' : 'primitive';
        if (kind === 'container') {
          Object.assign(container, { depth: 1, inString: false, escaped: false }); // scanned from the next byte
          if (!triedWhole && batchStart < 0) {
            // The first element begun in this chunk: the whole elements up to the chunk's last one, parsed at once, need no scan.
            triedWhole = true;
            const whole = wholeElements(chunk, i);
            if (whole) {
              for (const value of whole.values) {
                const pending = onElement(value, ++ordinal);
                if (pending) await pending;
              }
              state = 'after';
              i = whole.close; // what follows them is read next
            }
          }
        }
        continue;
      }
      if (state === 'after') {
        if (b === COMMA) state = 'next';
        else if (b === CLOSE_ARRAY) closeArray(i);
        else unexpected(b, offset + i);
        continue;
      }
      throw new JsonSyntaxError(`Unexpected non-whitespace character after JSON at byte ${offset + i} of the file`);
    }
    await handOutBatch(chunk);
    if (state === 'element') parts.push(chunk.subarray(elementStart));
    if (state === 'object') {
      rest.push(chunk.subarray(restStart));
      if (objectInString && key) {
        const piece = chunk.subarray(keyStart);
        keyBytes += piece.length;
        key = keyBytes > MAX_KEY_BYTES ? null : [...key, piece];
      }
    }
    offset += chunk.length;
  }
  if (state === 'value') return { kind: 'value', value: parseJson(Buffer.concat(parts)) };
  if (state !== 'end') throw new JsonSyntaxError(state === 'start' ? 'Unexpected end of JSON input' : 'Unexpected end of JSON input (the array is not closed)');
  if (rest.length === 0) return { kind: 'array', elements: ordinal };
  const value = parseJson(Buffer.concat(rest));
  return occurrences === 0 ? { kind: 'value', value } : { kind: 'member', elements: ordinal, value: value as Record<string, unknown>, occurrences };

  /**
   * An element ends at `end` (exclusive). One wholly inside this chunk joins the chunk's batch, handed
   * out when the chunk is done; one begun in an earlier chunk (so before any of the batch) is parsed now.
   */
  function ended(chunk: Buffer, start: number, end: number): void | Promise<void> {
    if (parts.length === 0) {
      if (batchStart < 0) batchStart = start;
      batchEnd = end;
      return;
    }
    parts.push(chunk.subarray(start, end));
    const value = parseJson(Buffer.concat(parts));
    parts = [];
    return onElement(value, ++ordinal);
  }

  /**
   * The chunk's whole elements, with the commas between them, parsed as one array: one decoding and one
   * JSON.parse per chunk instead of per element (each call has a fixed cost larger than a small element's).
   */
  async function handOutBatch(chunk: Buffer): Promise<void> {
    if (batchStart < 0) return;
    const values = parseJson(Buffer.concat([ARRAY_OPEN, chunk.subarray(batchStart, batchEnd), ARRAY_CLOSE])) as unknown[];
    batchStart = -1;
    for (const value of values) {
      // Awaited only when onElement returns a promise: a microtask per element adds up.
      const pending = onElement(value, ++ordinal);
      if (pending) await pending;
    }
  }

  /** The array ends: the file's (only whitespace may follow) or the member's (the object goes on from its ']'). */
  function closeArray(at: number): void {
    if (objectDepth === 0) {
      state = 'end';
      return;
    }
    state = 'object';
    restStart = at;
  }
}

/** Where the scan of a container element stands (between chunks). */
interface ContainerScan {
  depth: number;
  inString: boolean;
  escaped: boolean;
}

/**
 * Scans a container element's bytes from `from` (after its opening bracket): the index of the bracket
 * that closes it, or -1 when the chunk ends first (`scan` then says where it stands). A function of
 * its own, with its state in locals: most of a file's bytes pass through this loop.
 */
function scanContainer(chunk: Buffer, from: number, scan: ContainerScan): number {
  let { depth, inString, escaped } = scan;
  const length = chunk.length;
  let i = from;
  for (; i < length; i++) {
    const c = chunk[i]!;
    if (inString) {
      if (escaped) escaped = false;
      else if (c === BACKSLASH) escaped = true;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) depth++;
    else if ((c === CLOSE_ARRAY || c === CLOSE_OBJECT) && --depth === 0) break;
  }
  Object.assign(scan, { depth, inString, escaped });
  return i === length ? -1 : i;
}

/** How many closing brackets wholeElements tries, from the chunk's end back. */
const WHOLE_ELEMENT_TRIES = 4;

/**
 * The elements from `start` (an element's opening bracket) to one of the chunk's last closing
 * brackets, when those bytes parse as a run of whole elements: their values and that bracket's index;
 * null otherwise (the bracket is inside a string or closes a nested value, or there is a syntax error),
 * and the caller scans byte by byte. Sound because the bytes begin where an element begins: if they
 * parse as elements, they are the elements the file has there (what follows is read as after any
 * element). Most of a file is read this way, at JSON.parse's speed rather than a loop's per byte.
 */
function wholeElements(chunk: Buffer, start: number): { values: unknown[]; close: number } | null {
  let end = chunk.length;
  for (let tries = 0; tries < WHOLE_ELEMENT_TRIES; tries++) {
    const close = Math.max(chunk.lastIndexOf(CLOSE_OBJECT, end - 1), chunk.lastIndexOf(CLOSE_ARRAY, end - 1));
    if (close <= start) return null;
    try {
      const values = JSON.parse(Buffer.concat([ARRAY_OPEN, chunk.subarray(start, close + 1), ARRAY_CLOSE]).toString('utf8')) as unknown[];
      return { values, close };
    } catch {
      end = close; // not a run of whole elements: an earlier bracket may end one
    }
  }
  return null;
}

const ARRAY_OPEN = Buffer.from('[');
const ARRAY_CLOSE = Buffer.from(']');

/** A quoted key's text (null when it is too long to be a member name, or not a valid JSON string). */
function keyText(quoted: Buffer[]): string | null {
  const bytes = Buffer.concat(quoted);
  if (bytes.length > MAX_KEY_BYTES) return null;
  try {
    return JSON.parse(bytes.toString('utf8')) as string;
  } catch {
    return null;
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
