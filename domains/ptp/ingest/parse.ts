// The two published forms of the per-accident data:
// - JSON as data.egov.bg serves a resource (getResourceData): {"success":true,"data":[[headers],[row],...]}
//   with every cell a string; a bare array of rows, and a list of objects keyed by the headers, are read too;
// - CSV with the same headers (comma, semicolon or tab separated; UTF-8 with or without BOM, or CP1251).
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { recordsFromObjects, recordsFromTable } from './rows.ts';
import { MalformedSourceError, type PtpFile, type PtpRecord } from './types.ts';
import type { Cell } from './values.ts';

export const PTP_FILE_EXTENSIONS = ['.json', '.csv'] as const;

function isCell(value: unknown): value is Cell {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** Records from an already parsed JSON value. */
export function recordsFromJson(value: unknown, file: string): PtpRecord[] {
  let data: unknown = value;
  if (!Array.isArray(value)) {
    if (typeof value === 'object' && value !== null && 'success' in value && value.success === false) {
      throw new MalformedSourceError(file, null, 'the portal answer says "success": false');
    }
    if (typeof value !== 'object' || value === null || !('data' in value)) {
      throw new MalformedSourceError(file, null, 'expected {"success":true,"data":[...]}, an array of rows or an array of objects');
    }
    data = value.data;
  }
  if (!Array.isArray(data) || data.length === 0) throw new MalformedSourceError(file, null, '"data" is not a non-empty array');
  if (Array.isArray(data[0])) {
    const rows = data.map((row: unknown, i) => {
      if (!Array.isArray(row)) throw new MalformedSourceError(file, i + 1, 'row is not an array of cells');
      row.forEach((cell, column) => {
        if (!isCell(cell)) throw new MalformedSourceError(file, i + 1, `cell ${column + 1} is not a string or number`);
      });
      return row as Cell[];
    });
    return recordsFromTable(rows, file);
  }
  const objects = data.map((row: unknown, i) => {
    if (typeof row !== 'object' || row === null || Array.isArray(row)) {
      throw new MalformedSourceError(file, i + 1, 'row is not an object keyed by the column headers');
    }
    for (const [key, cell] of Object.entries(row)) {
      if (!isCell(cell)) throw new MalformedSourceError(file, i + 1, `"${key}" is not a string or number`);
    }
    return row as Record<string, Cell>;
  });
  return recordsFromObjects(objects, file);
}

export async function parsePtpJson(file: string): Promise<PtpFile> {
  const textValue = decode(await readFile(file));
  let value: unknown;
  try {
    value = JSON.parse(textValue.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new MalformedSourceError(file, null, `not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { format: 'mvr-json', records: requireRows(recordsFromJson(value, file), file) };
}

/** UTF-8, or CP1251 when the bytes are not UTF-8 (older Bulgarian exports). */
function decode(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1251').decode(bytes);
  }
}

/** The separator a header line uses: the most frequent of `;`, `,` and tab outside quotes. */
export function detectDelimiter(headerLine: string): string {
  const unquoted = headerLine.replace(/"[^"]*"/g, '');
  const counts = [';', ',', '\t'].map((d) => [d, unquoted.split(d).length - 1] as const);
  counts.sort((a, b) => b[1] - a[1]);
  return counts[0][1] === 0 ? ',' : counts[0][0];
}

/** The file as text chunks, decoded as UTF-8 or (when its first 64 KiB are not UTF-8) CP1251. */
async function* decodedChunks(file: string): AsyncGenerator<string> {
  let decoder: TextDecoder | null = null;
  for await (const chunk of createReadStream(file, { highWaterMark: 64 * 1024 })) {
    const bytes = chunk as Buffer;
    if (decoder === null) {
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
        decoder = new TextDecoder('utf-8', { fatal: true });
      } catch {
        decoder = new TextDecoder('windows-1251');
      }
    }
    try {
      yield decoder.decode(bytes, { stream: true });
    } catch {
      throw new MalformedSourceError(file, null, 'not valid UTF-8 text');
    }
  }
  if (decoder) yield decoder.decode();
}

export async function parsePtpCsv(file: string): Promise<PtpFile> {
  const chunks = decodedChunks(file);
  const first = await chunks.next();
  if (first.done || first.value.trim() === '') throw new MalformedSourceError(file, null, 'the file is empty');
  const delimiter = detectDelimiter(first.value.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0]);
  async function* all(): AsyncGenerator<string> {
    yield first.value as string;
    yield* chunks;
  }
  const parser = Readable.from(all()).pipe(
    parse({ delimiter, bom: true, skip_empty_lines: true, relax_quotes: false, info: true }),
  );
  const rows: Cell[][] = [];
  const lines: number[] = [];
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      rows.push(record);
      lines.push(info.lines);
    }
  } catch (error) {
    if (error instanceof MalformedSourceError) throw error;
    const lines = (error as { lines?: number }).lines ?? null;
    throw new MalformedSourceError(file, lines, `not readable as CSV: ${error instanceof Error ? error.message : String(error)}`);
  }
  // Rows are numbered by the CSV line each record ends on (the header is line 1).
  const records = recordsFromTable(rows, file, (i) => lines[i]);
  return { format: 'mvr-csv', records: requireRows(records, file) };
}

function requireRows(records: PtpRecord[], file: string): PtpRecord[] {
  if (records.length === 0) throw new MalformedSourceError(file, null, 'no accident rows after the header');
  return records;
}

export async function parsePtpFile(file: string): Promise<PtpFile> {
  const extension = extname(file).toLowerCase();
  if (extension === '.json') return parsePtpJson(file);
  if (extension === '.csv') return parsePtpCsv(file);
  throw new MalformedSourceError(file, null, `unknown file type "${extension}" (expected .json or .csv)`);
}
