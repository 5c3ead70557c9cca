// The two date-window dialects of the specification, one kind each.
// - dayWindow: `from`/`to` as DD-MM-YYYY or MM-YYYY (ISO dates accepted), optionally with `year`
//   (SEBRA, PTP): MM-YYYY is the month's first day as `from` and its last as `to`; `from` alone runs
//   to today, `to` alone from the beginning, neither is the whole history.
// - periodWindow: `date_from`/`date_to` as ISO periods YYYY, YYYY-MM or YYYY-MM-DD (trade), or as ISO
//   dates only (`forms: 'days'`, agri-food): a period stands for its first day as `date_from` and its
//   last as `date_to`. `isoDay` is one ISO date parameter of the same form (agri-food `date`).
import type { ParamLocation, ParamSpec } from '../catalog.ts';
import { invalidParameter } from '../shared/errors.ts';
import { intersectWindows, resolveWindow, yearWindow, type DateWindow } from '../shared/window.ts';
import { checkByResolving, defineKind, type Kind } from './kind.ts';

/** Bounds of `year` parameters. */
export const MIN_YEAR = 1990;
export const MAX_YEAR = 2100;

export interface DayWindow {
  /** The `year` given, or null. */
  year: number | null;
  /** The from/to asked for, as ISO dates (`to` defaulted to today when only `from` is given). */
  requested: DateWindow;
  /** The window to query: the year, the from/to, or their intersection where both are allowed. */
  window: DateWindow;
}

export interface DayWindowOptions {
  /** Where `year` may appear; absent: the route takes no year. */
  year?: readonly ParamLocation[];
  /** How year and from/to combine: 'exclusive' (a 400 when both are given) or 'intersect'. */
  yearWithWindow?: 'exclusive' | 'intersect';
  /** 'from': `from` is required; 'any': a year or from/to is required. */
  required?: 'from' | 'any';
  /** Description of `year` (default: calendar year, and how it combines). */
  yearDescription?: string;
}

const FROM_TEXT = 'Window start, inclusive: DD-MM-YYYY, or MM-YYYY for the first day of that month.';
const TO_TEXT = 'Window end, inclusive: DD-MM-YYYY, or MM-YYYY for the last day of that month. Defaults to today when from is given.';

function dateParam(bound: 'from' | 'to', description: string, required: boolean): ParamSpec {
  return {
    in: ['query'],
    required: required || undefined,
    description,
    schema: { type: 'string', minLength: 1, maxLength: 10, examples: [bound === 'from' ? '01-2025' : '31-12-2025'] },
  };
}

export function yearSpec(description: string, locations: readonly ParamLocation[] = ['query'], required = false): ParamSpec {
  return {
    in: locations,
    required: required || undefined,
    description,
    schema: { type: 'integer', minimum: MIN_YEAR, maximum: MAX_YEAR, examples: [2025] },
  };
}

/** from/to (DD-MM-YYYY, MM-YYYY) and, when asked for, year. */
export function dayWindow(options: DayWindowOptions = {}): Kind<DayWindow> {
  const params: Record<string, ParamSpec> = {};
  if (options.year) {
    const combine = options.yearWithWindow === 'intersect' ? 'combined with from/to, the overlap is used' : 'cannot be combined with from/to';
    params.year = yearSpec(options.yearDescription ?? `Calendar year; ${combine}.`, options.year);
  }
  params.from = dateParam('from', FROM_TEXT, options.required === 'from');
  params.to = dateParam('to', TO_TEXT, false);
  const resolve = (raw: Record<string, unknown>, today: string): DayWindow => {
    const year = (raw.year as number | undefined) ?? null;
    const requested = resolveWindow(raw.from as string | undefined, raw.to as string | undefined, today);
    if (year === null) return { year, requested, window: requested };
    const window = options.yearWithWindow === 'intersect' ? intersectWindows(requested, yearWindow(year)) : yearWindow(year);
    return { year, requested, window };
  };
  const checks = [
    // Only the dates' own form is checked here: `to` defaulting to today cannot make from > to fail a form check.
    checkByResolving('dayWindow', 'from and to are DD-MM-YYYY or MM-YYYY dates; from <= to', (raw) => resolve(raw, '9999-12-31')),
  ];
  if (options.year && options.yearWithWindow !== 'intersect') {
    checks.unshift({
      name: 'yearExcludesWindow',
      description: 'year cannot be combined with from or to',
      check: ({ year, from, to }) =>
        year !== undefined && (from !== undefined || to !== undefined)
          ? invalidParameter('year', 'year cannot be combined with from/to: use one or the other')
          : null,
    });
  }
  if (options.required === 'any') {
    checks.unshift({
      name: 'windowRequired',
      description: 'a year or a from/to window is required',
      check: ({ year, from, to }) =>
        year === undefined && from === undefined && to === undefined ? invalidParameter('year', 'give a year (or /{year}) or a from/to window') : null,
    });
  }
  return defineKind({ params, checks, resolve: (raw, { today }) => resolve(raw, today) });
}

/** An inclusive window of ISO dates; null is open on that side. */
export interface PeriodWindow {
  from: string | null;
  to: string | null;
}

const PERIOD = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

export type PeriodForms = 'periods' | 'days';

/** YYYY, YYYY-MM or YYYY-MM-DD (or only YYYY-MM-DD) -> the first (from) or last (to) day it covers. */
export function parsePeriodBound(value: string, param: string, bound: 'from' | 'to', forms: PeriodForms = 'periods'): string {
  const expected = forms === 'days' ? 'an ISO date YYYY-MM-DD' : 'a period YYYY, YYYY-MM or a date YYYY-MM-DD';
  const fail = (): never => {
    throw invalidParameter(param, `${param} must be ${expected} (got "${value}")`);
  };
  const match = (forms === 'days' ? DAY : PERIOD).exec(value.trim());
  if (!match) return fail();
  const year = Number(match[1]);
  const month = match[2] === undefined ? (bound === 'from' ? 1 : 12) : Number(match[2]);
  if (year < 1 || month < 1 || month > 12) return fail();
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const day = match[3] === undefined ? (bound === 'from' ? 1 : last) : Number(match[3]);
  if (day < 1 || day > last) return fail();
  return `${match[1]}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export interface PeriodWindowOptions {
  /** 'periods' (default): YYYY, YYYY-MM or YYYY-MM-DD; 'days': ISO dates only. */
  forms?: PeriodForms;
  /** Parameter descriptions (default: the forms and the inclusive rule). */
  describe?: (bound: 'from' | 'to') => string;
  /** Schema examples (default: 2020/2025 for periods, 2026-01-05/2026-03-30 for days). */
  examples?: { from: string; to: string };
  /** A parameter of the route that cannot be combined with date_from/date_to (a 400 naming it). */
  exclusiveWith?: string;
}

function periodSpec(description: string, example: string): ParamSpec {
  return { in: ['query'], description, schema: { type: 'string', minLength: 1, maxLength: 10, examples: [example] } };
}

/** date_from / date_to as ISO periods; date_from after date_to is a 400. */
export function periodWindow(options: PeriodWindowOptions = {}): Kind<PeriodWindow> {
  const forms = options.forms ?? 'periods';
  const describe =
    options.describe ??
    ((bound: 'from' | 'to') =>
      forms === 'days'
        ? `${bound === 'from' ? 'First' : 'Last'} date, inclusive: ISO date YYYY-MM-DD.`
        : `${bound === 'from' ? 'First' : 'Last'} period, inclusive: YYYY, YYYY-MM or YYYY-MM-DD.`);
  const examples = options.examples ?? (forms === 'days' ? { from: '2026-01-05', to: '2026-03-30' } : { from: '2020', to: '2025' });
  const resolve = (raw: Record<string, unknown>): PeriodWindow => {
    const from = typeof raw.date_from === 'string' ? parsePeriodBound(raw.date_from, 'date_from', 'from', forms) : null;
    const to = typeof raw.date_to === 'string' ? parsePeriodBound(raw.date_to, 'date_to', 'to', forms) : null;
    if (from !== null && to !== null && from > to) throw invalidParameter('date_from', `date_from (${from}) is after date_to (${to})`);
    return { from, to };
  };
  const checks = [
    checkByResolving('periodWindow', `date_from and date_to are ${forms === 'days' ? 'ISO dates' : 'YYYY, YYYY-MM or YYYY-MM-DD'}; date_from <= date_to`, resolve),
  ];
  const other = options.exclusiveWith;
  if (other !== undefined) {
    checks.push({
      name: `${other}ExcludesWindow`,
      description: `${other} cannot be combined with date_from or date_to`,
      check: (raw) =>
        raw[other] !== undefined && (raw.date_from !== undefined || raw.date_to !== undefined)
          ? invalidParameter(other, `${other} cannot be combined with date_from/date_to: use one or the other`)
          : null,
    });
  }
  return defineKind({
    params: { date_from: periodSpec(describe('from'), examples.from), date_to: periodSpec(describe('to'), examples.to) },
    checks,
    resolve,
  });
}

export interface IsoDayOptions {
  name: string;
  description: string;
  example: string;
}

/** One ISO date parameter (YYYY-MM-DD, a real calendar day) -> the date, or null when absent. */
export function isoDay(options: IsoDayOptions): Kind<string | null> {
  const { name } = options;
  const resolve = (raw: Record<string, unknown>) => (typeof raw[name] === 'string' ? parsePeriodBound(raw[name] as string, name, 'from', 'days') : null);
  return defineKind({
    params: { [name]: periodSpec(options.description, options.example) },
    checks: [checkByResolving(`isoDay(${name})`, `${name} is an ISO date YYYY-MM-DD`, resolve)],
    resolve,
  });
}
