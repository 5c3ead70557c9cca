// The served shapes of the trade and markets routes, built once at load from the tables of tables.ts:
// each holds a route's answer rows already rendered (names joined, numbers rounded), keyed by what the
// route filters on and sorted by those keys, with `pos`, the row's place in the route's order, so a
// request reads only its keys' rows and stops at its page (paging.ts).
import type { Database } from '../../../engine/database.ts';
import { decimalText, withItem } from './format.ts';
import { sortedShapeSql, type SortedCopies } from './paging.ts';

/**
 * /api/v1/trade: one row per published fact, in the route's order (newest period first, then annual
 * before monthly, reporter, partner, product, flow). A request naming a reporter reads the copy sorted
 * by reporter (its rows are adjacent and in order, so the top-N stops after the page; the other filters
 * only thin them), one naming a product but no reporter the copy sorted by product; the others read the
 * table, where the top-N on pos stops after the first matches.
 */
export const TRADE_LIST: SortedCopies = {
  table: 'trade_list',
  keyed: [['reporter'], ['product']],
};

export const TRADE_LIST_COLUMNS = `reporter, reporter_name, partner, product, product_name, flow, flow_name, freq, period, period_start,
  period_end, value, quantity, value_flag, quantity_flag, last_update`;

const TRADE_LIST_SQL = `SELECT row_number() OVER (ORDER BY f.period_start DESC, f.freq, f.reporter, f.partner, f.product, f.flow)::INTEGER AS pos,
    f.reporter, c.name AS reporter_name, f.partner, f.product, p.name AS product_name, f.flow,
    CASE f.flow WHEN 1 THEN 'import' ELSE 'export' END AS flow_name, f.freq, f.period, f.period_start, f.period_end,
    ${decimalText('f.value')} AS value, ${decimalText('f.quantity')} AS quantity, f.value_flag, f.quantity_flag, strftime(f.last_update, '%Y-%m-%dT%H:%M:%S') AS last_update
  FROM trade_facts f
  LEFT JOIN trade_countries c ON c.code = f.reporter
  LEFT JOIN trade_products p ON p.code = f.product`;

/**
 * /api/v1/trade/balance: per reporter, product, partner and period, imports, exports, the balance and
 * quantities; pos runs in (reporter, product, partner, period_start, freq) order, so one market's
 * periods are adjacent and already in the route's order.
 */
export const TRADE_BALANCE_COLUMNS = `freq, period, period_start, period_end, imports, exports, trade_balance, imports_quantity,
  exports_quantity, derived_from_months`;

export const TRADE_BALANCE: SortedCopies = { table: 'trade_balance', keyed: [] };

const TRADE_BALANCE_SQL = `SELECT row_number() OVER (ORDER BY reporter, product, partner, period_start, freq)::INTEGER AS pos, *
  FROM (
    SELECT reporter, product, partner, freq, period, period_start, period_end,
      ${decimalText('max(value) FILTER (WHERE flow = 1)')} AS imports, ${decimalText('max(value) FILTER (WHERE flow = 2)')} AS exports,
      ${decimalText('max(value) FILTER (WHERE flow = 2) - max(value) FILTER (WHERE flow = 1)')} AS trade_balance,
      ${decimalText('max(quantity) FILTER (WHERE flow = 1)')} AS imports_quantity,
      ${decimalText('max(quantity) FILTER (WHERE flow = 2)')} AS exports_quantity,
      bool_or(derived) AS derived_from_months
    FROM trade_periods
    GROUP BY reporter, product, partner, freq, period, period_start, period_end)`;

/**
 * /api/v1/trade/partners: the annual and monthly rows (published and derived) sorted by reporter,
 * product, frequency and period, so a ranking reads only its market's selected periods. first_flow
 * marks one row per partner and period, so counting a partner's periods needs no DISTINCT.
 */
const TRADE_PARTNER_PERIODS_SQL = `CREATE TABLE trade_partner_periods AS
  SELECT reporter, product, freq, period_start, period_end, period, partner, flow, value, quantity,
    row_number() OVER (PARTITION BY reporter, product, partner, freq, period ORDER BY flow) = 1 AS first_flow
  FROM trade_periods
  ORDER BY reporter, product, freq, period_start, partner, flow`;

/** Codes a request may name, one row each: what the parameter lookups read instead of the facts. */
const LOOKUP_SQL = [
  'CREATE TABLE trade_partner_codes AS SELECT DISTINCT partner FROM trade_facts ORDER BY partner',
  'CREATE TABLE trade_product_codes AS SELECT DISTINCT product, lower(product) AS product_lower FROM trade_facts ORDER BY product_lower',
  // The reporters with their names, and the countries of the market data by code only.
  `CREATE TABLE trade_country_lookup AS
    SELECT code, name FROM trade_countries UNION SELECT DISTINCT country, NULL FROM market_years ORDER BY code, name NULLS LAST`,
];

export async function buildServedShapes(db: Database): Promise<void> {
  for (const sql of [...LOOKUP_SQL, ...sortedShapeSql(TRADE_LIST, withItem(TRADE_LIST_SQL, TRADE_LIST_COLUMNS)), ...sortedShapeSql(TRADE_BALANCE, TRADE_BALANCE_SQL),
    TRADE_PARTNER_PERIODS_SQL]) await db.run(sql);
}
