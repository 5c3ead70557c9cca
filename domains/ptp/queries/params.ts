// Parameters and cross-field checks of the PTP endpoints, and the window they resolve to.
import type { ParamSpec } from '../../../queries/catalog.ts';
import { dayWindow, page, type DayWindow } from '../../../queries/kinds/index.ts';
import { windowBounds } from '../../../queries/shared/window.ts';

export const DEADLY_LIMIT_DEFAULT = 20;
export const DEADLY_LIMIT_MAX = 200;

export const cityParam: ParamSpec = {
  in: ['query', 'path'],
  required: true,
  description: 'Settlement name, Latin or Cyrillic, any case, with or without "гр."/"с." (Sofia, София, Plovdiv, гр. Пловдив).',
  schema: { type: 'string', minLength: 1, maxLength: 100, examples: ['Plovdiv'] },
};

export const regionParam: ParamSpec = {
  in: ['query', 'path'],
  required: true,
  description:
    'Oblast name, Latin or Cyrillic, any case. Sofia (София, СОФИЯ) is the capital region (София-град); ' +
    'the Sofia district is Софийска (Sofia Province).',
  schema: { type: 'string', minLength: 1, maxLength: 100, examples: ['Plovdiv'] },
};

/** year or a from/to window (not both). */
export const ptpWindow = dayWindow({ year: ['query'] });

/** The newest accidents to return; every match when omitted. */
export const crashLimit = page({ default: null, description: 'Newest accidents to return (all matches when omitted).' });

/** The deadly-location ranking needs a year (query or path) or a from/to window. */
export const deadlyWindow = dayWindow({
  year: ['query', 'path'],
  required: 'any',
  yearDescription: 'Calendar year (path form or query); cannot be combined with from/to.',
});

export const deadlyLimit = page({
  default: DEADLY_LIMIT_DEFAULT,
  maximum: DEADLY_LIMIT_MAX,
  description: `Clusters to return (default ${DEADLY_LIMIT_DEFAULT}, at most ${DEADLY_LIMIT_MAX}).`,
});

export function windowBindings(window: DayWindow): { from: string; to: string } {
  return windowBounds(window.window);
}

/** The window part of `filters`: the year, or the from/to as ISO dates (to defaulted to today); unused ones null. */
export function windowFilters(window: DayWindow): { year: number | null; from: string | null; to: string | null } {
  return { year: window.year, from: window.requested.from, to: window.requested.to };
}
