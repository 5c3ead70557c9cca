// Markets across countries and products: /api/v1/markets/changes (year-over-year moves),
// /api/v1/markets/anomalies (large moves or z-score outliers on price or imports) and
// /api/v1/markets/compare (several countries side by side for one product).
import type { Row } from '../../../engine/json.ts';
import { defineRoute } from '../../../queries/catalog.ts';
import { pagedBody, pagedList, pageOfRows, paginate, threshold, type Resolved } from '../../../queries/kinds/index.ts';
import { decimal2 } from '../../../queries/shared/sql.ts';
import { WORLD } from './codes.ts';
import { inListSql, joinList } from './format.ts';
import { CHANGE_FIELDS, MARKET_FIELDS, marketRows, pick } from './marketRows.ts';
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

/** The codes of the listed countries and products (null: all), as the filters echo them and the SQL binds them. */
function listFilters(params: Resolved<typeof listInputs>) {
  const countries = params.countries?.map((c) => c.code) ?? null;
  const commodities = params.commodities?.map((p) => p.code) ?? null;
  return { filters: { countries, commodities }, bindings: { countries: joinList(countries), commodities: joinList(commodities) } };
}

const SERIES_FIELDS = `s.country, c.name AS country_name, s.product AS commodity, p.name AS commodity_name, s.metric`;
const SERIES_JOINS = `LEFT JOIN trade_country_names c ON c.code = s.country LEFT JOIN trade_products p ON p.code = s.product`;
const SERIES_FILTER = `${inListSql('$countries', 's.country')} AND ${inListSql('$commodities', 's.product')}`;
const METRIC_ORDER = `list_position(['price', 'imports', 'exports', 'trade_balance'], s.metric)`;

const CHANGES_SQL = `SELECT ${SERIES_FIELDS}, s.year AS period, s.previous_period,
    ${decimal2('s.previous_value')} AS previous_value, ${decimal2('s.value')} AS current_value,
    ${decimal2('s.absolute_change')} AS absolute_change, ${decimal2('s.percent_change')} AS percent_change,
    CASE WHEN s.absolute_change > 0 THEN 'up' WHEN s.absolute_change < 0 THEN 'down' ELSE 'flat' END AS direction
  FROM market_stats s ${SERIES_JOINS}
  WHERE s.previous_value IS NOT NULL AND abs(s.percent_change) >= $min_percent AND ${SERIES_FILTER}
  ORDER BY abs(s.percent_change) DESC, s.year DESC, s.country, s.product, ${METRIC_ORDER}`;

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
    const { filters, bindings } = listFilters(params);
    return {
      endpoint: 'listMarketChanges',
      filters: { ...filters, min_percent: params.minPercent },
      ...pagedBody(await paginate(db, CHANGES_SQL, { ...bindings, min_percent: params.minPercent }, params.page)),
    };
  },
});

const anomalyInputs = {
  ...listInputs,
  minPercent: minPercent(MARKET_ANOMALIES_MIN_PERCENT),
  z: threshold({ name: 'z', description: `Threshold on the absolute z-score (default ${MARKET_Z_DEFAULT}).`, default: MARKET_Z_DEFAULT }),
  page: pagedList(),
};

const ANOMALIES_SQL = `SELECT ${SERIES_FIELDS}, s.year AS period, ${decimal2('s.value')} AS value, s.previous_period,
    ${decimal2('s.previous_value')} AS previous_value, ${decimal2('s.percent_change')} AS percent_change, ${decimal2('s.zscore')} AS zscore,
    list_filter(['percent_change', 'zscore'], reason ->
      (reason = 'percent_change' AND coalesce(abs(s.percent_change) >= $min_percent, false)) OR
      (reason = 'zscore' AND coalesce(abs(s.zscore) >= $z, false))) AS reasons
  FROM market_stats s ${SERIES_JOINS}
  WHERE s.metric IN ('price', 'imports') AND (abs(s.percent_change) >= $min_percent OR abs(s.zscore) >= $z) AND ${SERIES_FILTER}
  ORDER BY s.year DESC, s.country, s.product, ${METRIC_ORDER}`;

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
    const { filters, bindings } = listFilters(params);
    const { minPercent, z } = params;
    return {
      endpoint: 'listMarketAnomalies',
      filters: { ...filters, min_percent: minPercent, z },
      ...pagedBody(await paginate(db, ANOMALIES_SQL, { ...bindings, min_percent: minPercent, z }, params.page)),
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
