// The development bank's (World Bank WDI) series and country card:
//   /api/economic/devbank/series/{series_code}   one allowlisted series, newest year first
//   /api/economic/devbank/country/{country}      the latest year of every allowlisted indicator
import type { Database } from '../../../engine/database.ts';
import type { Row } from '../../../engine/json.ts';
import { defineRoute } from '../../../queries/catalog.ts';
import { invalidParameter } from '../../../queries/shared/errors.ts';
import { type Page } from '../../../queries/kinds/page.ts';
import { DEVBANK_BY_CODE, DEVBANK_INDICATORS } from '../indicators.ts';
import { countryPathParam, iso3OfIso2, isoCountry, parseSeriesCode, resolveIso3, seriesCodeParam, unknownSeries, type Place } from './codes.ts';
import { seriesPage } from './coop.ts';
import { devbankLatest, type DevbankValue } from './devbankTables.ts';
import { devbankCountryResponse, devbankSeriesResponse, placeOut } from './schemas.ts';

const CODES = DEVBANK_INDICATORS.map((i) => i.code);

/** A WDI code that is not an ISO 3166 country: an aggregate (EUU, WLD, HIC, ...) or an economy such as XKX. */
export async function devbankArea(db: Database, code: string): Promise<Place | null> {
  const [row] = await db.all('SELECT code, name, is_aggregate FROM wdi_countries WHERE code = $code', { code });
  return row ? { iso2: null, iso3: String(row.code), name: String(row.name), aggregate: Boolean(row.is_aggregate) } : null;
}

/** `{available, value, year, period, wdi_code, vintage}` of a latest value (all null when absent). */
export function yearValueOut(value: DevbankValue | undefined) {
  return {
    available: value !== undefined,
    value: value?.value ?? null,
    year: value?.year ?? null,
    period: value?.period ?? null,
    wdi_code: value?.wdiCode ?? null,
    vintage: value?.vintage ?? null,
  };
}

interface SeriesParams {
  series_code: string;
  page: Page;
}

export const getDevbankSeries = defineRoute<SeriesParams>({
  id: 'getDevbankSeries',
  method: 'GET',
  tag: 'country',
  paths: ['/api/economic/devbank/series/{series_code}'],
  examples: ['/api/economic/devbank/series/DEVBANK_GDP_PER_CAPITA_USA', '/api/economic/devbank/series/devbank_exports_pct_gdp_deu?limit=5', '/api/economic/devbank/series/DEVBANK_POPULATION_WLD'],
  summary: 'One World Bank WDI series of the allowlist, newest year first',
  description:
    `The annual observations of DEVBANK_<INDICATOR>_<AREA>, newest year first, at most \`limit\` (default 120). Indicators and their WDI series: ${DEVBANK_INDICATORS.map((i) => `${i.code} = ${i.wdi.join(' (else ')}${i.wdi.length > 1 ? ')' : ''}`).join('; ')}. ` +
    'CO2_INTENSITY uses EN.GHG.CO2.RT.GDP.PP.KD where the area has it and the retired EN.ATM.CO2E.KD.GD otherwise (the observations name the ' +
    'series in `indicator.wdi_code`). The area is an ISO3 country or a WDI aggregate code (EUU, WLD, HIC, ... flagged `aggregate`). Blank years of ' +
    'the source are left out (never 0). Values are as published (full precision); `vintage` is the WDI "Last Updated Date" of the file the value came from.',
  paid: true,
  params: {
    series_code: seriesCodeParam('DEVBANK', 'DEVBANK_GDP_PER_CAPITA_USA', CODES),
  },
  inputs: { page: seriesPage },
  response: devbankSeriesResponse,
  listRows: (body) => body.observations as Row[],
  listColumns: () => ['period', 'value', 'vintage'],
  async handle({ series_code, page: { limit } }, { db }) {
    const series = parseSeriesCode(series_code, 'DEVBANK', 'series_code', 'DEVBANK_GDP_PER_CAPITA_USA', CODES);
    const indicator = DEVBANK_BY_CODE.get(series.indicator);
    if (!indicator) throw unknownSeries(series.code, `the indicator ${series.indicator} is not one of ${CODES.join(', ')}`);
    const iso3 = series.area.length === 2 ? iso3OfIso2(series.area) : null;
    if (iso3) throw invalidParameter('series_code', `${series.code}: the area is an ISO 3166 alpha-3 code: DEVBANK_${indicator.code}_${iso3}`);
    const place = isoCountry(series.area) ?? (await devbankArea(db, series.area));
    if (!place) throw unknownSeries(series.code, `${series.area} is neither an ISO 3166 alpha-3 country code nor an area of the WDI data`);
    // One statement: the page, and the series' size and newest vintage as windows over every match (before LIMIT).
    const rows = await db.all(
      `SELECT period, value, vintage, wdi_code, count(*) OVER ()::INTEGER AS total, max(vintage) OVER () AS newest_vintage
         FROM devbank_series WHERE code = $code AND area = $area ORDER BY year DESC LIMIT $limit`,
      { code: indicator.code, area: place.iso3, limit },
    );
    if (rows.length === 0) throw unknownSeries(series.code, `no ${indicator.wdi.join(' or ')} observations are loaded for ${place.name}`);
    const [{ total, newest_vintage: vintage }] = rows;
    return {
      endpoint: 'devbank_series',
      series_code: series.code,
      geo: place.iso3,
      country: placeOut(place),
      indicator: { code: indicator.code, wdi_code: String(rows[0].wdi_code), name: indicator.name, unit: indicator.unit },
      vintage,
      limit,
      total,
      count: rows.length,
      observations: rows.map((row) => ({ period: row.period, value: row.value, vintage: row.vintage })),
    };
  },
});

interface CountryParams {
  country: string;
}

export const getDevbankCountry = defineRoute<CountryParams>({
  id: 'getDevbankCountry',
  method: 'GET',
  tag: 'country',
  paths: ['/api/economic/devbank/country/{country}'],
  examples: ['/api/economic/devbank/country/USA', '/api/economic/devbank/country/deu', '/api/economic/devbank/country/EUU'],
  summary: 'The latest allowlisted World Bank structural indicators of a country',
  description:
    `\`indicators\` maps each allowlisted indicator (lower case: ${CODES.map((c) => c.toLowerCase()).join(', ')}) to its latest non-missing ` +
    'year: {canonical_code, name, unit, available, value, year, period, wdi_code, vintage}; an indicator without data has available: false and ' +
    'nulls. `available` is true when any indicator has data. `country` accepts ISO3 codes in any case and WDI aggregate codes (EUU, WLD, ...); a ' +
    'valid ISO3 country without data answers 200 with available: false. Values are as published.',
  paid: true,
  params: { country: countryPathParam('USA', '; WDI aggregate codes (EUU, WLD, HIC) too') },
  response: devbankCountryResponse(CODES.map((c) => c.toLowerCase())),
  async handle({ country }, { db }) {
    const place = await resolveIso3(country, 'country', (code) => devbankArea(db, code));
    const latest = await devbankLatest(db, place.iso3);
    const indicators = Object.fromEntries(DEVBANK_INDICATORS.map((indicator) => {
      const value = latest.get(indicator.code);
      return [indicator.code.toLowerCase(), {
        canonical_code: `DEVBANK_${indicator.code}_${place.iso3}`,
        name: indicator.name,
        unit: indicator.unit,
        ...yearValueOut(value),
      }];
    }));
    return {
      endpoint: 'devbank_country',
      country: placeOut(place),
      available: latest.size > 0,
      indicators,
    };
  },
});
