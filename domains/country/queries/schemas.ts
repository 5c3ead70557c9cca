// Response schemas of the country endpoints.
import type { JsonSchema } from '../../../queries/catalog.ts';
import { COVERAGE_SOURCES } from '../../../queries/shared/coverage.ts';
import { integer, listOf, nullable, object, text } from '../../../queries/shared/schema.ts';
import type { Place } from './codes.ts';

const boolean: JsonSchema = { type: 'boolean' };
const number: JsonSchema = { type: 'number' };

export const placeOut = (place: Place) => ({ iso2: place.iso2, iso3: place.iso3, name: place.name, aggregate: place.aggregate });

export const placeSchema = object({ iso2: nullable(text), iso3: text, name: text, aggregate: boolean });

const observation = object({ period: text, value: number, vintage: nullable(text) });

export const coopSeriesResponse = object({
  endpoint: { type: 'string', const: 'coop_series' },
  series_code: text,
  geo: text,
  country: placeSchema,
  indicator: object({ code: text, name: text, unit: text }),
  frequency: { type: 'string', enum: ['M', 'Q', 'A'] },
  vintage: nullable(text),
  limit: integer,
  total: integer,
  count: integer,
  observations: listOf(observation),
});

const coopEntry = object({
  canonical_code: text,
  indicator: text,
  name: text,
  unit: text,
  available: boolean,
  value: nullable(number),
  period: nullable(text),
  frequency: nullable(text),
  vintage: nullable(text),
});

export const coopCountryResponse = object({
  endpoint: { type: 'string', const: 'coop_country' },
  country: placeSchema,
  available: boolean,
  indicators: listOf(coopEntry),
});

export const devbankSeriesResponse = object({
  endpoint: { type: 'string', const: 'devbank_series' },
  series_code: text,
  geo: text,
  country: placeSchema,
  indicator: object({ code: text, wdi_code: text, name: text, unit: text }),
  vintage: nullable(text),
  limit: integer,
  total: integer,
  count: integer,
  observations: listOf(observation),
});

/** A WDI value with its year: the latest non-missing year of a series. */
export const yearValue = object({
  available: boolean,
  value: nullable(number),
  year: nullable(integer),
  period: nullable(text),
  wdi_code: nullable(text),
  vintage: nullable(text),
});

export const devbankEntry = object({
  canonical_code: text,
  name: text,
  unit: text,
  available: boolean,
  value: nullable(number),
  year: nullable(integer),
  period: nullable(text),
  wdi_code: nullable(text),
  vintage: nullable(text),
});

export const devbankCountryResponse = (codes: readonly string[]): JsonSchema =>
  object({
    endpoint: { type: 'string', const: 'devbank_country' },
    country: placeSchema,
    available: boolean,
    indicators: object(Object.fromEntries(codes.map((code) => [code, devbankEntry]))),
  });

const tradeOpennessPart = object({
  available: boolean,
  value: nullable(number),
  year: nullable(integer),
  exports_pct_gdp: nullable(number),
  imports_pct_gdp: nullable(number),
  vintage: nullable(text),
});

export const tradeOpennessResponse = object({
  endpoint: { type: 'string', const: 'trade_openness' },
  country: placeSchema,
  available: boolean,
  formula: text,
  trade_openness_pct: nullable(number),
  year: nullable(integer),
  exports_pct_gdp: nullable(number),
  imports_pct_gdp: nullable(number),
  vintage: nullable(text),
});

export const debtBurdenResponse = object({
  endpoint: { type: 'string', const: 'debt_burden' },
  country: placeSchema,
  available: boolean,
  formula: text,
  gov_debt_pct_gdp: yearValue,
});

export const energyDependencyResponse = object({
  endpoint: { type: 'string', const: 'energy_dependency' },
  country: placeSchema,
  available: boolean,
  formula: text,
  energy_imports_pct: yearValue,
  renewable_share_pct: yearValue,
});

export const countryStructureResponse = object({
  endpoint: { type: 'string', const: 'country_structure' },
  country: placeSchema,
  available: boolean,
  parts: object({
    trade_openness: tradeOpennessPart,
    debt: object({ available: boolean, gov_debt_pct_gdp: yearValue }),
    energy: object({ available: boolean, energy_imports_pct: yearValue, renewable_share_pct: yearValue }),
    fdi: object({ available: boolean, fdi_pct_gdp: yearValue }),
    demographics: object({ available: boolean, population: yearValue, population_growth_pct: yearValue }),
    carbon_intensity: object({ available: boolean, co2_intensity: yearValue }),
  }),
});

const headline = object({ series: text, label: text, value: {}, unit: nullable(text), period: text, vintage: nullable(text) });

export const overviewResponse = object({
  endpoint: { type: 'string', const: 'country_overview' },
  country: placeSchema,
  available: boolean,
  sources_present: listOf({ type: 'string', enum: [...COVERAGE_SOURCES] }),
  sources: object(
    Object.fromEntries(COVERAGE_SOURCES.map((source) => [source, object({ available: boolean, headline: nullable(headline), declared_by: listOf(text) })])),
  ),
});
