// Per-series views over the priced rows (agri_price_stats: the LAG change and z-score of each):
// /api/v1/prices/changes, /api/v1/anomalies and /api/v1/latest. Each reads a shape built at load
// (tables.ts) so that a page costs what it returns: changes by their positions in the filter's
// group, anomalies from the prefixes over the thresholds, latest from one row per series.
// A series is (dataset, commodity_id, member_state_code, market_name, stage_name, unit).
import type { Row } from '../../../engine/json.ts';
import { defineRoute } from '../../../queries/catalog.ts';
import { pagedBody, pagedList, threshold, type Resolved } from '../../../queries/kinds/index.ts';
import { anomalyItemSql } from './filters.ts';
import { agriState, gridPage, matchedKeys, parsedItem, type AgriState } from './keyGrid.ts';
import { limitBindings, pageWithTotal, positionBindings, rowsAtPageSql, sqlPerSliceCount } from './pages.ts';
import { country, dataset, MIN_PERCENT_DEFAULT, Z_DEFAULT } from './params.ts';
import { anomaliesResponse, changesResponse, latestResponse } from './schemas.ts';

const seriesInputs = { dataset: dataset('dataset'), country, page: pagedList() };

type SeriesParams = Resolved<typeof seriesInputs>;

function seriesFilter(params: SeriesParams) {
  const filters = { dataset: params.dataset, country: params.country?.code ?? null };
  return { filters, bindings: { dataset: filters.dataset, country: filters.country } };
}

/** Over a table with dataset and member_state_code. */
const SERIES_FILTER_SQL = `(CAST($dataset AS VARCHAR) IS NULL OR dataset = $dataset)
  AND (CAST($country AS VARCHAR) IS NULL OR member_state_code = $country)`;

/**
 * The CTE `picked`: the rows of agri_price_stats at the CTE `page`. Materialized, so that no other
 * join of the statement pushes a filter into those scans (which would make them scans, not lookups).
 */
const pickedSql = (slots: number) => `picked AS MATERIALIZED (
    ${rowsAtPageSql('agri_price_stats', slots)}
  )`;

// Changes: the rows of agri_change_rows (sorted by price_order) of the keys of the filter's dataset
// and member state; the grid gives the total and the range holding the page (keyGrid.ts).
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
    const { filters } = seriesFilter(params);
    const state = await agriState(db);
    const keys = matchedKeys(state, { dataset: filters.dataset, country: filters.country });
    const page = await gridPage(db, state, 'changes', keys, [0, state.dates.length - 1], params.page, 'ASC');
    return { endpoint: 'getPriceChanges', filters, ...pagedBody(page) };
  },
});

// The rows over either threshold are the union of two prefixes (|percent change| and |z-score|,
// each sorted largest first), kept to the dataset and member state of the filter; the second leaves
// out the rows the first has, so the union needs no deduplication.
// The anomalies at the default thresholds are held rendered (agri_anomaly_rows, in price_order): a
// page is the filter's rows of it in table order, the total the grid's count of the keys matched.
const POSITIONS = ['pos_all', 'pos_dataset', 'pos_country', 'pos_both'] as const;

/** The position column of a filter's list: rows are numbered in each (a page is a range of it, not LIMIT / OFFSET). */
function positionColumn(bindings: { dataset: string | null; country: string | null }): (typeof POSITIONS)[number] {
  return POSITIONS[(bindings.dataset === null ? 0 : 1) + (bindings.country === null ? 0 : 2)];
}

const pagedByPosition = (table: string) => Object.fromEntries(POSITIONS.map((column) => [column,
  `SELECT item FROM ${table} WHERE ${SERIES_FILTER_SQL} AND ${column} BETWEEN $page_first AND $page_last`,
])) as Record<(typeof POSITIONS)[number], string>;

const DEFAULT_ANOMALIES_SQL = pagedByPosition('agri_anomaly_rows');

// Thresholds at or over both defaults keep a subset of those rows: which ones, and so the total and
// the page's pos_all range, are computed from the sizes held in JavaScript (agriState); the page is
// then the rows of that range the same filter keeps (exactly the page's rows), their reasons those
// of the thresholds given (reasons is an item's last field, so replacing it keeps the key order).
// One range read, no count or LIMIT / OFFSET in SQL.
const OVER_DEFAULTS_SQL = `SELECT pos_all, item FROM agri_anomaly_rows
 WHERE pos_all BETWEEN $page_first AND $page_last AND ${SERIES_FILTER_SQL}
   AND (coalesce(percent_size >= $min_percent, false) OR coalesce(z_size >= $z, false))`;

/** The pos_all of the default anomalies the filter and thresholds keep, ascending (a null size never meets a threshold: NaN >= x is false). */
function anomaliesOverDefaults(state: AgriState, bindings: { dataset: string | null; country: string | null }, minPercent: number, z: number): number[] {
  const { dataset, memberState, percentSize, zSize } = state.anomalyRows;
  const kept: number[] = [];
  for (let i = 0; i < dataset.length; i++) {
    if (bindings.dataset !== null && dataset[i] !== bindings.dataset) continue;
    if (bindings.country !== null && memberState[i] !== bindings.country) continue;
    if (percentSize[i] >= minPercent || zSize[i] >= z) kept.push(i + 1);
  }
  return kept;
}

const anomaliesSql = sqlPerSliceCount((slots) => `WITH hits AS (
    SELECT price_order FROM agri_moves_by_percent WHERE size >= $min_percent AND ${SERIES_FILTER_SQL}
    UNION ALL
    SELECT price_order FROM agri_moves_by_z
     WHERE size >= $z AND (percent_size IS NULL OR percent_size < $min_percent) AND ${SERIES_FILTER_SQL}
  ), counted AS (
    SELECT count(*)::INTEGER AS total FROM hits
  ), page AS (
    SELECT price_order, row_number() OVER (ORDER BY price_order) AS slot
      FROM (SELECT price_order FROM hits ORDER BY price_order LIMIT $page_limit OFFSET $page_offset)
  ), ${pickedSql(slots)}
  SELECT counted.total, a.* EXCLUDE (price_order) FROM counted LEFT JOIN (
    SELECT st.price_order, ${anomalyItemSql('$min_percent', '$z')}
      FROM picked st JOIN agri_price_keys k ON k.key_id = st.key_id JOIN agri_series se ON se.series_id = st.series_id
  ) AS a ON true
  ORDER BY a.price_order`);

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
    if (minPercent === MIN_PERCENT_DEFAULT && z === Z_DEFAULT) {
      const state = await agriState(db);
      const keys = matchedKeys(state, bindings) ?? state.keys.map((key) => key.key_id);
      const total = keys.reduce((sum, key) => sum + state.anomalies[key], 0);
      const rows = params.page.offset >= total ? [] : (await db.all(DEFAULT_ANOMALIES_SQL[positionColumn(bindings)], { ...bindings, ...positionBindings(params.page) })).map(parsedItem);
      return {
        endpoint: 'getPriceAnomalies',
        filters: { min_percent: minPercent, z, ...filters },
        ...pagedBody({ rows, limit: params.page.limit, offset: params.page.offset, total }),
      };
    }
    if (minPercent >= MIN_PERCENT_DEFAULT && z >= Z_DEFAULT) {
      const state = await agriState(db);
      const kept = anomaliesOverDefaults(state, bindings, minPercent, z);
      const onPage = kept.slice(params.page.offset, params.page.offset + params.page.limit);
      const { percentSize, zSize } = state.anomalyRows;
      const rows = onPage.length === 0 ? [] : (await db.all(OVER_DEFAULTS_SQL, {
        ...bindings, min_percent: minPercent, z, page_first: onPage[0], page_last: onPage[onPage.length - 1],
      })).map((row) => {
        const i = Number(row.pos_all) - 1;
        const reasons = [...(percentSize[i] >= minPercent ? ['percent_change'] : []), ...(zSize[i] >= z ? ['zscore'] : [])];
        return { ...parsedItem(row), reasons };
      });
      return {
        endpoint: 'getPriceAnomalies',
        filters: { min_percent: minPercent, z, ...filters },
        ...pagedBody({ rows, limit: params.page.limit, offset: params.page.offset, total: kept.length }),
      };
    }
    return {
      endpoint: 'getPriceAnomalies',
      filters: { min_percent: minPercent, z, ...filters },
      ...pagedBody(await pageWithTotal(db, anomaliesSql(params.page.limit), { ...bindings, min_percent: minPercent, z, ...limitBindings(params.page) }, params.page, 'dataset')),
    };
  },
});

// agri_latest holds the answer's rows, rendered, in series order.
const LATEST_SQL = pagedByPosition('agri_latest');

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
    // The total counts the series in JavaScript; the page is the filter's rows in table (series) order.
    const state = await agriState(db);
    const total = state.latest.filter((row) => (bindings.dataset === null || row.dataset === bindings.dataset) &&
      (bindings.country === null || row.member_state_code === bindings.country)).length;
    const rows = params.page.offset >= total ? [] : (await db.all(LATEST_SQL[positionColumn(bindings)], { ...bindings, ...positionBindings(params.page) })).map(parsedItem);
    const page = { rows, limit: params.page.limit, offset: params.page.offset, total };
    return { endpoint: 'getLatestPrices', filters, ...pagedBody(page) };
  },
});
