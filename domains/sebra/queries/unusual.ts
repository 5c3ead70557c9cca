// getUnusualPayments: four lists of payment activity that stands out in the window.
// Scores are dimensionless, so each list is ranked across currencies (each currency scored
// against its own days) and capped by `limit`.
import type { Database } from '../../../engine/database.ts';
import type { Row } from '../../../engine/json.ts';
import { heldView } from '../../../engine/held.ts';
import { defineRoute } from '../../../queries/catalog.ts';
import { page, type Resolved } from '../../../queries/kinds/index.ts';
import { decimal2, money, partitionMean, rank, zScore } from '../../../queries/shared/sql.ts';
import { OPEN_FROM, OPEN_TO, yearWindow } from '../../../queries/shared/window.ts';
import { currencyParam, yearOrWindow, type CurrencyParams } from './params.ts';
import { hugeintAsDouble } from '../../../engine/heldGuards.ts';
import { decimal2Text, unusualProgrammeItems } from './programmeScores.ts';
import { categoryDaily, expenseSpikes } from './spikes.ts';
import { centsDecimal, dailyTotals, windowPaymentDays, type DailyTotal } from './dailyTotals.ts';
import { unusualResponse } from './schemas.ts';
import {
  CURRENCY_SQL,
  WINDOW_DAYS_SQL,
  WINDOW_SQL,
  noPaymentDays,
  rejectEmptyWindow,
  sebraBindings,
  windowFilters,
} from './window.ts';

export const Z_THRESHOLD = 2;
export const SPIKE_RATIO = 2;
/** The same ratio as a bigint, for the comparison of exact cents (spikes.ts): a fractional ratio fails here, at load, not per request. */
const SPIKE_RATIO_EXACT = BigInt(SPIKE_RATIO);
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

/**
 * The unusual payouts among the given programmes: their days in the window, each scored against its
 * programme's days as z = (n x - S) / sqrt(n Q - S^2) from exact sums in cents (the population z-score;
 * order-independent, so equal series score equal and tie by date and name), the mean as DuckDB's avg
 * of the day totals (the sum in cents as a double over 100 n), ranked and capped. The precomputed
 * answers use it; requests read programmeScores.ts, the same arithmetic over an in-memory index.
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

type UnusualBindings = ReturnType<typeof sebraBindings> & { limit: number };

// Monthly totals per category inside the window, from sebra_category_daily (one row per day, currency
// and category: at most 7 rows per day, whatever the number of payment lines).
const SPIKE_CTES = `
  monthly AS (
    SELECT currency, category_key, date_trunc('month', payment_date) AS month_start, sum(total_amount) AS amount
    FROM sebra_category_daily WHERE ${WINDOW_SQL} AND ${CURRENCY_SQL}
    GROUP BY ALL
  ), spikes AS (
    -- The previous calendar month by a join, not lag() over a partitioned window (the window's sort cost
    -- more than the rest of the lists): a month's row is unique per category, so it is the lag row.
    SELECT c.*, p.amount AS previous_amount, c.amount / p.amount AS ratio
    FROM monthly c JOIN monthly p
      ON p.currency = c.currency AND p.category_key = c.category_key AND p.month_start = c.month_start - INTERVAL 1 MONTH
    WHERE p.amount > 0 AND c.amount >= ${SPIKE_RATIO} * p.amount
  ), expense_spikes AS (
    SELECT k.category, s.category_key, s.currency, strftime(s.month_start, '%Y-%m') AS month,
           ${money('s.amount')} AS total_amount, ${money('s.previous_amount')} AS previous_amount,
           ${decimal2('s.ratio')} AS increase_ratio,
           ${rank('s.ratio DESC, s.month_start, k.sort_order, s.currency')} AS rank
    FROM spikes s JOIN sebra_categories k USING (category_key)
    ORDER BY rank LIMIT CAST($limit AS BIGINT)
  )`;

/** Three lists and one `meta` row (the window's payment days) in one statement, told apart by `list` (the build's). */
const LISTS_SQL = `
  WITH ${SPIKE_CTES}, ${SCORED_DAYS_CTE},
  unusual_days AS (${UNUSUAL_DAYS_SQL}),
  unusual_payment_counts AS (${UNUSUAL_COUNTS_SQL})
  SELECT 0 AS list_order, 'unusual_days' AS list, * FROM unusual_days
  UNION ALL BY NAME SELECT 2 AS list_order, 'expense_spikes' AS list, * FROM expense_spikes
  UNION ALL BY NAME SELECT 3 AS list_order, 'unusual_payment_counts' AS list, * FROM unusual_payment_counts
  UNION ALL BY NAME SELECT 4 AS list_order, 'meta' AS list, (${WINDOW_DAYS_SQL}) AS window_days`;

/**
 * A request's day statistics per currency over the window: DuckDB's avg and stddev_pop of the day
 * totals and payment counts (the aggregates of SCORED_DAYS_CTE, here grouped rather than windowed: on
 * 600 random x10 windows, 48 558 day rows, every mean and z-score came out the same double), the means
 * rendered by DuckDB, and the threshold as DuckDB evaluates it. Each day's z-score is then taken in
 * JavaScript from the held days (dayLists): (the total as a double - mean) / sd, as the statement
 * subtracts and divides. Two ranked windows over the day rows cost several times this statement.
 */
const DAY_STATS_SQL = `
  SELECT currency, avg(total_amount) AS mean_amount_value, stddev_pop(total_amount) AS sd_amount, ${money('avg(total_amount)')} AS mean_amount,
         avg(payment_count) AS mean_count_value, stddev_pop(payment_count) AS sd_count, ${decimal2('avg(payment_count)')} AS mean_count,
         ${Z_MIN} AS z_min
  FROM sebra_daily WHERE ${WINDOW_SQL} AND ${CURRENCY_SQL}
  GROUP BY currency`;

interface ScoredDay {
  day: DailyTotal;
  z: number;
}

/** z descending, then day, then currency: the order of UNUSUAL_DAYS_SQL's rank. */
function byScore(a: ScoredDay, b: ScoredDay): number {
  if (a.z !== b.z) return b.z - a.z;
  if (a.day.day !== b.day.day) return a.day.day < b.day.day ? -1 : 1;
  return a.day.currency < b.day.currency ? -1 : a.day.currency > b.day.currency ? 1 : 0;
}

/**
 * The unusual_days and unusual_payment_counts rows (list_order 0 and 3, ranked, at most `limit` each):
 * the window's held days scored against DAY_STATS_SQL's statistics of their currency (no spread: null, never unusual).
 */
function dayLists(stats: Row[], rows: readonly DailyTotal[], { from, to, currency, limit }: UnusualBindings): Row[] {
  const byCurrency = new Map(stats.map((row) => [String(row.currency), row]));
  const amounts: ScoredDay[] = [];
  const counts: ScoredDay[] = [];
  for (const day of rows) {
    if (day.day < from || day.day > to || (currency !== '' && day.currency !== currency)) continue;
    const stat = byCurrency.get(day.currency);
    if (!stat) continue;
    const zMin = Number(stat.z_min);
    if (Number(stat.sd_amount) !== 0) {
      const z = (hugeintAsDouble(day.cents) / 100 - Number(stat.mean_amount_value)) / Number(stat.sd_amount);
      if (z >= zMin) amounts.push({ day, z });
    }
    if (Number(stat.sd_count) !== 0) {
      const z = (day.payment_count - Number(stat.mean_count_value)) / Number(stat.sd_count);
      if (z >= zMin) counts.push({ day, z });
    }
  }
  const cut = (list: ScoredDay[]) => list.sort(byScore).slice(0, Math.max(0, limit));
  return [
    ...cut(amounts).map(({ day, z }, index) => ({
      list_order: 0, list: 'unusual_days', payment_date: day.day, currency: day.currency, total_amount: centsDecimal(day.cents),
      mean_amount: byCurrency.get(day.currency)!.mean_amount, zscore: decimal2Text(z), payment_count: day.payment_count, rank: index + 1,
    })),
    ...cut(counts).map(({ day, z }, index) => ({
      list_order: 3, list: 'unusual_payment_counts', payment_date: day.day, currency: day.currency, payment_count: day.payment_count,
      mean_count: byCurrency.get(day.currency)!.mean_count, zscore: decimal2Text(z), total_amount: centsDecimal(day.cents), rank: index + 1,
    })),
  ];
}

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
// programme, the arithmetic programmeScores.ts reproduces), so the scores are those arithmetic's. A
// window with such days and a limit up to PRECOMPUTED_ITEMS is one lookup. A programme's scores do not
// depend on the currency filter (a programme has one currency), so the payouts are scored once per
// window and each filter's list is that one re-ranked (the same order: z, day, name, currency).
export const PRECOMPUTED_ITEMS = 100;

const ALL_PROGRAMME_DAYS_SQL = programmeDaysSql('TRUE');
/** Every payout with z >= 2 of the window: more than any list holds. */
const ALL_PAYOUTS = 2 ** 62;

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
    await db.run(`CREATE TEMP TABLE sebra_window_payouts AS SELECT * EXCLUDE (rank) FROM (${ALL_PROGRAMME_DAYS_SQL})`, { from, to, limit: ALL_PAYOUTS });
    for (const currency of ['', 'BGN', 'EUR']) {
      const bindings = { from, to, currency, limit: PRECOMPUTED_ITEMS, first_day: String(span.first_day), last_day: String(span.last_day) };
      await db.run(`INSERT INTO sebra_unusual_answers BY NAME SELECT ${key}, * FROM (${LISTS_SQL})`, bindings);
      await db.run(
        `INSERT INTO sebra_unusual_answers BY NAME
         SELECT ${key}, 1 AS list_order, 'unusual_programmes' AS list, * EXCLUDE (z) FROM (
           SELECT *, ${rank('z DESC, payment_date, programme, currency')} AS rank FROM sebra_window_payouts WHERE ${CURRENCY_SQL}
         ) WHERE rank <= $limit`,
        { first_day: bindings.first_day, last_day: bindings.last_day, currency, limit: PRECOMPUTED_ITEMS },
      );
    }
    await db.run('DROP TABLE sebra_window_payouts');
  }
  await db.run(`CREATE TABLE sebra_unusual_answers_sorted AS
    SELECT * FROM sebra_unusual_answers ORDER BY first_day, last_day, currency_key, list_order, rank`);
  await db.run('DROP TABLE sebra_unusual_answers');
  await db.run('ALTER TABLE sebra_unusual_answers_sorted RENAME TO sebra_unusual_answers');
}

/**
 * Held per database (a snapshot does not change while served): the precomputed rows by window key
 * (first and last payment day, currency filter), so a window is matched to its precomputed answer
 * without a statement (the payment days themselves: dailyTotals.ts).
 */
const answerKey = (firstDay: string, lastDay: string, currency: string): string => `${firstDay}|${lastDay}|${currency}`;

/** Not held (over bounds or budget): every window keeps the statements, which give the same lists. */
export const precomputedAnswers = heldView<Map<string, Row[]>>({
  name: 'sebra.unusualAnswers',
  // In the table's order (written sorted by window, list and rank).
  sql: { rows: `SELECT CAST(first_day AS VARCHAR) AS key_first, CAST(last_day AS VARCHAR) AS key_last, currency_key AS key_currency,
      * EXCLUDE (first_day, last_day, currency_key) FROM sebra_unusual_answers` },
  key: ['first_day', 'last_day', 'currency_key'],
  order: 'list_order, rank (the table order)',
  rowsMax: 500_000,
  bytesMax: 128 * 2 ** 20,
  build: ({ rows }) => {
    const byKey = new Map<string, Row[]>();
    for (const { key_first, key_last, key_currency, ...row } of rows) {
      const key = answerKey(String(key_first), String(key_last), String(key_currency));
      const held = byKey.get(key) ?? [];
      held.push(row);
      byKey.set(key, held);
    }
    return byKey;
  },
  parity: {
    probes: `SELECT DISTINCT CAST(first_day AS VARCHAR) AS first_day, CAST(last_day AS VARCHAR) AS last_day, currency_key FROM sebra_unusual_answers
      ORDER BY hash(first_day, last_day, currency_key), first_day, last_day, currency_key LIMIT 30`,
    keyed: `SELECT * EXCLUDE (first_day, last_day, currency_key) FROM sebra_unusual_answers
      WHERE first_day = CAST($first_day AS DATE) AND last_day = CAST($last_day AS DATE) AND currency_key = $currency_key`,
    answer: (byKey, probe) => byKey.get(answerKey(String(probe.first_day), String(probe.last_day), String(probe.currency_key))) ?? [],
  },
});

/** The precomputed lists of the window (with their meta row); 'empty' when it has no payment day; null when its days are not precomputed. */
async function precomputedLists(db: Database, { from, to, currency, limit }: UnusualBindings): Promise<Row[] | 'empty' | null> {
  const paymentDays = windowPaymentDays((await dailyTotals(db)).days, from, to);
  if (paymentDays === null) return 'empty'; // no payment day in any currency: the 404, without a statement
  if (limit > PRECOMPUTED_ITEMS) return null;
  const held = (await precomputedAnswers(db))?.get(answerKey(paymentDays.first, paymentDays.last, currency));
  return held ? held.filter((row) => Number(row.rank ?? 0) <= limit) : null;
}

/** The lists and the meta row of the window: precomputed, or from the statements. */
async function unusualLists(db: Database, bindings: UnusualBindings): Promise<{ lists: Record<List | 'meta', Row[]>; programmes: Row[] }> {
  const held = await precomputedLists(db, bindings);
  if (held === 'empty') return { lists: { ...splitLists([]), meta: [{ window_days: 0 }] }, programmes: [] };
  if (held) {
    const lists = splitLists(held);
    return { lists, programmes: lists.unusual_programmes };
  }
  // The programme list (held in memory, programmeScores.ts) is scored beside the day statistics' statement;
  // the spikes and the window's day count come from rows held in memory.
  const [dayStats, programmes, categoryDays, daily] = await Promise.all([
    db.all(DAY_STATS_SQL, { from: bindings.from, to: bindings.to, currency: bindings.currency }),
    unusualProgrammeItems(db, bindings, MIN_PROGRAMME_DAYS),
    categoryDaily(db),
    dailyTotals(db),
  ]);
  const spikes = expenseSpikes(categoryDays, bindings.from, bindings.to, bindings.currency, SPIKE_RATIO_EXACT, bindings.limit)
    .map((item) => ({ list_order: 2, list: 'expense_spikes', ...item }));
  // As WINDOW_DAYS_SQL: sebra_daily's rows (days and currencies) inside the window.
  const windowDays = daily.rows.filter((row) => row.day >= bindings.from && row.day <= bindings.to).length;
  return { lists: splitLists([...dayLists(dayStats, daily.rows, bindings), ...spikes, { list_order: 4, list: 'meta', window_days: windowDays }]), programmes };
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
    '/api/sebra/getUnusualPayments?from=15-01-2026&to=20-03-2026',
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
