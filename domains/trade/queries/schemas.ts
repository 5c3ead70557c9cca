// Response schemas of the trade and markets endpoints. The specification shows no bodies for them;
// they follow the shown ones: `endpoint`, the applied `filters` (unused ones null), `count` (items on
// this page), the pagination fields `limit`, `offset`, `total` (rows before paging), and `items`.
// Money (euros), quantities (100 kg), prices (euros per tonne), percentages and z-scores are decimal
// strings with two decimals; missing values are null, never 0.
import type { JsonSchema } from '../../../queries/catalog.ts';
import { pagedBodySchema } from '../../../queries/kinds/index.ts';
import { decimalString, enumOf, integer, isoDate, listOf, nullable, object, text } from '../../../queries/shared/schema.ts';

const amount = nullable(decimalString);
/** Agri-food prices keep their precision: two to four decimals. */
const exactString: JsonSchema = { type: 'string', pattern: '^-?\\d+\\.\\d{2,4}$', description: 'exact decimal string, 2 to 4 decimals' };
const periodLabel: JsonSchema = { type: 'string', pattern: '^\\d{4}(-\\d{2})?$', description: 'YYYY (annual) or YYYY-MM (monthly)' };
const freq = enumOf('A', 'M');
const flowName = enumOf('import', 'export');
const boolean: JsonSchema = { type: 'boolean' };
const number: JsonSchema = { type: 'number' };
const year: JsonSchema = { type: 'integer', minimum: 1900, maximum: 2200 };

export const countryBlock = object({ code: text, name: nullable(text) });
export const productBlock = object({ code: text, name: nullable(text) });
const marketProductBlock = object({ code: text, name: nullable(text), price_products: listOf(text) });

const windowFilters = { date_from: nullable(isoDate), date_to: nullable(isoDate) };

export const tradeResponse = pagedBodySchema(
  'listTrade',
  { reporter: nullable(text), partner: nullable(text), product: nullable(text), flow: nullable(flowName), ...windowFilters },
  object({
    reporter: text,
    reporter_name: nullable(text),
    partner: text,
    product: text,
    product_name: nullable(text),
    flow: { type: 'integer', enum: [1, 2] },
    flow_name: flowName,
    freq,
    period: periodLabel,
    period_start: isoDate,
    period_end: isoDate,
    value: amount,
    quantity: amount,
    value_flag: nullable(text),
    quantity_flag: nullable(text),
    last_update: nullable({ type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}$' }),
  }),
);

export const balanceResponse = pagedBodySchema(
  'getTradeBalance',
  { country: text, commodity: text, partner: text, ...windowFilters },
  object({
    freq,
    period: periodLabel,
    period_start: isoDate,
    period_end: isoDate,
    imports: amount,
    exports: amount,
    trade_balance: amount,
    imports_quantity: amount,
    exports_quantity: amount,
    derived_from_months: boolean,
  }),
  { country: countryBlock, commodity: productBlock },
);

export const partnersResponse = pagedBodySchema(
  'getTradePartners',
  {
    reporter: text,
    product: text,
    flow: enumOf('import', 'export', 'both'),
    period: nullable(periodLabel),
    ...windowFilters,
    sort: enumOf('value', 'quantity', 'share'),
  },
  object({
    rank: integer,
    partner: text,
    value: amount,
    quantity: amount,
    share: amount,
    quantity_share: amount,
    import_value: amount,
    export_value: amount,
    periods: integer,
  }),
  {
    reporter: countryBlock,
    product: productBlock,
    selection: object({ freq: nullable(freq), periods: listOf(periodLabel) }),
    data_quality: object({
      world_value: amount,
      world_quantity: amount,
      listed_value: amount,
      listed_quantity: amount,
      coverage_percent: amount,
      partners: integer,
      partners_missing_value: integer,
      excluded_aggregates: listOf(text),
      note: text,
    }),
  },
);

const metric = enumOf('price', 'imports', 'exports', 'trade_balance');

export const changesResponse = pagedBodySchema(
  'getChanges',
  {
    country: nullable(text),
    commodity: nullable(text),
    metric: nullable(metric),
    dataset: nullable(text),
    ...windowFilters,
  },
  object({
    metric,
    dataset: nullable(text),
    country: text,
    country_name: nullable(text),
    commodity: text,
    commodity_name: nullable(text),
    partner: nullable(text),
    market: nullable(text),
    stage: nullable(text),
    unit: nullable(text),
    period: text,
    previous_period: text,
    previous_value: exactString,
    current_value: exactString,
    absolute_change: exactString,
    percentage_change: amount,
  }),
  { source: enumOf('markets', 'agrifood') },
);

const marketFields = {
  price: amount,
  price_observations: integer,
  imports: amount,
  exports: amount,
  trade_balance: amount,
  imports_quantity: amount,
  exports_quantity: amount,
};

export const marketResponse = object({
  endpoint: { const: 'getMarket' },
  country: countryBlock,
  commodity: marketProductBlock,
  filters: object({ year: nullable(year), ...windowFilters, partner: text, flow: nullable(flowName) }),
  period: nullable(year),
  available_periods: listOf(year),
  market: nullable(object({
    period: year,
    ...marketFields,
    previous_period: nullable(year),
    price_change: amount,
    imports_change: amount,
    exports_change: amount,
  })),
});

export const marketHistoryResponse = pagedBodySchema(
  'getMarketHistory',
  windowFilters,
  object({ period: year, ...marketFields }),
  { country: countryBlock, commodity: marketProductBlock },
);

const insightItem = object({
  metric,
  period: year,
  value: decimalString,
  previous_period: nullable(year),
  previous_value: amount,
  yoy_percent: amount,
  zscore: amount,
  is_anomaly: boolean,
});

export const marketInsightsResponse = object({
  endpoint: { const: 'getMarketInsights' },
  country: countryBlock,
  commodity: marketProductBlock,
  filters: object({ z: number }),
  series: listOf(object({
    metric,
    observations: integer,
    first_period: year,
    last_period: year,
    latest_value: decimalString,
    latest_yoy_percent: amount,
    mean: decimalString,
    largest_move: nullable(object({ period: year, yoy_percent: decimalString })),
    anomalies: integer,
  })),
  anomalies: listOf(insightItem),
  count: integer,
  items: listOf(insightItem),
});

const moveItem = {
  country: text,
  country_name: nullable(text),
  commodity: text,
  commodity_name: nullable(text),
  metric,
  period: year,
  previous_period: year,
  previous_value: decimalString,
  current_value: decimalString,
  absolute_change: decimalString,
  percent_change: amount,
};

const listFilters = { countries: nullable(listOf(text)), commodities: nullable(listOf(text)) };

export const marketChangesResponse = pagedBodySchema(
  'listMarketChanges',
  { ...listFilters, min_percent: number },
  object({ ...moveItem, direction: enumOf('up', 'down', 'flat') }),
);

export const marketAnomaliesResponse = pagedBodySchema(
  'listMarketAnomalies',
  { ...listFilters, min_percent: number, z: number },
  object({
    country: text,
    country_name: nullable(text),
    commodity: text,
    commodity_name: nullable(text),
    metric: enumOf('price', 'imports'),
    period: year,
    value: decimalString,
    previous_period: nullable(year),
    previous_value: amount,
    percent_change: amount,
    zscore: amount,
    reasons: listOf(enumOf('percent_change', 'zscore')),
  }),
);

export const compareResponse = pagedBodySchema(
  'compareMarkets',
  { countries: listOf(text), commodity: text, ...windowFilters },
  object({
    country: text,
    country_name: nullable(text),
    period: year,
    ...marketFields,
    previous_period: nullable(year),
    price_change: amount,
    imports_change: amount,
    exports_change: amount,
  }),
  { commodity: marketProductBlock, common_period: nullable(year), periods: listOf(year) },
);
