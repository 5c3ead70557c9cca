// Parameters of the trade and markets endpoints and the resolution of their values: countries
// (reporters), products, partners, flows and period windows. Unknown countries, products and partners
// are 404s; malformed values are 400s naming the parameter.
import type { Database } from '../../../engine/database.ts';
import type { CrossFieldCheck, ParamSpec } from '../../../queries/catalog.ts';
import { findMemberState } from '../../../reference/countries.ts';
import { invalidParameter, notFound, type ApiError } from '../../../queries/shared/errors.ts';
import { PRICE_PRODUCTS, PRODUCT_ALIASES, PRODUCTS } from './codes.ts';

export const MARKET_Z_DEFAULT = 3;
export const MARKET_CHANGES_MIN_PERCENT = 10;
export const MARKET_ANOMALIES_MIN_PERCENT = 40;
export const PARTNERS_LIMIT_DEFAULT = 20;

export const textParam = (description: string, example: string, maxLength = 100, location: 'query' | 'path' = 'query'): ParamSpec => ({
  in: [location],
  required: location === 'path' ? true : undefined,
  description,
  schema: { type: 'string', minLength: 1, maxLength, examples: [example] },
});

const COUNTRY_TEXT = 'Reporting country: EU code (DE, EL for Greece) or English name, any case; reporter aggregates such as EU27_2020 too. Unknown ones are a 404.';
const PRODUCT_TEXT = 'Product: HS code as a string (1001, 1003, 1005) or name (wheat, barley, maize), any case. Unknown ones are a 404.';

export const countryParam = (alias?: string) => textParam(`${COUNTRY_TEXT}${alias ? ` Alias: ${alias}.` : ''}`, 'DE');
export const productParam = (alias?: string) => textParam(`${PRODUCT_TEXT}${alias ? ` Alias: ${alias}.` : ''}`, '1001');
export const partnerParam = (description = 'Partner code (WORLD for the world total, UA, US, EXT_EU27_2020, ...), any case. Unknown ones are a 404.') =>
  textParam(description, 'WORLD', 40);
export const periodBoundParam = (bound: 'from' | 'to') =>
  textParam(
    `${bound === 'from' ? 'First' : 'Last'} period: YYYY, YYYY-MM or YYYY-MM-DD. Periods entirely inside the window are kept ` +
      `(a year counts from ${bound === 'from' ? '1 January' : 'through 31 December'}).`,
    bound === 'from' ? '2020' : '2025',
    10,
  );
export const thresholdParam = (description: string, fallback: number): ParamSpec => ({
  in: ['query'],
  description,
  schema: { type: 'number', minimum: 0, maximum: 1_000_000, default: fallback },
});
export const listParam = (description: string, example: string): ParamSpec => textParam(description, example, 500);

/** Aliases of one value (`country`/`reporter`): when both are given they must agree. */
export function aliasCheck<P extends object>(names: readonly string[]): CrossFieldCheck<P> {
  return {
    name: `aliases(${names.join(',')})`,
    description: `${names.join(' and ')} are aliases: give one (or the same value)`,
    check: (input) => {
      const params = input as Record<string, unknown>;
      const given = names.filter((name) => params[name] !== undefined);
      const values = new Set(given.map((name) => String(params[name]).trim().toLowerCase()));
      return values.size > 1 ? invalidParameter(given[1], `${given.join(' and ')} are aliases of one filter and disagree; give one of them`) : null;
    },
  };
}

/** One of the aliases is required: a 400 naming the first when none is given. */
export function requiredAliasCheck<P extends object>(names: readonly string[]): CrossFieldCheck<P> {
  return {
    name: `required(${names.join('|')})`,
    description: `${names[0]} is required${names.length > 1 ? ` (alias: ${names.slice(1).join(', ')})` : ''}`,
    check: (input) => (aliasValue(input, names) === undefined ? invalidParameter(names[0], `${names[0]} is required${names.length > 1 ? ` (alias: ${names.slice(1).join(', ')})` : ''}`) : null),
  };
}

/** The first alias given, trimmed. */
export function aliasValue(input: object, names: readonly string[]): string | undefined {
  const params = input as Record<string, unknown>;
  for (const name of names) if (typeof params[name] === 'string') return (params[name] as string).trim();
  return undefined;
}

/** A required value given under one of its aliases, or a 400 naming the first alias. */
export function requireAlias(input: object, names: readonly string[]): string {
  const value = aliasValue(input, names);
  if (value === undefined) throw invalidParameter(names[0], `${names[0]} is required${names.length > 1 ? ` (alias: ${names.slice(1).join(', ')})` : ''}`);
  return value;
}

export type Country = {
  code: string;
  name: string | null;
};

/**
 * A country from a code or name: an EU member state (code or English name, any case), or a reporter
 * code of the trade data (EU27_2020), or a member state code of the price data. Otherwise a 404.
 */
export async function resolveCountry(db: Database, value: string, param: string): Promise<Country> {
  const text = value.trim();
  if (text === '') throw invalidParameter(param, `${param} must be a country code or name`);
  const state = findMemberState(text);
  if (state) return { code: state.code, name: state.name };
  const [row] = await db.all(
    `SELECT code, name FROM trade_countries WHERE lower(code) = lower($text) OR lower(name) = lower($text)
     UNION SELECT DISTINCT country, NULL FROM market_years WHERE lower(country) = lower($text)
     ORDER BY code, name NULLS LAST LIMIT 1`,
    { text },
  );
  if (!row) throw notFound(`unknown ${param} "${text}": not an EU member state code or name, nor a reporter of the trade data`);
  return { code: String(row.code), name: row.name === null ? null : String(row.name) };
}

export type Product = {
  code: string;
  name: string | null;
};

/** A product from an HS code or name (any case): the known cereals, or any code in the trade data. Otherwise a 404. */
export async function resolveProduct(db: Database, value: string, param: string): Promise<Product> {
  const text = value.trim().toLowerCase();
  if (text === '') throw invalidParameter(param, `${param} must be a product code or name`);
  const code = PRODUCT_ALIASES[text] ?? PRODUCTS.find((p) => p.code === text || p.name === text || p.description.toLowerCase() === text)?.code;
  if (code) return { code, name: PRODUCTS.find((p) => p.code === code)!.name };
  const [row] = await db.all('SELECT DISTINCT product FROM trade_facts WHERE lower(product) = $text', { text });
  if (!row) throw notFound(`unknown ${param} "${value.trim()}": products are HS codes such as 1001 (wheat), 1003 (barley), 1005 (maize)`);
  return { code: String(row.product), name: null };
}

/** Several products or countries, comma-separated; each resolved (unknown ones are 404s), duplicates dropped. */
export async function resolveList<T extends { code: string }>(value: string | undefined, param: string, resolve: (item: string) => Promise<T>): Promise<T[] | null> {
  if (value === undefined) return null;
  const items = value.split(',').map((item) => item.trim());
  if (items.some((item) => item === '')) throw invalidParameter(param, `${param} must be a comma-separated list without empty items`);
  const resolved: T[] = [];
  for (const item of items) {
    const one = await resolve(item);
    if (!resolved.some((r) => r.code === one.code)) resolved.push(one);
  }
  return resolved;
}

/** A partner code present in the data (any case); WORLD is always accepted. Otherwise a 404. */
export async function resolvePartner(db: Database, value: string | undefined, param = 'partner'): Promise<string | null> {
  if (value === undefined) return null;
  const text = value.trim().toUpperCase();
  if (text === '') throw invalidParameter(param, `${param} must be a partner code`);
  if (text === 'WORLD') return text;
  // Member-state partners may be named or spelled GR; other partners are codes as published.
  const code = findMemberState(text)?.code ?? text;
  const [row] = await db.all('SELECT DISTINCT partner FROM trade_facts WHERE partner = $code', { code });
  if (!row) throw notFound(`unknown ${param} "${value.trim()}": no trade with that partner code in the data`);
  return code;
}

export const FLOW_VALUES = ['1', '2', 'import', 'export'] as const;

/** `flow`: 1 or import, 2 or export. */
export function parseFlow(value: string | undefined): 1 | 2 | null {
  if (value === undefined) return null;
  return value === '1' || value === 'import' ? 1 : 2;
}

export const flowParam: ParamSpec = {
  in: ['query'],
  description: 'Flow: 1 or import, 2 or export (any case).',
  normalize: 'lower',
  schema: { type: 'string', enum: [...FLOW_VALUES] },
};

export interface PeriodWindow {
  /** ISO dates; null = open. */
  from: string | null;
  to: string | null;
}

const PERIOD_BOUND = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/;

/** YYYY, YYYY-MM or YYYY-MM-DD -> the first (from) or last (to) day it covers. */
export function parsePeriodBound(value: string, param: string, bound: 'from' | 'to'): string {
  const match = PERIOD_BOUND.exec(value.trim());
  const fail = (): never => {
    throw invalidParameter(param, `${param} must be a period YYYY, YYYY-MM or a date YYYY-MM-DD (got "${value}")`);
  };
  if (!match) return fail();
  const year = Number(match[1]);
  const month = match[2] === undefined ? (bound === 'from' ? 1 : 12) : Number(match[2]);
  if (year < 1 || month < 1 || month > 12) return fail();
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const day = match[3] === undefined ? (bound === 'from' ? 1 : last) : Number(match[3]);
  if (day < 1 || day > last) return fail();
  return `${match[1]}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** date_from / date_to -> a window; date_from after date_to is a 400. */
export function parsePeriodWindow(params: { date_from?: string; date_to?: string }): PeriodWindow {
  const from = params.date_from === undefined ? null : parsePeriodBound(params.date_from, 'date_from', 'from');
  const to = params.date_to === undefined ? null : parsePeriodBound(params.date_to, 'date_to', 'to');
  if (from !== null && to !== null && from > to) throw invalidParameter('date_from', `date_from (${from}) is after date_to (${to})`);
  return { from, to };
}

/** The window checks as a named cross-field check, so bad dates are 400s before anything runs. */
export const periodWindowCheck: CrossFieldCheck<{ date_from?: string; date_to?: string }> = {
  name: 'periodWindow',
  description: 'date_from and date_to are YYYY, YYYY-MM or YYYY-MM-DD; date_from <= date_to',
  check: (params) => {
    try {
      parsePeriodWindow(params);
      return null;
    } catch (error) {
      return error as ApiError;
    }
  },
};

/** Years whose whole calendar year lies in the window. */
export function yearRange(window: PeriodWindow): { first: number; last: number } {
  const first = window.from === null ? 0 : Number(window.from.slice(0, 4)) + (window.from.slice(5) === '01-01' ? 0 : 1);
  const last = window.to === null ? 9999 : Number(window.to.slice(0, 4)) - (window.to.slice(5) === '12-31' ? 0 : 1);
  return { first, last };
}

/** The price products standing for a trade product in the market views (empty for other codes). */
export function priceProducts(code: string): string[] {
  return [...(PRICE_PRODUCTS[code] ?? [])];
}
