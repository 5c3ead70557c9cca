// getUnusualPayments: four lists of payment activity that stands out in the window.
// Scores are dimensionless, so each list is ranked across currencies (each currency scored
// against its own days) and capped by `limit`.
import type { Database } from '../../../engine/database.ts';
import type { Row } from '../../../engine/json.ts';
import { defineRoute } from '../../../queries/catalog.ts';
import { page, type Resolved } from '../../../queries/kinds/index.ts';
import { decimal2, money, partitionMean, rank, zScore } from '../../../queries/shared/sql.ts';
import { OPEN_FROM, OPEN_TO, yearWindow } from '../../../queries/shared/window.ts';
import { windowTotalsSql } from '../../../queries/shared/windowSums.ts';
import { currencyParam, yearOrWindow, type CurrencyParams } from './params.ts';
import { unusualResponse } from './schemas.ts';
import { PROGRAMME_SUMS } from './tables.ts';
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
/** Margin for floating-point rounding between a candidate's bound and the scores: no programme at a threshold is missed. */
const BOUND_SLACK = 1e-6;

export const METHOD =
  `Population z-scores (value minus the mean, divided by the population standard deviation) over the HAS_PAYMENTS days ` +
  `of the window, per currency. unusual_days: a day's total amount with z >= ${Z_THRESHOLD}. unusual_programmes: a ` +
  `programme's daily payout with z >= ${Z_THRESHOLD} against that programme's own payment days in the window; the ` +
  `programme needs at least ${MIN_PROGRAMME_DAYS} such days. expense_spikes: a category's monthly total at least ` +
  `${SPIKE_RATIO} times its total in the immediately preceding calendar month, both inside the window (previous month > 0). ` +
  `unusual_payment_counts: a day's number of payments with z >= ${Z_THRESHOLD}. Lists are ordered by z-score ` +
  `(spikes by ratio), highest first, ties by date; each list holds at most limit items.`;

// The window's days (sebra_daily: one row per day and currency, so this reads days, not payment lines),
// each with its amount's and its payment count's mean and population z-score against the days of its
// currency (one window pass for both lists).
const SCORED_DAYS_CTE = `
  scored_days AS (
    SELECT payment_date, currency, total_amount, payment_count,
           ${partitionMean('total_amount', 'currency')} AS mean_amount_value,
           ${zScore('total_amount', 'currency')} AS amount_z,
           ${partitionMean('payment_count', 'currency')} AS mean_count_value,
           ${zScore('payment_count', 'currency')} AS count_z
    FROM sebra_daily WHERE ${WINDOW_SQL} AND ${CURRENCY_SQL}
  )`;

/** Days whose `z` column has z >= 2; `columns` is the item's SELECT list, in field order. */
function unusualDaysSql(z: 'amount_z' | 'count_z', columns: string): string {
  return `
    SELECT ${columns}, ${rank(`${z} DESC, payment_date, currency`)} AS rank
    FROM scored_days WHERE ${z} >= ${Z_MIN}
    ORDER BY rank LIMIT CAST($limit AS BIGINT)`;
}

const UNUSUAL_DAYS_SQL = unusualDaysSql(
  'amount_z',
  `payment_date, currency, total_amount, ${money('mean_amount_value')} AS mean_amount, ${decimal2('amount_z')} AS zscore, payment_count`,
);

const UNUSUAL_COUNTS_SQL = unusualDaysSql(
  'count_z',
  `payment_date, currency, payment_count, ${decimal2('mean_count_value')} AS mean_count, ${decimal2('count_z')} AS zscore, total_amount`,
);

// Unusual programme payouts without reading every programme's days:
// 1. each programme's days n, sum S and sum of squares Q over the window: two lookups in PROGRAMME_SUMS;
// 2. a bound on its best score: z <= (n * M - S) / sqrt(n * Q - S^2), M = its largest daily payout over
//    the months the window touches (two lookups in sebra_programme_month_max; exact for whole months);
// 3. (programmeDaysSql) the days of the programmes with the highest bounds only, scored by the same
//    formula from exact sums over their days in the window, ranked and capped.
// The answer is complete when no programme left out could rank: the next bound is below the last
// item's score, or nothing is left (the handler widens the candidates until then).
// Programmes that may hold an unusual payout, best bound first, at most $candidates + 1 (the extra one
// bounds the rest).
const CANDIDATES_SQL = `
  WITH programme_bounds AS (${sebraBoundsSql(PROGRAMME_SUMS)}),
  programme_stats AS (
    SELECT t.programme_id, p.currency, t.days AS n, CAST(t.total_amount * 100 AS HUGEINT) AS s, t.amount_cents_squared AS q
    FROM (${windowTotalsSql(PROGRAMME_SUMS, 'programme_bounds')}) t JOIN sebra_programmes p USING (programme_id)
    WHERE t.days >= ${MIN_PROGRAMME_DAYS} AND ${CURRENCY_SQL}
  ), month_span AS (
    SELECT level, first_month, last_month - (1 << level) + 1 AS second_start FROM (
      SELECT f.month_position AS first_month, l.month_position AS last_month,
             CAST(floor(log2(l.month_position - f.month_position + 1) + 1e-9) AS INTEGER) AS level
      FROM programme_bounds b
      JOIN sebra_months f ON f.month = date_trunc('month', b.first_day)
      JOIN sebra_months l ON l.month = date_trunc('month', b.last_day)
    )
  ), month_runs AS (
    SELECT level, first_month AS run_start FROM month_span UNION ALL SELECT level, second_start FROM month_span
  ), month_max AS (
    SELECT m.programme_id, max(m.max_amount) AS max_amount
    FROM month_runs r JOIN sebra_programme_month_max m ON m.level = r.level AND m.month_position = r.run_start
    GROUP BY m.programme_id
  ), candidates AS (
    -- No population z-score of n values exceeds sqrt(n - 1) (one value apart from n - 1 equal ones).
    SELECT programme_id,
           least(CAST(n * CAST(max_amount * 100 AS HUGEINT) - s AS DOUBLE) / sqrt(CAST(n * q - s * s AS DOUBLE)), sqrt(n - 1)) AS z_bound
    FROM programme_stats JOIN month_max USING (programme_id)
    WHERE n * q - s * s > 0
  )
  SELECT programme_id, z_bound FROM candidates WHERE z_bound >= ${Z_MIN} - ${BOUND_SLACK} AND z_bound >= $threshold
  ORDER BY z_bound DESC, programme_id LIMIT CAST($candidates AS BIGINT) + 1`;

/** The most candidates looked up by value (an IN list of bound ids, which zone maps prune); more go through a semi-join. */
const MAX_LISTED_CANDIDATES = 64;
const LISTED_SIZES = [8, 16, 32, MAX_LISTED_CANDIDATES];

/**
 * The unusual payouts among the given programmes: their days in the window, each scored against its
 * programme's days as z = (n x - S) / sqrt(n Q - S^2) from exact sums in cents (the population z-score;
 * order-independent, so equal series score equal and tie by date and name), the mean as DuckDB's avg
 * of the day totals (the sum in cents as a double over 100 n), ranked and capped.
 */
function programmeDaysSql(chosen: string): string {
  return `
    WITH programme_days AS (
      SELECT d.programme_id, p.programme, d.payment_date, p.currency, d.total_amount,
             CAST(d.total_amount * 100 AS HUGEINT) AS x
      FROM sebra_programme_daily d JOIN sebra_programmes p USING (programme_id)
      WHERE ${chosen} AND d.${WINDOW_SQL}
    ), summed AS (
      SELECT *, count(*) OVER programme AS n, sum(x) OVER programme AS s, sum(x * x) OVER programme AS q
      FROM programme_days WINDOW programme AS (PARTITION BY programme_id)
    ), scored AS (
      SELECT *, CAST(n * x - s AS DOUBLE) / sqrt(CAST(n * q - s * s AS DOUBLE)) AS z
      FROM summed WHERE n >= ${MIN_PROGRAMME_DAYS} AND n * q - s * s > 0
    )
    SELECT programme, payment_date, currency, total_amount, ${money('CAST(s AS DOUBLE) / (n * 100)')} AS mean_amount,
           ${decimal2('z')} AS zscore, n::BIGINT AS observed_days, ${rank('z DESC, payment_date, programme, currency')} AS rank, z
    FROM scored WHERE z >= ${Z_MIN}
    ORDER BY rank LIMIT CAST($limit AS BIGINT)`;
}

/** Statement per IN-list size (ids padded with 0, which no programme has), and the semi-join form for more. */
const PROGRAMME_DAYS_SQL = new Map(
  LISTED_SIZES.map((size) => [
    size,
    programmeDaysSql(`d.programme_id IN (${Array.from({ length: size }, (_, i) => `$p${i}`).join(', ')})`),
  ]),
);
const PROGRAMME_DAYS_JOINED_SQL = programmeDaysSql(
  "d.programme_id IN (SELECT CAST(unnest(string_split($programmes, ',')) AS INTEGER))",
);

/** The unusual payouts of the given programme ids (bound parameters only). */
function programmeDays(db: Database, ids: number[], { from, to, limit }: UnusualBindings): Promise<Row[]> {
  const size = LISTED_SIZES.find((n) => n >= ids.length);
  if (size === undefined) return db.all(PROGRAMME_DAYS_JOINED_SQL, { from, to, limit, programmes: ids.join(',') });
  const listed = Object.fromEntries(Array.from({ length: size }, (_, i) => [`p${i}`, ids[i] ?? 0]));
  return db.all(PROGRAMME_DAYS_SQL.get(size)!, { from, to, limit, ...listed });
}

type UnusualBindings = ReturnType<typeof sebraBindings> & { limit: number };

/** Candidates fetched with the first statement: enough that the second round rarely needs another. */
const FIRST_CANDIDATES = (limit: number): number => 4 * (limit + 2);
/** A threshold below every bound (a double, as bounds are), and a candidate count above any. */
const NO_THRESHOLD = -0.5;
const ALL_CANDIDATES = 2_000_000_000;

/**
 * unusual_programmes: score the limit + 2 best-bounded candidates. When a programme left out could
 * still rank (its bound reaches the last item's score, or the list is short), score every candidate
 * whose bound reaches it: scores only rise with more programmes, so that answer is complete.
 */
async function unusualProgrammes(db: Database, bindings: UnusualBindings): Promise<Row[]> {
  const { from, to, currency, limit } = bindings;
  const fetched = FIRST_CANDIDATES(limit);
  let candidates = await db.all(CANDIDATES_SQL, { from, to, currency, candidates: fetched, threshold: NO_THRESHOLD });
  if (candidates.length === 0) return [];
  const scored = Math.min(limit + 2, candidates.length);
  const ids = (rows: Row[]) => rows.map((c) => Number(c.programme_id));
  const first = await programmeDays(db, ids(candidates.slice(0, scored)), bindings);
  const next = candidates[scored];
  const last = first[first.length - 1];
  const threshold = first.length === limit ? Number(last.z) - BOUND_SLACK : NO_THRESHOLD;
  if (next === undefined || Number(next.z_bound) < threshold) return withoutScores(first);
  if (candidates.length > fetched && Number(candidates[candidates.length - 1].z_bound) >= threshold) {
    candidates = await db.all(CANDIDATES_SQL, { from, to, currency, candidates: ALL_CANDIDATES, threshold });
  }
  return withoutScores(await programmeDays(db, ids(candidates.filter((c) => Number(c.z_bound) >= threshold)), bindings));
}

const withoutScores = (items: Row[]): Row[] => items.map(({ z, ...item }) => item);

// Monthly totals per category inside the window, from sebra_category_daily (one row per day, currency
// and category: at most 7 rows per day, whatever the number of payment lines).
const SPIKE_CTES = `
  monthly AS (
    SELECT currency, category_key, date_trunc('month', payment_date) AS month_start, sum(total_amount) AS amount
    FROM sebra_category_daily WHERE ${WINDOW_SQL} AND ${CURRENCY_SQL}
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

/** Three lists and one `meta` row (the window's payment days) in one statement, told apart by `list`. */
const LISTS_SQL = `
  WITH ${SPIKE_CTES}, ${SCORED_DAYS_CTE},
  unusual_days AS (${UNUSUAL_DAYS_SQL}),
  unusual_payment_counts AS (${UNUSUAL_COUNTS_SQL})
  SELECT 0 AS list_order, 'unusual_days' AS list, * FROM unusual_days
  UNION ALL BY NAME SELECT 2 AS list_order, 'expense_spikes' AS list, * FROM expense_spikes
  UNION ALL BY NAME SELECT 3 AS list_order, 'unusual_payment_counts' AS list, * FROM unusual_payment_counts
  UNION ALL BY NAME SELECT 4 AS list_order, 'meta' AS list, (${WINDOW_DAYS_SQL}) AS window_days`;

const LISTS = ['unusual_days', 'unusual_programmes', 'expense_spikes', 'unusual_payment_counts'] as const;
type List = (typeof LISTS)[number];

/** Each list's item fields, in the order the response declares them. */
const LIST_FIELDS = Object.fromEntries(
  LISTS.map((list) => [list, Object.keys(unusualResponse.properties?.[list]?.items?.properties ?? {})]),
) as Record<List, string[]>;

/**
 * The union's rows -> each list's items (its own fields, in rank order) and the meta row. Ordered here:
 * DuckDB sorting the union (every list's columns) cost more than computing the lists.
 */
function splitLists(rows: Row[]): Record<List | 'meta', Row[]> {
  const lists: Record<List | 'meta', Row[]> = { unusual_days: [], unusual_programmes: [], expense_spikes: [], unusual_payment_counts: [], meta: [] };
  const ordered = [...rows].sort((a, b) => Number(a.list_order) - Number(b.list_order) || Number(a.rank ?? 0) - Number(b.rank ?? 0));
  for (const row of ordered) {
    const list = row.list as List | 'meta';
    if (list === 'meta') lists[list].push(row);
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

// Precomputed: the four lists of every calendar year and of the whole history (each currency filter:
// lists are ranked across currencies), the first PRECOMPUTED_ITEMS items of each, keyed by the first
// and last payment day of the window (every list is a function of the window's payment days). Built by
// the handler's own statements (LISTS_SQL; the programme payouts by programmeDaysSql over every
// programme, the definition the candidate bounds shortcut), so the scores are those arithmetic's. A
// window with such days and a limit up to PRECOMPUTED_ITEMS is one lookup.
export const PRECOMPUTED_ITEMS = 100;

const ALL_PROGRAMME_DAYS_SQL = programmeDaysSql("($currency = '' OR p.currency = $currency)");

const WINDOW_DAY_SQL = (aggregate: 'min' | 'max') => `(SELECT ${aggregate}(payment_date) FROM sebra_daily WHERE ${WINDOW_SQL})`;

export async function loadUnusualAnswers(db: Database): Promise<void> {
  await db.run(`CREATE TABLE sebra_unusual_answers (
    first_day DATE, last_day DATE, currency_key VARCHAR, list_order INTEGER, list VARCHAR, rank BIGINT,
    payment_date DATE, currency VARCHAR, programme VARCHAR, category VARCHAR, category_key VARCHAR, month VARCHAR,
    total_amount DECIMAL(38,2), previous_amount DECIMAL(38,2), mean_amount DECIMAL(38,2), increase_ratio DECIMAL(38,2),
    zscore DECIMAL(38,2), payment_count BIGINT, mean_count DECIMAL(38,2), observed_days BIGINT, window_days BIGINT)`);
  const years = await db.all('SELECT DISTINCT CAST(year(payment_date) AS INTEGER) AS year FROM sebra_daily ORDER BY year');
  const windows = [{ from: OPEN_FROM, to: OPEN_TO }, ...years.map((row) => yearWindow(Number(row.year)))];
  const key = `CAST($first_day AS DATE) AS first_day, CAST($last_day AS DATE) AS last_day, CAST($currency AS VARCHAR) AS currency_key`;
  for (const { from, to } of windows) {
    const [span] = await db.all(
      `SELECT CAST(${WINDOW_DAY_SQL('min')} AS VARCHAR) AS first_day, CAST(${WINDOW_DAY_SQL('max')} AS VARCHAR) AS last_day`,
      { from, to },
    );
    if (span.first_day === null) continue; // no payment day at all (a snapshot without SEBRA data)
    for (const currency of ['', 'BGN', 'EUR']) {
      const bindings = { from, to, currency, limit: PRECOMPUTED_ITEMS, first_day: String(span.first_day), last_day: String(span.last_day) };
      await db.run(`INSERT INTO sebra_unusual_answers BY NAME SELECT ${key}, * FROM (${LISTS_SQL})`, bindings);
      await db.run(
        `INSERT INTO sebra_unusual_answers BY NAME
         SELECT ${key}, 1 AS list_order, 'unusual_programmes' AS list, * EXCLUDE (z) FROM (${ALL_PROGRAMME_DAYS_SQL})`,
        bindings,
      );
    }
  }
  await db.run(`CREATE TABLE sebra_unusual_answers_sorted AS
    SELECT * FROM sebra_unusual_answers ORDER BY first_day, last_day, currency_key, list_order, rank`);
  await db.run('DROP TABLE sebra_unusual_answers');
  await db.run('ALTER TABLE sebra_unusual_answers_sorted RENAME TO sebra_unusual_answers');
}

/** The precomputed lists of the window (with their meta row); no row when the window's days are not precomputed. */
const PRECOMPUTED_SQL = `
  SELECT * EXCLUDE (first_day, last_day, currency_key) FROM sebra_unusual_answers
  WHERE first_day = ${WINDOW_DAY_SQL('min')} AND last_day = ${WINDOW_DAY_SQL('max')}
    AND currency_key = $currency AND coalesce(rank, 0) <= $limit`;

/** The lists and the meta row of the window: precomputed, or from the statements. */
async function unusualLists(db: Database, bindings: UnusualBindings): Promise<{ lists: Record<List | 'meta', Row[]>; programmes: Row[] }> {
  if (bindings.limit <= PRECOMPUTED_ITEMS) {
    const rows = await db.all(PRECOMPUTED_SQL, bindings);
    if (rows.length > 0) {
      const lists = splitLists(rows);
      return { lists, programmes: lists.unusual_programmes };
    }
  }
  // The programme list (its candidates, then their days) runs beside the other three.
  const [rows, programmes] = await Promise.all([db.all(LISTS_SQL, bindings), unusualProgrammes(db, bindings)]);
  return { lists: splitLists(rows), programmes };
}

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
    const { lists, programmes } = await unusualLists(db, bindings);
    if (lists.meta[0].window_days === 0) throw noPaymentDays(window);
    const { currency, year, from, to } = windowFilters(params.window, params.currency);
    return {
      endpoint: 'getUnusualPayments',
      method: METHOD,
      filters: { year, from, to, currency, limit: params.list.limit },
      unusual_days: lists.unusual_days,
      unusual_programmes: programmes,
      expense_spikes: lists.expense_spikes,
      unusual_payment_counts: lists.unusual_payment_counts,
    };
  },
});
