// The accidents of each settlement and of each oblast held as running counts in JavaScript, read once
// per database on first use (at most one row per group and day: about 87 000 settlement days at x100):
// per settlement (per oblast) its days newest first, with the number of its accidents on newer days and
// the range of crash_order on each day; and the name keys each settlement is found by. With them a
// window of a group is a run of its accidents in crash order (city_pos or region_pos: ptp_crashes
// numbered by the group then crash_order), found by two binary searches, and the page is one range
// read of ptp_crashes.
import type { Database } from '../../../engine/database.ts';
import { perDatabase } from '../../../engine/perDatabase.ts';

/** One group's days (a settlement's, an oblast's). */
export interface GroupDays {
  /** city_pos (region_pos) of the group's newest accident. */
  firstPos: number;
  /** Days (yyyymmdd) with accidents, newest first. */
  days: Int32Array;
  /** [i]: accidents on days newer than days[i]; [days.length]: every accident of the group. */
  newer: Int32Array;
  /** crash_order of the first and last accident of each day. */
  firstOrder: Float64Array;
  lastOrder: Float64Array;
}

export interface CityIndex {
  /** Name key -> the settlements (location) it finds. */
  byKey: Map<string, string[]>;
  settlements: Map<string, GroupDays>;
}

/** Per value of `group`, its days from `table` (runDaysSql in tables.ts). */
async function readGroupDays(db: Database, table: string, group: string): Promise<Map<string, GroupDays>> {
  // One row per group, its days' columns as comma-separated text (tens of rows instead of one per day).
  const rows = await db.all(`SELECT ${group} AS run_group, any_value(first_pos) AS first_pos,
      string_agg(CAST(day AS VARCHAR), ',' ORDER BY day DESC) AS days, string_agg(CAST(crashes AS VARCHAR), ',' ORDER BY day DESC) AS crashes,
      string_agg(CAST(first_order AS VARCHAR), ',' ORDER BY day DESC) AS first_orders, string_agg(CAST(last_order AS VARCHAR), ',' ORDER BY day DESC) AS last_orders
    FROM ${table} GROUP BY ${group}`);
  const numbers = (text: unknown) => String(text).split(',').map(Number);
  const groups = new Map<string, GroupDays>();
  for (const row of rows) {
    const days = numbers(row.days);
    const crashes = numbers(row.crashes);
    const newer = new Int32Array(days.length + 1);
    for (let i = 0; i < days.length; i++) newer[i + 1] = newer[i] + crashes[i];
    groups.set(String(row.run_group), {
      firstPos: Number(row.first_pos),
      days: Int32Array.from(days),
      newer,
      firstOrder: Float64Array.from(numbers(row.first_orders)),
      lastOrder: Float64Array.from(numbers(row.last_orders)),
    });
  }
  return groups;
}

async function readIndex(db: Database): Promise<CityIndex> {
  const byKey = new Map<string, string[]>();
  for (const row of await db.all('SELECT key, location FROM ptp_place_keys')) {
    const key = String(row.key);
    const list = byKey.get(key);
    if (list) list.push(String(row.location));
    else byKey.set(key, [String(row.location)]);
  }
  return { byKey, settlements: await readGroupDays(db, 'ptp_city_days', 'location') };
}

/** The settlements' index of this database (built on first use). */
export const cityIndex = perDatabase(readIndex);

/** The oblasts' days of this database by region code (built on first use). */
export const regionDays = perDatabase((db) => readGroupDays(db, 'ptp_region_days', 'region_code'));

/** Byte order of text, as DuckDB orders VARCHAR. */
export const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** The settlements the keys find, distinct, in DuckDB's text order. */
export function matchedSettlements(index: CityIndex, keys: readonly string[]): string[] {
  const found = new Set<string>();
  for (const key of keys) for (const location of index.byKey.get(key) ?? []) found.add(location);
  return [...found].sort(byBytes);
}

/** yyyymmdd of an ISO date. */
export const dayNumber = (iso: string) => Number(iso.slice(0, 4)) * 10000 + Number(iso.slice(5, 7)) * 100 + Number(iso.slice(8, 10));

/** First index of the descending days whose day is <= bound (days.length when none). */
function firstAtOrBefore(days: Int32Array, bound: number): number {
  let lo = 0;
  let hi = days.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (days[mid] > bound) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The run of a group's accidents in a window (newest first), at most `limit`: its positions and crash_order bounds. */
export interface GroupRun {
  firstPos: number;
  lastPos: number;
  firstOrder: number;
  lastOrder: number;
  count: number;
}

/** The run of the group's accidents in the window [from, to] (yyyymmdd), at most `limit`; null when empty. */
export function groupRun(entry: GroupDays, from: number, to: number, limit: number): GroupRun | null {
  const first = firstAtOrBefore(entry.days, to);
  const end = firstAtOrBefore(entry.days, from - 1);
  const skipped = entry.newer[first];
  const count = Math.min(entry.newer[end] - skipped, limit);
  if (count <= 0) return null;
  // The day of the run's last accident: the last day index whose newer count is below skipped + count.
  const lastDay = firstAtOrBeforeCount(entry.newer, skipped + count, first, end);
  return {
    firstPos: entry.firstPos + skipped,
    lastPos: entry.firstPos + skipped + count - 1,
    firstOrder: entry.firstOrder[first],
    lastOrder: entry.lastOrder[lastDay],
    count,
  };
}

/** The largest i in [lo, hi) with newer[i] < total. */
function firstAtOrBeforeCount(newer: Int32Array, total: number, lo: number, hi: number): number {
  let a = lo;
  let b = hi - 1;
  while (a < b) {
    const mid = (a + b + 1) >>> 1;
    if (newer[mid] < total) a = mid;
    else b = mid - 1;
  }
  return a;
}
