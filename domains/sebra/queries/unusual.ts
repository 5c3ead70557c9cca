// getUnusualPayments: four lists of payment activity that stands out in the window.
// Scores are dimensionless, so each list is ranked across currencies (each currency scored
// against its own days) and capped by `limit`.
import type { Row } from '../../../engine/json.ts';
import { defineRoute } from '../../../queries/catalog.ts';
import { page, type Resolved } from '../../../queries/kinds/index.ts';
import { decimal2, money, partitionMean, rank, zScore } from '../../../queries/shared/sql.ts';
import { calendarTable, spanTotalsSql, windowTotalsSql } from '../../../queries/shared/windowSums.ts';
import { currencyParam, yearOrWindow, type CurrencyParams } from './params.ts';
import { unusualResponse } from './schemas.ts';
import { ACCOUNT_SUMS, PROGRAMME_SUMS } from './tables.ts';
import {
  CURRENCY_SQL,
  WINDOW_DAYS_SQL,
  WINDOW_SQL,
  noPaymentDays,
  rejectEmptyWindow,
  sebraBindings,
  sebraBoundsSql,
  windowFilters,
} from './window.ts';

export const Z_THRESHOLD = 2;
export const SPIKE_RATIO = 2;
export const MIN_PROGRAMME_DAYS = 5;
export const DEFAULT_LIST_LIMIT = 5;
/** The z threshold as compared in floating point: a score of exactly 2 must not miss by a rounding error. */
const Z_MIN = `(${Z_THRESHOLD} - 1e-9)`;
/**
 * How far the candidates' score bounds (computed from exact sums) may sit below the scores the lists
 * show (computed by DuckDB's avg/stddev_pop): no programme at a threshold is missed by a rounding error.
 */
const BOUND_SLACK = 1e-6;

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
 * sebra_daily has one row per day and currency: this reads the window's days, not payment lines.
 */
function unusualDaysSql(scored: 'total_amount' | 'payment_count', columns: string): string {
  return `
    SELECT ${columns}, ${rank('z DESC, payment_date, currency')} AS rank
    FROM (
      SELECT payment_date, currency, total_amount, payment_count,
             ${partitionMean(scored, 'currency')} AS mean_value,
             ${zScore(scored, 'currency')} AS z
      FROM sebra_daily WHERE ${WINDOW_SQL} AND ${CURRENCY_SQL}
    )
    WHERE z >= ${Z_MIN}
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

// Unusual programme payouts without reading every programme's days:
// 1. each programme's days n, sum S and sum of squares Q over the window: two lookups in PROGRAMME_SUMS;
// 2. a bound on its best score: z <= (n * M - S) / sqrt(n * Q - S^2), M = its largest daily payout over the
//    months the window touches (two lookups in sebra_programme_month_max; exact when the window is whole months);
// 3. the days of the $candidates programmes with the highest bounds only, scored as before (DuckDB's avg and
//    stddev_pop over the programme's days in the window), ranked and capped.
// The answer is complete when no programme left out could rank: the next bound is below the last item's
// score (or nothing is left). Otherwise the caller asks again with more candidates.
const PROGRAMME_CTES = `
  programme_bounds AS (${sebraBoundsSql(PROGRAMME_SUMS)}),
  programme_stats AS (
    SELECT t.currency, t.programme_id, t.days AS n, CAST(t.total_amount * 100 AS HUGEINT) AS s, t.amount_cents_squared AS q,
           b.first_day, b.last_day
    FROM (${windowTotalsSql(PROGRAMME_SUMS, 'programme_bounds')}) t JOIN programme_bounds b USING (currency)
    WHERE t.days >= ${MIN_PROGRAMME_DAYS}
  ), programme_spread AS (
    SELECT *, n * q - s * s AS spread FROM programme_stats
  ), month_span AS (
    SELECT b.currency, f.month_position AS first_month, l.month_position AS last_month,
           CAST(floor(log2(l.month_position - f.month_position + 1) + 1e-9) AS INTEGER) AS level
    FROM programme_bounds b
    JOIN sebra_programme_months f ON f.currency = b.currency AND f.month = date_trunc('month', b.first_day)
    JOIN sebra_programme_months l ON l.currency = b.currency AND l.month = date_trunc('month', b.last_day)
  ), month_runs AS (
    SELECT currency, level, first_month AS run_start FROM month_span
    UNION SELECT currency, level, last_month - (1 << level) + 1 FROM month_span
  ), month_max AS (
    SELECT r.currency, m.programme_id, max(m.max_amount) AS max_amount
    FROM month_runs r JOIN sebra_programme_month_max m ON m.level = r.level AND m.month_position = r.run_start
    GROUP BY ALL
  ), bounded AS (
    SELECT p.*, CAST(p.n * CAST(m.max_amount * 100 AS HUGEINT) - p.s AS DOUBLE) / sqrt(CAST(p.spread AS DOUBLE)) AS z_bound
    FROM programme_spread p JOIN month_max m USING (currency, programme_id)
    WHERE p.spread > 0
  ), ordered AS (
    SELECT *, row_number() OVER (ORDER BY z_bound DESC, currency, programme_id) AS bound_rank
    FROM bounded WHERE z_bound >= ${Z_MIN} - ${BOUND_SLACK}
  ), candidate_days AS (
    SELECT p.programme, d.payment_date, d.currency, d.total_amount
    FROM (SELECT * FROM ordered WHERE bound_rank <= $candidates) c
    JOIN sebra_programme_daily d
      ON d.programme_id = c.programme_id AND d.currency = c.currency AND d.payment_date BETWEEN c.first_day AND c.last_day
    JOIN sebra_programmes p ON p.programme_id = c.programme_id
  ), programme_days AS (
    SELECT programme, payment_date, currency, total_amount,
           ${partitionMean('total_amount', 'programme, currency')} AS mean_amount,
           ${zScore('total_amount', 'programme, currency')} AS z,
           count(*) OVER (PARTITION BY programme, currency) AS observed_days
    FROM candidate_days
  ), unusual_programmes AS (
    SELECT programme, payment_date, currency, total_amount, ${money('mean_amount')} AS mean_amount, ${decimal2('z')} AS zscore,
           observed_days::BIGINT AS observed_days, ${rank('z DESC, payment_date, programme, currency')} AS rank, z
    FROM programme_days WHERE z >= ${Z_MIN} AND observed_days >= ${MIN_PROGRAMME_DAYS}
    ORDER BY rank LIMIT CAST($limit AS BIGINT)
  ), programmes_complete AS (
    SELECT NOT EXISTS (SELECT 1 FROM ordered WHERE bound_rank > $candidates)
           OR coalesce((SELECT max(z_bound) FROM ordered WHERE bound_rank > $candidates)
                       < (SELECT min(z) - ${BOUND_SLACK} FROM unusual_programmes HAVING count(*) = CAST($limit AS BIGINT)), false) AS complete
  )`;

// Monthly totals per category inside the window: for each month, every account's totals between the
// month's last window day and the previous month's (two lookups in ACCOUNT_SUMS per account and month).
const SPIKE_CTES = `
  spike_bounds AS (${sebraBoundsSql(ACCOUNT_SUMS)}),
  spike_months AS (
    SELECT d.currency, date_trunc('month', d.day) AS month_start, max(d.position) AS upto
    FROM ${calendarTable(ACCOUNT_SUMS)} d JOIN spike_bounds b USING (currency)
    WHERE d.day BETWEEN CAST($from AS DATE) AND CAST($to AS DATE)
    GROUP BY ALL
  ), spike_spans AS (
    SELECT m.currency AS span_currency, m.month_start AS span_month, m.upto,
           coalesce(lag(m.upto) OVER (PARTITION BY m.currency ORDER BY m.month_start), b.lo) AS before
    FROM spike_months m JOIN spike_bounds b USING (currency)
  ), monthly AS (
    SELECT span_currency AS currency, category_key, span_month AS month_start, sum(total_amount) AS amount
    FROM (${spanTotalsSql(ACCOUNT_SUMS, { from: 'spike_spans', carry: ['span_currency', 'span_month'], upto: 'upto', before: 'before' })})
    GROUP BY ALL
  ), paired AS (
    SELECT *,
           lag(amount) OVER (PARTITION BY currency, category_key ORDER BY month_start) AS previous_amount,
           lag(month_start) OVER (PARTITION BY currency, category_key ORDER BY month_start) AS previous_month
    FROM monthly
  ), spikes AS (
    SELECT *, amount / previous_amount AS ratio FROM paired
    WHERE previous_month = month_start - INTERVAL 1 MONTH AND previous_amount > 0 AND amount >= ${SPIKE_RATIO} * previous_amount
  ), expense_spikes AS (
    SELECT k.category, s.category_key, s.currency, strftime(s.month_start, '%Y-%m') AS month,
           ${money('s.amount')} AS total_amount, ${money('s.previous_amount')} AS previous_amount,
           ${decimal2('s.ratio')} AS increase_ratio,
           ${rank('s.ratio DESC, s.month_start, k.sort_order, s.currency')} AS rank
    FROM spikes s JOIN sebra_categories k USING (category_key)
    ORDER BY rank LIMIT CAST($limit AS BIGINT)
  )`;

/** The four lists in one statement, told apart by `list`, and one `meta` row (window days, completeness). */
const UNUSUAL_SQL = `
  WITH ${PROGRAMME_CTES}, ${SPIKE_CTES},
  unusual_days AS (${UNUSUAL_DAYS_SQL}),
  unusual_payment_counts AS (${UNUSUAL_COUNTS_SQL})
  SELECT 0 AS list_order, 'unusual_days' AS list, * FROM unusual_days
  UNION ALL BY NAME SELECT 1 AS list_order, 'unusual_programmes' AS list, * FROM unusual_programmes
  UNION ALL BY NAME SELECT 2 AS list_order, 'expense_spikes' AS list, * FROM expense_spikes
  UNION ALL BY NAME SELECT 3 AS list_order, 'unusual_payment_counts' AS list, * FROM unusual_payment_counts
  UNION ALL BY NAME SELECT 4 AS list_order, 'meta' AS list, (${WINDOW_DAYS_SQL}) AS window_days, complete FROM programmes_complete
  ORDER BY list_order, rank`;

/** The programme list alone, asked again with more candidates when the first answer was not complete. */
const PROGRAMMES_AGAIN_SQL = `
  WITH ${PROGRAMME_CTES}
  SELECT 1 AS list_order, 'unusual_programmes' AS list, * FROM unusual_programmes
  UNION ALL BY NAME SELECT 4 AS list_order, 'meta' AS list, complete FROM programmes_complete
  ORDER BY list_order, rank`;

/** Programmes whose days are scored in the first answer: a few beyond the limit, so ties and loose bounds rarely need a second one. */
const FIRST_CANDIDATES = 16;
const CANDIDATE_GROWTH = 8;

const LISTS = ['unusual_days', 'unusual_programmes', 'expense_spikes', 'unusual_payment_counts'] as const;
type List = (typeof LISTS)[number];

/** Each list's item fields, in the order the response declares them. */
const LIST_FIELDS = Object.fromEntries(
  LISTS.map((list) => [list, Object.keys(unusualResponse.properties?.[list]?.items?.properties ?? {})]),
) as Record<List, string[]>;

/** The union's rows -> each list's items (its own fields, in order) and the meta row. */
function splitLists(rows: Row[]): Record<List | 'meta', Row[]> {
  const lists: Record<List | 'meta', Row[]> = { unusual_days: [], unusual_programmes: [], expense_spikes: [], unusual_payment_counts: [], meta: [] };
  for (const row of rows) {
    const list = row.list as List | 'meta';
    if (list === 'meta') lists.meta.push(row);
    else lists[list].push(Object.fromEntries(LIST_FIELDS[list].map((field) => [field, row[field]])));
  }
  return lists;
}

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
    const { window } = params.window;
    rejectEmptyWindow(window);
    const limit = params.list.limit ?? DEFAULT_LIST_LIMIT;
    const bindings = { ...sebraBindings(window, params.currency), limit };
    let candidates = limit + FIRST_CANDIDATES;
    const lists = splitLists(await db.all(UNUSUAL_SQL, { ...bindings, candidates }));
    if (lists.meta[0].window_days === 0) throw noPaymentDays(window);
    while (lists.meta[0].complete !== true) {
      candidates *= CANDIDATE_GROWTH;
      const again = splitLists(await db.all(PROGRAMMES_AGAIN_SQL, { ...bindings, candidates }));
      lists.unusual_programmes = again.unusual_programmes;
      lists.meta = again.meta;
    }
    const { currency, year, from, to } = windowFilters(params.window, params.currency);
    return {
      endpoint: 'getUnusualPayments',
      method: METHOD,
      filters: { year, from, to, currency, limit: params.list.limit },
      unusual_days: lists.unusual_days,
      unusual_programmes: lists.unusual_programmes,
      expense_spikes: lists.expense_spikes,
      unusual_payment_counts: lists.unusual_payment_counts,
    };
  },
});
