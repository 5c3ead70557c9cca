// Trade and market tables, built once at load (after the agri-food tables, whose prices the market
// views read):
//   trade_facts     one row per (reporter, partner, product, flow, freq, period): value (VALUE_IN_EUROS)
//                   and quantity (QUANTITY_IN_100KG) pivoted from the published indicator rows;
//   trade_periods   trade_facts plus, for a year published only monthly, the annual sum of its 12
//                   months (derived = true; a sum with a missing month is null, a year with fewer
//                   than 12 months gets no annual row);
//   trade_countries reporter codes with their names;
//   market_years    per (country, product, year): the average annual agri-food price and the WORLD
//                   imports, exports and trade balance (exports - imports on value); missing stays null;
//   market_stats    the same, one row per metric (price, imports, exports, trade_balance) with a value,
//                   with the LAG change against the previous observed year and a leave-one-out z-score;
//   changes_agri_prices  the weekly agri-food price LAG changes that /api/v1/changes serves when `dataset`
//                   is set (same series as the agri-food endpoints), built from agri_prices;
// and from them the served shapes of shapes.ts and marketShapes.ts (each route's rows, rendered and
// sorted by its keys). No route reads the intermediate tables (INTERMEDIATE): they are dropped once the
// shapes are built, so the serving database holds each fact once per served order.
import type { Database } from '../../../engine/database.ts';
import { loadDataset } from '../../../engine/dataset.ts';
import { lagChangesSql } from '../../../queries/shared/changes.ts';
import { MEMBER_STATES } from '../../../reference/countries.ts';
import { TRADE_OBSERVATIONS } from '../datasets.ts';
import { PRICE_DATASET, PRICE_PRODUCTS, PRODUCTS, REPORTER_AGGREGATES, WORLD } from './codes.ts';
import { buildMarketShapes } from './marketShapes.ts';
import { buildServedShapes } from './shapes.ts';

export const MARKET_METRICS = ['price', 'imports', 'exports', 'trade_balance'] as const;
export type MarketMetric = (typeof MARKET_METRICS)[number];

/** The agri-food price series: what identifies one weekly price series. */
const PRICE_SERIES = ['dataset', 'commodity_id', 'member_state_code', 'market_name', 'stage_name', 'unit'] as const;

/** Fewest other observations a z-score is computed against. */
export const Z_MIN_OTHERS = 3;

export async function loadTrade(db: Database, dataDir: string): Promise<void> {
  await loadDataset(db, TRADE_OBSERVATIONS, dataDir);

  const indicator = (name: string, column: string) => `max(${column}) FILTER (WHERE indicator = '${name}')`;
  await db.run(`CREATE TABLE trade_facts AS
    SELECT reporter, partner, product, flow, freq, period,
      CAST(substr(period, 1, 4) AS INTEGER) AS year,
      CASE WHEN freq = 'A' THEN make_date(CAST(period AS INTEGER), 1, 1) ELSE CAST(period || '-01' AS DATE) END AS period_start,
      CASE WHEN freq = 'A' THEN make_date(CAST(period AS INTEGER), 12, 31) ELSE last_day(CAST(period || '-01' AS DATE)) END AS period_end,
      ${indicator('VALUE_IN_EUROS', 'value')} AS value,
      ${indicator('QUANTITY_IN_100KG', 'value')} AS quantity,
      ${indicator('VALUE_IN_EUROS', 'flag')} AS value_flag,
      ${indicator('QUANTITY_IN_100KG', 'flag')} AS quantity_flag,
      max(last_update) AS last_update
    FROM trade_observations GROUP BY reporter, partner, product, flow, freq, period
    ORDER BY period_start DESC, freq, reporter, partner, product, flow`);
  await db.run('DROP TABLE trade_observations');

  // Sums are null when a part is missing: a confidential month must not pass for zero.
  const completeSum = (column: string) => `CASE WHEN count(${column}) = count(*) THEN sum(${column}) END`;
  await db.run(`CREATE TABLE trade_periods AS
    SELECT reporter, partner, product, flow, freq, period, year, period_start, period_end, value, quantity, false AS derived
      FROM trade_facts
    UNION ALL
    SELECT reporter, partner, product, flow, 'A', CAST(year AS VARCHAR), year, make_date(year, 1, 1), make_date(year, 12, 31),
           CAST(${completeSum('value')} AS DECIMAL(20,2)), CAST(${completeSum('quantity')} AS DECIMAL(20,2)), true
      FROM trade_facts m
     WHERE freq = 'M' AND NOT EXISTS (
       SELECT 1 FROM trade_facts a WHERE a.freq = 'A' AND a.year = m.year AND a.reporter = m.reporter
          AND a.partner = m.partner AND a.product = m.product AND a.flow = m.flow)
     GROUP BY reporter, partner, product, flow, year
    HAVING count(*) = 12`);

  await db.run('CREATE TABLE trade_country_names (code VARCHAR, name VARCHAR)');
  await db.appendRows('trade_country_names', [
    ...MEMBER_STATES.map((s) => [s.code, s.name]),
    ...Object.entries(REPORTER_AGGREGATES),
  ]);
  await db.run(`CREATE TABLE trade_countries AS
    SELECT r.code, n.name FROM (SELECT DISTINCT reporter AS code FROM trade_facts) r
      LEFT JOIN trade_country_names n ON n.code = r.code ORDER BY r.code`);

  await db.run('CREATE TABLE trade_products (code VARCHAR, name VARCHAR, description VARCHAR)');
  await db.appendRows('trade_products', PRODUCTS.map((p) => [p.code, p.name, p.description]));
  await db.run('CREATE TABLE market_price_products (product VARCHAR, product_name VARCHAR)');
  await db.appendRows('market_price_products', Object.entries(PRICE_PRODUCTS).flatMap(([code, names]) => names.map((name) => [code, name])));

  // The annual price: mean of every weekly price of the mapped products in the member state whose
  // begin_date falls in the calendar year, across markets and stages.
  await db.run(`CREATE TABLE market_prices AS
    SELECT p.member_state_code AS country, m.product, year(p.begin_date)::INTEGER AS year,
           avg(p.price) AS price, count(p.price)::INTEGER AS price_observations
      FROM agri_prices p JOIN market_price_products m ON lower(m.product_name) = lower(p.product_name)
     WHERE p.dataset = '${PRICE_DATASET}' AND p.price IS NOT NULL
     GROUP BY ALL`);

  const world = (flow: number, column: string) => `max(${column}) FILTER (WHERE flow = ${flow})`;
  await db.run(`CREATE TABLE market_trade AS
    SELECT reporter AS country, product, year,
           ${world(1, 'value')} AS imports, ${world(2, 'value')} AS exports,
           ${world(1, 'quantity')} AS imports_quantity, ${world(2, 'quantity')} AS exports_quantity
      FROM trade_periods WHERE freq = 'A' AND partner = '${WORLD}'
     GROUP BY reporter, product, year`);

  await db.run(`CREATE TABLE market_years AS
    WITH keys AS (SELECT country, product, year FROM market_trade UNION SELECT country, product, year FROM market_prices)
    SELECT k.country, k.product, k.year,
           CAST(round(pr.price, 4) AS DECIMAL(38,4)) AS price, coalesce(pr.price_observations, 0)::INTEGER AS price_observations,
           t.imports, t.exports, t.exports - t.imports AS trade_balance, t.imports_quantity, t.exports_quantity
      FROM keys k
      LEFT JOIN market_prices pr USING (country, product, year)
      LEFT JOIN market_trade t USING (country, product, year)
     ORDER BY k.country, k.product, k.year`);

  const metricRows = ['price', 'imports', 'exports', 'trade_balance']
    .map((metric) => `SELECT country, product, '${metric}' AS metric, year, CAST(${metric} AS DECIMAL(38,4)) AS value FROM market_years`)
    .join(' UNION ALL ');
  const changes = lagChangesSql({ from: `(${metricRows})`, value: 'value', period: 'year', partitionBy: ['country', 'product', 'metric'] });
  // Leave-one-out z-score: the year against the mean and population standard deviation of the
  // series' OTHER years. The plain z-score of one point among n cannot exceed sqrt(n - 1) (3.0 for
  // ten years), so with annual series the default threshold of 3 could never be met.
  const others = 'OVER (PARTITION BY country, product, metric ORDER BY year ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING EXCLUDE CURRENT ROW)';
  await db.run(`CREATE TABLE market_stats AS
    SELECT *, CASE WHEN others_count >= ${Z_MIN_OTHERS} THEN (CAST(value AS DOUBLE) - others_mean) / nullif(others_stddev, 0) END AS zscore
      FROM (
        SELECT changes.*,
               count(value) ${others} AS others_count,
               avg(CAST(value AS DOUBLE)) ${others} AS others_mean,
               stddev_pop(CAST(value AS DOUBLE)) ${others} AS others_stddev
          FROM (${changes}) AS changes
      )
     ORDER BY country, product, metric, year`);

  const priceChanges = lagChangesSql({
    from: 'agri_prices', value: 'price', period: 'begin_date', partitionBy: PRICE_SERIES, tieBreak: ['end_date NULLS FIRST', 'source_row'],
  });
  await db.run(`CREATE TABLE changes_agri_prices AS
    SELECT dataset, commodity_id, product_name, member_state_code, member_state_name, market_name, stage_name, unit,
           begin_date, previous_period, price, previous_value, absolute_change, percent_change, source_row
      FROM (${priceChanges}) WHERE previous_value IS NOT NULL
     ORDER BY begin_date DESC, dataset, commodity_id, member_state_code, market_name NULLS FIRST, stage_name NULLS FIRST, unit NULLS FIRST, source_row`);

  await buildServedShapes(db);
  await buildMarketShapes(db);
  for (const table of INTERMEDIATE) await db.run(`DROP TABLE ${table}`);
}

/** The tables only the shapes are built from. */
const INTERMEDIATE = ['trade_facts', 'trade_periods', 'market_prices', 'market_trade', 'market_stats', 'changes_agri_prices'];
