// Geo codes of the energy endpoints: an ISO 3166-1 alpha-2 code in any case (the shared country kind's
// parser: codes and names from the maintained i18n-iso-countries tables), Greece EL (GR accepted) and the
// United Kingdom UK (GB accepted), as Eurostat writes them; or a Eurostat aggregate (EU27_2020, EA20, EU,
// EA, ...). The reply names the code used. A malformed or unassigned code is a 400 naming the parameter.
import type { ParamSpec } from '../../../queries/catalog.ts';
import { parseIsoCountry } from '../../../queries/kinds/country.ts';
import { parseCommaList } from '../../../queries/kinds/list.ts';
import { invalidParameter } from '../../../queries/shared/errors.ts';
import { EU27 } from './constants.ts';

export interface Geo {
  /** The code the data uses (EL, UK, EU27_2020). */
  code: string;
  name: string | null;
  aggregate: boolean;
}

const AGGREGATE = /^(EU|EA)(\d{2}(_\d{4})?)?$/;
const AGGREGATE_NAMES: Readonly<Record<string, string>> = {
  EU27_2020: 'European Union - 27 countries (from 2020)',
  EU28: 'European Union - 28 countries (2013-2020)',
  EA20: 'Euro area - 20 countries (from 2023)',
  EA21: 'Euro area - 21 countries (from 2026)',
  EA19: 'Euro area - 19 countries (2015-2022)',
  EA: 'Euro area',
  EU: 'European Union',
};

/** The geo of a parameter value, or a 400 naming `param`. `countriesOnly` refuses aggregates. */
export function parseGeo(raw: string, param: string, countriesOnly = false): Geo {
  const text = raw.trim().toUpperCase();
  if (!countriesOnly && AGGREGATE.test(text)) return { code: text, name: AGGREGATE_NAMES[text] ?? null, aggregate: true };
  try {
    const country = parseIsoCountry(text, param, 'alpha2');
    return { code: country.eu, name: country.name, aggregate: false };
  } catch (error) {
    if (countriesOnly) throw error;
    throw invalidParameter(param, `${param} must be an ISO 3166-1 alpha-2 country code (any case; Greece EL or GR) or a Eurostat aggregate such as EU27_2020 or EA20 (got "${raw}")`);
  }
}

/** Comma-separated geos, each parsed, duplicates dropped (first kept), at most `max`. */
export function parseGeoList(raw: string, param: string, max: number): Geo[] {
  const seen = new Set<string>();
  const geos: Geo[] = [];
  for (const part of parseCommaList(raw, param, { minItems: 1 })) {
    const geo = parseGeo(part, param);
    if (seen.has(geo.code)) continue;
    seen.add(geo.code);
    geos.push(geo);
  }
  if (geos.length > max) throw invalidParameter(param, `${param} takes at most ${max} codes (got ${geos.length})`);
  return geos;
}

export const EU27_GEOS: readonly string[] = EU27;

export function geoParam(description: string, options: { in?: 'query' | 'path'; required?: boolean; example?: string } = {}): ParamSpec {
  return {
    in: [options.in ?? 'query'],
    required: options.required,
    description,
    schema: { type: 'string', minLength: 1, maxLength: 12, examples: [options.example ?? 'DE'] },
  };
}
