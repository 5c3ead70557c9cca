// Aliases: one filter accepted under several names (`country`/`reporter`, `commodity`/`product`).
// Given under several names, the values must agree (compared trimmed and case-folded); the value
// used is the first name's, trimmed. `aliased` is the kind of such a filter with its resolver.
import type { CrossFieldCheck, ParamLocation, ParamSpec, RouteContext } from '../catalog.ts';
import { invalidParameter } from '../shared/errors.ts';
import { defineKind, type Kind } from './kind.ts';

export interface AliasValue {
  /** The value, trimmed. */
  value: string;
  /** The name it was given under (for messages). */
  param: string;
}

/** The first of the names given, or null. */
export function aliasValue(params: Readonly<Record<string, unknown>>, names: readonly string[]): AliasValue | null {
  for (const name of names) {
    const value = params[name];
    if (typeof value === 'string') return { value: value.trim(), param: name };
  }
  return null;
}

/** Aliases of one filter: when several are given they must agree. */
export function aliasCheck(names: readonly string[]): CrossFieldCheck<Record<string, unknown>> {
  return {
    name: `aliases(${names.join(',')})`,
    description: `${names.slice(0, -1).join(', ')} and ${names.at(-1)} are aliases: give one (or the same value)`,
    check: (params) => {
      const given = names.filter((name) => params[name] !== undefined);
      const values = new Set(given.map((name) => String(params[name]).trim().toLowerCase()));
      return values.size > 1 ? invalidParameter(given[1], `${given.join(' and ')} are aliases of one filter and disagree; give one of them`) : null;
    },
  };
}

/** One of the aliases is required: a 400 naming the first when none is given. */
export function requiredAliasCheck(names: readonly string[]): CrossFieldCheck<Record<string, unknown>> {
  const message = `${names[0]} is required${names.length > 1 ? ` (alias: ${names.slice(1).join(', ')})` : ''}`;
  return {
    name: `required(${names.join('|')})`,
    description: message,
    check: (params) => (aliasValue(params, names) === null ? invalidParameter(names[0], message) : null),
  };
}

export interface AliasedOptions<T> {
  /** The parameter and its aliases (`['reporter', 'country']`); the first is the main name. */
  names: readonly string[];
  /** Description of each name's parameter. */
  describe: (name: string) => string;
  example: string;
  /** Longest value (default 100). */
  maxLength?: number;
  /** Where the parameter may appear (default query); a path parameter is always given. */
  in?: readonly ParamLocation[];
  /** One of the names is required (one name: a required parameter; several: a check naming the first). */
  required?: boolean;
  /** The value given (trimmed) under the name `param` -> the typed value (a 404 or 400 when it names nothing). */
  resolve: (value: string, param: string, context: RouteContext) => T | Promise<T>;
}

/** A text filter under one name or several aliases, resolved; null when none is given (never when required). */
export function aliased<T>(options: AliasedOptions<T> & { required: true }): Kind<T>;
export function aliased<T>(options: AliasedOptions<T>): Kind<T | null>;
export function aliased<T>(options: AliasedOptions<T>): Kind<T | null> {
  const location = options.in ?? ['query'];
  const single = options.names.length === 1;
  const params: Record<string, ParamSpec> = {};
  for (const name of options.names) {
    params[name] = {
      in: location,
      required: location.includes('path') || (single && options.required) || undefined,
      description: options.describe(name),
      schema: { type: 'string', minLength: 1, maxLength: options.maxLength ?? 100, examples: [options.example] },
    };
  }
  const checks = single ? [] : [aliasCheck(options.names)];
  if (options.required && !single) checks.unshift(requiredAliasCheck(options.names));
  return defineKind({
    params,
    checks,
    resolve: async (raw, context) => {
      const given = aliasValue(raw, options.names);
      return given === null ? null : options.resolve(given.value, given.param, context);
    },
  });
}
