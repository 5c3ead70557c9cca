// /api/v1/changes: period-to-period (LAG) changes per series. Without `dataset`: the annual market
// series of a country and HS product (metric price, imports, exports, trade_balance; WORLD partner).
// With `dataset`: the agri-food weekly price LAG changes of that dataset. Missing values are skipped,
// never taken as 0: each change compares two observed values (previous_period says which).
import type { Row } from '../../../engine/json.ts';
import type { Database } from '../../../engine/database.ts';
import { requiredHeldView } from '../../../engine/held.ts';
import { defineRoute } from '../../../queries/catalog.ts';
import { aliased, knownId, pagedBody, pagedList, plain, type PageOfRows, type Resolved } from '../../../queries/kinds/index.ts';
import { invalidParameter, notFound } from '../../../queries/shared/errors.ts';
import { priceProductsOf, productAlias, PRODUCTS } from './codes.ts';
import { MARKET_CHANGES, PRICE_CHANGES } from './marketShapes.ts';
import { copyFor, givenKeys, inList, ITEM_COLUMN, pageOfShape, parsedItems } from './paging.ts';
import { periodsWindow, reporter, resolveProduct, yearRange } from './params.ts';
import { changesResponse } from './schemas.ts';
import { MARKET_METRICS } from './tables.ts';

const AGRIFOOD_DATASETS = ['cereals_prices', 'oilseeds_prices', 'pigmeat_prices'] as const;


const changesInputs = {
  country: reporter(['country', 'reporter']),
  /** The commodity text: its meaning depends on dataset (an HS product, or agri-food commodities). */
  commodity: aliased({
    names: ['commodity', 'product'],
    describe: (name) =>
      name === 'commodity' ? 'HS product code or name (1001, wheat, ...); with dataset a commodity id, product name or pig class. Alias: product.' : 'Alias of commodity.',
    example: '1001',
    maxLength: 300,
    resolve: (text, param) => ({ text, param }),
  }),
  window: periodsWindow(),
  metric: plain<(typeof MARKET_METRICS)[number]>('metric', {
    in: ['query'],
    description: 'price, imports, exports or trade_balance (default: all four). With dataset only price.',
    normalize: 'lower',
    schema: { type: 'string', enum: [...MARKET_METRICS] },
  }),
  dataset: knownId({
    name: 'dataset',
    ids: AGRIFOOD_DATASETS,
    description: `Agri-food dataset (${AGRIFOOD_DATASETS.join(', ')}): routes the request to its weekly price LAG changes. Unknown ones are a 404.`,
    plural: 'datasets',
  }),
  page: pagedList(),
};

export const getChanges = defineRoute<Resolved<typeof changesInputs>>({
  id: 'getChanges',
  method: 'GET',
  tag: 'trade',
  paths: ['/api/v1/changes'],
  examples: [
    '/api/v1/changes',
    '/api/v1/changes?country=PL&commodity=1001&metric=imports',
    '/api/v1/changes?reporter=RO&product=wheat&metric=price&date_from=2020&date_to=2025',
    '/api/v1/changes?dataset=cereals_prices&country=RO&commodity=Breadmaking%20common%20wheat&date_from=2022-01-01&date_to=2022-06-30',
  ],
  summary: 'Period-to-period (LAG) changes of prices and trade per series',
  description:
    'Without dataset: the annual market series of each country (reporter) and HS product - price (average annual ' +
    'agri-food price, euros per tonne), imports, exports and trade_balance (WORLD partner, euros) - with, for each year, ' +
    'previous_value (the previous observed year), current_value, absolute_change and percentage_change (null when the ' +
    'previous value is 0). Missing years are skipped, never taken as 0. Newest year first, then country, commodity, ' +
    'metric. With dataset (cereals_prices, oilseeds_prices, pigmeat_prices) the request is routed to the agri-food weekly ' +
    'price LAG changes of that dataset (series: commodity, member state, market, stage, unit); commodity is then a ' +
    'commodity id, product name or pig class (for cereals also an HS code or name), dates are begin_date bounds, and ' +
    'metric may only be price. Unknown countries, commodities and datasets are a 404.',
  paid: true,
  params: {},
  inputs: changesInputs,
  checks: [
    {
      name: 'datasetMetric',
      description: 'with dataset, metric may only be price',
      // Checks see the validated parameters before the kinds resolve them.
      check: ({ dataset, metric }: Record<string, unknown>) => (dataset !== undefined && metric !== undefined && metric !== 'price'
        ? invalidParameter('metric', 'with dataset the changes are agri-food prices: metric may only be price')
        : null),
    },
  ],
  response: changesResponse,
  listRows: (body) => body.items as Row[],
  async handle(params, { db }) {
    const { window, metric, dataset, commodity } = params;
    const country = params.country?.code ?? null;
    if (dataset !== null) {
      const commodities = commodity === null ? null : await agrifoodCommodities(db, dataset, commodity.text, commodity.param);
      const inCommodities = commodities === null ? null : inList('commodity', 'commodity', commodities);
      const conditions = [
        'dataset = $dataset',
        ...(country === null ? [] : ['country = $country']),
        ...(inCommodities === null ? [] : [inCommodities.sql]),
        ...(window.from === null ? [] : ['begin_date >= CAST($date_from AS DATE)']),
        ...(window.to === null ? [] : ['begin_date <= CAST($date_to AS DATE)']),
      ];
      const query = {
        table: copyFor(PRICE_CHANGES, givenKeys({ dataset, country, commodity: commodities })),
        columns: ITEM_COLUMN,
        conditions,
        bindings: { dataset, country, ...inCommodities?.bindings, date_from: window.from, date_to: window.to },
      };
      const result = parsedItems(await pageOfShape(db, query, params.page));
      return body('agrifood', { country, commodity: commodity?.text ?? null, metric: 'price', dataset, date_from: window.from, date_to: window.to }, result);
    }
    const product = commodity === null ? null : (await resolveProduct(db, commodity.text, commodity.param)).code;
    const years = yearRange(window);
    const conditions = [
      ...(country === null ? [] : ['country = $country']),
      ...(product === null ? [] : ['commodity = $product']),
      ...(metric === null ? [] : ['metric = $metric']),
      // The whole range is every year: no condition, so the page is a range of positions.
      ...(years.first === 0 && years.last === 9999 ? [] : ['year BETWEEN $first_year AND $last_year']),
    ];
    const result = parsedItems(await pageOfShape(db, {
      table: copyFor(MARKET_CHANGES, givenKeys({ country, commodity: product, metric })),
      columns: ITEM_COLUMN,
      conditions,
      bindings: { country, product, metric, first_year: years.first, last_year: years.last },
    }, params.page));
    return body('markets', { country, commodity: product, metric, dataset: null, date_from: window.from, date_to: window.to }, result);
  },
});

function body(source: 'markets' | 'agrifood', filters: Record<string, string | null>, page: PageOfRows<Row>) {
  return { endpoint: 'getChanges', source, filters, ...pagedBody(page) };
}

/** trade_price_commodities, held in JavaScript once per database (a few dozen rows): what a `commodity` value is matched against. */
const PRICE_COMMODITIES_SQL = 'SELECT dataset, commodity_id, id_lower, name_lower, class_lower FROM trade_price_commodities';
const priceCommodities = requiredHeldView({
  name: 'trade.priceCommodities',
  sql: { rows: `${PRICE_COMMODITIES_SQL} ORDER BY dataset, commodity_id` },
  key: ['dataset', 'commodity_id'],
  order: 'dataset, commodity_id',
  rowsMax: 100_000,
  bytesMax: 16 * 2 ** 20,
  build: ({ rows }) => rows.map((row) => ({
    dataset: String(row.dataset),
    commodityId: String(row.commodity_id),
    idLower: row.id_lower === null ? null : String(row.id_lower),
    nameLower: row.name_lower === null ? null : String(row.name_lower),
    classLower: row.class_lower === null ? null : String(row.class_lower),
  })),
  parity: {
    probes: 'SELECT DISTINCT dataset FROM trade_price_commodities ORDER BY dataset',
    keyed: `${PRICE_COMMODITIES_SQL} WHERE dataset = $dataset ORDER BY commodity_id`,
    answer: (held, probe) => held.filter((entry) => entry.dataset === probe.dataset).map((entry) => ({
      dataset: entry.dataset, commodity_id: entry.commodityId, id_lower: entry.idLower, name_lower: entry.nameLower, class_lower: entry.classLower,
    })),
  },
})

/**
 * The commodity ids of a dataset a `commodity` value names: a commodity id, product name or pig class
 * (any case); for cereals also an HS code or name standing for its price products. None: a 404.
 */
async function agrifoodCommodities(db: Database, dataset: string, value: string, param: string): Promise<string[]> {
  const text = value.trim().toLowerCase();
  const code = productAlias(text) ?? PRODUCTS.find((p) => p.code === text || p.name === text)?.code;
  const names = dataset === 'cereals_prices' && code ? priceProductsOf(code).map((n) => n.toLowerCase()) : [text];
  // Split on U+001F as the SQL this replaces did (string_split of the names joined by it).
  const nameSet = new Set(names.join('\u001f').split('\u001f'));
  // Neither distinct nor ordered: the ids only filter the changes.
  const ids = (await priceCommodities(db))
    .filter((row) => row.dataset === dataset && (row.idLower === text || (row.nameLower !== null && nameSet.has(row.nameLower)) || row.classLower === text))
    .map((row) => row.commodityId);
  if (ids.length === 0) throw notFound(`unknown ${param} "${value.trim()}" in ${dataset}: no commodity id, product name or pig class matches`);
  return ids;
}
