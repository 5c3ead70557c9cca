// getPtpPerCity and getPtpPerRegion: the accidents of a settlement or an oblast, newest first.
import type { Database } from '../../../engine/database.ts';
import type { Row } from '../../../engine/json.ts';
import { defineRoute } from '../../../queries/catalog.ts';
import { invalidParameter, notFound } from '../../../queries/shared/errors.ts';
import type { Resolved } from '../../../queries/kinds/index.ts';
import { findCities, findOblast, lookupKeys, OBLASTS } from '../../../reference/places.ts';
import { cityParam, crashLimit, ptpWindow, regionParam, WINDOW_SQL, windowBindings, windowFilters } from './params.ts';
import { cityResponse, regionResponse } from './schemas.ts';

const ITEM_FIELDS = `strftime(crash_datetime, '%Y-%m-%dT%H:%M:%S') AS crash_datetime, crash_type, ptp_place, region,
  municipality, location, latitude, longitude, died_count, injured_count, participant_count, is_major`;

/** Keys are joined with the unit separator, which placeKey never leaves in a key. */
const KEY_SEPARATOR = '\u001f';
const CITY_LOCATIONS = `SELECT location FROM ptp_place_keys WHERE key IN (SELECT unnest(string_split($keys, chr(31))))`;

const CITY_SQL = `SELECT ${ITEM_FIELDS} FROM ptp_crashes
  WHERE location IN (${CITY_LOCATIONS}) AND ${WINDOW_SQL}
  ORDER BY crash_order LIMIT $limit`;
const REGION_SQL = `SELECT ${ITEM_FIELDS} FROM ptp_crashes
  WHERE region_code = $region AND ${WINDOW_SQL}
  ORDER BY crash_order LIMIT $limit`;
const MATCHED_SQL = `SELECT DISTINCT location FROM (${CITY_LOCATIONS}) ORDER BY location`;

const crashInputs = { window: ptpWindow, newest: crashLimit };
type CrashParams = Resolved<typeof crashInputs>;
type CityParams = CrashParams & { city: string };
type RegionParams = CrashParams & { region: string };

async function crashes(db: Database, sql: string, params: CrashParams, bindings: Record<string, string>): Promise<Row[]> {
  return db.all(sql, { ...bindings, ...windowBindings(params.window), limit: params.newest.limit ?? Number.MAX_SAFE_INTEGER });
}

export const getPtpPerCity = defineRoute<CityParams>({
  id: 'getPtpPerCity',
  method: 'GET',
  tag: 'ptp',
  paths: ['/api/ptp/getPtpPerCity', '/api/ptp/getPtpPerCity/{city}'],
  examples: [
    '/api/ptp/getPtpPerCity?city=Plovdiv&year=2025&limit=20',
    `/api/ptp/getPtpPerCity/${encodeURIComponent('София')}?from=01-2026&to=10-2026&limit=10`,
  ],
  summary: 'Road accidents in a city or village, newest first',
  description:
    'Accident reports of the interior ministry in one settlement, found by its Latin or Cyrillic name (any case, with ' +
    'or without "гр."/"с."); filters.matched_as lists the settlement names of the data that matched. A year or a ' +
    'from/to window restricts the dates; limit keeps the newest. An unknown settlement is a 404.',
  paid: true,
  params: { city: cityParam },
  inputs: crashInputs,
  response: cityResponse,
  listRows: (body) => body.items as Row[],
  async handle(params, { db }) {
    const city = params.city.trim();
    const keys = lookupKeys(city);
    if (keys.length === 0) throw invalidParameter('city', 'city must name a settlement');
    const bindings = { keys: keys.join(KEY_SEPARATOR) };
    const matched = (await db.all(MATCHED_SQL, bindings)).map((row) => String(row.location));
    if (matched.length === 0 && findCities(city).length === 0) {
      throw notFound(`no settlement named "${city}" in the accident data`);
    }
    const items = await crashes(db, CITY_SQL, params, bindings);
    return {
      endpoint: 'getPtpPerCity',
      filters: { city, matched_as: matched, ...windowFilters(params.window), limit: params.newest.limit },
      count: items.length,
      items,
    };
  },
});

export const getPtpPerRegion = defineRoute<RegionParams>({
  id: 'getPtpPerRegion',
  method: 'GET',
  tag: 'ptp',
  paths: ['/api/ptp/getPtpPerRegion', '/api/ptp/getPtpPerRegion/{region}'],
  examples: [
    '/api/ptp/getPtpPerRegion?region=Sofia&year=2024&limit=10',
    `/api/ptp/getPtpPerRegion/${encodeURIComponent('Софийска')}?from=01-01-2025&to=31-12-2025&limit=10`,
  ],
  summary: 'Road accidents in an oblast, newest first',
  description:
    'Accident reports of the interior ministry in one oblast (region), by its Bulgarian or Latin name in any case. ' +
    '"Sofia" (София, СОФИЯ) is the capital region София-град; the Sofia district is "Софийска" (Sofia Province). ' +
    'A year or a from/to window restricts the dates; limit keeps the newest. An unknown oblast is a 404.',
  paid: true,
  params: { region: regionParam },
  inputs: crashInputs,
  response: regionResponse,
  listRows: (body) => body.items as Row[],
  async handle(params, { db }) {
    const region = params.region.trim();
    if (region === '') throw invalidParameter('region', 'region must name an oblast');
    const oblast = findOblast(region);
    if (!oblast) {
      throw notFound(`no oblast named "${region}"; known: ${OBLASTS.map((o) => `${o.name} (${o.nameEn})`).join(', ')}`);
    }
    const items = await crashes(db, REGION_SQL, params, { region: oblast.code });
    return {
      endpoint: 'getPtpPerRegion',
      filters: { region, ...windowFilters(params.window), limit: params.newest.limit },
      count: items.length,
      items,
    };
  },
});
