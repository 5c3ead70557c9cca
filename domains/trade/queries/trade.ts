// Customs trade facts: /api/v1/trade (the published rows), /api/v1/trade/balance (exports minus
// imports on value, per period) and /api/v1/trade/partners (partners ranked, WORLD as the share
// denominator, aggregates left out).
import type { Row } from '../../../engine/json.ts';
import { defineRoute } from '../../../queries/catalog.ts';
import { pagedBody, pagedList, plain, type PeriodWindow, type Resolved } from '../../../queries/kinds/index.ts';
import { FLOW_NAMES, WORLD } from './codes.ts';
import {
  flow, partner, PARTNERS_LIMIT_DEFAULT, periodsWindow, product, reporter, requiredProduct, requiredReporter, tradePeriod, type TradePeriod,
} from './params.ts';
import { copyFor, givenKeys, ITEM_COLUMN, pageOfLocated, pageOfShape, parsedItems, usedBindings } from './paging.ts';
import { declarePositions, locatePage, type PositionSpec } from './positions.ts';
import { balanceResponse, partnersResponse, tradeResponse } from './schemas.ts';
import { TRADE_BALANCE_COLUMNS, TRADE_LIST } from './shapes.ts';

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

/** trade_list's filter columns held per database (positions.ts); flow as its text ('1', '2'). */
const TRADE_LIST_POSITIONS: PositionSpec = declarePositions({
  table: 'trade_list', codes: ['reporter', 'product', 'partner', 'flow'], days: ['period_start', 'period_end'], groupBy: ['reporter', 'product'],
});

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
    const query = {
      table: copyFor(TRADE_LIST, givenKeys({ reporter, partner, product, flow })),
      columns: ITEM_COLUMN,
      conditions: tradeListConditions({ reporter, partner, product, flow }, window),
      bindings: { reporter, partner, product, flow, ...windowBindings(window) },
    };
    // A reporter or product: its rows' positions are held, so the page is located without a count.
    const located = reporter === null && product === null ? null : await locatePage(db, TRADE_LIST_POSITIONS, {
      equals: [
        ...(reporter === null ? [] : [['reporter', [reporter]] as const]),
        ...(product === null ? [] : [['product', [product]] as const]),
        ...(partner === null ? [] : [['partner', [partner]] as const]),
        ...(flow === null ? [] : [['flow', [String(flow)]] as const]),
      ],
      atLeast: window.from === null ? [] : [['period_start', window.from]],
      atMost: window.to === null ? [] : [['period_end', window.to]],
    }, params.page);
    return {
      endpoint: 'listTrade',
      filters: { reporter, partner, product, flow: flow === null ? null : FLOW_NAMES[flow], date_from: window.from, date_to: window.to },
      ...pagedBody(parsedItems(located === null ? await pageOfShape(db, query, params.page) : await pageOfLocated(db, query, params.page, located))),
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

/** The market's rows of trade_partner_periods in the selection (given periods), values as the decimals' text. */
const PARTNER_ROWS_COLUMNS = 'partner, flow, period, CAST(value AS VARCHAR) AS value, CAST(quantity AS VARCHAR) AS quantity';
function partnerRowsSql(options: { latest: boolean; flow: boolean }): string {
  const market = `reporter = $reporter AND product = $product${options.flow ? ' AND flow = $flow' : ''}`;
  // The latest period is found among the market's rows (partnerSelection): every period of them, with its frequency.
  return options.latest
    ? `SELECT freq, ${PARTNER_ROWS_COLUMNS} FROM trade_partner_periods WHERE ${market}`
    : `SELECT ${PARTNER_ROWS_COLUMNS} FROM trade_partner_periods
        WHERE ${market} AND freq = $freq AND period_start >= CAST($from AS DATE) AND period_end <= CAST($to AS DATE)`;
}

interface PartnerRow {
  partner: string;
  flow: number;
  period: string;
  value: string | null;
  quantity: string | null;
}

/**
 * The latest period of the market's rows: annual when there is one (the first frequency in order),
 * its newest period (a period's text orders as its dates do). The rows of that period.
 */
function latestPeriodRows(rows: readonly Row[]): { freq: string | null; rows: Row[] } {
  let freq: string | null = null;
  for (const row of rows) if (freq === null || String(row.freq) < freq) freq = String(row.freq);
  let newest: string | null = null;
  for (const row of rows) if (row.freq === freq && (newest === null || String(row.period) > newest)) newest = String(row.period);
  return { freq, rows: rows.filter((row) => row.freq === freq && row.period === newest) };
}

/** An exact decimal's text (DECIMAL(38,2) as DuckDB renders it) as a count of hundredths, and back. */
function hundredths(text: string): bigint {
  const negative = text.startsWith('-');
  const [whole, fraction = ''] = (negative ? text.slice(1) : text).split('.');
  const units = BigInt(whole + `${fraction}00`.slice(0, 2));
  return negative ? -units : units;
}
function decimalOf(units: bigint | null): string | null {
  if (units === null) return null;
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(3, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}
const roundHalfAway = (x: number) => (x < 0 ? -Math.round(-x) : Math.round(x));

/**
 * DuckDB's CAST(round(part / nullif(whole, 0) * 100, 2) AS DECIMAL(38,2)) on two DECIMAL(38,2) sums: the
 * division is in doubles (each decimal converted as its hundredths over 100), round() is half away from
 * zero at two places, and the cast rounds the same way.
 */
function percentOf(part: bigint | null, whole: bigint | null): string | null {
  if (part === null || whole === null || whole === 0n) return null;
  const ratio = (Number(part) / 100) / (Number(whole) / 100) * 100;
  return decimalOf(BigInt(roundHalfAway(roundHalfAway(ratio * 100) / 100 * 100)));
}

/** A sum that is null when one of its parts is (confidential): never a partial total; null without parts. */
class CompleteSum {
  private total = 0n;
  private parts = 0;
  private missing = false;
  add(text: string | null): void {
    this.parts++;
    if (text === null) this.missing = true;
    else this.total += hundredths(text);
  }
  get value(): bigint | null {
    return this.parts === 0 || this.missing ? null : this.total;
  }
}

/** WORLD and the aggregates (EXT_/INT_ groupings, EU/EA/EFTA areas): never ranked (isAggregatePartnerSql). */
const isAggregatePartner = (partner: string) => partner === WORLD || /^(EXT_|INT_)/.test(partner) || /^(EU|EA|EFTA)[0-9_]*$/.test(partner);

/** Byte order of codes, as DuckDB orders text. */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** Descending, nulls last (null when neither differs). */
function descendingNullsLast(a: bigint | null, b: bigint | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a > b ? -1 : a < b ? 1 : 0;
}

/**
 * The partners answer from the selection's rows: each partner's sums (complete or null) with the WORLD
 * totals beside them, the listed (non-aggregate) partners ranked by the sort key (nulls last, then
 * code), the page of them, the data-quality figures and the periods summed.
 */
function partnersAnswer(rows: readonly PartnerRow[], sort: 'value' | 'quantity' | 'share', page: { limit: number; offset: number }) {
  const byPartner = new Map<string, { value: CompleteSum; quantity: CompleteSum; imports: CompleteSum; exports: CompleteSum; periods: Set<string> }>();
  const periods = new Set<string>();
  for (const row of rows) {
    let sums = byPartner.get(row.partner);
    if (!sums) {
      sums = { value: new CompleteSum(), quantity: new CompleteSum(), imports: new CompleteSum(), exports: new CompleteSum(), periods: new Set() };
      byPartner.set(row.partner, sums);
    }
    sums.value.add(row.value);
    sums.quantity.add(row.quantity);
    (row.flow === 1 ? sums.imports : sums.exports).add(row.value);
    sums.periods.add(row.period);
    periods.add(row.period);
  }
  const world = byPartner.get(WORLD);
  const worldValue = world ? world.value.value : null;
  const worldQuantity = world ? world.quantity.value : null;
  const listed = [...byPartner].filter(([partner]) => !isAggregatePartner(partner)).map(([partner, sums]) => ({
    partner, value: sums.value.value, quantity: sums.quantity.value, imports: sums.imports.value, exports: sums.exports.value, periods: sums.periods.size,
  }));
  const key = (p: (typeof listed)[number]) => (sort === 'quantity' ? p.quantity : p.value);
  listed.sort((a, b) => descendingNullsLast(key(a), key(b)) || byBytes(a.partner, b.partner));
  const sumOf = (values: Array<bigint | null>) => values.reduce<bigint | null>((total, v) => (v === null ? total : (total ?? 0n) + v), null);
  const listedValue = sumOf(listed.map((p) => p.value));
  const listedQuantity = sumOf(listed.map((p) => p.quantity));
  const items: Row[] = listed.slice(page.offset, page.offset + page.limit).map((p, i) => ({
    rank: page.offset + i + 1,
    partner: p.partner,
    value: decimalOf(p.value),
    quantity: decimalOf(p.quantity),
    share: percentOf(p.value, worldValue),
    quantity_share: percentOf(p.quantity, worldQuantity),
    import_value: decimalOf(p.imports),
    export_value: decimalOf(p.exports),
    periods: p.periods,
  }));
  return {
    periods: [...periods].sort(byBytes),
    total: listed.length,
    items,
    dataQuality: {
      world_value: decimalOf(worldValue),
      world_quantity: decimalOf(worldQuantity),
      listed_value: decimalOf(listedValue),
      listed_quantity: decimalOf(listedQuantity),
      coverage_percent: percentOf(listedValue, worldValue),
      partners: listed.length,
      partners_missing_value: listed.filter((p) => p.value === null).length,
      excluded_aggregates: [...byPartner.keys()].filter(isAggregatePartner).sort(byBytes),
    },
  };
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
    const sql = partnerRowsSql({ latest: requested === null, flow: flow !== null });
    const fetched = await db.all(sql, usedBindings({
      reporter: country.code, product: product.code, flow, freq: requested?.freq ?? null, from: requested?.from ?? null, to: requested?.to ?? null,
    }, sql));
    const selected = requested === null ? latestPeriodRows(fetched) : { freq: requested.freq, rows: fetched };
    const answer = partnersAnswer(selected.rows as unknown as PartnerRow[], sort, page);
    return {
      endpoint: 'getTradePartners',
      reporter: country,
      product,
      selection: { freq: answer.periods.length > 0 ? selected.freq : null, periods: answer.periods },
      filters,
      data_quality: {
        ...answer.dataQuality,
        note: 'WORLD and aggregate partners are excluded from the ranking; share = partner value / WORLD value * 100.',
      },
      ...pagedBody({ rows: answer.items, limit: page.limit, offset: page.offset, total: answer.total }),
    };
  },
});
