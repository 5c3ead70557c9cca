// Country codes and series codes of the country domain. Countries are ISO 3166 (the maintained
// i18n-iso-countries package gives the codes and English names); the sources' aggregates (OECD,
// G-7, EA19 of the OECD; EUU, WLD, HIC of the World Bank) are known from the loaded data.
import type { ParamSpec } from '../../../queries/catalog.ts';
import { invalidParameter, notFound } from '../../../queries/shared/errors.ts';
import { findIsoCountryByAlpha2, findIsoCountryByAlpha3, type IsoCountry } from '../../../reference/countries.ts';

export interface Place {
  /** ISO 3166 alpha-2 (null for an aggregate). */
  iso2: string | null;
  /** ISO 3166 alpha-3, or the source's aggregate code. */
  iso3: string;
  name: string;
  aggregate: boolean;
}

const placeOf = (country: IsoCountry | null): Place | null =>
  country ? { iso2: country.iso2, iso3: country.iso3, name: country.name, aggregate: false } : null;

/** An ISO 3166 alpha-3 code, any case (the shared ISO tables of reference/countries.ts). */
export function isoCountry(iso3: string): Place | null {
  return placeOf(findIsoCountryByAlpha3(iso3));
}

/** An ISO 3166 alpha-2 code, any case; EL and UK are read as GR and GB. */
function isoFromAlpha2(alpha2: string): Place | null {
  return placeOf(findIsoCountryByAlpha2(alpha2));
}

/** The ISO3 code of a valid ISO2 code (EL, UK too), else null. */
export function iso3OfIso2(code: string): string | null {
  return isoFromAlpha2(code)?.iso3 ?? null;
}

/** An aggregate known to a source: its code and name, or null. */
export type AggregateLookup = (code: string) => Promise<Place | null>;

/**
 * `country` (ISO3 in any case; the source's aggregate codes too). A code that is neither is a 400
 * naming the parameter.
 */
export async function resolveIso3(raw: string, param: string, aggregates?: AggregateLookup): Promise<Place> {
  const text = raw.trim();
  const place = isoCountry(text);
  if (place) return place;
  const aggregate = aggregates && /^[A-Za-z0-9-]{2,12}$/.test(text) ? await aggregates(text.toUpperCase()) : null;
  if (aggregate) return aggregate;
  throw invalidParameter(param, `${JSON.stringify(raw)} is not an ISO 3166 alpha-3 country code (for example USA, DEU)${aggregates ? ' nor an aggregate of the source' : ''}`);
}

/** `code` (ISO2 or ISO3 in any case, EL and UK accepted for GR and GB; aggregates of the source too). */
export async function resolveIso2Or3(raw: string, param: string, aggregates?: AggregateLookup): Promise<Place> {
  const text = raw.trim();
  const place = text.length === 2 ? isoFromAlpha2(text) : isoCountry(text);
  if (place) return place;
  const aggregate = aggregates && /^[A-Za-z0-9-]{2,12}$/.test(text) ? await aggregates(text.toUpperCase()) : null;
  if (aggregate) return aggregate;
  throw invalidParameter(param, `${JSON.stringify(raw)} is not an ISO 3166 alpha-2 or alpha-3 country code (for example US, USA, de, DEU)${aggregates ? ' nor an aggregate of the source' : ''}`);
}

export const countryPathParam = (example: string, extra = ''): ParamSpec => ({
  in: ['path'],
  required: true,
  description: `ISO 3166 alpha-3 country code, any case (USA, deu)${extra}. Anything else is a 400; a valid code without data answers 200 with available: false.`,
  schema: { type: 'string', minLength: 2, maxLength: 12, examples: [example] },
});

export const codePathParam = (example: string, extra = ''): ParamSpec => ({
  in: ['path'],
  required: true,
  description: `ISO 3166 alpha-2 or alpha-3 country code, any case (US, usa, DE, DEU; EL and UK are read as GR and GB)${extra}. Anything else is a 400; a valid code without data answers 200 with available: false.`,
  schema: { type: 'string', minLength: 2, maxLength: 12, examples: [example] },
});

export interface SeriesCode {
  prefix: 'COOP' | 'DEVBANK';
  indicator: string;
  area: string;
  /** The code as it is served: upper case. */
  code: string;
}

const SERIES = /^([A-Z]+)_([A-Z][A-Z0-9_]*?)_([A-Z0-9][A-Z0-9-]{1,11})$/;
const AREA = /^[A-Z0-9][A-Z0-9_-]{1,11}$/;

/**
 * `<PREFIX>_<INDICATOR>_<AREA>` in any case. A known indicator is matched first (longest first), so an
 * area may hold an underscore (`COOP_CLI_EU27_2020`). A code of another form (or another prefix) is a 400
 * that shows the expected form; whether the indicator and area are known is the caller's 404.
 */
export function parseSeriesCode(raw: string, prefix: 'COOP' | 'DEVBANK', param: string, example: string, indicators: readonly string[]): SeriesCode {
  const code = raw.trim().toUpperCase();
  const rest = code.startsWith(`${prefix}_`) ? code.slice(prefix.length + 1) : null;
  if (rest !== null) {
    for (const indicator of [...indicators].sort((a, b) => b.length - a.length)) {
      const area = rest.startsWith(`${indicator}_`) ? rest.slice(indicator.length + 1) : null;
      if (area !== null && AREA.test(area)) return { prefix, indicator, area, code };
    }
  }
  const match = SERIES.exec(code);
  if (!match || match[1] !== prefix) {
    throw invalidParameter(
      param,
      `${JSON.stringify(raw)} is not a series code of the form ${prefix}_<INDICATOR>_<ISO3>, for example ${example} (indicators: ${indicators.join(', ')})`,
    );
  }
  return { prefix, indicator: match[2], area: match[3], code };
}

/** The 404 of a well-formed series code that names nothing loaded. */
export function unknownSeries(code: string, reason: string) {
  return notFound(`series ${code} not found: ${reason}`);
}

export const seriesCodeParam = (prefix: 'COOP' | 'DEVBANK', example: string, indicators: readonly string[]): ParamSpec => ({
  in: ['path'],
  required: true,
  description:
    `Series code ${prefix}_<INDICATOR>_<ISO3>, any case, for example ${example}; INDICATOR is one of ${indicators.join(', ')} and ` +
    `the area an ISO 3166 alpha-3 code or an aggregate of the source. Another form is a 400 showing the expected form; a ` +
    'well-formed code of an unknown indicator, area or a series without data is a 404 naming it.',
  schema: { type: 'string', minLength: 1, maxLength: 80, examples: [example] },
});
