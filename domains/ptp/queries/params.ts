// Parameters and cross-field checks of the PTP endpoints, and the window they resolve to.
import type { CrossFieldCheck, ParamSpec } from '../../../queries/catalog.ts';
import { invalidParameter } from '../../../queries/shared/errors.ts';
import { limitParam, windowDateParam, yearParam } from '../../../queries/shared/params.ts';
import { resolveWindow, windowBounds, yearWindow, type DateWindow } from '../../../queries/shared/window.ts';

export const DEADLY_LIMIT_DEFAULT = 20;
export const DEADLY_LIMIT_MAX = 200;

export interface PtpWindowParams {
  year?: number;
  from?: string;
  to?: string;
  limit?: number;
}

export const cityParam: ParamSpec = {
  in: ['query', 'path'],
  required: true,
  description: 'Settlement name, Latin or Cyrillic, any case, with or without "гр."/"с." (Sofia, София, Plovdiv, гр. Пловдив).',
  schema: { type: 'string', minLength: 1, maxLength: 100, examples: ['Plovdiv'] },
};

export const regionParam: ParamSpec = {
  in: ['query', 'path'],
  required: true,
  description:
    'Oblast name, Latin or Cyrillic, any case. Sofia (София, СОФИЯ) is the capital region (София-град); ' +
    'the Sofia district is Софийска (Sofia Province).',
  schema: { type: 'string', minLength: 1, maxLength: 100, examples: ['Plovdiv'] },
};

export const windowParams: Record<string, ParamSpec> = {
  year: yearParam('Calendar year; cannot be combined with from/to.'),
  from: windowDateParam('from', 'Window start, inclusive: DD-MM-YYYY, or MM-YYYY for the first day of that month.'),
  to: windowDateParam('to', 'Window end, inclusive: DD-MM-YYYY, or MM-YYYY for the last day of that month. Defaults to today when from is given.'),
};

export const crashLimitParam = limitParam('Newest accidents to return (all matches when omitted).');

export const deadlyWindowParams: Record<string, ParamSpec> = {
  ...windowParams,
  year: yearParam('Calendar year (path form or query); cannot be combined with from/to.', { in: ['query', 'path'] }),
};

export const deadlyLimitParam = limitParam(`Clusters to return (default ${DEADLY_LIMIT_DEFAULT}, at most ${DEADLY_LIMIT_MAX}).`, {
  default: DEADLY_LIMIT_DEFAULT,
  maximum: DEADLY_LIMIT_MAX,
});

/** The deadly-location ranking needs a window: a year, or from and/or to. */
export const windowRequired: CrossFieldCheck<PtpWindowParams> = {
  name: 'windowRequired',
  description: 'a year or a from/to window is required',
  check: ({ year, from, to }) =>
    year === undefined && from === undefined && to === undefined
      ? invalidParameter('year', 'give a year (or /{year}) or a from/to window')
      : null,
};

/** The request's window: the year, or from/to (from alone runs to today), or all history. */
export function ptpWindow(params: PtpWindowParams, today: string): DateWindow {
  return params.year === undefined ? resolveWindow(params.from, params.to, today) : yearWindow(params.year);
}

export const WINDOW_SQL = 'crash_date BETWEEN CAST($from AS DATE) AND CAST($to AS DATE)';

export function windowBindings(window: DateWindow): { from: string; to: string } {
  return windowBounds(window);
}

/** The window part of `filters`: the year, or the from/to as ISO dates (to defaulted to today); unused ones null. */
export function windowFilters(params: PtpWindowParams, today: string): { year: number | null; from: string | null; to: string | null } {
  const requested = resolveWindow(params.from, params.to, today);
  return { year: params.year ?? null, from: requested.from, to: requested.to };
}
