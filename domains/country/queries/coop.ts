// The cooperation organisation's (OECD) series and country card:
//   /api/economic/coop/series/{series_code}   one series, newest first
//   /api/economic/coop/country/{country}      the latest value of each of the six indicators
import type { Database } from '../../../engine/database.ts';
import type { Row } from '../../../engine/json.ts';
import { defineRoute } from '../../../queries/catalog.ts';
import { invalidParameter } from '../../../queries/shared/errors.ts';
import { page, type Page } from '../../../queries/kinds/page.ts';
import { COOP_INDICATORS, COOP_INFO, type CoopIndicator } from '../indicators.ts';
import { countryPathParam, iso3OfIso2, isoCountry, parseSeriesCode, resolveIso3, seriesCodeParam, unknownSeries, type Place } from './codes.ts';
import { coopCountryResponse, coopSeriesResponse, placeOut } from './schemas.ts';

export const SERIES_LIMIT_DEFAULT = 120;
export const SERIES_LIMIT_MAX = 10_000;

/** `limit` of the series endpoints (the page kind): default 120 observations, newest first. */
export const seriesPage = page({
  default: SERIES_LIMIT_DEFAULT,
  maximum: SERIES_LIMIT_MAX,
  description: `Most observations returned, newest first (default ${SERIES_LIMIT_DEFAULT}, at most ${SERIES_LIMIT_MAX}).`,
});

/** An OECD area: an ISO3 country, or an aggregate present in the OECD data (OECD, G-7, EA19, ...). */
export async function coopAggregate(db: Database, code: string): Promise<Place | null> {
  const [row] = await db.all('SELECT area, name FROM coop_areas WHERE area = $code AND aggregate', { code });
  return row ? { iso2: null, iso3: String(row.area), name: String(row.name), aggregate: true } : null;
}

function isCoopIndicator(code: string): code is CoopIndicator {
  return (COOP_INDICATORS as readonly string[]).includes(code);
}

const observationsOf = (rows: Row[]) => rows.map((row) => ({ period: row.period, value: row.value, vintage: row.vintage }));

interface SeriesParams {
  series_code: string;
  page: Page;
}

export const getCoopSeries = defineRoute<SeriesParams>({
  id: 'getCoopSeries',
  method: 'GET',
  tag: 'country',
  paths: ['/api/economic/coop/series/{series_code}'],
  examples: ['/api/economic/coop/series/COOP_CLI_USA', '/api/economic/coop/series/coop_unemp_deu?limit=12', '/api/economic/coop/series/COOP_CLI_G-7?limit=24'],
  summary: 'One OECD series (composite leading indicator, confidence, production, retail, unemployment), newest first',
  description:
    'The observations of COOP_<INDICATOR>_<AREA> newest period first, at most `limit` (default 120). Indicators: CLI (composite ' +
    'leading indicator, amplitude adjusted), BCI and CCI (business and consumer confidence, amplitude adjusted), INDPRO ' +
    '(industrial production volume index), RETAIL (retail trade volume index), UNEMP (harmonised unemployment rate, %). The area is an ISO3 ' +
    'country or an OECD aggregate as the data writes it (OECD, OECDE, G-7, EA19). The OECD revises the whole history every month: every ' +
    'imported vintage is kept and each period shows the value of the newest vintage, with that `vintage` (the publication date given at ' +
    'ingest, else the import date). Monthly periods are YYYY-MM; when an area has no monthly series the quarterly (YYYY-Qn) or annual (YYYY) ' +
    'one is served (`frequency`). Periods without a value are left out. Values are as published (not rounded).',
  paid: true,
  params: {
    series_code: seriesCodeParam('COOP', 'COOP_CLI_USA', COOP_INDICATORS),
  },
  inputs: { page: seriesPage },
  response: coopSeriesResponse,
  listRows: (body) => body.observations as Row[],
  listColumns: () => ['period', 'value', 'vintage'],
  async handle({ series_code, page: { limit } }, { db }) {
    const series = parseSeriesCode(series_code, 'COOP', 'series_code', 'COOP_CLI_USA', COOP_INDICATORS);
    if (!isCoopIndicator(series.indicator)) {
      throw unknownSeries(series.code, `the indicator ${series.indicator} is not one of ${COOP_INDICATORS.join(', ')}`);
    }
    const iso3 = series.area.length === 2 ? iso3OfIso2(series.area) : null;
    if (iso3) throw invalidParameter('series_code', `${series.code}: the area is an ISO 3166 alpha-3 code: COOP_${series.indicator}_${iso3}`);
    const place = isoCountry(series.area) ?? (await coopAggregate(db, series.area));
    if (!place) throw unknownSeries(series.code, `${series.area} is neither an ISO 3166 alpha-3 country code nor an area of the OECD data`);
    // One statement: the page, and the series' size and newest vintage as windows over every match (before LIMIT).
    const rows = await db.all(
      `SELECT period, value, vintage, freq, count(*) OVER ()::INTEGER AS total, max(vintage) OVER () AS newest_vintage
         FROM coop_series WHERE indicator = $indicator AND area = $area ORDER BY period DESC LIMIT $limit`,
      { indicator: series.indicator, area: place.iso3, limit },
    );
    if (rows.length === 0) throw unknownSeries(series.code, `no ${series.indicator} observations are loaded for ${place.name}`);
    const [{ total, newest_vintage: vintage }] = rows;
    const info = COOP_INFO.get(series.indicator)!;
    return {
      endpoint: 'coop_series',
      series_code: series.code,
      geo: place.iso3,
      country: placeOut(place),
      indicator: { code: info.code, name: info.name, unit: info.unit },
      frequency: String(rows[0].freq),
      vintage,
      limit,
      total,
      count: rows.length,
      observations: observationsOf(rows),
    };
  },
});

interface CountryParams {
  country: string;
}

/** Latest value of every OECD indicator for an area (ISO3 or aggregate code). */
export async function coopCard(db: Database, area: string) {
  const rows = await db.all('SELECT indicator, period, value, vintage, freq FROM coop_latest WHERE area = $area', { area });
  const byIndicator = new Map(rows.map((row) => [String(row.indicator), row]));
  return COOP_INDICATORS.map((indicator) => {
    const info = COOP_INFO.get(indicator)!;
    const row = byIndicator.get(indicator);
    return {
      canonical_code: `COOP_${indicator}_${area}`,
      indicator,
      name: info.name,
      unit: info.unit,
      available: row !== undefined,
      value: row?.value ?? null,
      period: row?.period ?? null,
      frequency: row?.freq ?? null,
      vintage: row?.vintage ?? null,
    };
  });
}

export const getCoopCountry = defineRoute<CountryParams>({
  id: 'getCoopCountry',
  method: 'GET',
  tag: 'country',
  paths: ['/api/economic/coop/country/{country}'],
  examples: ['/api/economic/coop/country/USA', '/api/economic/coop/country/deu', '/api/economic/coop/country/EA19'],
  summary: 'The latest OECD indicators of a country: leading indicator, confidence, production, retail trade, unemployment',
  description:
    'One entry per indicator, always in this order: CLI, BCI, CCI, INDPRO, RETAIL, UNEMP, each with its canonical_code ' +
    '(the series code of /coop/series), the latest value with its period (YYYY-MM, or YYYY-Qn / YYYY where no monthly series ' +
    'exists), frequency and vintage (the newest vintage holding that period). An indicator without data has available: false ' +
    'and nulls. `available` is true when any indicator has data. `country` accepts ISO3 codes in any case and the OECD aggregates ' +
    'of the data (EA19, G-7, OECD); a valid ISO3 country without data answers 200 with available: false everywhere. Values are as published.',
  paid: true,
  params: { country: countryPathParam('USA', '; the OECD aggregates of the data (EA19, G-7, OECD) too') },
  response: coopCountryResponse,
  listRows: (body) => body.indicators as Row[],
  listColumns: () => ['canonical_code', 'indicator', 'name', 'unit', 'available', 'value', 'period', 'frequency', 'vintage'],
  async handle({ country }, { db }) {
    const place = await resolveIso3(country, 'country', (code) => coopAggregate(db, code));
    const indicators = await coopCard(db, place.iso3);
    return {
      endpoint: 'coop_country',
      country: placeOut(place),
      available: indicators.some((i) => i.available),
      indicators,
    };
  },
});
