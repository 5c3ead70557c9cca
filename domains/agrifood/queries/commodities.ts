// /api/v1/commodities (search), /api/v1/commodities/{commodity_id}/prices (newest first) and
// /history (oldest first), and /api/v1/countries.
import type { Row } from '../../../engine/json.ts';
import { defineRoute } from '../../../queries/catalog.ts';
import { aliased, pagedBody, pagedList, type Resolved } from '../../../queries/kinds/index.ts';
import { windowPage } from './pages.ts';
import { beginDateWindow, commodityId, country, dataset } from './params.ts';
import { pricePage } from './priceList.ts';
import { commoditiesResponse, commodityHistoryResponse, commodityPricesResponse, countriesResponse } from './schemas.ts';

/** q (aliases commodity, product): the search text, trimmed. */
const search = aliased({
  names: ['q', 'commodity', 'product'],
  describe: (name) =>
    name === 'q' ? 'Search text: commodities whose product name or pig class contains it (any case). Aliases: commodity, product.' : 'Alias of q.',
  example: 'wheat',
  maxLength: 200,
  resolve: (text) => text,
});

const COMMODITIES_SQL = `SELECT count(*) OVER ()::INTEGER AS total, commodity_id, dataset, product_name, product_code, product_type,
    pig_class, coalesce(units, []) AS units, country_count, observations, priced_observations, first_date, last_date
  FROM agri_commodities
  WHERE (CAST($dataset AS VARCHAR) IS NULL OR dataset = $dataset)
    AND (CAST($q AS VARCHAR) IS NULL OR contains(lower(product_name), lower($q)) OR contains(lower(coalesce(pig_class, '')), lower($q)))
  ORDER BY commodity_id`;

const commoditiesInputs = { dataset: dataset('dataset'), search, page: pagedList() };

export const listCommodities = defineRoute<Resolved<typeof commoditiesInputs>>({
  id: 'listCommodities',
  method: 'GET',
  tag: 'agrifood',
  paths: ['/api/v1/commodities'],
  examples: ['/api/v1/commodities', '/api/v1/commodities?dataset=cereals_prices&q=wheat', '/api/v1/commodities?product=barley&limit=5'],
  summary: 'Agri-food commodities (products, oilseed types, pig classes), searchable',
  description:
    'One row per commodity id (cereals_prices:{product_name}, oilseeds_prices:{product_name}|{product_type}, ' +
    'pigmeat_prices:{pig_class}) with its units, number of member states, observations and date range, ordered by id. ' +
    'q (aliases commodity, product) keeps commodities whose product name or pig class contains the text, any case. ' +
    'An unknown dataset is a 404.',
  paid: true,
  params: {},
  inputs: commoditiesInputs,
  response: commoditiesResponse,
  listRows: (body) => (body.items as Row[]).map((row) => ({ ...row, units: (row.units as string[]).join('; ') })),
  async handle(params, { db }) {
    const { dataset, search: q } = params;
    const page = await windowPage(db, COMMODITIES_SQL, { dataset, q }, params.page);
    return { endpoint: 'listCommodities', filters: { dataset, q }, ...pagedBody(page) };
  },
});

const commodityPriceInputs = { commodity: commodityId, country, window: beginDateWindow({ from: '2025-01-01', to: '2025-12-31' }), page: pagedList() };

function commodityRoute(id: 'getCommodityPrices' | 'getCommodityHistory') {
  const newestFirst = id === 'getCommodityPrices';
  return defineRoute<Resolved<typeof commodityPriceInputs>>({
    id,
    method: 'GET',
    tag: 'agrifood',
    paths: [`/api/v1/commodities/{commodity_id}/${newestFirst ? 'prices' : 'history'}`],
    examples: newestFirst
      ? [`/api/v1/commodities/${encodeURIComponent('cereals_prices:Feed barley')}/prices?country=BG&limit=10`,
        `/api/v1/commodities/${encodeURIComponent('oilseeds_prices:Rapeseed|N.A.')}/prices?date_from=2026-01-01&date_to=2026-06-30`]
      : [`/api/v1/commodities/${encodeURIComponent('pigmeat_prices:E')}/history?country=Germany&date_from=2020-06-01&date_to=2020-12-31`,
        `/api/v1/commodities/${encodeURIComponent('cereals_prices:Feed maize')}/history?country=hu&limit=20&offset=100`],
    summary: newestFirst ? 'Weekly prices of one commodity, newest first' : 'Price history of one commodity, oldest first',
    description:
      `Every price row of the commodity (all member states, markets, stages and units unless country is given), ` +
      `${newestFirst ? 'newest begin_date first' : 'begin_date ascending (oldest first)'}; ties by dataset, commodity, member ` +
      'state, market, stage, unit and file position. Rows the portal published without a price have price null. ' +
      'country is a member state code or name; date_from/date_to are ISO dates bounding begin_date. An unknown ' +
      'commodity or country is a 404.',
    paid: true,
    params: {},
    inputs: commodityPriceInputs,
    response: newestFirst ? commodityPricesResponse : commodityHistoryResponse,
    listRows: (body) => body.items as Row[],
    async handle(params, { db }) {
      const { commodity } = params;
      const country = params.country?.code ?? null;
      const { from, to } = params.window;
      const filter = { dataset: String(commodity.dataset), commodities: [String(commodity.commodity_id)], country, dateFrom: from, dateTo: to };
      return {
        endpoint: id,
        commodity,
        order: newestFirst ? 'begin_date DESC' : 'begin_date ASC',
        filters: { country, date_from: from, date_to: to },
        ...pagedBody(await pricePage(db, filter, params.page, newestFirst ? 'ASC' : 'DESC')),
      };
    },
  });
}

export const getCommodityPrices = commodityRoute('getCommodityPrices');
export const getCommodityHistory = commodityRoute('getCommodityHistory');

const COUNTRIES_SQL = `SELECT count(*) OVER ()::INTEGER AS total, code, name, datasets, observations, first_date, last_date
  FROM agri_countries
  WHERE CAST($dataset AS VARCHAR) IS NULL OR list_contains(datasets, $dataset)
  ORDER BY code`;

const countriesInputs = { dataset: dataset('dataset'), page: pagedList() };

export const listCountries = defineRoute<Resolved<typeof countriesInputs>>({
  id: 'listCountries',
  method: 'GET',
  tag: 'agrifood',
  paths: ['/api/v1/countries'],
  examples: ['/api/v1/countries', '/api/v1/countries?dataset=oilseeds_prices&limit=3'],
  summary: 'Member states with agri-food prices',
  description:
    'The member states (code, name) present in the price data, ordered by code, with the datasets they appear in, their ' +
    'number of price rows and date range. dataset keeps the countries present in that dataset; an unknown dataset is a 404.',
  paid: true,
  params: {},
  inputs: countriesInputs,
  response: countriesResponse,
  listRows: (body) => (body.items as Row[]).map((row) => ({ ...row, datasets: (row.datasets as string[]).join('; ') })),
  async handle(params, { db }) {
    const { dataset } = params;
    const page = await windowPage(db, COUNTRIES_SQL, { dataset }, params.page);
    return { endpoint: 'listCountries', filters: { dataset }, ...pagedBody(page) };
  },
});
