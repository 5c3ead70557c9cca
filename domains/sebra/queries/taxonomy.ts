// getTaxonomyForYear and getTaxonomyForPeriod: spend by economic bucket of payment codes.
import type { Database } from '../../../engine/database.ts';
import type { JsonValue, Row } from '../../../engine/json.ts';
import { defineRoute } from '../../../queries/catalog.ts';
import { decimal2, money, rank } from '../../../queries/shared/sql.ts';
import { dayWindow, yearSpec, type Resolved } from '../../../queries/kinds/index.ts';
import { yearWindow, type DateWindow } from '../../../queries/shared/window.ts';
import { currencyParam, type Currency, type CurrencyParams } from './params.ts';
import { taxonomyForPeriodResponse, taxonomyForYearResponse } from './schemas.ts';
import { windowTotalsSql } from '../../../queries/shared/windowSums.ts';
import { ACCOUNT_SUMS } from './tables.ts';
import { CURRENCY_SQL, WINDOW_SQL, sebraBindings, sebraBoundsSql, windowRows } from './window.ts';

// Every account's window totals are two lookups in ACCOUNT_SUMS. Buckets: the always-present ones
// for every currency of the window (the asked currency too, when the window has any payment day),
// plus every bucket with spend. Ranked per currency by amount (ties: the bucket's fixed order);
// accounts ranked inside their bucket. No window day at all: no row (the 404 rule).
const TAXONOMY_SQL = `
  WITH bounds AS (${sebraBoundsSql(ACCOUNT_SUMS)}),
  spend AS (
    SELECT a.currency, a.category_key, a.account_code, a.account_description, t.total_amount AS amount, t.payment_count
    FROM (${windowTotalsSql(ACCOUNT_SUMS, 'bounds')}) t JOIN sebra_accounts a USING (account_id)
    WHERE ${CURRENCY_SQL}
  ), accounts AS (
    SELECT *, ${rank('amount DESC, account_code, account_description', 'currency, category_key')} AS account_rank FROM spend
  ), currencies AS (
    SELECT DISTINCT currency FROM sebra_daily WHERE ${WINDOW_SQL} AND ${CURRENCY_SQL}
    UNION SELECT $currency WHERE $currency <> '' AND EXISTS (SELECT 1 FROM bounds)
  ), buckets AS (
    SELECT c.currency, k.category_key FROM currencies c CROSS JOIN sebra_categories k WHERE k.always_present
    UNION SELECT DISTINCT currency, category_key FROM spend
  ), bucket_totals AS (
    SELECT b.currency, b.category_key,
           coalesce(sum(a.amount), 0) AS amount,
           coalesce(sum(a.payment_count), 0)::BIGINT AS payment_count,
           count(a.account_code)::BIGINT AS account_count,
           coalesce(list({
             'code': a.account_code, 'description': a.account_description,
             'total_amount': ${money('a.amount')}, 'payment_count': a.payment_count, 'rank': a.account_rank
           } ORDER BY a.account_rank) FILTER (WHERE a.account_code IS NOT NULL), []) AS accounts
    FROM buckets b LEFT JOIN accounts a USING (currency, category_key)
    GROUP BY b.currency, b.category_key
  ), with_totals AS (
    SELECT t.*, k.category, k.sort_order, sum(t.amount) OVER (PARTITION BY t.currency) AS currency_total
    FROM bucket_totals t JOIN sebra_categories k USING (category_key)
  )
  SELECT category, category_key, currency, ${money('amount')} AS total_amount,
         ${decimal2('CASE WHEN currency_total = 0 THEN 0 ELSE 100 * amount / currency_total END')} AS share_percent,
         payment_count, account_count,
         ${rank('amount DESC, sort_order', 'currency')} AS rank,
         accounts, ${money('currency_total')} AS currency_total
  FROM with_totals
  ORDER BY currency, rank`;

interface Taxonomy {
  totals: Array<{ currency: JsonValue; total_amount: JsonValue }>;
  items: Row[];
}

async function taxonomy(db: Database, window: DateWindow, currency: Currency | undefined): Promise<Taxonomy> {
  const rows = await windowRows(db, window, TAXONOMY_SQL, sebraBindings(window, currency));
  const totals = new Map<JsonValue, JsonValue>();
  const items = rows.map(({ currency_total, ...item }) => {
    totals.set(item.currency, currency_total);
    return item;
  });
  return { totals: [...totals].map(([code, total]) => ({ currency: code, total_amount: total })), items };
}

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
