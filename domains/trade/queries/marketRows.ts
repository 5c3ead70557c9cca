// The annual market rows the market views share: per country and year, the average annual agri-food
// price of the product (from market_years) and the trade of one partner (default WORLD) from
// trade_market_annual, with percent changes against the previous calendar year. Missing values stay
// null. The WORLD rows with both flows are built once at load (trade_market_world); other partners
// and a single flow are computed per request from the market's few annual rows.
import type { Database } from '../../../engine/database.ts';
import type { Row } from '../../../engine/json.ts';
import { groupKey, heldGroups, type HeldGroups } from '../../../queries/shared/heldGroups.ts';
import { decimal2, money } from '../../../queries/shared/sql.ts';
import { WORLD } from './codes.ts';
import { inList } from './paging.ts';

const change = (column: string) => `${decimal2(`(r.${column} - prev.${column}) / nullif(abs(prev.${column}), 0) * 100`)}`;

/** The columns of a market row after its country and product. */
export const MARKET_ROW_COLUMNS = `period, price, price_observations, imports, exports, trade_balance, imports_quantity, exports_quantity,
  previous_period, price_change, imports_change, exports_change`;

export interface MarketRowsSpec {
  /** Condition on trade_market_annual and market_years (country, product), fixed SQL with placeholders. */
  market: string;
  /** The partner: a placeholder or a literal. */
  partner: string;
  /** The flow kept (1 imports, 2 exports; SQL NULL both): a placeholder or a literal. */
  flow: string;
}

/**
 * SQL: one row per (country, product, year) with any value, the changes against the year before
 * whatever window is asked (years are filtered on the result).
 */
export function marketRowsSql(spec: MarketRowsSpec): string {
  const flow = `CAST(${spec.flow} AS INTEGER)`;
  const flowMask = (kept: 1 | 2, column: string) => `CASE WHEN ${flow} IS NULL OR ${flow} = ${kept} THEN ${column} END`;
  return `WITH trade AS (
    SELECT country, product, year, imports, exports, imports_quantity, exports_quantity
      FROM trade_market_annual WHERE ${spec.market} AND partner = ${spec.partner}),
  prices AS (
    SELECT country, product, year, price, price_observations FROM market_years WHERE ${spec.market} AND price IS NOT NULL),
  keyed AS (SELECT country, product, year FROM trade UNION SELECT country, product, year FROM prices),
  market AS (
    SELECT k.country, k.product, k.year, p.price, coalesce(p.price_observations, 0)::INTEGER AS price_observations,
           ${flowMask(1, 't.imports')} AS imports, ${flowMask(2, 't.exports')} AS exports,
           CASE WHEN ${flow} IS NULL THEN t.exports - t.imports END AS trade_balance,
           ${flowMask(1, 't.imports_quantity')} AS imports_quantity, ${flowMask(2, 't.exports_quantity')} AS exports_quantity
      FROM keyed k LEFT JOIN prices p USING (country, product, year) LEFT JOIN trade t USING (country, product, year))
SELECT r.country, r.product, r.year AS period, ${decimal2('r.price')} AS price, r.price_observations,
       ${money('r.imports')} AS imports, ${money('r.exports')} AS exports, ${money('r.trade_balance')} AS trade_balance,
       ${money('r.imports_quantity')} AS imports_quantity, ${money('r.exports_quantity')} AS exports_quantity,
       prev.year AS previous_period, ${change('price')} AS price_change, ${change('imports')} AS imports_change,
       ${change('exports')} AS exports_change
  FROM market r LEFT JOIN market prev ON prev.country = r.country AND prev.product = r.product AND prev.year = r.year - 1
 WHERE r.price IS NOT NULL OR r.imports IS NOT NULL OR r.exports IS NOT NULL`;
}

/**
 * SQL: marketRowsSql for every partner of every market at once, with one flow kept (a literal: NULL both,
 * 1 imports, 2 exports): the same rows, each with its partner, the years keyed per partner (its trade
 * years and the market's price years) and the changes against the same partner's previous year.
 */
export function marketRowsByPartnerSql(flowLiteral: 'NULL' | '1' | '2'): string {
  const flow = `CAST(${flowLiteral} AS INTEGER)`;
  const flowMask = (kept: 1 | 2, column: string) => `CASE WHEN ${flow} IS NULL OR ${flow} = ${kept} THEN ${column} END`;
  return `WITH trade AS (
    SELECT country, product, partner, year, imports, exports, imports_quantity, exports_quantity FROM trade_market_annual),
  partners AS (SELECT DISTINCT country, product, partner FROM trade_market_annual),
  prices AS (
    SELECT y.country, y.product, x.partner, y.year, y.price, y.price_observations
      FROM market_years y JOIN partners x ON x.country = y.country AND x.product = y.product WHERE y.price IS NOT NULL),
  keyed AS (SELECT country, product, partner, year FROM trade UNION SELECT country, product, partner, year FROM prices),
  market AS (
    SELECT k.country, k.product, k.partner, k.year, p.price, coalesce(p.price_observations, 0)::INTEGER AS price_observations,
           ${flowMask(1, 't.imports')} AS imports, ${flowMask(2, 't.exports')} AS exports,
           CASE WHEN ${flow} IS NULL THEN t.exports - t.imports END AS trade_balance,
           ${flowMask(1, 't.imports_quantity')} AS imports_quantity, ${flowMask(2, 't.exports_quantity')} AS exports_quantity
      FROM keyed k LEFT JOIN prices p USING (country, product, partner, year) LEFT JOIN trade t USING (country, product, partner, year))
SELECT r.country, r.product, r.partner, r.year AS period, ${decimal2('r.price')} AS price, r.price_observations,
       ${money('r.imports')} AS imports, ${money('r.exports')} AS exports, ${money('r.trade_balance')} AS trade_balance,
       ${money('r.imports_quantity')} AS imports_quantity, ${money('r.exports_quantity')} AS exports_quantity,
       prev.year AS previous_period, ${change('price')} AS price_change, ${change('imports')} AS imports_change,
       ${change('exports')} AS exports_change
  FROM market r LEFT JOIN market prev ON prev.country = r.country AND prev.product = r.product AND prev.partner = r.partner AND prev.year = r.year - 1
 WHERE r.price IS NOT NULL OR r.imports IS NOT NULL OR r.exports IS NOT NULL`;
}

export interface MarketRowsQuery {
  countries: readonly string[];
  product: string;
  partner: string;
  flow: 1 | 2 | null;
  firstYear: number;
  lastYear: number;
}

/** trade_market_world (a row per country, product and year: 2,723 at x10) held per database, each market's rows by year. */
const heldWorldRows = heldGroups({ table: 'trade_market_world', columns: `country, ${MARKET_ROW_COLUMNS}`, key: ['country', 'product'], orderBy: 'period' });

/** The held WORLD rows of the query's markets, as the statement below orders them (country, then period); copies. */
function worldRowsOfHeld(world: HeldGroups, query: MarketRowsQuery): Row[] {
  // JavaScript sorts by UTF-16 code unit, DuckDB by UTF-8 byte: the same order but for characters past U+FFFF against
  // U+E000-U+FFFF, which no country code holds (a code not held matches nothing, wherever it sorts).
  return [...new Set(query.countries)].sort().flatMap((country) => (world.get(groupKey([country, query.product])) ?? [])
    .filter((row) => Number(row.period) >= query.firstYear && Number(row.period) <= query.lastYear)
    .map((row) => ({ ...row })));
}

/** One row per (country, year) with any value, oldest year first within each country. */
export async function marketRows(db: Database, query: MarketRowsQuery): Promise<Row[]> {
  const countries = inList('country', 'country', query.countries);
  const bindings = { ...countries.bindings, product: query.product, first_year: query.firstYear, last_year: query.lastYear };
  const market = `product = $product AND ${countries.sql}`;
  if (query.partner === WORLD && query.flow === null) {
    const world = await heldWorldRows(db);
    if (world) return worldRowsOfHeld(world, query);
    return db.all(
      `SELECT country, ${MARKET_ROW_COLUMNS} FROM trade_market_world
        WHERE ${market} AND period BETWEEN $first_year AND $last_year ORDER BY country, period`,
      bindings,
    );
  }
  // One market with a partner trading in it: its rows precomputed per partner and flow (trade_market_partner).
  // None there (the partner has no trade in this market, or none in the years asked): computed here.
  if (query.countries.length === 1) {
    const rows = await db.all(
      `SELECT country, ${MARKET_ROW_COLUMNS} FROM trade_market_partner
        WHERE country = $country AND product = $product AND partner = $partner AND flow_key = $flow_key
          AND period BETWEEN $first_year AND $last_year ORDER BY period`,
      { country: query.countries[0], product: query.product, partner: query.partner, flow_key: query.flow ?? 0, first_year: query.firstYear, last_year: query.lastYear },
    );
    if (rows.length > 0) return rows;
  }
  const sql = `SELECT country, ${MARKET_ROW_COLUMNS} FROM (${marketRowsSql({ market, partner: '$partner', flow: '$flow' })})
    WHERE period BETWEEN $first_year AND $last_year ORDER BY country, period`;
  return db.all(sql, { ...bindings, partner: query.partner, flow: query.flow });
}

/** The fields of a market row without its changes (history items). */
export const MARKET_FIELDS = ['price', 'price_observations', 'imports', 'exports', 'trade_balance', 'imports_quantity', 'exports_quantity'] as const;
export const CHANGE_FIELDS = ['previous_period', 'price_change', 'imports_change', 'exports_change'] as const;

export function pick(row: Row, fields: readonly string[]): Row {
  return Object.fromEntries(fields.map((field) => [field, row[field] ?? null]));
}
