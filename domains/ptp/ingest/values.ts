// Cell readers for the ministry's accident rows. Each returns the value or throws a plain Error with
// the problem; the row reader adds the file and row. The real quirks live here: decimal commas and
// swapped latitude/longitude, two date formats (and ArcGIS epoch milliseconds), upper-case names.
import { findOblast, type Oblast } from '../../../reference/places.ts';
import type { CoordinateFix } from './types.ts';

export type Cell = string | number | boolean | null | undefined;

// Whitespace other than a single inner space: most cells have none, and testing for it allocates
// nothing, where replace and trim make two new strings per cell (half the time of reading a JSON row).
const NOT_NORMALISED = /[^\S ]|  |^ | $/;

/** Trimmed text with single spaces; null for a blank cell. */
export function text(cell: Cell): string | null {
  if (cell === null || cell === undefined) return null;
  const raw = String(cell);
  const value = NOT_NORMALISED.test(raw) ? raw.replace(/\s+/g, ' ').trim() : raw;
  return value === '' ? null : value;
}

// ---------------------------------------------------------------------------------------------
// Dates

const SOFIA_PARTS = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/Sofia',
  year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
  hourCycle: 'h23',
});

/** An instant as Europe/Sofia local time, ISO without zone. */
export function sofiaLocal(instant: Date): string {
  const parts = Object.fromEntries(SOFIA_PARTS.formatToParts(instant).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}

// The date, then `г.` and a time, or a time, or trailing spaces (one way each, so no run of spaces is split two ways).
const DOTTED = /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?:\s*г\.?(?:[\sT,]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?|[\sT,]+(\d{1,2}):(\d{2})(?::(\d{2}))?|\s*)$/u;
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[\sT]+(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/;
const CLOCK = /^(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?$/;

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

function localIso(year: number, month: number, day: number, hour: number, minute: number, second: number): string {
  const probe = new Date(Date.UTC(year, month - 1, day));
  const dayOk = probe.getUTCFullYear() === year && probe.getUTCMonth() === month - 1 && probe.getUTCDate() === day;
  if (!dayOk || year < 1900 || hour > 23 || minute > 59 || second > 59) throw new Error('not a valid date and time');
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}`;
}

/** A time-of-day cell ("Час": "17:45" or "17"), for rows whose date cell has no time. */
export function clockTime(cell: Cell): [number, number, number] | null {
  const value = text(cell);
  if (value === null) return null;
  const match = CLOCK.exec(value);
  if (!match) throw new Error(`time "${value}" is not HH:MM`);
  return [Number(match[1]), Number(match[2] ?? 0), Number(match[3] ?? 0)];
}

/**
 * "dd.mm.yyyy HH:MM" or ISO "yyyy-mm-dd HH:MM", both local Sofia time; an ISO value with a zone and
 * ArcGIS epoch milliseconds are converted to Sofia time. A date without a time takes `time` (the
 * separate hour column) or midnight.
 */
export function crashDatetime(cell: Cell, time: [number, number, number] | null = null): string {
  if (typeof cell === 'number') {
    if (!Number.isInteger(cell) || cell < 1e11) throw new Error(`date ${cell} is not epoch milliseconds`);
    return sofiaLocal(new Date(cell));
  }
  const value = text(cell);
  if (value === null) throw new Error('date and time are blank');
  let match = DOTTED.exec(value);
  if (match) {
    // The time after `г.` (groups 4-6) or straight after the date (groups 7-9).
    const clock = match[4] !== undefined ? match.slice(4, 7) : match.slice(7, 10);
    const [h, m, s] = clock[0] === undefined ? (time ?? [0, 0, 0]) : [Number(clock[0]), Number(clock[1]), Number(clock[2] ?? 0)];
    return localIso(Number(match[3]), Number(match[2]), Number(match[1]), h, m, s);
  }
  match = ISO.exec(value);
  if (match) {
    const [h, m, s] = match[4] === undefined ? (time ?? [0, 0, 0]) : [Number(match[4]), Number(match[5]), Number(match[6] ?? 0)];
    const local = localIso(Number(match[1]), Number(match[2]), Number(match[3]), h, m, s);
    if (match[7] === undefined) return local;
    const zone = match[7] === 'Z' ? 'Z' : `${match[7].slice(0, 3)}:${match[7].slice(-2)}`;
    return sofiaLocal(new Date(`${local}${zone}`));
  }
  throw new Error(`date "${value}" is neither DD.MM.YYYY HH:MM nor YYYY-MM-DD HH:MM`);
}

// ---------------------------------------------------------------------------------------------
// Counts and flags

const WHOLE = /^\d+(?:[.,]0+)?$/;

/** A non-negative whole number; `blank` is what an empty cell means (0 or null). */
export function count(cell: Cell, column: string, blank: 0 | null): number | null {
  if (typeof cell === 'number') {
    if (!Number.isInteger(cell) || cell < 0) throw new Error(`${column} ${cell} is not a whole number >= 0`);
    return cell;
  }
  const value = text(cell);
  if (value === null) return blank;
  if (!WHOLE.test(value)) throw new Error(`${column} "${value}" is not a whole number >= 0`);
  const parsed = Number.parseInt(value, 10);
  if (!Number.isSafeInteger(parsed) || parsed > 100_000) throw new Error(`${column} "${value}" is out of range`);
  return parsed;
}

const TRUE_WORDS = new Set(['1', 'да', 'true', 'yes', 'y', 'д']);
const FALSE_WORDS = new Set(['0', 'не', 'false', 'no', 'n', 'н']);

/** The "Тежки ПТП" flag (0/1, да/не); blank means "with casualties" (killed + injured > 0). */
export function majorFlag(cell: Cell, died: number, injured: number): boolean {
  if (typeof cell === 'boolean') return cell;
  const value = text(cell)?.toLowerCase() ?? null;
  if (value === null) return died + injured > 0;
  if (TRUE_WORDS.has(value)) return true;
  if (FALSE_WORDS.has(value)) return false;
  throw new Error(`serious-accident flag "${value}" is not 0/1`);
}

// ---------------------------------------------------------------------------------------------
// Coordinates

const DECIMAL = /^[+-]?\d{1,3}(?:[.,]\d+)?$/;

/** Bulgaria with a margin, as the collectors check it: 40–45 N, 20–30 E. */
export const LATITUDE_RANGE = [40, 45] as const;
export const LONGITUDE_RANGE = [20, 30] as const;

function coordinateText(cell: Cell, column: string): string | null {
  if (typeof cell === 'number') {
    if (!Number.isFinite(cell)) throw new Error(`${column} ${cell} is not a number`);
    return cell === 0 ? null : String(cell);
  }
  const value = text(cell);
  if (value === null) return null;
  if (!DECIMAL.test(value)) throw new Error(`${column} "${value}" is not a decimal number`);
  const dotted = value.replace(',', '.');
  return Number(dotted) === 0 ? null : dotted;
}

const inRange = (value: number, [low, high]: readonly [number, number]) => value >= low && value <= high;

/**
 * Latitude and longitude as decimal text with a dot. A decimal comma is read as a point; a pair that
 * fits Bulgaria only the other way round is swapped; a blank (or 0) side, or a pair outside Bulgaria
 * either way, leaves the accident without coordinates (kept, but never clustered).
 */
export function coordinates(latCell: Cell, lonCell: Cell): { latitude: string | null; longitude: string | null; fix: CoordinateFix } {
  const lat = coordinateText(latCell, 'latitude');
  const lon = coordinateText(lonCell, 'longitude');
  if (lat === null || lon === null) return { latitude: null, longitude: null, fix: 'missing' };
  const [a, b] = [Number(lat), Number(lon)];
  if (inRange(a, LATITUDE_RANGE) && inRange(b, LONGITUDE_RANGE)) return { latitude: lat, longitude: lon, fix: 'as_given' };
  if (inRange(b, LATITUDE_RANGE) && inRange(a, LONGITUDE_RANGE)) return { latitude: lon, longitude: lat, fix: 'swapped' };
  return { latitude: null, longitude: null, fix: 'out_of_area' };
}

// ---------------------------------------------------------------------------------------------
// Names

const HAS_LOWER = /\p{Ll}/u;

/** "СТАРА ЗАГОРА" -> "Стара Загора", "ДОБРИЧ-СЕЛСКА" -> "Добрич-Селска"; mixed-case text is kept. */
export function recase(value: string): string {
  if (HAS_LOWER.test(value)) return value;
  return value.toLowerCase().replace(/(^|[\s-])(\p{L})/gu, (_, before: string, letter: string) => before + letter.toUpperCase());
}

const PREFIX = /^(гр|с|к\.к|кк)\s*\.\s*/iu;

// A file names a few thousand places over tens of thousands of rows: each distinct cell text is read
// once per process (both readers are pure functions of the text). Bounded, so that a file of
// unique garbage cannot grow it without end.
const MEMO_LIMIT = 20_000;

function memoised<T>(memo: Map<string, T>, cell: Cell, read: (cell: Cell) => T): T {
  if (typeof cell !== 'string') return read(cell);
  const known = memo.get(cell);
  if (known !== undefined) return known;
  const value = read(cell);
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(cell, value);
  return value;
}

const settlementMemo = new Map<string, string | null>();
const oblastMemo = new Map<string, Oblast>();

/** A settlement as "гр. Пловдив" / "с. Вакарел": prefix lower case with one space, the name re-cased. */
export function settlement(cell: Cell): string | null {
  return memoised(settlementMemo, cell, readSettlement);
}

function readSettlement(cell: Cell): string | null {
  const value = text(cell);
  if (value === null) return null;
  const match = PREFIX.exec(value);
  if (!match) return recase(value);
  const rest = value.slice(match[0].length).trim();
  return rest === '' ? recase(value) : `${match[1].toLowerCase()}. ${recase(rest)}`;
}

/** The oblast a cell names; throws (never memoised) when it names none. */
export function oblast(cell: Cell): Oblast {
  return memoised(oblastMemo, cell, readOblast);
}

function readOblast(cell: Cell): Oblast {
  const value = text(cell);
  if (value === null) throw new Error('region (Област) is blank');
  const found = findOblast(value);
  if (!found) throw new Error(`region "${value}" is not a Bulgarian oblast`);
  return found;
}
