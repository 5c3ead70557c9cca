// Inputs of the trade and markets endpoints: countries (reporters), products, partners, flows, lists
// and period windows, as parameter kinds. Unknown countries, products and partners are 404s;
// malformed values are 400s naming the parameter.
import type { Database } from '../../../engine/database.ts';
import { requiredHeldView } from '../../../engine/held.ts';
import type { RouteContext } from '../../../queries/catalog.ts';
import {
  aliased, commaList, defineKind, memberState, parsePeriodBound, periodWindow, resolveMemberState, type Country,
  type Kind, type MemberStateOptions, type PeriodWindow,
} from '../../../queries/kinds/index.ts';
import { invalidParameter, notFound } from '../../../queries/shared/errors.ts';
import { findMemberState } from '../../../reference/countries.ts';
import { priceProductsOf, productAlias, PRODUCTS } from './codes.ts';

export type { Country } from '../../../queries/kinds/index.ts';

export const MARKET_Z_DEFAULT = 3;
export const MARKET_CHANGES_MIN_PERCENT = 10;
export const MARKET_ANOMALIES_MIN_PERCENT = 40;
export const PARTNERS_LIMIT_DEFAULT = 20;

const COUNTRY_TEXT = 'Reporting country: EU code (DE, EL for Greece) or English name, any case; reporter aggregates such as EU27_2020 too. Unknown ones are a 404.';
const PRODUCT_TEXT = 'Product: HS code as a string (1001, 1003, 1005) or name (wheat, barley, maize), any case. Unknown ones are a 404.';

/** "Alias: the other name." for a pair of aliases. */
const withAlias = (text: string, names: readonly string[]) => (name: string) => {
  const others = names.filter((other) => other !== name);
  return others.length > 0 ? `${text} Alias: ${others.join(', ')}.` : text;
};

/** How a country is found beyond the member states: reporter codes of the trade data, countries of the price data. */
const countryLookup: Pick<MemberStateOptions, 'lookup' | 'unknown'> = {
  lookup: async (db, text) => {
    const [row] = await db.all(
      `SELECT code, name FROM trade_country_lookup WHERE lower(code) = lower($text) OR lower(name) = lower($text)
       ORDER BY code, name NULLS LAST LIMIT 1`,
      { text },
    );
    return row ? { code: String(row.code), name: row.name === null ? null : String(row.name) } : null;
  },
  unknown: (param, text) => `unknown ${param} "${text}": not an EU member state code or name, nor a reporter of the trade data`,
};

/** A reporting country under a name and its alias (`['reporter', 'country']`). */
export const reporter = (names: readonly string[]): Kind<Country | null> => memberState({ names, describe: withAlias(COUNTRY_TEXT, names), ...countryLookup });

/** A reporting country that must be given under one of its names. */
export const requiredReporter = (names: readonly string[]): Kind<Country> =>
  memberState({ names, describe: withAlias(COUNTRY_TEXT, names), required: true, ...countryLookup });

export type Product = {
  code: string;
  name: string | null;
};

/** A product from an HS code or name (any case): the known cereals, or any code in the trade data. Otherwise a 404. */
export async function resolveProduct(db: Database, value: string, param: string): Promise<Product> {
  const text = value.trim().toLowerCase();
  if (text === '') throw invalidParameter(param, `${param} must be a product code or name`);
  const code = productAlias(text) ?? PRODUCTS.find((p) => p.code === text || p.name === text || p.description.toLowerCase() === text)?.code;
  if (code) return { code, name: PRODUCTS.find((p) => p.code === code)!.name };
  const [row] = await db.all('SELECT product FROM trade_product_codes WHERE product_lower = $text LIMIT 1', { text });
  if (!row) throw notFound(`unknown ${param} "${value.trim()}": products are HS codes such as 1001 (wheat), 1003 (barley), 1005 (maize)`);
  return { code: String(row.product), name: null };
}

interface ProductOptions {
  describe?: (name: string) => string;
  maxLength?: number;
}

const productOptions = (names: readonly string[], options: ProductOptions) => ({
  names,
  describe: options.describe ?? withAlias(PRODUCT_TEXT, names),
  example: '1001',
  maxLength: options.maxLength,
  resolve: (text: string, param: string, { db }: RouteContext) => resolveProduct(db, text, param),
});

/** A product under a name and its alias (`['product', 'commodity']`). */
export const product = (names: readonly string[], options: ProductOptions = {}): Kind<Product | null> => aliased(productOptions(names, options));

/** A product that must be given under one of its names. */
export const requiredProduct = (names: readonly string[], options: ProductOptions = {}): Kind<Product> =>
  aliased({ ...productOptions(names, options), required: true });

/** The country and product of a market path (`/markets/{country}/{commodity}`). */
export const marketPath = {
  country: memberState({
    names: ['country'],
    in: ['path'],
    describe: () => 'Country code (DE, EL, ...) or English name, any case. Unknown ones are a 404.',
    example: 'RO',
    required: true,
    ...countryLookup,
  }),
  commodity: aliased({
    names: ['commodity'],
    in: ['path'],
    required: true,
    describe: () => 'HS product code (1001, 1003, 1005) or name (wheat, barley, maize). Unknown ones are a 404.',
    example: '1001',
    resolve: async (text, param, { db }) => {
      const found = await resolveProduct(db, text, param);
      return { ...found, price_products: priceProducts(found.code) };
    },
  }),
};

interface ListOptions {
  name: string;
  description: string;
  example: string;
  required?: boolean;
  /** Fewest different items after resolution, with the 400's message. */
  atLeast?: { count: number; message: string };
}

/** A comma list of countries or products, each resolved (unknown ones are 404s), duplicates dropped. */
function resolvedList<T extends { code: string }>(options: ListOptions, resolve: (item: string, param: string, context: RouteContext) => Promise<T>): Kind<T[] | null> {
  const list = commaList(options);
  return defineKind({
    params: list.params,
    checks: list.checks,
    resolve: async (raw, context) => {
      const items = await list.resolve(raw, context);
      if (items === null) return null;
      const resolved: T[] = [];
      for (const item of items) {
        const one = await resolve(item, options.name, context);
        if (!resolved.some((r) => r.code === one.code)) resolved.push(one);
      }
      if (options.atLeast && resolved.length < options.atLeast.count) throw invalidParameter(options.name, options.atLeast.message);
      return resolved;
    },
  });
}

export const countryList = (options: ListOptions) => resolvedList(options, (item, param, { db }) => resolveMemberState(db, item, param, countryLookup));

export const productList = (options: ListOptions) => resolvedList(options, (item, param, { db }) => resolveProduct(db, item, param));

/** The partner codes of the trade data (trade_partner_codes: a few hundred), held per database: a partner is checked without a statement. */
const partnerCodes = requiredHeldView({
  name: 'trade.partnerCodes',
  sql: { rows: 'SELECT partner FROM trade_partner_codes' },
  key: ['partner'],
  order: '',
  rowsMax: 100_000,
  bytesMax: 16 * 2 ** 20,
  build: ({ rows }) => new Set(rows.map((row) => String(row.partner))),
  parity: {
    probes: `SELECT partner FROM (SELECT partner FROM trade_partner_codes UNION ALL SELECT lower(partner) FROM trade_partner_codes UNION ALL SELECT 'ZZ')
      ORDER BY hash(partner), partner LIMIT 40`,
    keyed: 'SELECT count(*) > 0 AS present FROM trade_partner_codes WHERE partner = $partner',
    answer: (codes, probe) => [{ present: codes.has(String(probe.partner)) }],
  },
});

/** A partner code present in the data (any case, member states also by name or GR); WORLD is always accepted. Otherwise a 404. */
export const partner = (description = 'Partner code (WORLD for the world total, UA, US, EXT_EU27_2020, ...), any case. Unknown ones are a 404.') =>
  aliased({
    names: ['partner'],
    describe: () => description,
    example: 'WORLD',
    maxLength: 40,
    resolve: async (value, param, { db }) => {
      const text = value.toUpperCase();
      if (text === '') throw invalidParameter(param, `${param} must be a partner code`);
      if (text === 'WORLD') return text;
      const code = findMemberState(text)?.code ?? text;
      if (!(await partnerCodes(db)).has(code)) throw notFound(`unknown ${param} "${value}": no trade with that partner code in the data`);
      return code;
    },
  });

/** `flow`: 1 or import, 2 or export (any case) -> 1 | 2. */
export const flow: Kind<1 | 2 | null> = defineKind({
  params: {
    flow: {
      in: ['query'],
      description: 'Flow: 1 or import, 2 or export (any case).',
      normalize: 'lower',
      schema: { type: 'string', enum: ['1', '2', 'import', 'export'] },
    },
  },
  resolve: (raw) => (raw.flow === undefined ? null : raw.flow === '1' || raw.flow === 'import' ? 1 : 2),
});

/** date_from / date_to as periods; a period is kept when it lies entirely inside the window. */
export const periodsWindow = (exclusiveWith?: string): Kind<PeriodWindow> =>
  periodWindow({
    describe: (bound) =>
      `${bound === 'from' ? 'First' : 'Last'} period: YYYY, YYYY-MM or YYYY-MM-DD. Periods entirely inside the window are kept ` +
      `(a year counts from ${bound === 'from' ? '1 January' : 'through 31 December'}).`,
    exclusiveWith,
  });

/** Years whose whole calendar year lies in the window. */
export function yearRange(window: PeriodWindow): { first: number; last: number } {
  const first = window.from === null ? 0 : Number(window.from.slice(0, 4)) + (window.from.slice(5) === '01-01' ? 0 : 1);
  const last = window.to === null ? 9999 : Number(window.to.slice(0, 4)) - (window.to.slice(5) === '12-31' ? 0 : 1);
  return { first, last };
}

/** One period of the partners ranking: a year (annual data) or a month (monthly data). */
export interface TradePeriod {
  label: string;
  freq: 'A' | 'M';
  from: string;
  to: string;
}

const PERIOD_LABEL = /^(\d{4})(?:-(0[1-9]|1[0-2]))?$/;

function resolveTradePeriod(raw: Record<string, unknown>): TradePeriod | null {
  if (typeof raw.period !== 'string') return null;
  const match = PERIOD_LABEL.exec(raw.period);
  if (!match) throw invalidParameter('period', 'period must be YYYY or YYYY-MM'); // the schema's pattern already refused it
  if (match[2] === undefined) return { label: match[0], freq: 'A', from: `${match[1]}-01-01`, to: `${match[1]}-12-31` };
  return { label: match[0], freq: 'M', from: `${match[1]}-${match[2]}-01`, to: parsePeriodBound(match[0], 'period', 'to') };
}

/** `period`: one year (YYYY) or month (YYYY-MM). */
export const tradePeriod: Kind<TradePeriod | null> = defineKind({
  params: {
    period: {
      in: ['query'],
      description: 'One period: YYYY or YYYY-MM. Not with date_from/date_to.',
      schema: { type: 'string', pattern: PERIOD_LABEL.source, examples: ['2024'] },
    },
  },
  resolve: resolveTradePeriod,
});

/** The price products standing for a trade product in the market views (empty for other codes). */
export function priceProducts(code: string): string[] {
  return [...priceProductsOf(code)];
}
