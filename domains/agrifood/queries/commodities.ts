// /api/v1/commodities (search), /api/v1/commodities/{commodity_id}/prices (newest first) and
// /history (oldest first), and /api/v1/countries.
import type { Row } from '../../../engine/json.ts';
import { defineRoute, type ParamSpec } from '../../../queries/catalog.ts';
import { pageOf, paginate, paginationParams, type PageParams } from '../../../queries/shared/pagination.ts';
import { PRICE_FILTER_SQL, PRICE_ITEM_SQL, priceFilterBindings } from './filters.ts';
import {
  aliasCheck, aliasValue, commodityIdPathParam, countryParam, datasetParam, isoDateChecks, isoDateParam, resolveCommodityId,
  resolveCountry, resolveDataset,
} from './params.ts';
import { commoditiesResponse, commodityHistoryResponse, commodityPricesResponse, countriesResponse } from './schemas.ts';

const SEARCH_ALIASES = ['q', 'commodity', 'product'] as const;
const searchParam = (name: string): ParamSpec => ({
  in: ['query'],
  description:
    name === 'q'
      ? 'Search text: commodities whose product name or pig class contains it (any case). Aliases: commodity, product.'
      : 'Alias of q.',
  schema: { type: 'string', minLength: 1, maxLength: 200, examples: ['wheat'] },
});

const COMMODITIES_SQL = `SELECT commodity_id, dataset, product_name, product_code, product_type, pig_class,
    coalesce(units, []) AS units, country_count, observations, priced_observations, first_date, last_date
  FROM agri_commodities
  WHERE (CAST($dataset AS VARCHAR) IS NULL OR dataset = $dataset)
    AND (CAST($q AS VARCHAR) IS NULL OR contains(lower(product_name), lower($q)) OR contains(lower(coalesce(pig_class, '')), lower($q)))
  ORDER BY commodity_id`;

interface CommoditiesParams extends PageParams {
  dataset?: string;
  q?: string;
  commodity?: string;
  product?: string;
}

export const listCommodities = defineRoute<CommoditiesParams>({
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
  params: { dataset: datasetParam, q: searchParam('q'), commodity: searchParam('commodity'), product: searchParam('product'), ...paginationParams },
  checks: [aliasCheck(SEARCH_ALIASES)],
  response: commoditiesResponse,
  listRows: (body) => (body.items as Row[]).map((row) => ({ ...row, units: (row.units as string[]).join('; ') })),
  async handle(params, { db }) {
    const dataset = resolveDataset(params.dataset);
    const q = aliasValue(params, SEARCH_ALIASES) ?? null;
    const page = await paginate(db, COMMODITIES_SQL, { dataset, q }, pageOf(params));
    return { endpoint: 'listCommodities', filters: { dataset, q }, count: page.rows.length, limit: page.limit, offset: page.offset, total: page.total, items: page.rows };
  },
});

interface CommodityPricesParams extends PageParams {
  commodity_id: string;
  country?: string;
  date_from?: string;
  date_to?: string;
}

const commodityPriceParams = {
  commodity_id: commodityIdPathParam,
  country: countryParam,
  date_from: isoDateParam('First begin_date, inclusive.', '2025-01-01'),
  date_to: isoDateParam('Last begin_date, inclusive.', '2025-12-31'),
  ...paginationParams,
};

function commodityRoute(id: 'getCommodityPrices' | 'getCommodityHistory') {
  const newestFirst = id === 'getCommodityPrices';
  const sql = `SELECT ${PRICE_ITEM_SQL} FROM agri_prices WHERE ${PRICE_FILTER_SQL} ORDER BY price_order ${newestFirst ? 'ASC' : 'DESC'}`;
  return defineRoute<CommodityPricesParams>({
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
    params: commodityPriceParams,
    checks: [isoDateChecks(['date_from', 'date_to'])],
    response: newestFirst ? commodityPricesResponse : commodityHistoryResponse,
    listRows: (body) => body.items as Row[],
    async handle(params, { db }) {
      const commodity = await resolveCommodityId(db, params.commodity_id);
      const country = await resolveCountry(db, params.country);
      const filters = { country, date_from: params.date_from?.trim() ?? null, date_to: params.date_to?.trim() ?? null };
      const bindings = priceFilterBindings({
        dataset: String(commodity.dataset), commodities: [String(commodity.commodity_id)], country,
        dateFrom: filters.date_from, dateTo: filters.date_to,
      });
      const page = await paginate(db, sql, bindings, pageOf(params));
      return {
        endpoint: id,
        commodity: commodity as Row,
        order: newestFirst ? 'begin_date DESC' : 'begin_date ASC',
        filters,
        count: page.rows.length,
        limit: page.limit,
        offset: page.offset,
        total: page.total,
        items: page.rows,
      };
    },
  });
}

export const getCommodityPrices = commodityRoute('getCommodityPrices');
export const getCommodityHistory = commodityRoute('getCommodityHistory');

const COUNTRIES_SQL = `SELECT code, name, datasets, observations, first_date, last_date FROM agri_countries
  WHERE CAST($dataset AS VARCHAR) IS NULL OR list_contains(datasets, $dataset) ORDER BY code`;

export const listCountries = defineRoute<PageParams & { dataset?: string }>({
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
  params: { dataset: datasetParam, ...paginationParams },
  response: countriesResponse,
  listRows: (body) => (body.items as Row[]).map((row) => ({ ...row, datasets: (row.datasets as string[]).join('; ') })),
  async handle(params, { db }) {
    const dataset = resolveDataset(params.dataset);
    const page = await paginate(db, COUNTRIES_SQL, { dataset }, pageOf(params));
    return { endpoint: 'listCountries', filters: { dataset }, count: page.rows.length, limit: page.limit, offset: page.offset, total: page.total, items: page.rows };
  },
});
