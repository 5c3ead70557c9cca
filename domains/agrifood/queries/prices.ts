// /api/v1/prices: the union of the three datasets' price rows, filtered, newest first.
import type { Row } from '../../../engine/json.ts';
import { defineRoute } from '../../../queries/catalog.ts';
import { pagedBody, pagedList, type Resolved } from '../../../queries/kinds/index.ts';
import { beginDateWindow, commodityFilter, country, dataset, exactDate, period, textFilter } from './params.ts';
import { pricePage } from './priceList.ts';
import { pricesResponse } from './schemas.ts';

const pricesInputs = {
  dataset: dataset('dataset'),
  country,
  commodity: commodityFilter,
  date: exactDate,
  window: beginDateWindow({ from: '2026-01-01', to: '2026-03-31' }),
  market: textFilter('market', 'Market name or code, any case (Rouen, National Average).', 'Rouen'),
  period,
  unit: textFilter('unit', 'Unit as published, any case (Tonne, 100KG, national currency/ton).', 'Tonne'),
  stage: textFilter('stage', 'Stage name or code, any case (Free on board, FOB, DELPROC).', 'FOB'),
  productType: textFilter('product_type', 'Oilseed product type, any case (Standard, N.A.).', 'Standard'),
  pigClass: textFilter('pig_class', 'Pig class, any case (S, E, R, Piglet).', 'E'),
  page: pagedList(),
};

export const listPrices = defineRoute<Resolved<typeof pricesInputs>>({
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
  params: {},
  inputs: pricesInputs,
  response: pricesResponse,
  listRows: (body) => body.items as Row[],
  async handle(params, { db }) {
    const { dataset, date, window, market, period, unit, stage, productType, pigClass } = params;
    const country = params.country?.code ?? null;
    const commodities = params.commodity?.ids ?? null;
    const filters = {
      dataset,
      country,
      commodity: params.commodity?.text ?? null,
      commodity_ids: commodities,
      date,
      date_from: window.from,
      date_to: window.to,
      market,
      period: period === null ? null : period.marketingYear ?? String(period.weekNumber),
      unit,
      stage,
      product_type: productType,
      pig_class: pigClass,
    };
    const filter = {
      dataset, country, commodities, date, dateFrom: window.from, dateTo: window.to, market, period, unit, stage, productType, pigClass,
    };
    return { endpoint: 'listPrices', filters, ...pagedBody(await pricePage(db, filter, params.page, 'ASC')) };
  },
});
