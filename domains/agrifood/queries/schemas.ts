// Response schemas of the agri-food endpoints. The specification shows no bodies for them; they
// follow the shown ones: `endpoint`, the applied `filters` (unused ones null), `count` (items on this
// page), the pagination fields `limit`, `offset`, `total` (rows before paging), and `items`.
// /api/v1/datasets is the exception: the specification says it returns a JSON array of import records.
import type { JsonSchema } from '../../../queries/catalog.ts';
import { pagedBodySchema } from '../../../queries/kinds/index.ts';
import { decimalString, enumOf, integer, isoDate, listOf, nullable, object, text } from '../../../queries/shared/schema.ts';
import { AGRIFOOD_DATASETS } from './tables.ts';

/** Prices keep the source's precision: at least two decimals, at most four. */
export const priceString: JsonSchema = { type: 'string', pattern: '^-?\\d+\\.\\d{2,4}$', description: 'exact decimal string, 2 to 4 decimals' };
const datasetId = enumOf(...AGRIFOOD_DATASETS);
const isoTimestamp: JsonSchema = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$', description: 'UTC timestamp' };

export const importRecord = {
  dataset: datasetId,
  source: text,
  source_file: text,
  source_url: nullable(text),
  file_hash: { type: 'string', pattern: '^[0-9a-f]{64}$' } as JsonSchema,
  import_date: isoTimestamp,
  row_count: integer,
};

export const priceItem = object({
  dataset: datasetId,
  commodity_id: text,
  product_name: text,
  product_code: nullable(text),
  product_type: nullable(text),
  pig_class: nullable(text),
  member_state_code: text,
  member_state_name: text,
  market_name: nullable(text),
  market_code: nullable(text),
  stage_name: nullable(text),
  stage_code: nullable(text),
  begin_date: isoDate,
  end_date: nullable(isoDate),
  week_number: nullable(integer),
  marketing_year: nullable(text),
  reference_period: nullable(text),
  unit: nullable(text),
  price: nullable(priceString),
});

const seriesFields = {
  dataset: datasetId,
  commodity_id: text,
  product_name: text,
  product_type: nullable(text),
  pig_class: nullable(text),
  member_state_code: text,
  member_state_name: text,
  market_name: nullable(text),
  stage_name: nullable(text),
  unit: nullable(text),
};

export const datasetsResponse: JsonSchema = {
  ...listOf(object({ ...importRecord, versions: integer })),
  description: 'The latest import record of each imported dataset (the one its facts come from), with the number of import versions.',
};

export const datasetDetailResponse: JsonSchema = object({
  endpoint: { const: 'getDataset' },
  dataset: datasetId,
  current: nullable(object({ ...importRecord, version: integer })),
  facts: object({
    rows: integer,
    priced_rows: integer,
    commodities: integer,
    countries: integer,
    first_date: nullable(isoDate),
    last_date: nullable(isoDate),
  }),
  count: integer,
  results: listOf(object({ ...importRecord, version: integer, is_current: { type: 'boolean' } })),
});

export const commoditiesResponse = pagedBodySchema(
  'listCommodities',
  { dataset: nullable(datasetId), q: nullable(text) },
  object({
    commodity_id: text,
    dataset: datasetId,
    product_name: text,
    product_code: nullable(text),
    product_type: nullable(text),
    pig_class: nullable(text),
    units: listOf(text),
    country_count: integer,
    observations: integer,
    priced_observations: integer,
    first_date: isoDate,
    last_date: isoDate,
  }),
);

const commodityBlock = object({
  commodity_id: text,
  dataset: datasetId,
  product_name: text,
  product_code: nullable(text),
  product_type: nullable(text),
  pig_class: nullable(text),
});
const commodityFilters = { country: nullable(text), date_from: nullable(isoDate), date_to: nullable(isoDate) };

export const commodityPricesResponse = pagedBodySchema('getCommodityPrices', commodityFilters, priceItem, {
  commodity: commodityBlock,
  order: { const: 'begin_date DESC' },
});
export const commodityHistoryResponse = pagedBodySchema('getCommodityHistory', commodityFilters, priceItem, {
  commodity: commodityBlock,
  order: { const: 'begin_date ASC' },
});

export const countriesResponse = pagedBodySchema(
  'listCountries',
  { dataset: nullable(datasetId) },
  object({
    code: text,
    name: text,
    datasets: listOf(datasetId),
    observations: integer,
    first_date: isoDate,
    last_date: isoDate,
  }),
);

export const pricesResponse = pagedBodySchema(
  'listPrices',
  {
    dataset: nullable(datasetId),
    country: nullable(text),
    commodity: nullable(text),
    commodity_ids: nullable(listOf(text)),
    date: nullable(isoDate),
    date_from: nullable(isoDate),
    date_to: nullable(isoDate),
    market: nullable(text),
    period: nullable(text),
    unit: nullable(text),
    stage: nullable(text),
    product_type: nullable(text),
    pig_class: nullable(text),
  },
  priceItem,
);

export const changeItem = object({
  metric: { const: 'price' },
  ...seriesFields,
  period: isoDate,
  previous_period: isoDate,
  week_number: nullable(integer),
  marketing_year: nullable(text),
  previous_value: priceString,
  current_value: priceString,
  absolute_change: priceString,
  percentage_change: nullable(decimalString),
});

export const changesResponse = pagedBodySchema('getPriceChanges', { dataset: nullable(datasetId), country: nullable(text) }, changeItem);

export const anomaliesResponse = pagedBodySchema(
  'getPriceAnomalies',
  { min_percent: { type: 'number' }, z: { type: 'number' }, dataset: nullable(datasetId), country: nullable(text) },
  object({
    ...seriesFields,
    begin_date: isoDate,
    week_number: nullable(integer),
    marketing_year: nullable(text),
    price: priceString,
    previous_value: nullable(priceString),
    previous_period: nullable(isoDate),
    percent_change: nullable(decimalString),
    zscore: nullable(decimalString),
    series_mean: decimalString,
    series_stddev: decimalString,
    series_observations: integer,
    reasons: listOf(enumOf('percent_change', 'zscore')),
  }),
);

export const latestResponse = pagedBodySchema(
  'getLatestPrices',
  { dataset: nullable(datasetId), country: nullable(text) },
  object({
    ...seriesFields,
    begin_date: isoDate,
    end_date: nullable(isoDate),
    week_number: nullable(integer),
    marketing_year: nullable(text),
    price: priceString,
    previous_value: nullable(priceString),
    previous_period: nullable(isoDate),
    absolute_change: nullable(priceString),
    percentage_change: nullable(decimalString),
    observations: integer,
  }),
);
