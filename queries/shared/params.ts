// Parameter declarations reused across domains (date windows, year, limit) and the named
// cross-field checks that go with them.
import type { CrossFieldCheck, ParamLocation, ParamSpec } from '../catalog.ts';
import { invalidParameter } from './errors.ts';

export const MIN_YEAR = 1990;
export const MAX_YEAR = 2100;
/** Upper bound for limits the specification leaves open: large enough for any real list. */
export const MAX_OPEN_LIMIT = 100_000;

export function yearParam(description: string, options: { in?: readonly ParamLocation[]; required?: boolean } = {}): ParamSpec {
  return {
    in: options.in ?? ['query'],
    required: options.required,
    description,
    schema: { type: 'integer', minimum: MIN_YEAR, maximum: MAX_YEAR, examples: [2025] },
  };
}

export function windowDateParam(bound: 'from' | 'to', description: string, required = false): ParamSpec {
  return {
    in: ['query'],
    required,
    description,
    schema: { type: 'string', minLength: 1, maxLength: 10, examples: [bound === 'from' ? '01-2025' : '31-12-2025'] },
  };
}

export function limitParam(description: string, options: { default?: number; maximum?: number } = {}): ParamSpec {
  return {
    in: ['query'],
    description,
    schema: {
      type: 'integer',
      minimum: 1,
      maximum: options.maximum ?? MAX_OPEN_LIMIT,
      ...(options.default === undefined ? {} : { default: options.default }),
    },
  };
}

/** `year` and `from`/`to` are mutually exclusive. */
export const yearExcludesWindow: CrossFieldCheck<{ year?: number; from?: string; to?: string }> = {
  name: 'yearExcludesWindow',
  description: 'year cannot be combined with from or to',
  check: ({ year, from, to }) =>
    year !== undefined && (from !== undefined || to !== undefined)
      ? invalidParameter('year', 'year cannot be combined with from/to: use one or the other')
      : null,
};
