// Per-series views over agri_price_stats (rows with a price, their LAG change and z-score):
// /api/v1/prices/changes, /api/v1/anomalies and /api/v1/latest.
// A series is (dataset, commodity_id, member_state_code, market_name, stage_name, unit).
import type { Row } from '../../../engine/json.ts';
import { defineRoute } from '../../../queries/catalog.ts';
import { pagedBody, pagedList, paginate, threshold, type Resolved } from '../../../queries/kinds/index.ts';
import { decimal2 } from '../../../queries/shared/sql.ts';
import { PRICE_FILTER_SQL, priceFilterBindings, priceText, SERIES_ITEM_SQL } from './filters.ts';
import { country, dataset, MIN_PERCENT_DEFAULT, Z_DEFAULT } from './params.ts';
import { anomaliesResponse, changesResponse, latestResponse } from './schemas.ts';
import { SERIES_ORDER } from './tables.ts';

const seriesInputs = { dataset: dataset('dataset'), country, page: pagedList() };

type SeriesParams = Resolved<typeof seriesInputs>;

function seriesFilter(params: SeriesParams) {
  const filters = { dataset: params.dataset, country: params.country?.code ?? null };
  return { filters, bindings: priceFilterBindings(filters) };
}

const CHANGES_SQL = `SELECT 'price' AS metric, ${SERIES_ITEM_SQL}, begin_date AS period, previous_period, week_number, marketing_year,
    ${priceText('previous_value')} AS previous_value, ${priceText('price')} AS current_value,
    ${priceText('absolute_change')} AS absolute_change, ${decimal2('percent_change')} AS percentage_change
  FROM agri_price_stats WHERE previous_value IS NOT NULL AND ${PRICE_FILTER_SQL}
  ORDER BY price_order`;

export const getPriceChanges = defineRoute<SeriesParams>({
  id: 'getPriceChanges',
  method: 'GET',
  tag: 'agrifood',
  paths: ['/api/v1/prices/changes'],
  examples: ['/api/v1/prices/changes', '/api/v1/prices/changes?dataset=pigmeat_prices&country=DE&limit=20'],
  summary: 'Week-to-week (LAG) price changes per series',
  description:
    'For each price row, the change from the previous observation of its series (same dataset, commodity, member ' +
    'state, market, stage and unit, by begin_date): previous_value, current_value, absolute_change, percentage_change ' +
    '(null when the previous price is 0). Weeks without a price are skipped, never taken as 0, so a change may span ' +
    'several weeks (previous_period says which); a series\' first observation has no change. Newest period first. ' +
    'dataset and country filter; unknown ones are a 404.',
  paid: true,
  params: {},
  inputs: seriesInputs,
  response: changesResponse,
  listRows: (body) => body.items as Row[],
  async handle(params, { db }) {
    const { filters, bindings } = seriesFilter(params);
    return { endpoint: 'getPriceChanges', filters, ...pagedBody(await paginate(db, CHANGES_SQL, bindings, params.page)) };
  },
});

const ANOMALIES_SQL = `SELECT ${SERIES_ITEM_SQL}, begin_date, week_number, marketing_year, ${priceText('price')} AS price,
    ${priceText('previous_value')} AS previous_value, previous_period,
    ${decimal2('percent_change')} AS percent_change, ${decimal2('zscore')} AS zscore,
    ${decimal2('series_mean')} AS series_mean, ${decimal2('series_stddev')} AS series_stddev,
    series_observations::INTEGER AS series_observations,
    list_filter(['percent_change', 'zscore'], reason ->
      (reason = 'percent_change' AND coalesce(abs(percent_change) >= $min_percent, false)) OR
      (reason = 'zscore' AND coalesce(abs(zscore) >= $z, false))) AS reasons
  FROM agri_price_stats
  WHERE (abs(percent_change) >= $min_percent OR abs(zscore) >= $z) AND ${PRICE_FILTER_SQL}
  ORDER BY price_order`;

const anomalyInputs = {
  minPercent: threshold({
    name: 'min_percent',
    description: `Threshold on the absolute percent change (default ${MIN_PERCENT_DEFAULT}).`,
    default: MIN_PERCENT_DEFAULT,
  }),
  z: threshold({ name: 'z', description: `Threshold on the absolute z-score (default ${Z_DEFAULT}).`, default: Z_DEFAULT }),
  ...seriesInputs,
};

export const getPriceAnomalies = defineRoute<Resolved<typeof anomalyInputs>>({
  id: 'getPriceAnomalies',
  method: 'GET',
  tag: 'agrifood',
  paths: ['/api/v1/anomalies'],
  examples: ['/api/v1/anomalies', '/api/v1/anomalies?min_percent=40&z=4&limit=10', '/api/v1/anomalies?dataset=cereals_prices&country=HU'],
  summary: 'Unusual weekly prices: large moves or far from the series mean',
  description:
    `Price rows that stand out within their series (dataset, commodity, member state, market, stage, unit): the absolute ` +
    `percent change from the previous observation is at least min_percent (default ${MIN_PERCENT_DEFAULT}), or the absolute ` +
    `z-score of the price against the series' mean and population standard deviation is at least z (default ${Z_DEFAULT}). ` +
    'Either is enough; reasons lists which were met. Weeks without a price are skipped (never 0). Newest first. dataset ' +
    'and country (extensions to the specification\'s parameters) filter; unknown ones are a 404.',
  paid: true,
  params: {},
  inputs: anomalyInputs,
  response: anomaliesResponse,
  listRows: (body) => (body.items as Row[]).map((row) => ({ ...row, reasons: (row.reasons as string[]).join('; ') })),
  async handle(params, { db }) {
    const { filters, bindings } = seriesFilter(params);
    const { minPercent, z } = params;
    return {
      endpoint: 'getPriceAnomalies',
      filters: { min_percent: minPercent, z, ...filters },
      ...pagedBody(await paginate(db, ANOMALIES_SQL, { ...bindings, min_percent: minPercent, z }, params.page)),
    };
  },
});

const LATEST_SQL = `SELECT ${SERIES_ITEM_SQL}, begin_date, end_date, week_number, marketing_year, ${priceText('price')} AS price,
    ${priceText('previous_value')} AS previous_value, previous_period, ${priceText('absolute_change')} AS absolute_change,
    ${decimal2('percent_change')} AS percentage_change, series_observations::INTEGER AS observations
  FROM agri_price_stats WHERE is_latest AND ${PRICE_FILTER_SQL}
  ORDER BY ${SERIES_ORDER}`;

export const getLatestPrices = defineRoute<SeriesParams>({
  id: 'getLatestPrices',
  method: 'GET',
  tag: 'agrifood',
  paths: ['/api/v1/latest'],
  examples: ['/api/v1/latest', '/api/v1/latest?dataset=oilseeds_prices&limit=5'],
  summary: 'The newest price of every series',
  description:
    'One row per series (dataset, commodity, member state, market, stage, unit): its newest begin_date with a price, ' +
    'with the change from the observation before. Ordered by dataset, commodity, member state, market, stage, unit. ' +
    'dataset filters, and country (an extension); unknown ones are a 404.',
  paid: true,
  params: {},
  inputs: seriesInputs,
  response: latestResponse,
  listRows: (body) => body.items as Row[],
  async handle(params, { db }) {
    const { filters, bindings } = seriesFilter(params);
    return { endpoint: 'getLatestPrices', filters, ...pagedBody(await paginate(db, LATEST_SQL, bindings, params.page)) };
  },
});
