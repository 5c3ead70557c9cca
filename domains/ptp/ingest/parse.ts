// The two published forms of the per-accident data:
// - JSON as data.egov.bg serves a resource (getResourceData): {"success":true,"data":[[headers],[row],...]}
//   with every cell a string; a bare array of rows, and a list of objects keyed by the headers, are read too,
//   each row as the file streams (jsonRows.ts);
// - CSV with the same headers (comma, semicolon or tab separated; UTF-8 with or without BOM, or CP1251),
//   read through DuckDB (csv.ts).
import { extname } from 'node:path';
import { Database } from '../../../engine/database.ts';
import { stagePtpCsv } from './csv.ts';
import { ptpJsonRecords } from './jsonRows.ts';
import { MalformedSourceError, type CoordinateFix, type PtpFile, type PtpRecord } from './types.ts';

/** The JSON form, read as it streams (jsonRows.ts), as records in file order. */
export async function parsePtpJson(file: string): Promise<PtpFile> {
  return { format: 'mvr-json', records: await ptpJsonRecords(file) };
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

export async function parsePtpFile(file: string): Promise<PtpFile> {
  const extension = extname(file).toLowerCase();
  if (extension === '.json') return parsePtpJson(file);
  if (extension === '.csv') return parsePtpCsv(file);
  throw new MalformedSourceError(file, null, `unknown file type "${extension}" (expected .json or .csv)`);
}
