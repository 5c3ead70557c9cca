// Rows with the ministry's Bulgarian headers -> accident records. Both formats (JSON rows, CSV) end
// here, so both handle the same columns and quirks.
import { MalformedSourceError, type PtpRecord } from './types.ts';
import { clockTime, coordinates, count, crashDatetime, majorFlag, oblast, settlement, text, type Cell } from './values.ts';

/** The columns read, by the headers the ministry uses (matched case-insensitively, spaces collapsed). */
export const COLUMNS = {
  datetime: { header: 'Дата и час на ПТП', also: ['Дата и час', 'Дата'], required: true },
  region: { header: 'Област', also: [], required: true },
  municipality: { header: 'Община', also: [], required: true },
  settlement: { header: 'Населено място', also: [], required: true },
  crashType: { header: 'Вид на ПТП', also: [], required: true },
  place: { header: 'Място на ПТП', also: [], required: true },
  died: { header: 'Брой загинали', also: ['Загинали'], required: true },
  injured: { header: 'Брой ранени', also: ['Ранени'], required: true },
  participants: { header: 'Брой участници', also: ['Участници'], required: true },
  major: { header: 'Тежки ПТП', also: ['Тежко ПТП'], required: false },
  latitude: { header: 'Географска ширина', also: ['Ширина'], required: false },
  longitude: { header: 'Географска дължина', also: ['Дължина'], required: false },
  hour: { header: 'Час', also: [], required: false },
} as const;

export type Column = keyof typeof COLUMNS;
export type ColumnIndex = Partial<Record<Column, number | string>>;

const headerKey = (header: string) => header.replace(/^\uFEFF/, '').replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * Where each column is in a header row (position for arrays, key for objects). Unknown columns
 * (OBJECTID, Година, Вид на пътя, ...) are ignored; a missing required column rejects the file.
 */
export function locateColumns(headers: readonly string[], file: string, row: number | null, by: 'position' | 'name'): ColumnIndex {
  const byKey = new Map<string, number | string>();
  headers.forEach((header, position) => {
    const key = headerKey(header);
    if (!byKey.has(key)) byKey.set(key, by === 'position' ? position : header);
  });
  const index: ColumnIndex = {};
  const missing: string[] = [];
  for (const [column, spec] of Object.entries(COLUMNS) as Array<[Column, (typeof COLUMNS)[Column]]>) {
    const found = [spec.header, ...spec.also].map((name) => byKey.get(headerKey(name))).find((at) => at !== undefined);
    if (found !== undefined) index[column] = found;
    else if (spec.required) missing.push(`"${spec.header}"`);
  }
  if (missing.length > 0) throw new MalformedSourceError(file, row, `missing column(s) ${missing.join(', ')}`);
  return index;
}

/** One accident from a row; `get` reads a column's cell. */
export function recordFromRow(get: (column: Column) => Cell, file: string, row: number): PtpRecord {
  try {
    const hour = get('hour');
    const datetime = crashDatetime(get('datetime') as Cell, hour === undefined ? null : clockTime(hour));
    const region = oblast(get('region'));
    const died = count(get('died'), 'killed (Брой загинали)', 0)!;
    const injured = count(get('injured'), 'injured (Брой ранени)', 0)!;
    const { latitude, longitude, fix } = coordinates(get('latitude'), get('longitude'));
    return {
      crashDatetime: datetime,
      regionCode: region.code,
      region: region.name,
      municipality: settlement(get('municipality')),
      location: settlement(get('settlement')),
      crashType: text(get('crashType')),
      ptpPlace: text(get('place')),
      latitude,
      longitude,
      coordinateFix: fix,
      died,
      injured,
      participants: count(get('participants'), 'participants (Брой участници)', null),
      isMajor: majorFlag(get('major'), died, injured),
      sourceRow: row,
    };
  } catch (error) {
    if (error instanceof MalformedSourceError) throw error;
    throw new MalformedSourceError(file, row, error instanceof Error ? error.message : String(error));
  }
}
