// The annual market rows the market views share: per country and year, the average annual agri-food
// price of the product (from market_years) and the trade of one partner (default WORLD) from
// trade_periods, with percent changes against the previous calendar year. Missing values stay null.
import type { Database } from '../../../engine/database.ts';
import type { Row } from '../../../engine/json.ts';
import { decimal2, money } from '../../../queries/shared/sql.ts';
import { inListSql, joinList } from './format.ts';

const flowMask = (flow: 1 | 2, column: string) => `CASE WHEN CAST($flow AS INTEGER) IS NULL OR CAST($flow AS INTEGER) = ${flow} THEN ${column} END`;
const change = (column: string) => `${decimal2(`(r.${column} - prev.${column}) / nullif(abs(prev.${column}), 0) * 100`)}`;

const MARKET_ROWS_SQL = `WITH trade AS (
    SELECT reporter AS country, year,
           max(value) FILTER (WHERE flow = 1) AS imports, max(value) FILTER (WHERE flow = 2) AS exports,
           max(quantity) FILTER (WHERE flow = 1) AS imports_quantity, max(quantity) FILTER (WHERE flow = 2) AS exports_quantity
      FROM trade_periods
     WHERE freq = 'A' AND ${inListSql('$countries', 'reporter')} AND product = $product AND partner = $partner
     GROUP BY reporter, year),
  prices AS (
    SELECT country, year, price, price_observations FROM market_years
     WHERE ${inListSql('$countries', 'country')} AND product = $product AND price IS NOT NULL),
  keyed AS (SELECT country, year FROM trade UNION SELECT country, year FROM prices),
  market AS (
    SELECT k.country, k.year, p.price, coalesce(p.price_observations, 0)::INTEGER AS price_observations,
           ${flowMask(1, 't.imports')} AS imports, ${flowMask(2, 't.exports')} AS exports,
           CASE WHEN CAST($flow AS INTEGER) IS NULL THEN t.exports - t.imports END AS trade_balance,
           ${flowMask(1, 't.imports_quantity')} AS imports_quantity, ${flowMask(2, 't.exports_quantity')} AS exports_quantity
      FROM keyed k LEFT JOIN prices p USING (country, year) LEFT JOIN trade t USING (country, year))
SELECT r.country, r.year AS period, ${decimal2('r.price')} AS price, r.price_observations,
       ${money('r.imports')} AS imports, ${money('r.exports')} AS exports, ${money('r.trade_balance')} AS trade_balance,
       ${money('r.imports_quantity')} AS imports_quantity, ${money('r.exports_quantity')} AS exports_quantity,
       prev.year AS previous_period, ${change('price')} AS price_change, ${change('imports')} AS imports_change,
       ${change('exports')} AS exports_change
  FROM market r LEFT JOIN market prev ON prev.country = r.country AND prev.year = r.year - 1
 WHERE (r.price IS NOT NULL OR r.imports IS NOT NULL OR r.exports IS NOT NULL)
   AND r.year BETWEEN $first_year AND $last_year
 ORDER BY r.country, r.year`;

export interface MarketRowsQuery {
  countries: readonly string[];
  product: string;
  partner: string;
  flow: 1 | 2 | null;
  firstYear: number;
  lastYear: number;
}

/** One row per (country, year) with any value, oldest year first within each country. */
export function marketRows(db: Database, query: MarketRowsQuery): Promise<Row[]> {
  return db.all(MARKET_ROWS_SQL, {
    countries: joinList(query.countries),
    product: query.product,
    partner: query.partner,
    flow: query.flow,
    first_year: query.firstYear,
    last_year: query.lastYear,
  });
}

/** The fields of a market row without its changes (history items). */
export const MARKET_FIELDS = ['price', 'price_observations', 'imports', 'exports', 'trade_balance', 'imports_quantity', 'exports_quantity'] as const;
export const CHANGE_FIELDS = ['previous_period', 'price_change', 'imports_change', 'exports_change'] as const;

export function pick(row: Row, fields: readonly string[]): Row {
  return Object.fromEntries(fields.map((field) => [field, row[field] ?? null]));
}
