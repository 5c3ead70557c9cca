// Parameters shared by the SEBRA endpoints.
import type { ParamSpec } from '../../../queries/catalog.ts';
import { limitParam, windowDateParam, yearParam } from '../../../queries/shared/params.ts';

export type Currency = 'BGN' | 'EUR';

export const currencyParam: ParamSpec = {
  in: ['query'],
  description: 'BGN (until 2025) or EUR (from 2026). When omitted, results are split by currency.',
  schema: { type: 'string', enum: ['BGN', 'EUR'] },
  normalize: 'upper',
};

export const fromParam = windowDateParam('from', 'Window start, inclusive: DD-MM-YYYY, or MM-YYYY for the first day of that month.');
export const toParam = windowDateParam('to', 'Window end, inclusive: DD-MM-YYYY, or MM-YYYY for the last day of that month. Defaults to today when from is given.');

export const yearQueryParam = yearParam('Calendar year; cannot be combined with from/to.');
export const yearPathOrQueryParam = yearParam('Calendar year (path form or query).', { in: ['query', 'path'] });

/** year (query or path) or a from/to window, and the currency: the window of programme and unusual-payment routes. */
export const yearOrWindowParams = {
  year: yearPathOrQueryParam,
  from: fromParam,
  to: toParam,
  currency: currencyParam,
};

export const rankedLimitParam = limitParam('Rows per currency after ranking (all rows when omitted).');

export interface WindowParams {
  year?: number;
  from?: string;
  to?: string;
  currency?: Currency;
}
