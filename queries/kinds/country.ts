// Countries as clients write them. Two kinds:
// - memberState: an EU member state code or English name (any case; Greece EL or GR), falling back
//   to a lookup in the domain's own data (reporter aggregates, price-data countries); unknown: 404.
// - isoCountry: an ISO 3166-1 code (alpha-2, alpha-3 or either; any case; Greece EL or GR), from the
//   maintained ISO tables; a malformed or unassigned code is a 400 (the domain decides what a valid
//   code without data answers).
import type { Database } from '../../engine/database.ts';
import { findIsoCountryByAlpha2, findIsoCountryByAlpha3, findMemberState, type IsoCountry } from '../../reference/countries.ts';
import type { ParamLocation, ParamSpec } from '../catalog.ts';
import { invalidParameter, notFound } from '../shared/errors.ts';
import { aliased } from './alias.ts';
import { checkByResolving, defineKind, type Kind } from './kind.ts';

/** A type, not an interface, so that it is a JSON value in response bodies. */
export type Country = {
  /** The code as the data uses it (member states: the EU code, EL for Greece). */
  code: string;
  name: string | null;
};

export interface MemberStateOptions {
  /** The parameter and its aliases (`['reporter', 'country']`); the first is the main name. */
  names: readonly string[];
  /** Description of each name's parameter. */
  describe: (name: string) => string;
  example?: string;
  /** Longest value (default 100). */
  maxLength?: number;
  /** Where the parameter may appear (default query). */
  in?: readonly ParamLocation[];
  required?: boolean;
  /** What a value must be, for the 400 of a blank one (default "a country code or name"). */
  expected?: string;
  /** Where the code is looked up when it is not a member state (null: not found). */
  lookup?: (db: Database, text: string) => Promise<Country | null>;
  /** The 404 message for an unknown value. */
  unknown: (param: string, text: string) => string;
}

/** A member state (code or name) or else a country of the domain's data; unknown: a 404. */
export async function resolveMemberState(
  db: Database,
  text: string,
  param: string,
  options: Pick<MemberStateOptions, 'lookup' | 'unknown' | 'expected'>,
): Promise<Country> {
  const value = text.trim();
  if (value === '') throw invalidParameter(param, `${param} must be ${options.expected ?? 'a country code or name'}`);
  const state = findMemberState(value);
  if (state) return { code: state.code, name: state.name };
  const found = options.lookup ? await options.lookup(db, value) : null;
  if (!found) throw notFound(options.unknown(param, value));
  return found;
}

/** A member state or a country of the domain's data, under one name or its aliases; null when none is given. */
export function memberState(options: MemberStateOptions & { required: true }): Kind<Country>;
export function memberState(options: MemberStateOptions): Kind<Country | null>;
export function memberState(options: MemberStateOptions): Kind<Country | null> {
  return aliased({
    names: options.names,
    describe: options.describe,
    example: options.example ?? 'DE',
    maxLength: options.maxLength,
    in: options.in,
    required: options.required,
    resolve: (value, param, { db }) => resolveMemberState(db, value, param, options),
  });
}

export type IsoForms = 'alpha2' | 'alpha3' | 'alpha2or3';

const FORM_TEXT: Record<IsoForms, string> = {
  alpha2: 'an ISO 3166-1 alpha-2 code (DE; Greece EL or GR)',
  alpha3: 'an ISO 3166-1 alpha-3 code (DEU)',
  alpha2or3: 'an ISO 3166-1 alpha-2 or alpha-3 code (DE or DEU; Greece EL, GR or GRC)',
};

/** The ISO country a code names, or a 400 naming the parameter and the expected form. */
export function parseIsoCountry(value: string, param: string, forms: IsoForms): IsoCountry {
  const text = value.trim();
  const country =
    (forms !== 'alpha3' && text.length === 2 ? findIsoCountryByAlpha2(text) : null) ??
    (forms !== 'alpha2' && text.length === 3 ? findIsoCountryByAlpha3(text) : null);
  if (!country) throw invalidParameter(param, `${param} must be ${FORM_TEXT[forms]}, any case (got "${value}")`);
  return country;
}

export interface IsoCountryOptions {
  name: string;
  forms: IsoForms;
  in?: readonly ParamLocation[];
  required?: boolean;
  description?: string;
  example?: string;
}

/** An ISO country code parameter -> IsoCountry (null when optional and absent). */
export function isoCountry(options: IsoCountryOptions): Kind<IsoCountry | null> {
  const location = options.in ?? ['query'];
  const spec: ParamSpec = {
    in: location,
    required: options.required || undefined,
    description: options.description ?? `Country: ${FORM_TEXT[options.forms]}, any case.`,
    schema: { type: 'string', minLength: 2, maxLength: 3, examples: [options.example ?? (options.forms === 'alpha3' ? 'DEU' : 'DE')] },
  };
  const resolve = (raw: Record<string, unknown>) => (typeof raw[options.name] === 'string' ? parseIsoCountry(raw[options.name] as string, options.name, options.forms) : null);
  return defineKind({
    params: { [options.name]: spec },
    checks: [checkByResolving(`isoCountry(${options.name})`, `${options.name} is ${FORM_TEXT[options.forms]}`, resolve)],
    resolve,
  });
}
