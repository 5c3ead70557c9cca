// Aliases: one filter accepted under several names (`country`/`reporter`, `commodity`/`product`).
// Given under several names, the values must agree (compared trimmed and case-folded); the value
// used is the first name's, trimmed.
import type { CrossFieldCheck } from '../catalog.ts';
import { invalidParameter } from '../shared/errors.ts';

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
    description: `${names.join(' and ')} are aliases: give one (or the same value)`,
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
