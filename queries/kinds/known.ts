// Known ids (`dataset=cereals_prices`): one of a fixed list, any case; an id outside it is a 404
// listing the known ones (the list may grow with the data, so it is not a schema enum).
import type { ParamLocation } from '../catalog.ts';
import { notFound } from '../shared/errors.ts';
import { defineKind, type Kind } from './kind.ts';

export interface KnownIdOptions<T extends string> {
  name: string;
  /** The known ids, lower case. */
  ids: readonly T[];
  description: string;
  /** What the ids are, for the 404 ("datasets"). */
  plural: string;
  in?: ParamLocation;
  example?: string;
}

/** One of the known ids (any case) -> the id; null when absent; unknown: a 404. */
export function knownId<T extends string>(options: KnownIdOptions<T>): Kind<T | null> {
  const { name, ids } = options;
  const location = options.in ?? 'query';
  return defineKind({
    params: {
      [name]: {
        in: [location],
        required: location === 'path' || undefined,
        description: options.description,
        normalize: 'lower',
        schema: { type: 'string', minLength: 1, maxLength: 64, examples: [options.example ?? ids[0]] },
      },
    },
    resolve: (raw) => {
      if (typeof raw[name] !== 'string') return null;
      const id = (raw[name] as string).trim().toLowerCase();
      const known = ids.find((candidate) => candidate === id);
      if (known === undefined) throw notFound(`unknown ${name} "${id}"; ${options.plural}: ${ids.join(', ')}`);
      return known;
    },
  });
}
