// /api/v1/prices: the union of the three datasets' price rows, filtered, newest first.
import type { Row } from '../../../engine/json.ts';
import { defineRoute, type ParamSpec } from '../../../queries/catalog.ts';
import { pageOf, paginate, paginationParams, type PageParams } from '../../../queries/shared/pagination.ts';
import { parsePeriod, PRICE_FILTER_SQL, PRICE_ITEM_SQL, priceFilterBindings } from './filters.ts';
import {
  aliasCheck, aliasValue, countryParam, datasetParam, isoDateChecks, isoDateParam, parseIsoDate, resolveCommodityFilter,
  resolveCountry, resolveDataset,
} from './params.ts';
import { pricesResponse } from './schemas.ts';

const text = (description: string, example: string): ParamSpec => ({
  in: ['query'],
  description,
  schema: { type: 'string', minLength: 1, maxLength: 200, examples: [example] },
});

const COMMODITY_ALIASES = ['commodity', 'product'] as const;
const commodityDescription =
  'A commodity id (cereals_prices:Feed barley), or a product name or pig class, any case (every commodity of that name). ' +
  'Unknown ones are a 404.';

interface PricesParams extends PageParams {
  dataset?: string;
  country?: string;
  commodity?: string;
  product?: string;
  date?: string;
  date_from?: string;
  date_to?: string;
  market?: string;
  period?: string;
  unit?: string;
  stage?: string;
  product_type?: string;
  pig_class?: string;
}

const SQL = `SELECT ${PRICE_ITEM_SQL} FROM agri_prices WHERE ${PRICE_FILTER_SQL} ORDER BY price_order`;

export const listPrices = defineRoute<PricesParams>({
  id: 'listPrices',
  method: 'GET',
  tag: 'agrifood',
  paths: ['/api/v1/prices'],
  examples: [
    '/api/v1/prices',
    '/api/v1/prices?dataset=cereals_prices&country=FR&commodity=Feed%20barley&date_from=2026-01-01&date_to=2026-03-31',
    '/api/v1/prices?product=Rapeseed&period=2025/2026&market=Rouen&stage=DELPROC&limit=5',
    '/api/v1/prices?dataset=pigmeat_prices&pig_class=E&date=2026-11-09',
    '/api/v1/prices?country=Bulgaria&product_type=Standard&unit=EUR/t&limit=10&offset=20',
  ],
  summary: 'Agri-food price rows (cereals, oilseeds, pigmeat), filtered',
  description:
    'The price rows of the three datasets (only the latest import of each), newest begin_date first; ties by dataset, ' +
    'commodity, member state, market, stage, unit and file position. Filters (all optional, combined with AND): dataset; ' +
    'country (member state code or name); commodity (alias product: a commodity id, or a product name or pig class); ' +
    'date (exact begin_date), date_from and date_to (ISO dates bounding begin_date); market (name or code), stage ' +
    '(stage name or code; the oilseed marketStage), unit, product_type, pig_class (exact, any case); period (a week number ' +
    '1..53, or a marketing year such as 2025/2026). Unknown dataset, country or commodity: 404.',
  paid: true,
  params: {
    dataset: datasetParam,
    country: countryParam,
    commodity: text(commodityDescription, 'Feed barley'),
    product: text('Alias of commodity.', 'Feed barley'),
    date: isoDateParam('Exact begin_date.', '2026-11-09'),
    date_from: isoDateParam('First begin_date, inclusive.', '2026-01-01'),
    date_to: isoDateParam('Last begin_date, inclusive.', '2026-03-31'),
    market: text('Market name or code, any case (Rouen, National Average).', 'Rouen'),
    period: text('Week number (1..53) or marketing year (2025/2026).', '2025/2026'),
    unit: text('Unit as published, any case (Tonne, 100KG, national currency/ton).', 'Tonne'),
    stage: text('Stage name or code, any case (Free on board, FOB, DELPROC).', 'FOB'),
    product_type: text('Oilseed product type, any case (Standard, N.A.).', 'Standard'),
    pig_class: text('Pig class, any case (S, E, R, Piglet).', 'E'),
    ...paginationParams,
  },
  checks: [aliasCheck(COMMODITY_ALIASES), isoDateChecks(['date', 'date_from', 'date_to'])],
  response: pricesResponse,
  listRows: (body) => body.items as Row[],
  async handle(params, { db }) {
    const trimmed = (value: string | undefined) => value?.trim() || null;
    const dataset = resolveDataset(params.dataset);
    const country = await resolveCountry(db, params.country);
    const commodity = aliasValue(params, COMMODITY_ALIASES);
    const commodities = await resolveCommodityFilter(db, commodity, params.commodity !== undefined ? 'commodity' : 'product');
    const period = parsePeriod(params.period);
    const date = params.date === undefined ? null : parseIsoDate(params.date, 'date');
    const filters = {
      dataset,
      country,
      commodity: commodity ?? null,
      commodity_ids: commodities,
      date,
      date_from: trimmed(params.date_from),
      date_to: trimmed(params.date_to),
      market: trimmed(params.market),
      period: period === null ? null : period.marketingYear ?? String(period.weekNumber),
      unit: trimmed(params.unit),
      stage: trimmed(params.stage),
      product_type: trimmed(params.product_type),
      pig_class: trimmed(params.pig_class),
    };
    const bindings = priceFilterBindings({
      dataset, country, commodities, date, dateFrom: filters.date_from, dateTo: filters.date_to, market: filters.market, period,
      unit: filters.unit, stage: filters.stage, productType: filters.product_type, pigClass: filters.pig_class,
    });
    const page = await paginate(db, SQL, bindings, pageOf(params));
    return { endpoint: 'listPrices', filters, count: page.rows.length, limit: page.limit, offset: page.offset, total: page.total, items: page.rows };
  },
});
