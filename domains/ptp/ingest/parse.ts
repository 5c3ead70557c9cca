// The two published forms of the per-accident data:
// - JSON as data.egov.bg serves a resource (getResourceData): {"success":true,"data":[[headers],[row],...]}
//   with every cell a string; a bare array of rows, and a list of objects keyed by the headers, are read too;
// - CSV with the same headers (comma, semicolon or tab separated; UTF-8 with or without BOM, or CP1251),
//   read through DuckDB (csv.ts).
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { Database } from '../../../engine/database.ts';
import { stagePtpCsv } from './csv.ts';
import { recordsFromObjects, recordsFromTable } from './rows.ts';
import { MalformedSourceError, type CoordinateFix, type PtpFile, type PtpRecord } from './types.ts';
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

/** The CSV form, read through DuckDB (see csv.ts), as records in file order. */
export async function parsePtpCsv(file: string): Promise<PtpFile> {
  const db = await Database.open({ connections: 1 });
  try {
    const staged = await stagePtpCsv(db, file);
    const rows = await db.all(`SELECT * FROM ${staged.table} ORDER BY line`);
    const records = rows.map((r): PtpRecord => ({
      crashDatetime: String(r.crash_datetime), regionCode: String(r.region_code), region: String(r.region),
      municipality: r.municipality === null ? null : String(r.municipality), location: r.location === null ? null : String(r.location),
      crashType: r.crash_type === null ? null : String(r.crash_type), ptpPlace: r.ptp_place === null ? null : String(r.ptp_place),
      latitude: r.latitude === null ? null : String(r.latitude), longitude: r.longitude === null ? null : String(r.longitude),
      coordinateFix: r.coordinate_fix as CoordinateFix, died: Number(r.died_count), injured: Number(r.injured_count),
      participants: r.participant_count === null ? null : Number(r.participant_count), isMajor: r.is_major === 'true', sourceRow: Number(r.line),
    }));
    return { format: 'mvr-csv', records };
  } finally {
    await db.close();
  }
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
