// Comma lists (`geos=DE,FR`, `countries=DE,PL`): split, trimmed, no empty items, duplicates dropped
// (first occurrence kept), with an optional bound on the number of items.
import { invalidParameter } from '../shared/errors.ts';
import { checkByResolving, defineKind, type Kind } from './kind.ts';

export interface CommaListOptions {
  /** Most items allowed (a 400 above it). */
  maxItems?: number;
  /** Fewest items required (a 400 below it). */
  minItems?: number;
}

/** The items of a comma list, or a 400 naming the parameter. */
export function parseCommaList(value: string, param: string, options: CommaListOptions = {}): string[] {
  const items = value.split(',').map((item) => item.trim());
  if (items.some((item) => item === '')) throw invalidParameter(param, `${param} must be a comma-separated list without empty items`);
  const unique = [...new Set(items)];
  if (options.maxItems !== undefined && unique.length > options.maxItems) {
    throw invalidParameter(param, `${param} takes at most ${options.maxItems} items (got ${unique.length})`);
  }
  if (options.minItems !== undefined && unique.length < options.minItems) {
    throw invalidParameter(param, `${param} needs at least ${options.minItems} items (got ${unique.length})`);
  }
  return unique;
}

export interface CommaListKindOptions extends CommaListOptions {
  name: string;
  description: string;
  example: string;
  /** Longest value (default 500). */
  maxLength?: number;
  required?: boolean;
}

/** A comma-list parameter -> its items (null when absent); a malformed list is a 400 before any payment. */
export function commaList(options: CommaListKindOptions): Kind<string[] | null> {
  const { name } = options;
  const resolve = (raw: Record<string, unknown>) => (typeof raw[name] === 'string' ? parseCommaList(raw[name] as string, name, options) : null);
  return defineKind({
    params: {
      [name]: {
        in: ['query'],
        required: options.required || undefined,
        description: options.description,
        schema: { type: 'string', minLength: 1, maxLength: options.maxLength ?? 500, examples: [options.example] },
      },
    },
    checks: [checkByResolving(`commaList(${name})`, `${name} is a comma-separated list without empty items`, resolve)],
    resolve,
  });
}
