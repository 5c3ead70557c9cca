// The served shapes of the market routes and of /api/v1/changes, built at load from market_years,
// market_stats, trade_periods and changes_agri_prices (tables.ts): each route's rows already rendered,
// with `pos`, the row's place in the route's order, sorted by what the route filters on (paging.ts).
import type { Database } from '../../../engine/database.ts';
import { decimal2 } from '../../../queries/shared/sql.ts';
import { WORLD } from './codes.ts';
import { decimalText, exactText, withItem } from './format.ts';
import { marketRowsByPartnerSql, marketRowsSql } from './marketRows.ts';
import { sortedShapeSql, type SortedCopies } from './paging.ts';

const METRIC_ORDER = `list_position(['price', 'imports', 'exports', 'trade_balance'], s.metric)`;
const SERIES_JOINS = `LEFT JOIN trade_country_names c ON c.code = s.country LEFT JOIN trade_products p ON p.code = s.product`;

/** Per country, product, partner and year: the annual imports and exports (values and quantities). */
const MARKET_ANNUAL_SQL = `CREATE TABLE trade_market_annual AS
  SELECT reporter AS country, product, partner, year,
         max(value) FILTER (WHERE flow = 1) AS imports, max(value) FILTER (WHERE flow = 2) AS exports,
         max(quantity) FILTER (WHERE flow = 1) AS imports_quantity, max(quantity) FILTER (WHERE flow = 2) AS exports_quantity
    FROM trade_periods WHERE freq = 'A'
   GROUP BY reporter, product, partner, year
   ORDER BY product, country, partner, year`;

/** The market rows of every country and product with the WORLD partner and both flows (history, compare, the market view). */
const MARKET_WORLD_SQL = `CREATE TABLE trade_market_world AS
  SELECT country, product, period, ${decimalText('price')} AS price, price_observations,
    ${['imports', 'exports', 'trade_balance', 'imports_quantity', 'exports_quantity'].map((c) => `${decimalText(c)} AS ${c}`).join(', ')},
    previous_period, ${['price_change', 'imports_change', 'exports_change'].map((c) => `${decimalText(c)} AS ${c}`).join(', ')}
  FROM (${marketRowsSql({ market: 'true', partner: `'${WORLD}'`, flow: 'NULL' })})
  ORDER BY product, country, period`;

/**
 * The market rows of every country, product and partner trading in it, per flow kept (flow_key 0 both,
 * 1 imports, 2 exports): what the market view reads for a partner or a flow (marketRows), rendered as
 * trade_market_world.
 */
const MARKET_PARTNER_SQL = `CREATE TABLE trade_market_partner AS
  SELECT country, product, partner, flow_key, period, ${decimalText('price')} AS price, price_observations,
    ${['imports', 'exports', 'trade_balance', 'imports_quantity', 'exports_quantity'].map((c) => `${decimalText(c)} AS ${c}`).join(', ')},
    previous_period, ${['price_change', 'imports_change', 'exports_change'].map((c) => `${decimalText(c)} AS ${c}`).join(', ')}
  FROM (${(['NULL', '1', '2'] as const).map((flow, key) => `SELECT ${key} AS flow_key, * FROM (${marketRowsByPartnerSql(flow)})`).join(' UNION ALL ')})
  ORDER BY country, product, partner, flow_key, period`;

/**
 * /api/v1/changes without dataset: the year-over-year changes of every market series, in the route's
 * order (newest year, country, commodity, metric); `year` is the filter on the window.
 */
export const MARKET_CHANGES: SortedCopies = { table: 'trade_changes', keyed: [['country', 'commodity', 'metric']] };

export const MARKET_CHANGES_COLUMNS = `metric, dataset, country, country_name, commodity, commodity_name, partner, market, stage, unit,
  period, previous_period, previous_value, current_value, absolute_change, percentage_change`;

const MARKET_CHANGES_SQL = `SELECT row_number() OVER (ORDER BY s.year DESC, s.country, s.product, ${METRIC_ORDER})::INTEGER AS pos, s.year,
    s.metric, NULL::VARCHAR AS dataset, s.country, c.name AS country_name, s.product AS commodity,
    p.name AS commodity_name, CASE WHEN s.metric = 'price' THEN NULL ELSE '${WORLD}' END AS partner,
    NULL::VARCHAR AS market, NULL::VARCHAR AS stage, CASE WHEN s.metric = 'price' THEN 'EUR/t' ELSE 'EUR' END AS unit,
    CAST(s.year AS VARCHAR) AS period, CAST(s.previous_period AS VARCHAR) AS previous_period,
    ${decimalText(decimal2('s.previous_value'))} AS previous_value, ${decimalText(decimal2('s.value'))} AS current_value,
    ${decimalText(decimal2('s.absolute_change'))} AS absolute_change, ${decimalText(decimal2('s.percent_change'))} AS percentage_change
  FROM market_stats s ${SERIES_JOINS}
  WHERE s.previous_value IS NOT NULL`;

/**
 * /api/v1/changes with dataset: the agri-food weekly price changes, in the route's order (newest
 * begin_date, then dataset, commodity, member state, market, stage, unit, source row); sorted by
 * dataset, with copies by dataset and country and by dataset, country and commodity (a series' rows
 * adjacent and newest first, so a date window is a run of them).
 */
export const PRICE_CHANGES: SortedCopies = {
  table: 'trade_price_changes',
  sortedBy: ['dataset'],
  keyed: [['dataset', 'country'], ['dataset', 'country', 'commodity']],
};

export const PRICE_CHANGES_COLUMNS = MARKET_CHANGES_COLUMNS;

const PRICE_CHANGES_SQL = `SELECT row_number() OVER (ORDER BY begin_date DESC, dataset, commodity_id, member_state_code, market_name NULLS FIRST,
      stage_name NULLS FIRST, unit NULLS FIRST, source_row)::INTEGER AS pos, begin_date,
    'price' AS metric, dataset, member_state_code AS country, member_state_name AS country_name,
    commodity_id AS commodity, product_name AS commodity_name, NULL::VARCHAR AS partner, market_name AS market, stage_name AS stage, unit,
    CAST(begin_date AS VARCHAR) AS period, CAST(previous_period AS VARCHAR) AS previous_period,
    ${exactText('previous_value')} AS previous_value, ${exactText('price')} AS current_value,
    ${exactText('absolute_change')} AS absolute_change, ${decimalText(decimal2('percent_change'))} AS percentage_change
  FROM changes_agri_prices`;

/** The commodity ids of each agri-food dataset with the names a `commodity` value may give (lower case). */
const PRICE_COMMODITIES_SQL = `CREATE TABLE trade_price_commodities AS
  SELECT DISTINCT dataset, commodity_id, lower(commodity_id) AS id_lower, lower(product_name) AS name_lower, lower(pig_class) AS class_lower
    FROM agri_prices
   ORDER BY dataset, commodity_id`;

/**
 * /api/v1/markets/changes: the year-over-year changes with a percent change, largest move first (then
 * newest year, country, commodity, metric): a threshold on abs_percent keeps a leading run of pos.
 */
export const MARKET_MOVES: SortedCopies = { table: 'trade_market_moves', keyed: [] };

export const MARKET_MOVES_COLUMNS = `country, country_name, commodity, commodity_name, metric, period, previous_period, previous_value,
  current_value, absolute_change, percent_change, direction`;

const MARKET_MOVES_SQL = `SELECT row_number() OVER (ORDER BY abs(s.percent_change) DESC, s.year DESC, s.country, s.product, ${METRIC_ORDER})::INTEGER AS pos,
    abs(s.percent_change) AS abs_percent,
    s.country, c.name AS country_name, s.product AS commodity, p.name AS commodity_name, s.metric, s.year AS period, s.previous_period,
    ${decimalText(decimal2('s.previous_value'))} AS previous_value, ${decimalText(decimal2('s.value'))} AS current_value,
    ${decimalText(decimal2('s.absolute_change'))} AS absolute_change, ${decimalText(decimal2('s.percent_change'))} AS percent_change,
    CASE WHEN s.absolute_change > 0 THEN 'up' WHEN s.absolute_change < 0 THEN 'down' ELSE 'flat' END AS direction
  FROM market_stats s ${SERIES_JOINS}
  WHERE s.previous_value IS NOT NULL AND s.percent_change IS NOT NULL`;

/**
 * /api/v1/markets/anomalies: the price and imports years with a percent change or a z-score, newest
 * year first (then country, commodity, metric), with the unrounded magnitudes the thresholds compare.
 */
export const MARKET_ANOMALIES: SortedCopies = { table: 'trade_market_anomalies', keyed: [] };

export const MARKET_ANOMALIES_COLUMNS = `country, country_name, commodity, commodity_name, metric, period, value, previous_period,
  previous_value, percent_change, zscore`;

const MARKET_ANOMALIES_SQL = `SELECT row_number() OVER (ORDER BY s.year DESC, s.country, s.product, ${METRIC_ORDER})::INTEGER AS pos,
    abs(s.percent_change) AS abs_percent, abs(s.zscore) AS abs_zscore,
    s.country, c.name AS country_name, s.product AS commodity, p.name AS commodity_name, s.metric, s.year AS period,
    ${decimalText(decimal2('s.value'))} AS value, s.previous_period, ${decimalText(decimal2('s.previous_value'))} AS previous_value,
    ${decimalText(decimal2('s.percent_change'))} AS percent_change, ${decimalText(decimal2('s.zscore'))} AS zscore
  FROM market_stats s ${SERIES_JOINS}
  WHERE s.metric IN ('price', 'imports') AND (s.percent_change IS NOT NULL OR s.zscore IS NOT NULL)`;

/**
 * /api/v1/markets/{country}/{commodity}/insights: every series year of a market with its metric's
 * mean, in the route's order (metric price, imports, exports, trade_balance, then year).
 */
const MARKET_INSIGHTS_SQL = `CREATE TABLE trade_market_insights AS
  SELECT s.country, s.product, row_number() OVER (ORDER BY s.country, s.product, ${METRIC_ORDER}, s.year)::INTEGER AS pos,
    s.metric, s.year AS period, ${decimalText(decimal2('s.value'))} AS value, s.previous_period,
    ${decimalText(decimal2('s.previous_value'))} AS previous_value, ${decimalText(decimal2('s.percent_change'))} AS yoy_percent, ${decimalText(decimal2('s.zscore'))} AS zscore,
    abs(s.zscore) AS abs_zscore, s.percent_change AS raw_percent,
    ${decimalText(decimal2('avg(s.value) OVER (PARTITION BY s.country, s.product, s.metric)'))} AS series_mean
  FROM market_stats s
  ORDER BY pos`;

export async function buildMarketShapes(db: Database): Promise<void> {
  const statements = [
    MARKET_ANNUAL_SQL,
    MARKET_WORLD_SQL,
    MARKET_PARTNER_SQL,
    ...sortedShapeSql(MARKET_CHANGES, withItem(MARKET_CHANGES_SQL, MARKET_CHANGES_COLUMNS)),
    ...sortedShapeSql(PRICE_CHANGES, withItem(PRICE_CHANGES_SQL, PRICE_CHANGES_COLUMNS)),
    PRICE_COMMODITIES_SQL,
    ...sortedShapeSql(MARKET_MOVES, MARKET_MOVES_SQL),
    ...sortedShapeSql(MARKET_ANOMALIES, MARKET_ANOMALIES_SQL),
    MARKET_INSIGHTS_SQL,
  ];
  for (const sql of statements) await db.run(sql);
}
