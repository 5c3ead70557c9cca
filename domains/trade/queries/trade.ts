// Customs trade facts: /api/v1/trade (the published rows), /api/v1/trade/balance (exports minus
// imports on value, per period) and /api/v1/trade/partners (partners ranked, WORLD as the share
// denominator, aggregates left out).
import type { Database } from '../../../engine/database.ts';
import type { Row } from '../../../engine/json.ts';
import { defineRoute } from '../../../queries/catalog.ts';
import { pagedBody, pagedList, paginate, plain, type PeriodWindow, type Resolved } from '../../../queries/kinds/index.ts';
import { decimal2 } from '../../../queries/shared/sql.ts';
import { FLOW_NAMES, isAggregatePartnerSql, WORLD } from './codes.ts';
import {
  flow, partner, PARTNERS_LIMIT_DEFAULT, periodsWindow, product, reporter, requiredProduct, requiredReporter, tradePeriod, type TradePeriod,
} from './params.ts';
import { copyFor, givenKeys, pageOfShape, usedBindings } from './paging.ts';
import { balanceResponse, partnersResponse, tradeResponse } from './schemas.ts';
import { TRADE_BALANCE_COLUMNS, TRADE_LIST, TRADE_LIST_COLUMNS } from './shapes.ts';

/** Periods lying entirely inside the window: only the bounds given. */
function windowConditions(window: PeriodWindow): string[] {
  const conditions: string[] = [];
  if (window.from !== null) conditions.push('period_start >= CAST($date_from AS DATE)');
  if (window.to !== null) conditions.push('period_end <= CAST($date_to AS DATE)');
  return conditions;
}
const windowBindings = (window: PeriodWindow) => ({ date_from: window.from, date_to: window.to });

const tradeInputs = {
  reporter: reporter(['reporter', 'country']),
  partner: partner(),
  product: product(['product', 'commodity']),
  flow,
  window: periodsWindow(),
  page: pagedList(),
};

/** The conditions of a /api/v1/trade request: only the filters given, so each reaches the scan. */
function tradeListConditions(filters: { reporter: string | null; partner: string | null; product: string | null; flow: 1 | 2 | null }, window: PeriodWindow): string[] {
  const conditions: string[] = [];
  if (filters.reporter !== null) conditions.push('reporter = $reporter');
  if (filters.partner !== null) conditions.push('partner = $partner');
  if (filters.product !== null) conditions.push('product = $product');
  if (filters.flow !== null) conditions.push('flow = $flow');
  return [...conditions, ...windowConditions(window)];
}

export const listTrade = defineRoute<Resolved<typeof tradeInputs>>({
  id: 'listTrade',
  method: 'GET',
  tag: 'trade',
  paths: ['/api/v1/trade'],
  examples: ['/api/v1/trade', '/api/v1/trade?reporter=DE&partner=WORLD&product=1001&flow=import', '/api/v1/trade?country=Poland&commodity=wheat&flow=2&date_from=2020&date_to=2025&limit=20'],
  summary: 'EU customs trade facts: value and quantity per reporter, partner, product, flow and period',
  description:
    'The published Comext rows (dataset DS-045409) pivoted to one row per reporter, partner, product, flow and period: ' +
    'value in euros (VALUE_IN_EUROS) and quantity in 100 kg (QUANTITY_IN_100KG), each with its flag (c = confidential, ' +
    'value null). Annual periods are YYYY, monthly YYYY-MM. Newest period first, then annual before monthly, reporter, ' +
    'partner, product, flow. reporter (alias country) and partner are codes (or member-state names), product (alias ' +
    'commodity) an HS code or name; unknown ones are a 404. date_from/date_to keep periods lying entirely inside the window.',
  paid: true,
  params: {},
  inputs: tradeInputs,
  response: tradeResponse,
  listRows: (body) => body.items as Row[],
  async handle(params, { db }) {
    const { partner, flow, window } = params;
    const reporter = params.reporter?.code ?? null;
    const product = params.product?.code ?? null;
    return {
      endpoint: 'listTrade',
      filters: { reporter, partner, product, flow: flow === null ? null : FLOW_NAMES[flow], date_from: window.from, date_to: window.to },
      ...pagedBody(await pageOfShape(db, {
        table: copyFor(TRADE_LIST, givenKeys({ reporter, partner, product, flow })),
        columns: TRADE_LIST_COLUMNS,
        conditions: tradeListConditions({ reporter, partner, product, flow }, window),
        bindings: { reporter, partner, product, flow, ...windowBindings(window) },
      }, params.page)),
    };
  },
});

const balanceInputs = {
  country: requiredReporter(['country', 'reporter']),
  commodity: requiredProduct(['commodity', 'product']),
  partner: partner('Partner code (default WORLD, the world total), any case. Unknown ones are a 404.'),
  window: periodsWindow(),
  page: pagedList(),
};

export const getTradeBalance = defineRoute<Resolved<typeof balanceInputs>>({
  id: 'getTradeBalance',
  method: 'GET',
  tag: 'trade',
  paths: ['/api/v1/trade/balance'],
  examples: ['/api/v1/trade/balance?country=DE&commodity=1001', '/api/v1/trade/balance?reporter=RO&product=wheat&partner=EXT_EU27_2020&date_from=2020'],
  summary: 'Trade balance per period: exports minus imports on value',
  description:
    'For one country (alias reporter) and commodity (alias product), both required, and one partner (default WORLD): per ' +
    'period, imports and exports in euros and the trade balance = exports - imports (VALUE_IN_EUROS), with both quantities ' +
    'in 100 kg. A flow missing in a period (or confidential) leaves the balance null, never counted as 0. Oldest period ' +
    'first; a year published only monthly is added as the sum of its 12 months (derived_from_months).',
  paid: true,
  params: {},
  inputs: balanceInputs,
  response: balanceResponse,
  listRows: (body) => body.items as Row[],
  async handle(params, { db }) {
    const { country, commodity: product } = params;
    const partner = params.partner ?? WORLD;
    const { window } = params;
    const bindings = { reporter: country.code, product: product.code, partner, ...windowBindings(window) };
    const conditions = ['reporter = $reporter', 'product = $product', 'partner = $partner', ...windowConditions(window)];
    return {
      endpoint: 'getTradeBalance',
      country,
      commodity: product,
      filters: { country: country.code, commodity: product.code, partner, date_from: window.from, date_to: window.to },
      ...pagedBody(await pageOfShape(db, { table: 'trade_balance', columns: TRADE_BALANCE_COLUMNS, conditions, bindings }, params.page)),
    };
  },
});

const partnersInputs = {
  reporter: requiredReporter(['reporter', 'country']),
  product: requiredProduct(['product', 'commodity']),
  flow: plain<'import' | 'export' | 'both'>('flow', {
    in: ['query'],
    description: 'import, export or both (default both), any case.',
    normalize: 'lower',
    schema: { type: 'string', enum: ['import', 'export', 'both'], default: 'both' },
  }),
  period: tradePeriod,
  window: periodsWindow('period'),
  page: pagedList({ default: PARTNERS_LIMIT_DEFAULT }),
  sort: plain<'value' | 'quantity' | 'share'>('sort', {
    in: ['query'],
    description: 'value (default), quantity or share.',
    normalize: 'lower',
    schema: { type: 'string', enum: ['value', 'quantity', 'share'], default: 'value' },
  }),
};

type PartnersParams = Resolved<typeof partnersInputs>;

/** The periods a partners ranking sums over: one frequency, those lying inside from..to. */
type Selection = Pick<TradePeriod, 'freq' | 'from' | 'to'>;

/** The periods asked for: `period`, or the annual periods of the window; null: the latest period (found in SQL). */
function requestedSelection(params: PartnersParams): Selection | null {
  if (params.period !== null) return params.period;
  const { window } = params;
  // A window sums annual periods, so months and years are never counted twice.
  if (window.from !== null || window.to !== null) return { freq: 'A', from: window.from ?? '0001-01-01', to: window.to ?? '9999-12-31' };
  return null;
}

// A partner's sum is null when one of its parts is missing (confidential): never a partial total.
const complete = (column: string, filter = 'true') =>
  `CASE WHEN count(${column}) FILTER (WHERE ${filter}) = count(*) FILTER (WHERE ${filter}) THEN sum(${column}) FILTER (WHERE ${filter}) END`;

/**
 * The whole partners answer in one statement over the market's rows of trade_partner_periods: the
 * selection (given, or the latest period: annual when there is one), each partner's sums with the
 * WORLD totals beside them, the ranking of the listed (non-aggregate) partners, and one aggregate row
 * with the page, the data-quality figures and the periods summed.
 */
function partnersSql(options: { latest: boolean; flow: boolean }): string {
  const market = (alias: string) => `${alias}reporter = $reporter AND ${alias}product = $product${options.flow ? ` AND ${alias}flow = $flow` : ''}`;
  const selection = options.latest
    ? `SELECT freq, max(period_start) AS first, max(period_end) AS last FROM trade_partner_periods WHERE ${market('')} GROUP BY freq ORDER BY freq LIMIT 1`
    : 'SELECT CAST($freq AS VARCHAR) AS freq, CAST($from AS DATE) AS first, CAST($to AS DATE) AS last';
  const worldOf = (column: string) => `max(CASE WHEN partner = '${WORLD}' THEN ${column} END) OVER ()`;
  // One row per partner and period counts: with both flows, the period's first flow row.
  const onePerPeriod = options.flow ? 'true' : 't.first_flow';
  const item = ['rank', 'partner', 'value', 'quantity', 'share', 'quantity_share', 'import_value', 'export_value', 'periods'];
  return `WITH selection AS (${selection}),
  per_partner AS (
    SELECT t.partner, ${complete('value')} AS value, ${complete('quantity')} AS quantity,
      ${complete('value', 'flow = 1')} AS import_value, ${complete('value', 'flow = 2')} AS export_value,
      (count(*) FILTER (WHERE ${onePerPeriod}))::INTEGER AS periods, list(t.period) FILTER (WHERE ${onePerPeriod}) AS period_list,
      any_value(t.freq) AS freq
    FROM trade_partner_periods t, selection s
    WHERE ${market('t.')} AND t.freq = s.freq AND t.period_start >= s.first AND t.period_end <= s.last
    GROUP BY t.partner),
  with_world AS (
    SELECT *, NOT ${isAggregatePartnerSql('partner')} AS listed, ${worldOf('value')} AS world_value, ${worldOf('quantity')} AS world_quantity
      FROM per_partner),
  ranked AS (
    -- Listed partners first, so their ranks run from 1 (the aggregates' ranks are never used).
    SELECT *, row_number() OVER (ORDER BY listed DESC, CASE WHEN $sort = 'quantity' THEN quantity ELSE value END DESC NULLS LAST, partner)::INTEGER AS rank,
           ${decimal2('value / nullif(world_value, 0) * 100')} AS share, ${decimal2('quantity / nullif(world_quantity, 0) * 100')} AS quantity_share
      FROM with_world)
  SELECT any_value(freq) AS selection_freq, list_sort(list_distinct(flatten(list(period_list)))) AS selection_periods,
    (count(*) FILTER (WHERE listed))::INTEGER AS total,
    -- list_sort orders the page's structs by their first field, rank (unique).
    list_sort(list({${item.map((field) => `'${field}': ${field}`).join(', ')}})
      FILTER (WHERE listed AND rank > $page_offset AND rank <= $page_offset + $page_limit)) AS items,
    any_value(world_value) AS world_value, any_value(world_quantity) AS world_quantity,
    sum(value) FILTER (WHERE listed) AS listed_value, sum(quantity) FILTER (WHERE listed) AS listed_quantity,
    ${decimal2('sum(value) FILTER (WHERE listed) / nullif(any_value(world_value), 0) * 100')} AS coverage_percent,
    (count(*) FILTER (WHERE listed))::INTEGER AS partners,
    (count(*) FILTER (WHERE listed AND value IS NULL))::INTEGER AS partners_missing_value,
    coalesce(list_sort(list(partner) FILTER (WHERE NOT listed)), []) AS excluded_aggregates
  FROM ranked`;
}

export const getTradePartners = defineRoute<PartnersParams>({
  id: 'getTradePartners',
  method: 'GET',
  tag: 'trade',
  paths: ['/api/v1/trade/partners'],
  examples: [
    '/api/v1/trade/partners?reporter=PL&product=1001',
    '/api/v1/trade/partners?reporter=FR&product=barley&flow=export&period=2020&sort=share&limit=5',
    '/api/v1/trade/partners?country=BG&commodity=1005&flow=import&date_from=2016&date_to=2025&sort=quantity',
  ],
  summary: 'Trade partners of a reporter and product, ranked, with WORLD as the share denominator',
  description:
    'Partners of one reporter (alias country) and product (alias commodity), both required, summed over the selected ' +
    'periods and flows (flow import, export or both, default both) and ranked by value (default), quantity or share ' +
    '(share of the WORLD total value, in percent; it ranks like value). WORLD and aggregate partners (EXT_EU27_2020, ' +
    'INT_EU27_2020, EU27_2020, ...) are left out of the ranking; the WORLD totals are the share denominators and are ' +
    'reported in data_quality with the sum of the listed partners and its coverage of WORLD. Periods: period (YYYY or ' +
    'YYYY-MM), or the annual periods inside date_from/date_to, or by default the latest period (annual when published). ' +
    'A partner whose sum has a confidential part has a null value and ranks last. Ties: partner code.',
  paid: true,
  params: {},
  inputs: partnersInputs,
  response: partnersResponse,
  listRows: (body) => body.items as Row[],
  async handle(params, { db }) {
    const { reporter: country, product } = params;
    const flowChoice = params.flow ?? 'both';
    const flow = flowChoice === 'both' ? null : flowChoice === 'import' ? 1 : 2;
    const sort = params.sort ?? 'value';
    const requested = requestedSelection(params);
    const { window, page } = params;
    const filters = { reporter: country.code, product: product.code, flow: flowChoice, period: params.period?.label ?? null, date_from: window.from, date_to: window.to, sort };
    const sql = partnersSql({ latest: requested === null, flow: flow !== null });
    const [quality] = await db.all(sql, usedBindings({
      reporter: country.code, product: product.code, flow, freq: requested?.freq ?? null, from: requested?.from ?? null, to: requested?.to ?? null,
      sort, page_limit: page.limit, page_offset: page.offset,
    }, sql));
    const periods = (quality.selection_periods ?? []) as string[];
    const items = (quality.items ?? []) as Row[];
    return {
      endpoint: 'getTradePartners',
      reporter: country,
      product,
      selection: { freq: periods.length > 0 ? quality.selection_freq : null, periods },
      filters,
      data_quality: {
        world_value: quality.world_value,
        world_quantity: quality.world_quantity,
        listed_value: quality.listed_value,
        listed_quantity: quality.listed_quantity,
        coverage_percent: quality.coverage_percent,
        partners: quality.partners,
        partners_missing_value: quality.partners_missing_value,
        excluded_aggregates: quality.excluded_aggregates,
        note: 'WORLD and aggregate partners are excluded from the ranking; share = partner value / WORLD value * 100.',
      },
      ...pagedBody({ rows: items, limit: page.limit, offset: page.offset, total: Number(quality.total) }),
    };
  },
});
