// getTaxonomyForYear and getTaxonomyForPeriod: spend by economic bucket of payment codes.
import type { Database } from '../../../engine/database.ts';
import type { JsonValue, Row } from '../../../engine/json.ts';
import { defineRoute } from '../../../queries/catalog.ts';
import { decimal2, money, rank } from '../../../queries/shared/sql.ts';
import { dayWindow, yearSpec, type Resolved } from '../../../queries/kinds/index.ts';
import { windowBounds, yearWindow, type DateWindow } from '../../../queries/shared/window.ts';
import { heldView } from '../../../engine/held.ts';
import { dailyTotals, decimalCents, windowPaymentDays } from './dailyTotals.ts';
import { currencyParam, type Currency, type CurrencyParams } from './params.ts';
import { taxonomyForPeriodResponse, taxonomyForYearResponse } from './schemas.ts';
import { spanTotalsSql, windowTotalsSql } from '../../../queries/shared/windowSums.ts';
import { ACCOUNT_SUMS, spanPositionsSql } from './tables.ts';
import { CATEGORIES, type Category } from './categories.ts';
import { CURRENCY_SQL, rejectEmptyWindow, sebraBindings, sebraBoundsSql, windowRows } from './window.ts';

// One row per account with spend in the window (two lookups per account in ACCOUNT_SUMS), with its
// rank inside its bucket and its bucket's and currency's totals, summed and divided exactly as before
// in SQL. The buckets themselves (at most seven per currency) are assembled here.
const ACCOUNTS_SQL = `
  WITH bounds AS (${sebraBoundsSql(ACCOUNT_SUMS)}),
  spend AS (
    SELECT a.currency, a.category_key, a.account_code, a.account_description, t.total_amount AS amount, t.payment_count
    FROM (${windowTotalsSql(ACCOUNT_SUMS, 'bounds')}) t JOIN sebra_accounts a USING (account_id)
    WHERE ${CURRENCY_SQL}
  ), totals AS (
    SELECT *, ${rank('amount DESC, account_code, account_description', 'currency, category_key')} AS account_rank,
           sum(amount) OVER (PARTITION BY currency, category_key) AS bucket_amount,
           sum(payment_count) OVER (PARTITION BY currency, category_key) AS bucket_payment_count,
           sum(amount) OVER (PARTITION BY currency) AS currency_total
    FROM spend
  )
  SELECT currency, category_key, account_code, account_description, ${money('amount')} AS total_amount, payment_count, account_rank,
         ${money('bucket_amount')} AS bucket_amount, bucket_payment_count::BIGINT AS bucket_payment_count,
         ${decimal2('CASE WHEN currency_total = 0 THEN 0 ELSE 100 * bucket_amount / currency_total END')} AS share_percent,
         ${money('currency_total')} AS currency_total
  FROM totals
  ORDER BY currency, category_key, account_rank`;

// Precomputed: ACCOUNTS_SQL's rows for every run of whole months (sebra_month_spans), every currency,
// by the same sums, divisions and ranks (each partition also by span). A currency filter only drops
// the other currency's rows (every total and rank is per currency), so one set of rows serves both.
const SPAN_ACCOUNTS_SQL = `
  INSERT INTO sebra_taxonomy_spans
  WITH spans AS (SELECT span_id, lo, hi FROM sebra_account_span_positions),
  spend AS (
    SELECT t.span_id, a.currency, a.category_key, a.account_code, a.account_description, t.total_amount AS amount, t.payment_count
    FROM (${spanTotalsSql(ACCOUNT_SUMS, { from: 'spans', carry: ['span_id'], upto: 'hi', before: 'lo' })}) t
    JOIN sebra_accounts a USING (account_id)
  ), totals AS (
    SELECT *, ${rank('amount DESC, account_code, account_description', 'span_id, currency, category_key')} AS account_rank,
           sum(amount) OVER (PARTITION BY span_id, currency, category_key) AS bucket_amount,
           sum(payment_count) OVER (PARTITION BY span_id, currency, category_key) AS bucket_payment_count,
           sum(amount) OVER (PARTITION BY span_id, currency) AS currency_total
    FROM spend
  )
  SELECT span_id, currency, category_key, account_code, account_description, ${money('amount')} AS total_amount, payment_count, account_rank,
         ${money('bucket_amount')} AS bucket_amount, bucket_payment_count::BIGINT AS bucket_payment_count,
         ${decimal2('CASE WHEN currency_total = 0 THEN 0 ELSE 100 * bucket_amount / currency_total END')} AS share_percent,
         ${money('currency_total')} AS currency_total
  FROM totals`;

export async function loadTaxonomySpans(db: Database): Promise<void> {
  await db.run(`CREATE TABLE sebra_account_span_positions AS ${spanPositionsSql(ACCOUNT_SUMS)}`);
  await db.run(`CREATE TABLE sebra_taxonomy_spans (
    span_id INTEGER, currency VARCHAR, category_key VARCHAR, account_code VARCHAR, account_description VARCHAR,
    total_amount DECIMAL(38,2), payment_count BIGINT, account_rank BIGINT, bucket_amount DECIMAL(38,2),
    bucket_payment_count BIGINT, share_percent DECIMAL(38,2), currency_total DECIMAL(38,2))`);
  await db.run(SPAN_ACCOUNTS_SQL);
  await db.run(`CREATE TABLE sebra_taxonomy_spans_sorted AS
    SELECT * FROM sebra_taxonomy_spans ORDER BY span_id, currency, category_key, account_rank`);
  await db.run('DROP TABLE sebra_taxonomy_spans');
  await db.run('ALTER TABLE sebra_taxonomy_spans_sorted RENAME TO sebra_taxonomy_spans');
  await db.run('DROP TABLE sebra_account_span_positions');
}

/**
 * The precomputed rows held in memory per database (a snapshot does not change while served; a few
 * tens of thousands of rows: spans x accounts), by span, each span's rows ordered by currency, bucket
 * and rank; and the spans by their first and last payment day. A window of whole months is then a
 * lookup without a statement (the statement's plan and conversion were most of the answer's time).
 */
interface HeldSpans {
  spanByDays: Map<string, number>;
  rowsBySpan: Map<number, Row[]>;
}

const spanKey = (first: string, last: string): string => `${first}|${last}`;

/** Not held (over bounds or budget): every window keeps ACCOUNTS_SQL, which gives the same rows. */
const heldSpans = heldView<HeldSpans>({
  name: 'sebra.taxonomySpans',
  sql: {
    spans: 'SELECT span_id, CAST(first_day AS VARCHAR) AS first_day, CAST(last_day AS VARCHAR) AS last_day FROM sebra_month_spans',
    rows: 'SELECT * FROM sebra_taxonomy_spans ORDER BY span_id, currency, category_key, account_rank',
  },
  key: ['span_id'],
  order: 'currency, category_key, account_rank',
  rowsMax: 500_000,
  bytesMax: 128 * 2 ** 20,
  build: ({ spans, rows }) => {
    const spanByDays = new Map(spans.map((span) => [spanKey(String(span.first_day), String(span.last_day)), Number(span.span_id)]));
    const rowsBySpan = new Map<number, Row[]>();
    for (const { span_id, ...row } of rows) {
      const held = rowsBySpan.get(Number(span_id)) ?? [];
      held.push(row);
      rowsBySpan.set(Number(span_id), held);
    }
    return { spanByDays, rowsBySpan };
  },
  parity: {
    probes: `SELECT CAST(first_day AS VARCHAR) AS first_day, CAST(last_day AS VARCHAR) AS last_day FROM sebra_month_spans
      ORDER BY hash(first_day, last_day), first_day, last_day LIMIT 30`,
    keyed: `SELECT * EXCLUDE (span_id) FROM sebra_taxonomy_spans WHERE span_id =
        (SELECT span_id FROM sebra_month_spans WHERE first_day = CAST($first_day AS DATE) AND last_day = CAST($last_day AS DATE))
      ORDER BY currency, category_key, account_rank`,
    answer: ({ spanByDays, rowsBySpan }, probe) => rowsBySpan.get(spanByDays.get(spanKey(String(probe.first_day), String(probe.last_day)))!) ?? [],
  },
});

/** The precomputed rows of the window's span in the asked currency (every currency when none); none when the window is no span. */
async function precomputedAccountRows(db: Database, window: DateWindow, currency: Currency | undefined): Promise<Row[]> {
  const { from, to } = windowBounds(window);
  const paymentDays = windowPaymentDays((await dailyTotals(db)).days, from, to);
  if (paymentDays === null) return [];
  const held = await heldSpans(db);
  if (held === null) return [];
  const { spanByDays, rowsBySpan } = held;
  const span = spanByDays.get(spanKey(paymentDays.first, paymentDays.last));
  const rows = span === undefined ? [] : rowsBySpan.get(span) ?? [];
  return currency === undefined ? rows : rows.filter((row) => row.currency === currency);
}

/** The window's account rows: precomputed when the window is a run of whole months, else ACCOUNTS_SQL. */
async function accountRows(db: Database, window: DateWindow, currency: Currency | undefined): Promise<Row[]> {
  rejectEmptyWindow(window);
  const rows = await precomputedAccountRows(db, window, currency);
  // Empty: another window, or nothing in the asked currency (the general statement and the 404 rule).
  return rows.length > 0 ? rows : windowRows(db, window, ACCOUNTS_SQL, sebraBindings(window, currency));
}

const ZERO = '0.00';

interface Bucket {
  category: Category;
  currency: string;
  total_amount: string;
  share_percent: string;
  payment_count: number;
  accounts: Row[];
}

interface Taxonomy {
  totals: Array<{ currency: JsonValue; total_amount: JsonValue }>;
  items: Row[];
}

/**
 * Buckets: the always-present ones for every currency of the window (and the asked currency, when
 * the window has any payment day), plus every bucket with spend. Ranked per currency by amount (ties:
 * the bucket's fixed order); accounts ranked inside their bucket.
 */
async function taxonomy(db: Database, window: DateWindow, currency: Currency | undefined): Promise<Taxonomy> {
  // No account row: either no payment day at all in the window (404) or none in the asked currency.
  const rows = await accountRows(db, window, currency);
  const buckets = new Map<string, Bucket>();
  const currencyTotals = new Map<string, string>();
  if (currency) currencyTotals.set(currency, ZERO);
  for (const row of rows) {
    const code = String(row.currency);
    currencyTotals.set(code, String(row.currency_total));
    const key = `${code}|${String(row.category_key)}`;
    let bucket = buckets.get(key);
    if (!bucket) {
      bucket = {
        category: CATEGORY_BY_KEY.get(String(row.category_key))!,
        currency: code,
        total_amount: String(row.bucket_amount),
        share_percent: String(row.share_percent),
        payment_count: Number(row.bucket_payment_count),
        accounts: [],
      };
      buckets.set(key, bucket);
    }
    bucket.accounts.push({
      code: row.account_code, description: row.account_description, total_amount: row.total_amount,
      payment_count: row.payment_count, rank: row.account_rank,
    });
  }
  const items: Row[] = [];
  for (const code of [...currencyTotals.keys()].sort()) {
    const inCurrency = CATEGORIES.flatMap((category): Bucket[] => {
      const bucket = buckets.get(`${code}|${category.key}`);
      if (bucket) return [bucket];
      if (!category.alwaysPresent) return [];
      return [{ category, currency: code, total_amount: ZERO, share_percent: ZERO, payment_count: 0, accounts: [] }];
    });
    inCurrency.sort((a, b) => {
      const difference = decimalCents(b.total_amount) - decimalCents(a.total_amount);
      return difference !== 0n ? (difference > 0n ? 1 : -1) : a.category.order - b.category.order;
    });
    inCurrency.forEach((bucket, index) => {
      items.push({
        category: bucket.category.label,
        category_key: bucket.category.key,
        currency: bucket.currency,
        total_amount: bucket.total_amount,
        share_percent: bucket.share_percent,
        payment_count: bucket.payment_count,
        account_count: bucket.accounts.length,
        rank: index + 1,
        accounts: bucket.accounts,
      });
    });
  }
  const totals = [...currencyTotals.keys()].sort().map((code) => ({ currency: code, total_amount: currencyTotals.get(code)! }));
  return { totals, items };
}

const CATEGORY_BY_KEY = new Map<string, Category>(CATEGORIES.map((category) => [category.key, category]));

export const getTaxonomyForYear = defineRoute<{ year: number; currency?: Currency }>({
  id: 'getTaxonomyForYear',
  method: 'GET',
  tag: 'sebra',
  paths: ['/api/sebra/getTaxonomyForYear', '/api/sebra/getTaxonomyForYear/{year}'],
  examples: [
    '/api/sebra/getTaxonomyForYear?year=2025',
    '/api/sebra/getTaxonomyForYear/2026?currency=EUR',
  ],
  summary: 'SEBRA spend by economic account category for one calendar year',
  description:
    'Groups the payment codes of one calendar year into buckets (salaries, maintenance and capital always present; ' +
    'social payments, transfers, taxes and other when there is spend), with each bucket\'s share of its currency\'s total ' +
    'and the accounts (payment codes) inside it. Split by currency when currency is omitted.',
  paid: true,
  params: {
    year: yearSpec('Calendar year (path form or query).', ['query', 'path'], true),
    currency: currencyParam,
  },
  response: taxonomyForYearResponse,
  listRows: (body) => body.items as Row[],
  async handle({ year, currency }, { db }) {
    const window = yearWindow(year);
    const { totals, items } = await taxonomy(db, window, currency);
    return {
      endpoint: 'getTaxonomyForYear',
      year,
      ordered_by: 'total_amount',
      filters: { currency: currency ?? null, year, from: window.from, to: window.to },
      year_totals: totals,
      count: items.length,
      items,
    };
  },
});

const taxonomyPeriodInputs = { window: dayWindow({ required: 'from' }) };

export const getTaxonomyForPeriod = defineRoute<CurrencyParams & Resolved<typeof taxonomyPeriodInputs>>({
  id: 'getTaxonomyForPeriod',
  method: 'GET',
  tag: 'sebra',
  paths: ['/api/sebra/getTaxonomyForPeriod'],
  examples: [
    '/api/sebra/getTaxonomyForPeriod?from=01-2026&to=06-2026',
    '/api/sebra/getTaxonomyForPeriod?from=01-01-2025&currency=BGN',
  ],
  summary: 'SEBRA spend by economic account category for a date window',
  description: 'The taxonomy of getTaxonomyForYear over any window: from is required, to defaults to today.',
  paid: true,
  params: { currency: currencyParam },
  inputs: taxonomyPeriodInputs,
  response: taxonomyForPeriodResponse,
  listRows: (body) => body.items as Row[],
  async handle({ window: { window }, currency }, { db }) {
    const { totals, items } = await taxonomy(db, window, currency);
    return {
      endpoint: 'getTaxonomyForPeriod',
      ordered_by: 'total_amount',
      filters: { currency: currency ?? null, from: window.from, to: window.to },
      period_totals: totals,
      count: items.length,
      items,
    };
  },
});
