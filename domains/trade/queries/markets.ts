// One market (a country and an HS product): /api/v1/markets/{country}/{commodity} (one year's view),
// /history (the annual series) and /insights (year-over-year changes and z-score anomalies).
import type { Database } from '../../../engine/database.ts';
import type { JsonValue, Row } from '../../../engine/json.ts';
import { defineRoute } from '../../../queries/catalog.ts';
import { groupKey, heldGroups } from '../../../queries/shared/heldGroups.ts';
import { pagedBody, pagedList, pageOfRows, plain, threshold, yearSpec, type Resolved } from '../../../queries/kinds/index.ts';
import { FLOW_NAMES, WORLD } from './codes.ts';
import { CHANGE_FIELDS, MARKET_FIELDS, marketRows, pick } from './marketRows.ts';
import { flow, MARKET_Z_DEFAULT, marketPath, partner, periodsWindow, yearRange } from './params.ts';
import { marketHistoryResponse, marketInsightsResponse, marketResponse } from './schemas.ts';
import { MARKET_METRICS } from './tables.ts';

const marketInputs = {
  ...marketPath,
  year: plain<number>('year', yearSpec('Calendar year of the view; not with date_from/date_to.')),
  window: periodsWindow('year'),
  partner: partner('Trade partner (default WORLD), any case. Unknown ones are a 404.'),
  flow,
};

export const getMarket = defineRoute<Resolved<typeof marketInputs>>({
  id: 'getMarket',
  method: 'GET',
  tag: 'markets',
  paths: ['/api/v1/markets/{country}/{commodity}'],
  examples: ['/api/v1/markets/RO/1001', '/api/v1/markets/PL/wheat?year=2022', '/api/v1/markets/DE/1005?partner=UA&flow=import&date_from=2016&date_to=2020'],
  summary: 'A market: the average annual agri-food price of a product in a country, with its trade',
  description:
    'For one year: the average annual agri-food price (mean of every weekly cereals_prices price of the product\'s ' +
    'price products in the member state whose begin_date falls in the calendar year, across markets and stages; euros ' +
    'per tonne; price_products lists them: 1001 Breadmaking common wheat and Feed wheat, 1003 Feed barley and Malting ' +
    'barley, 1005 Feed maize) with the trade of that year: imports, exports (euros) and trade_balance = exports - ' +
    'imports, plus quantities (100 kg), and percent changes from the previous calendar year. The year is `year`, or the ' +
    'latest year with data inside date_from/date_to (default: all years). partner (default WORLD) chooses the trade ' +
    'partner; flow (import/export) keeps one side (the other side and the balance are then null). Missing values stay ' +
    'null. available_periods lists the years with data in the window.',
  paid: true,
  params: {},
  inputs: marketInputs,
  response: marketResponse,
  async handle(params, { db }) {
    const { country, commodity, year, window, flow } = params;
    const partner = params.partner ?? WORLD;
    const years = year === null ? yearRange(window) : { first: year, last: year };
    const rows = await marketRows(db, { countries: [country.code], product: commodity.code, partner, flow, firstYear: years.first, lastYear: years.last });
    const chosen = rows.at(-1) ?? null;
    return {
      endpoint: 'getMarket',
      country,
      commodity,
      filters: { year, date_from: window.from, date_to: window.to, partner, flow: flow === null ? null : FLOW_NAMES[flow] },
      period: year ?? (chosen ? Number(chosen.period) : null),
      available_periods: rows.map((row) => Number(row.period)),
      market: chosen ? { period: chosen.period, ...pick(chosen, MARKET_FIELDS), ...pick(chosen, CHANGE_FIELDS) } : null,
    };
  },
});

const historyInputs = { ...marketPath, window: periodsWindow(), page: pagedList() };

export const getMarketHistory = defineRoute<Resolved<typeof historyInputs>>({
  id: 'getMarketHistory',
  method: 'GET',
  tag: 'markets',
  paths: ['/api/v1/markets/{country}/{commodity}/history'],
  examples: ['/api/v1/markets/RO/1001/history', '/api/v1/markets/HU/maize/history?date_from=2019&date_to=2024'],
  summary: 'The annual series of a market: price, imports, exports, trade balance',
  description:
    'One item per year with any value, oldest first: the average annual agri-food price (as in the market view), WORLD ' +
    'imports and exports in euros, trade_balance = exports - imports, and quantities in 100 kg. Missing values stay null. ' +
    'date_from/date_to keep the years lying entirely inside the window.',
  paid: true,
  params: {},
  inputs: historyInputs,
  response: marketHistoryResponse,
  listRows: (body) => body.items as Row[],
  async handle(params, { db }) {
    const { country, commodity, window } = params;
    const years = yearRange(window);
    const rows = await marketRows(db, { countries: [country.code], product: commodity.code, partner: WORLD, flow: null, firstYear: years.first, lastYear: years.last });
    const items = rows.map((row) => ({ period: row.period, ...pick(row, MARKET_FIELDS) }));
    return {
      endpoint: 'getMarketHistory',
      country,
      commodity,
      filters: { date_from: window.from, date_to: window.to },
      ...pagedBody(pageOfRows(items, params.page)),
    };
  },
});

const insightsInputs = {
  ...marketPath,
  z: threshold({ name: 'z', description: `Threshold on the absolute z-score (default ${MARKET_Z_DEFAULT}).`, default: MARKET_Z_DEFAULT }),
};

const INSIGHTS_SQL = `SELECT metric, period, value, previous_period, previous_value, yoy_percent, zscore,
    coalesce(abs_zscore >= $z, false) AS is_anomaly, raw_percent, series_mean
  FROM trade_market_insights WHERE country = $country AND product = $product
  ORDER BY pos`;

/** trade_market_insights (a row per market series and year) held per market in the route's order (pos). */
const heldInsights = heldGroups({
  table: 'trade_market_insights', key: ['country', 'product'], orderBy: 'pos',
  columns: 'metric, period, value, previous_period, previous_value, yoy_percent, zscore, abs_zscore, raw_percent, series_mean',
});

/** `coalesce(abs_zscore >= $z, false)` as DuckDB reads it: NULL is false, NaN greater than every number. */
export const anomalyAt = (absZscore: JsonValue, z: number): boolean =>
  typeof absZscore === 'number' && (Number.isNaN(absZscore) || absZscore >= z);

/** The market's insight rows (INSIGHTS_SQL's columns), held when the table is within bounds. */
export async function insightRows(db: Database, country: string, product: string, z: number): Promise<Row[]> {
  const held = await heldInsights(db);
  if (!held) return db.all(INSIGHTS_SQL, { country, product, z });
  return (held.get(groupKey([country, product])) ?? []).map((row) => ({
    metric: row.metric, period: row.period, value: row.value, previous_period: row.previous_period, previous_value: row.previous_value,
    yoy_percent: row.yoy_percent, zscore: row.zscore, is_anomaly: anomalyAt(row.abs_zscore, z), raw_percent: row.raw_percent, series_mean: row.series_mean,
  }));
}

export const getMarketInsights = defineRoute<Resolved<typeof insightsInputs>>({
  id: 'getMarketInsights',
  method: 'GET',
  tag: 'markets',
  paths: ['/api/v1/markets/{country}/{commodity}/insights'],
  examples: ['/api/v1/markets/PL/1001/insights', '/api/v1/markets/RO/wheat/insights?z=2'],
  summary: 'Year-over-year changes and z-score anomalies of a market',
  description:
    'For each metric (price, imports, exports, trade_balance; WORLD partner) and year with a value: the year-over-year ' +
    'percent change from the previous observed year (missing years skipped, never 0; null when the previous value is 0) ' +
    'and the z-score of the year against the mean and population standard deviation of the series\' OTHER years ' +
    '(leave-one-out; null with fewer than 3 other years or no spread: with one point among ten, the plain z-score ' +
    `cannot exceed 3). is_anomaly when |zscore| >= z (default ${MARKET_Z_DEFAULT}); anomalies repeats those items. ` +
    'series summarises each metric: observations, latest value and change, mean, largest move (ties: the later year). ' +
    'Items: metric order price, imports, exports, trade_balance, then year. Deterministic.',
  paid: true,
  params: {},
  inputs: insightsInputs,
  response: marketInsightsResponse,
  async handle(params, { db }) {
    const { country, commodity, z } = params;
    const rows = await insightRows(db, country.code, commodity.code, z);
    const items = rows.map(({ raw_percent: _raw, series_mean: _mean, ...item }) => item);
    const series = MARKET_METRICS.flatMap((metric) => {
      const own = rows.filter((row) => row.metric === metric);
      if (own.length === 0) return [];
      const latest = own.at(-1)!;
      let largest: Row | null = null;
      for (const row of own) {
        if (row.raw_percent === null) continue;
        if (largest === null || Math.abs(Number(row.raw_percent)) >= Math.abs(Number(largest.raw_percent))) largest = row;
      }
      return [{
        metric,
        observations: own.length,
        first_period: own[0].period,
        last_period: latest.period,
        latest_value: latest.value,
        latest_yoy_percent: latest.yoy_percent,
        mean: latest.series_mean,
        largest_move: largest ? { period: largest.period, yoy_percent: largest.yoy_percent } : null,
        anomalies: own.filter((row) => row.is_anomaly).length,
      }];
    });
    return {
      endpoint: 'getMarketInsights',
      country,
      commodity,
      filters: { z },
      series,
      anomalies: items.filter((item) => item.is_anomaly),
      count: items.length,
      items,
    };
  },
});
