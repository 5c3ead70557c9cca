// Markets across countries and products: /api/v1/markets/changes (year-over-year moves),
// /api/v1/markets/anomalies (large moves or z-score outliers on price or imports) and
// /api/v1/markets/compare (several countries side by side for one product).
import type { SqlParams } from '../../../engine/database.ts';
import type { Row } from '../../../engine/json.ts';
import { defineRoute } from '../../../queries/catalog.ts';
import { pagedBody, pagedList, pageOfRows, threshold, type Resolved } from '../../../queries/kinds/index.ts';
import { WORLD } from './codes.ts';
import { CHANGE_FIELDS, MARKET_FIELDS, marketRows, pick } from './marketRows.ts';
import { MARKET_ANOMALIES, MARKET_ANOMALIES_COLUMNS, MARKET_MOVES, MARKET_MOVES_COLUMNS } from './marketShapes.ts';
import { atLeast, heldMarketAnomalies, heldMarketMoves, pageOfHeld } from './heldMarketLists.ts';
import { inList, pageOfShape } from './paging.ts';
import {
  countryList, MARKET_ANOMALIES_MIN_PERCENT, MARKET_CHANGES_MIN_PERCENT, MARKET_Z_DEFAULT, periodsWindow, priceProducts, productList,
  requiredProduct, yearRange,
} from './params.ts';
import { compareResponse, marketAnomaliesResponse, marketChangesResponse } from './schemas.ts';

const listInputs = {
  countries: countryList({
    name: 'countries',
    description: 'Countries, comma-separated: codes or English names (DE,FR,Romania). Unknown ones are a 404. Default: all.',
    example: 'DE,FR,RO',
  }),
  commodities: productList({
    name: 'commodities',
    description: 'HS products, comma-separated: codes or names (1001,barley). Unknown ones are a 404. Default: all.',
    example: '1001,1005',
  }),
};

const minPercent = (fallback: number) =>
  threshold({ name: 'min_percent', description: `Threshold on the absolute year-over-year percent change (default ${fallback}).`, default: fallback });

/** The codes of the listed countries and products (null: all), as the filters echo them. */
function listFilters(params: Resolved<typeof listInputs>) {
  return { countries: params.countries?.map((c) => c.code) ?? null, commodities: params.commodities?.map((p) => p.code) ?? null };
}

/** The conditions and bindings of the country and commodity lists (none for a list not given). */
function listConditions(filters: ReturnType<typeof listFilters>): { conditions: string[]; bindings: SqlParams } {
  const lists = [
    filters.countries === null ? null : inList('country', 'country', filters.countries),
    filters.commodities === null ? null : inList('commodity', 'commodity', filters.commodities),
  ].filter((list) => list !== null);
  return { conditions: lists.map((list) => list.sql), bindings: Object.assign({}, ...lists.map((list) => list.bindings)) };
}

const changesInputs = { ...listInputs, minPercent: minPercent(MARKET_CHANGES_MIN_PERCENT), page: pagedList() };

export const listMarketChanges = defineRoute<Resolved<typeof changesInputs>>({
  id: 'listMarketChanges',
  method: 'GET',
  tag: 'markets',
  paths: ['/api/v1/markets/changes'],
  examples: ['/api/v1/markets/changes', '/api/v1/markets/changes?countries=PL,BG&commodities=1001&min_percent=50', '/api/v1/markets/changes?commodities=maize,barley&limit=10&offset=5'],
  summary: 'Year-over-year market moves at or above a percent threshold',
  description:
    'Year-over-year changes of every market series (price, imports, exports, trade_balance; WORLD partner) whose ' +
    `absolute percent change is at least min_percent (default ${MARKET_CHANGES_MIN_PERCENT}). The previous year is the ` +
    'previous observed one (missing years skipped, never 0); a change from 0 has no percent and is left out. Largest ' +
    'move first, then newest year, country, commodity, metric. countries and commodities filter (comma-separated).',
  paid: true,
  params: {},
  inputs: changesInputs,
  response: marketChangesResponse,
  listRows: (body) => body.items as Row[],
  async handle(params, { db }) {
    const filters = listFilters(params);
    const lists = listConditions(filters);
    const { minPercent } = params;
    const held = await heldMarketMoves(db);
    return {
      endpoint: 'listMarketChanges',
      filters: { ...filters, min_percent: minPercent },
      ...pagedBody(held
        ? pageOfHeld(held, filters, (i) => atLeast(held.absPercent[i]!, minPercent), params.page)
        : await pageOfShape(db, {
          table: MARKET_MOVES.table,
          columns: MARKET_MOVES_COLUMNS,
          conditions: ['abs_percent >= $min_percent', ...lists.conditions],
          bindings: { ...lists.bindings, min_percent: minPercent },
          // Sorted by abs_percent (largest first): without lists the threshold keeps a leading run of pos.
          leadingRun: lists.conditions.length === 0,
        }, params.page)),
    };
  },
});

const anomalyInputs = {
  ...listInputs,
  minPercent: minPercent(MARKET_ANOMALIES_MIN_PERCENT),
  z: threshold({ name: 'z', description: `Threshold on the absolute z-score (default ${MARKET_Z_DEFAULT}).`, default: MARKET_Z_DEFAULT }),
  page: pagedList(),
};

/** The anomaly columns, with the reasons met (thresholds compared with the unrounded magnitudes). */
const ANOMALY_COLUMNS = `${MARKET_ANOMALIES_COLUMNS},
    list_filter(['percent_change', 'zscore'], reason ->
      (reason = 'percent_change' AND coalesce(abs_percent >= $min_percent, false)) OR
      (reason = 'zscore' AND coalesce(abs_zscore >= $z, false))) AS reasons`;

export const listMarketAnomalies = defineRoute<Resolved<typeof anomalyInputs>>({
  id: 'listMarketAnomalies',
  method: 'GET',
  tag: 'markets',
  paths: ['/api/v1/markets/anomalies'],
  examples: ['/api/v1/markets/anomalies', '/api/v1/markets/anomalies?countries=BG,PL&min_percent=100&z=4', '/api/v1/markets/anomalies?commodities=wheat&limit=5'],
  summary: 'Unusual years of market prices and imports',
  description:
    'Years of the price and imports series (WORLD partner) where the absolute year-over-year percent change is at ' +
    `least min_percent (default ${MARKET_ANOMALIES_MIN_PERCENT}) or the absolute z-score is at least z (default ` +
    `${MARKET_Z_DEFAULT}); reasons lists which were met. The z-score is the year against the mean and population ` +
    'standard deviation of the series\' other years (leave-one-out, at least 3 of them), as in the insights. Newest ' +
    'year first, then country, commodity, metric. countries and commodities filter (comma-separated).',
  paid: true,
  params: {},
  inputs: anomalyInputs,
  response: marketAnomaliesResponse,
  listRows: (body) => (body.items as Row[]).map((row) => ({ ...row, reasons: (row.reasons as string[]).join('; ') })),
  async handle(params, { db }) {
    const filters = listFilters(params);
    const lists = listConditions(filters);
    const { minPercent, z } = params;
    const held = await heldMarketAnomalies(db);
    const percentMet = (i: number) => atLeast(held!.absPercent[i]!, minPercent);
    const zscoreMet = (i: number) => atLeast(held!.absZscore[i]!, z);
    // The reasons met, in ANOMALY_COLUMNS' order.
    const reasons = (i: number) => [...(percentMet(i) ? ['percent_change'] : []), ...(zscoreMet(i) ? ['zscore'] : [])];
    return {
      endpoint: 'listMarketAnomalies',
      filters: { ...filters, min_percent: minPercent, z },
      ...pagedBody(held
        ? pageOfHeld(held, filters, (i) => percentMet(i) || zscoreMet(i), params.page, (row, i) => ({ ...row, reasons: reasons(i) }))
        : await pageOfShape(db, {
          table: MARKET_ANOMALIES.table,
          columns: ANOMALY_COLUMNS,
          conditions: ['(abs_percent >= $min_percent OR abs_zscore >= $z)', ...lists.conditions],
          bindings: { ...lists.bindings, min_percent: minPercent, z },
        }, params.page)),
    };
  },
});

const compareInputs = {
  countries: countryList({
    name: 'countries',
    description: 'Countries to compare, comma-separated (at least 2): codes or names. Unknown ones are a 404.',
    example: 'DE,FR',
    required: true,
    atLeast: { count: 2, message: 'countries must name at least 2 different countries' },
  }),
  commodity: requiredProduct(['commodity'], { describe: () => 'HS product code or name (1001, wheat). Unknown ones are a 404.', maxLength: 500 }),
  window: periodsWindow(),
  page: pagedList(),
};

export const compareMarkets = defineRoute<Resolved<typeof compareInputs>>({
  id: 'compareMarkets',
  method: 'GET',
  tag: 'markets',
  paths: ['/api/v1/markets/compare'],
  examples: ['/api/v1/markets/compare?countries=DE,FR,RO&commodity=1001', '/api/v1/markets/compare?countries=PL,HU&commodity=maize&date_from=2020&date_to=2023'],
  summary: 'Several countries\' markets for one product, side by side',
  description:
    'countries (required, comma-separated, at least 2 distinct) and commodity (required). For each period, one item per ' +
    'country in the order given: average annual price, WORLD imports, exports, trade_balance, quantities, and the percent ' +
    'changes price_change, imports_change, exports_change from the previous calendar year. Without dates the period is ' +
    'the latest common one: the latest year in which every country has a price, imports or exports. With date_from/' +
    'date_to, every year inside the window where some country has data (newest first). Missing values stay null; ' +
    'common_period is null when the countries share no year.',
  paid: true,
  params: {},
  inputs: compareInputs,
  response: compareResponse,
  listRows: (body) => body.items as Row[],
  async handle(params, { db }) {
    const countries = params.countries!;
    const product = params.commodity;
    const { window } = params;
    const years = yearRange(window);
    const rows = await marketRows(db, {
      countries: countries.map((c) => c.code), product: product.code, partner: WORLD, flow: null, firstYear: years.first, lastYear: years.last,
    });
    const byKey = new Map(rows.map((row) => [`${row.country}|${row.period}`, row]));
    const yearsWithData = [...new Set(rows.map((row) => Number(row.period)))].sort((a, b) => b - a);
    const common = yearsWithData.find((year) => countries.every((c) => byKey.has(`${c.code}|${year}`))) ?? null;
    const windowed = window.from !== null || window.to !== null;
    const periods = windowed ? yearsWithData : common === null ? [] : [common];
    const all = periods.flatMap((year) => countries.map((c) => {
      const row = byKey.get(`${c.code}|${year}`);
      const empty = Object.fromEntries([...MARKET_FIELDS, ...CHANGE_FIELDS].map((f) => [f, f === 'price_observations' ? 0 : null]));
      return { country: c.code, country_name: c.name, period: year, ...(row ? { ...pick(row, MARKET_FIELDS), ...pick(row, CHANGE_FIELDS) } : empty) };
    }));
    return {
      endpoint: 'compareMarkets',
      commodity: { ...product, price_products: priceProducts(product.code) },
      common_period: common,
      periods,
      filters: { countries: countries.map((c) => c.code), commodity: product.code, date_from: window.from, date_to: window.to },
      ...pagedBody(pageOfRows(all, params.page)),
    };
  },
});
