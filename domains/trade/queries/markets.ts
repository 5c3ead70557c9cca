// One market (a country and an HS product): /api/v1/markets/{country}/{commodity} (one year's view),
// /history (the annual series) and /insights (year-over-year changes and z-score anomalies).
import type { Database } from '../../../engine/database.ts';
import type { Row } from '../../../engine/json.ts';
import { defineRoute, type ParamSpec } from '../../../queries/catalog.ts';
import { invalidParameter } from '../../../queries/shared/errors.ts';
import { pageOf, paginationParams, type PageParams } from '../../../queries/shared/pagination.ts';
import { yearParam } from '../../../queries/shared/params.ts';
import { decimal2 } from '../../../queries/shared/sql.ts';
import { FLOW_NAMES, WORLD } from './codes.ts';
import { CHANGE_FIELDS, MARKET_FIELDS, marketRows, pick } from './marketRows.ts';
import {
  flowParam, MARKET_Z_DEFAULT, parseFlow, parsePeriodWindow, partnerParam, periodBoundParam, periodWindowCheck, priceProducts,
  resolveCountry, resolvePartner, resolveProduct, textParam, thresholdParam, yearRange, type Country,
} from './params.ts';
import { marketHistoryResponse, marketInsightsResponse, marketResponse } from './schemas.ts';
import { MARKET_METRICS } from './tables.ts';

export const marketPathParams: Record<'country' | 'commodity', ParamSpec> = {
  country: textParam('Country code (DE, EL, ...) or English name, any case. Unknown ones are a 404.', 'RO', 100, 'path'),
  commodity: textParam('HS product code (1001, 1003, 1005) or name (wheat, barley, maize). Unknown ones are a 404.', '1001', 100, 'path'),
};

/** The country and product of a market path, with the price products standing for the product. */
export async function resolveMarket(db: Database, params: { country: string; commodity: string }) {
  const country: Country = await resolveCountry(db, params.country, 'country');
  const product = await resolveProduct(db, params.commodity, 'commodity');
  return { country, commodity: { ...product, price_products: priceProducts(product.code) } };
}

interface MarketParams {
  country: string;
  commodity: string;
  year?: number;
  date_from?: string;
  date_to?: string;
  partner?: string;
  flow?: string;
}

export const getMarket = defineRoute<MarketParams>({
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
  params: {
    ...marketPathParams,
    year: yearParam('Calendar year of the view; not with date_from/date_to.'),
    date_from: periodBoundParam('from'),
    date_to: periodBoundParam('to'),
    partner: partnerParam('Trade partner (default WORLD), any case. Unknown ones are a 404.'),
    flow: flowParam,
  },
  checks: [
    periodWindowCheck,
    {
      name: 'yearExcludesWindow',
      description: 'year cannot be combined with date_from or date_to',
      check: (p) => (p.year !== undefined && (p.date_from !== undefined || p.date_to !== undefined)
        ? invalidParameter('year', 'year cannot be combined with date_from/date_to: use one or the other')
        : null),
    },
  ],
  response: marketResponse,
  async handle(params, { db }) {
    const { country, commodity } = await resolveMarket(db, params);
    const partner = (await resolvePartner(db, params.partner)) ?? WORLD;
    const flow = parseFlow(params.flow);
    const window = parsePeriodWindow(params);
    const years = params.year === undefined ? yearRange(window) : { first: params.year, last: params.year };
    const rows = await marketRows(db, { countries: [country.code], product: commodity.code, partner, flow, firstYear: years.first, lastYear: years.last });
    const chosen = rows.at(-1) ?? null;
    return {
      endpoint: 'getMarket',
      country,
      commodity,
      filters: { year: params.year ?? null, date_from: window.from, date_to: window.to, partner, flow: flow === null ? null : FLOW_NAMES[flow] },
      period: params.year ?? (chosen ? Number(chosen.period) : null),
      available_periods: rows.map((row) => Number(row.period)),
      market: chosen ? { period: chosen.period, ...pick(chosen, MARKET_FIELDS), ...pick(chosen, CHANGE_FIELDS) } : null,
    };
  },
});

interface HistoryParams extends PageParams {
  country: string;
  commodity: string;
  date_from?: string;
  date_to?: string;
}

export const getMarketHistory = defineRoute<HistoryParams>({
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
  params: { ...marketPathParams, date_from: periodBoundParam('from'), date_to: periodBoundParam('to'), ...paginationParams },
  checks: [periodWindowCheck],
  response: marketHistoryResponse,
  listRows: (body) => body.items as Row[],
  async handle(params, { db }) {
    const { country, commodity } = await resolveMarket(db, params);
    const window = parsePeriodWindow(params);
    const years = yearRange(window);
    const rows = await marketRows(db, { countries: [country.code], product: commodity.code, partner: WORLD, flow: null, firstYear: years.first, lastYear: years.last });
    const page = pageOf(params);
    const items = rows.slice(page.offset, page.offset + page.limit).map((row) => ({ period: row.period, ...pick(row, MARKET_FIELDS) }));
    return {
      endpoint: 'getMarketHistory',
      country,
      commodity,
      filters: { date_from: window.from, date_to: window.to },
      count: items.length,
      limit: page.limit,
      offset: page.offset,
      total: rows.length,
      items,
    };
  },
});

interface InsightsParams {
  country: string;
  commodity: string;
  z?: number;
}

const INSIGHTS_SQL = `SELECT metric, year AS period, ${decimal2('value')} AS value, previous_period,
    ${decimal2('previous_value')} AS previous_value, ${decimal2('percent_change')} AS yoy_percent, ${decimal2('zscore')} AS zscore,
    coalesce(abs(zscore) >= $z, false) AS is_anomaly, percent_change AS raw_percent,
    ${decimal2('avg(value) OVER (PARTITION BY metric)')} AS series_mean
  FROM market_stats WHERE country = $country AND product = $product
  ORDER BY list_position(['price', 'imports', 'exports', 'trade_balance'], metric), year`;

export const getMarketInsights = defineRoute<InsightsParams>({
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
  params: { ...marketPathParams, z: thresholdParam(`Threshold on the absolute z-score (default ${MARKET_Z_DEFAULT}).`, MARKET_Z_DEFAULT) },
  response: marketInsightsResponse,
  async handle(params, { db }) {
    const { country, commodity } = await resolveMarket(db, params);
    const z = params.z ?? MARKET_Z_DEFAULT;
    const rows = await db.all(INSIGHTS_SQL, { country: country.code, product: commodity.code, z });
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
