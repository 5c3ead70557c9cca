// getUnusualPayments: four lists of payment activity that stands out in the window.
// Scores are dimensionless, so each list is ranked across currencies (each currency scored
// against its own days) and capped by `limit`.
import type { Row } from '../../../engine/json.ts';
import { defineRoute } from '../../../queries/catalog.ts';
import { page, type Resolved } from '../../../queries/kinds/index.ts';
import { decimal2, money, partitionMean, rank, zScore } from '../../../queries/shared/sql.ts';
import { currencyParam, yearOrWindow, type CurrencyParams } from './params.ts';
import { unusualResponse } from './schemas.ts';
import { CURRENCY_SQL, WINDOW_SQL, requirePaymentDays, sebraBindings, windowFilters } from './window.ts';

export const Z_THRESHOLD = 2;
export const SPIKE_RATIO = 2;
export const MIN_PROGRAMME_DAYS = 5;
export const DEFAULT_LIST_LIMIT = 5;
/** The z threshold as compared in floating point: a score of exactly 2 must not miss by a rounding error. */
const Z_MIN = `(${Z_THRESHOLD} - 1e-9)`;

export const METHOD =
  `Population z-scores (value minus the mean, divided by the population standard deviation) over the HAS_PAYMENTS days ` +
  `of the window, per currency. unusual_days: a day's total amount with z >= ${Z_THRESHOLD}. unusual_programmes: a ` +
  `programme's daily payout with z >= ${Z_THRESHOLD} against that programme's own payment days in the window; the ` +
  `programme needs at least ${MIN_PROGRAMME_DAYS} such days. expense_spikes: a category's monthly total at least ` +
  `${SPIKE_RATIO} times its total in the immediately preceding calendar month, both inside the window (previous month > 0). ` +
  `unusual_payment_counts: a day's number of payments with z >= ${Z_THRESHOLD}. Lists are ordered by z-score ` +
  `(spikes by ratio), highest first, ties by date; each list holds at most limit items.`;

/**
 * Days of the window whose `scored` column (the day's amount or its payment count) has z >= 2
 * against the other days of its currency. `columns` is the item's SELECT list, in field order.
 */
function unusualDaysSql(scored: 'total_amount' | 'payment_count', columns: string): string {
  return `
  WITH days AS (
    SELECT payment_date, currency, total_amount, payment_count,
           ${partitionMean(scored, 'currency')} AS mean_value,
           ${zScore(scored, 'currency')} AS z
    FROM sebra_daily WHERE ${WINDOW_SQL} AND ${CURRENCY_SQL}
  )
  SELECT ${columns}, ${rank('z DESC, payment_date, currency')} AS rank
  FROM days WHERE z >= ${Z_MIN}
  ORDER BY rank LIMIT CAST($limit AS BIGINT)`;
}

const UNUSUAL_DAYS_SQL = unusualDaysSql(
  'total_amount',
  `payment_date, currency, total_amount, ${money('mean_value')} AS mean_amount, ${decimal2('z')} AS zscore, payment_count`,
);

const UNUSUAL_COUNTS_SQL = unusualDaysSql(
  'payment_count',
  `payment_date, currency, payment_count, ${decimal2('mean_value')} AS mean_count, ${decimal2('z')} AS zscore, total_amount`,
);

const UNUSUAL_PROGRAMMES_SQL = `
  WITH days AS (
    SELECT programme, payment_date, currency, total_amount,
           ${partitionMean('total_amount', 'programme, currency')} AS mean_amount,
           ${zScore('total_amount', 'programme, currency')} AS z,
           count(*) OVER (PARTITION BY programme, currency) AS observed_days
    FROM sebra_programme_daily WHERE ${WINDOW_SQL} AND ${CURRENCY_SQL}
  )
  SELECT programme, payment_date, currency, total_amount, ${money('mean_amount')} AS mean_amount, ${decimal2('z')} AS zscore,
         observed_days::BIGINT AS observed_days, ${rank('z DESC, payment_date, programme, currency')} AS rank
  FROM days WHERE z >= ${Z_MIN} AND observed_days >= ${MIN_PROGRAMME_DAYS}
  ORDER BY rank LIMIT CAST($limit AS BIGINT)`;

const EXPENSE_SPIKES_SQL = `
  WITH monthly AS (
    SELECT currency, category_key, date_trunc('month', payment_date) AS month_start, sum(total_amount) AS amount
    FROM sebra_account_daily WHERE ${WINDOW_SQL} AND ${CURRENCY_SQL}
    GROUP BY ALL
  ), paired AS (
    SELECT *,
           lag(amount) OVER (PARTITION BY currency, category_key ORDER BY month_start) AS previous_amount,
           lag(month_start) OVER (PARTITION BY currency, category_key ORDER BY month_start) AS previous_month
    FROM monthly
  ), spikes AS (
    SELECT *, amount / previous_amount AS ratio FROM paired
    WHERE previous_month = month_start - INTERVAL 1 MONTH AND previous_amount > 0 AND amount >= ${SPIKE_RATIO} * previous_amount
  )
  SELECT k.category, s.category_key, s.currency, strftime(s.month_start, '%Y-%m') AS month,
         ${money('s.amount')} AS total_amount, ${money('s.previous_amount')} AS previous_amount,
         ${decimal2('s.ratio')} AS increase_ratio,
         ${rank('s.ratio DESC, s.month_start, k.sort_order, s.currency')} AS rank
  FROM spikes s JOIN sebra_categories k USING (category_key)
  ORDER BY rank LIMIT CAST($limit AS BIGINT)`;

const LISTS = ['unusual_days', 'unusual_programmes', 'expense_spikes', 'unusual_payment_counts'] as const;

/** Rows for CSV and Arrow: the four lists in one table, told apart by `list`. */
function unusualRows(body: Record<string, unknown>): Row[] {
  return LISTS.flatMap((list) => (body[list] as Row[]).map((row) => ({ list, ...row })));
}

/** `list`, then every list's fields once, in the order the lists declare them. */
const UNUSUAL_COLUMNS = [
  ...new Set(['list', ...LISTS.flatMap((list) => Object.keys(unusualResponse.properties?.[list]?.items?.properties ?? {}))]),
];

const unusualInputs = { window: yearOrWindow, list: page({ default: DEFAULT_LIST_LIMIT, description: 'Items per list.' }) };

export const getUnusualPayments = defineRoute<CurrencyParams & Resolved<typeof unusualInputs>>({
  id: 'getUnusualPayments',
  method: 'GET',
  tag: 'sebra',
  paths: ['/api/sebra/getUnusualPayments', '/api/sebra/getUnusualPayments/{year}'],
  examples: [
    '/api/sebra/getUnusualPayments?year=2025&limit=5',
    '/api/sebra/getUnusualPayments/2026?currency=EUR',
  ],
  summary: 'Unusual SEBRA payment days, programme payouts, expense spikes and payment counts',
  description:
    'Four lists over the window (a year, from/to, or the full history): days with an unusually high total (z >= 2), ' +
    'programme payouts unusually high for that programme (z >= 2, at least 5 payment days), expense categories whose ' +
    'monthly total at least doubled from the previous month, and days with unusually many payments (z >= 2). ' +
    'limit (default 5) caps each list.',
  paid: true,
  params: { currency: currencyParam },
  inputs: unusualInputs,
  response: unusualResponse,
  listRows: unusualRows,
  listColumns: () => UNUSUAL_COLUMNS,
  async handle(params, { db }) {
    await requirePaymentDays(db, params.window.window);
    const bindings = { ...sebraBindings(params.window.window, params.currency), limit: params.list.limit };
    const [days, programmes, spikes, counts] = await Promise.all([
      db.all(UNUSUAL_DAYS_SQL, bindings),
      db.all(UNUSUAL_PROGRAMMES_SQL, bindings),
      db.all(EXPENSE_SPIKES_SQL, bindings),
      db.all(UNUSUAL_COUNTS_SQL, bindings),
    ]);
    const { currency, year, from, to } = windowFilters(params.window, params.currency);
    return {
      endpoint: 'getUnusualPayments',
      method: METHOD,
      filters: { year, from, to, currency, limit: params.list.limit },
      unusual_days: days,
      unusual_programmes: programmes,
      expense_spikes: spikes,
      unusual_payment_counts: counts,
    };
  },
});
