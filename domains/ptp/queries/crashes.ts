// getPtpPerCity and getPtpPerRegion: the accidents of a settlement or an oblast, newest first.
import type { Database } from '../../../engine/database.ts';
import type { Row } from '../../../engine/json.ts';
import { defineRoute } from '../../../queries/catalog.ts';
import { invalidParameter, notFound } from '../../../queries/shared/errors.ts';
import type { Resolved } from '../../../queries/kinds/index.ts';
import { findCities, findOblast, lookupKeys, OBLASTS } from '../../../reference/places.ts';
import { cityIndex, dayNumber, groupRun, matchedSettlements, regionDays, type CityIndex, type GroupRun } from './runIndex.ts';
import { cityParam, crashLimit, ptpWindow, regionParam, windowBindings, windowFilters } from './params.ts';
import { cityResponse, regionResponse } from './schemas.ts';

const ITEM_FIELDS = `strftime(crash_datetime, '%Y-%m-%dT%H:%M:%S') AS crash_datetime, crash_type, ptp_place, region,
  municipality, location, latitude, longitude, died_count, injured_count, participant_count, is_major`;

const crashInputs = { window: ptpWindow, newest: crashLimit };
export type CrashParams = Resolved<typeof crashInputs>;
type CityParams = CrashParams & { city: string };
type RegionParams = CrashParams & { region: string };

/** A run's rows (its positions in `pos`; its crash_order range lets the zone maps skip the rest), in crash order. */
const runCondition = (pos: 'city_pos' | 'region_pos', i: number) =>
  `(crash_order BETWEEN CAST($order_from_${i} AS BIGINT) AND CAST($order_to_${i} AS BIGINT) AND ${pos} BETWEEN CAST($pos_from_${i} AS BIGINT) AND CAST($pos_to_${i} AS BIGINT))`;
const runBindings = (run: GroupRun, i: number) =>
  ({ [`order_from_${i}`]: run.firstOrder, [`order_to_${i}`]: run.lastOrder, [`pos_from_${i}`]: run.firstPos, [`pos_to_${i}`]: run.lastPos });

/** The window of a CrashParams as yyyymmdd bounds, and its limit (none: every accident). */
function runWindow(params: CrashParams): { from: number; to: number; limit: number } {
  const { from, to } = windowBindings(params.window);
  return { from: dayNumber(from), to: dayNumber(to), limit: params.newest.limit ?? Number.MAX_SAFE_INTEGER };
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
    const index = await cityIndex(db);
    const matched = matchedSettlements(index, keys);
    if (matched.length === 0 && findCities(city).length === 0) {
      throw notFound(`no settlement named "${city}" in the accident data`);
    }
    const items = await cityCrashes(db, index, matched, params);
    return {
      endpoint: 'getPtpPerCity',
      filters: { city, matched_as: matched, ...windowFilters(params.window), limit: params.newest.limit },
      count: items.length,
      items,
    };
  },
});

/**
 * The newest accidents of the settlements in the window: each settlement's run of them (cityIndex.ts)
 * read by its city_pos range (its crash_order range lets the zone maps skip the rest), in crash order.
 */
export async function cityCrashes(db: Database, index: CityIndex, settlements: readonly string[], params: CrashParams): Promise<Row[]> {
  const { from, to, limit } = runWindow(params);
  const runs = settlements.flatMap((location) => {
    const entry = index.settlements.get(location);
    const run = entry ? groupRun(entry, from, to, limit) : null;
    return run ? [run] : [];
  });
  if (runs.length === 0) return [];
  const bindings = Object.assign({}, ...runs.map(runBindings)) as Record<string, number>;
  const ranges = runs.map((_, i) => runCondition('city_pos', i));
  // One settlement's run is its page; several are merged by crash order and cut at the limit.
  const sql = runs.length === 1
    ? `SELECT ${ITEM_FIELDS} FROM ptp_crashes WHERE ${ranges[0]} ORDER BY crash_order`
    : `SELECT ${ITEM_FIELDS} FROM ptp_crashes WHERE ${ranges.join(' OR ')} ORDER BY crash_order LIMIT $limit`;
  return db.all(sql, runs.length === 1 ? bindings : { ...bindings, limit });
}

/** The newest accidents of the oblast in the window: its run of them (runIndex.ts), read by its region_pos range. */
export async function regionCrashes(db: Database, regionCode: string, params: CrashParams): Promise<Row[]> {
  const { from, to, limit } = runWindow(params);
  const entry = (await regionDays(db)).get(regionCode);
  const run = entry ? groupRun(entry, from, to, limit) : null;
  if (!run) return [];
  return db.all(`SELECT ${ITEM_FIELDS} FROM ptp_crashes WHERE ${runCondition('region_pos', 0)} ORDER BY crash_order`, runBindings(run, 0));
}

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
    const items = await regionCrashes(db, oblast.code, params);
    return {
      endpoint: 'getPtpPerRegion',
      filters: { region, ...windowFilters(params.window), limit: params.newest.limit },
      count: items.length,
      items,
    };
  },
});
