// Inputs shared by the SEBRA endpoints: the currency, the window kinds and the ranked limit.
import type { ParamSpec } from '../../../queries/catalog.ts';
import { dayWindow, page } from '../../../queries/kinds/index.ts';

export type Currency = 'BGN' | 'EUR';

export const currencyParam: ParamSpec = {
  in: ['query'],
  description: 'BGN (until 2025) or EUR (from 2026). When omitted, results are split by currency.',
  schema: { type: 'string', enum: ['BGN', 'EUR'] },
  normalize: 'upper',
};

/** year (query or path) or a from/to window: the window of the programme and unusual-payment routes. */
export const yearOrWindow = dayWindow({ year: ['query', 'path'], yearDescription: 'Calendar year (path form or query).' });

/** Rows per currency after ranking; every row when omitted. */
export const rankedLimit = page({ default: null, description: 'Rows per currency after ranking (all rows when omitted).' });

export interface CurrencyParams {
  currency?: Currency;
}
