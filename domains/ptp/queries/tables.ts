// PTP tables: the accidents and the location clusters computed at ingest, plus what is built once at
// load: a total order of the accidents (newest first), per-day counts of each settlement and each
// cluster, and the name keys every settlement is found by (Cyrillic, official Latin transliteration,
// the places table's older spellings).
import type { Database } from '../../../engine/database.ts';
import { loadDataset } from '../../../engine/dataset.ts';
import { PTP_CRASHES, PTP_LOCATIONS } from '../datasets.ts';
import { CITIES, cityKeys, placeKey, settlementKeys } from '../../../reference/places.ts';

/**
 * Newest first; equal times are ordered by the other fields of the item, so the order is total
 * (two accidents equal in every field are indistinguishable in the output).
 */
export const CRASH_ORDER =
  'crash_datetime DESC, region, municipality NULLS LAST, location NULLS LAST, latitude NULLS LAST, longitude NULLS LAST, ' +
  'crash_type NULLS LAST, ptp_place NULLS LAST, died_count DESC, injured_count DESC, participant_count DESC NULLS LAST, is_major DESC';

export async function loadPtp(db: Database, dataDir: string): Promise<void> {
  // The service does not keep the accidents' source file and row.
  await loadDataset(db, PTP_CRASHES, dataDir, { table: 'ptp_crash_rows', omit: ['source_file', 'source_row'] });
  await loadDataset(db, PTP_LOCATIONS, dataDir);

  // Stored in output order, with the day for window filters, city_pos and region_pos, the places in the
  // orders by settlement (by oblast) then crash_order (a settlement's or an oblast's accidents are a run of it, newest first).
  await db.run(`CREATE TABLE ptp_crashes AS
    SELECT row_number() OVER (ORDER BY location NULLS LAST, crash_order) AS city_pos,
           row_number() OVER (ORDER BY region_code NULLS LAST, crash_order) AS region_pos, *
      FROM (SELECT row_number() OVER (ORDER BY ${CRASH_ORDER}) AS crash_order, CAST(crash_datetime AS DATE) AS crash_date, * FROM ptp_crash_rows)
     ORDER BY crash_order`);
  await db.run('DROP TABLE ptp_crash_rows');
  // Per settlement and day (newest first): its accidents, their crash_order range, and the settlement's
  // first city_pos: what the per-city windows are found by (runIndex.ts).
  await db.run(runDaysSql('ptp_city_days', 'location', 'city_pos'));
  // The same per oblast and day (the per-region windows).
  await db.run(runDaysSql('ptp_region_days', 'region_code', 'region_pos'));
  // Per location cluster and day: its accidents, deaths and injuries, what the deadly ranking's
  // running totals are read from (deadlyIndex.ts).
  await db.run(`CREATE TABLE ptp_location_days AS
    SELECT location_id, CAST(strftime(crash_date, '%Y%m%d') AS INTEGER) AS day, count(*)::INTEGER AS crashes,
           sum(died_count)::INTEGER AS died, sum(injured_count)::INTEGER AS injured
      FROM ptp_crashes WHERE location_id IS NOT NULL GROUP BY location_id, crash_date
     ORDER BY location_id, day`);
  await loadPlaceKeys(db);
}

/** SQL: per `group` value and day (newest first), its accidents, their crash_order range and the group's first `pos` (runIndex.ts). */
function runDaysSql(table: string, group: string, pos: string): string {
  return `CREATE TABLE ${table} AS
    SELECT ${group}, day, crashes, first_order, last_order, min(day_first_pos) OVER (PARTITION BY ${group}) AS first_pos
      FROM (SELECT ${group}, CAST(strftime(crash_date, '%Y%m%d') AS INTEGER) AS day, count(*)::INTEGER AS crashes,
                   min(crash_order) AS first_order, max(crash_order) AS last_order, min(${pos}) AS day_first_pos
              FROM ptp_crashes WHERE ${group} IS NOT NULL GROUP BY ${group}, crash_date)
     ORDER BY ${group}, day DESC`;
}

/** ptp_place_keys(location, key): every key a settlement of the data is found by. */
async function loadPlaceKeys(db: Database): Promise<void> {
  await db.run('CREATE TABLE ptp_place_keys (location VARCHAR NOT NULL, key VARCHAR NOT NULL)');
  const locations = await db.all('SELECT DISTINCT location FROM ptp_crashes WHERE location IS NOT NULL ORDER BY location');
  const rows: string[][] = [];
  for (const { location } of locations) {
    const name = String(location);
    const keys = new Set(settlementKeys(name));
    for (const city of CITIES) {
      if (placeKey(city.name) === placeKey(name)) for (const key of cityKeys(city)) keys.add(key);
    }
    for (const key of keys) if (key !== '') rows.push([name, key]);
  }
  await db.appendRows('ptp_place_keys', rows);
}
