// Date windows shared by every domain that takes from/to/year (SEBRA, PTP).
// Inputs: DD-MM-YYYY, MM-YYYY (first day as `from`, last day as `to`) and ISO YYYY-MM-DD.
import { invalidParameter } from './errors.ts';

export type Bound = 'from' | 'to';

/** Inclusive window in ISO dates; null means open on that side. */
export interface DateWindow {
  from: string | null;
  to: string | null;
}

/** Effective bounds for SQL: an open side becomes a date no data reaches. */
export const OPEN_FROM = '0001-01-01';
export const OPEN_TO = '9999-12-31';

const DAY_MONTH_YEAR = /^(\d{2})-(\d{2})-(\d{4})$/;
const MONTH_YEAR = /^(\d{2})-(\d{4})$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isoDate(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function validDay(year: number, month: number, day: number): boolean {
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/**
 * Parses one window bound. `MM-YYYY` means the first day of the month as `from`
 * and the last day as `to`.
 */
export function parseWindowDate(raw: string, param: string, bound: Bound): string {
  const text = raw.trim();
  let match = DAY_MONTH_YEAR.exec(text);
  if (match) {
    const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
    if (validDay(year, month, day)) return isoDate(year, month, day);
  }
  match = MONTH_YEAR.exec(text);
  if (match) {
    const [month, year] = [Number(match[1]), Number(match[2])];
    if (year >= 1 && month >= 1 && month <= 12) return isoDate(year, month, bound === 'from' ? 1 : daysInMonth(year, month));
  }
  match = ISO_DATE.exec(text);
  if (match) {
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    if (validDay(year, month, day)) return isoDate(year, month, day);
  }
  throw invalidParameter(param, `${param} must be a date as DD-MM-YYYY or MM-YYYY (got "${raw}")`);
}

export function yearWindow(year: number): { from: string; to: string } {
  return { from: isoDate(year, 1, 1), to: isoDate(year, 12, 31) };
}

/**
 * The window of a from/to pair: `from` alone runs to today, `to` alone covers
 * everything up to it, neither is the full history. `from` after `to` is a 400.
 */
export function resolveWindow(from: string | undefined, to: string | undefined, today: string): DateWindow {
  const fromIso = from === undefined ? null : parseWindowDate(from, 'from', 'from');
  let toIso = to === undefined ? null : parseWindowDate(to, 'to', 'to');
  if (fromIso !== null && toIso === null) toIso = today;
  if (fromIso !== null && toIso !== null && fromIso > toIso) {
    throw invalidParameter('from', `from (${fromIso}) is after to (${toIso})`);
  }
  return { from: fromIso, to: toIso };
}

/** Intersection of two windows (year with from/to where both are allowed). */
export function intersectWindows(a: DateWindow, b: DateWindow): DateWindow {
  const from = a.from === null ? b.from : b.from === null ? a.from : a.from > b.from ? a.from : b.from;
  const to = a.to === null ? b.to : b.to === null ? a.to : a.to < b.to ? a.to : b.to;
  return { from, to };
}

/** SQL bind values for `payment_date BETWEEN $from::DATE AND $to::DATE`. */
export function windowBounds(window: DateWindow): { from: string; to: string } {
  return { from: window.from ?? OPEN_FROM, to: window.to ?? OPEN_TO };
}

/** One formatter per time zone: building an Intl.DateTimeFormat costs more than a cached answer (bench). */
/** Per time zone: its formatter and the last second formatted (every request asks; a day changes only on a whole second). */
const dayFormats = new Map<string, { format: Intl.DateTimeFormat; second: number; day: string }>();

/** Today's date in the given time zone, ISO. */
export function isoToday(now: Date, timeZone: string): string {
  let cached = dayFormats.get(timeZone);
  if (!cached) {
    cached = { format: new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }), second: NaN, day: '' };
    dayFormats.set(timeZone, cached);
  }
  const second = Math.floor(now.getTime() / 1000);
  if (second !== cached.second) {
    cached.day = cached.format.format(now);
    cached.second = second;
  }
  return cached.day;
}
