// The accidents of each settlement and of each oblast held as running counts in JavaScript, read once
// per database on first use (at most one row per group and day: about 87 000 settlement days at x100):
// per settlement (per oblast) its days newest first, with the number of its accidents on newer days and
// the range of crash_order on each day; and the name keys each settlement is found by. With them a
// window of a group is a run of its accidents in crash order (city_pos or region_pos: ptp_crashes
// numbered by the group then crash_order), found by two binary searches, and the page is one range
// read of ptp_crashes.
import type { Row } from '../../../engine/json.ts';
import { requiredHeldView, type HeldParity } from '../../../engine/held.ts';

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
function groupDaysSql(table: string, group: string): string {
  // One row per group, its days' columns as comma-separated text (tens of rows instead of one per day).
  return `SELECT ${group} AS run_group, any_value(first_pos) AS first_pos,
      string_agg(CAST(day AS VARCHAR), ',' ORDER BY day DESC) AS days, string_agg(CAST(crashes AS VARCHAR), ',' ORDER BY day DESC) AS crashes,
      string_agg(CAST(first_order AS VARCHAR), ',' ORDER BY day DESC) AS first_orders, string_agg(CAST(last_order AS VARCHAR), ',' ORDER BY day DESC) AS last_orders
    FROM ${table} GROUP BY ${group}`;
}

function buildGroupDays(rows: readonly Row[]): Map<string, GroupDays> {
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

const groupDaysBytes = (groups: ReadonlyMap<string, GroupDays>): number => {
  let bytes = 0;
  for (const [name, entry] of groups) {
    bytes += 64 + 2 * name.length + entry.days.byteLength + entry.newer.byteLength + entry.firstOrder.byteLength + entry.lastOrder.byteLength;
  }
  return bytes;
};

/** The parity check of one group's days: the table's rows of the group, newest first. */
function groupDaysParity<T>(table: string, group: string, groupsOf: (value: T) => ReadonlyMap<string, GroupDays>): HeldParity<T> {
  return {
    part: `${table} by ${group}`,
    probes: `SELECT DISTINCT ${group} AS run_group FROM ${table} ORDER BY hash(run_group), run_group LIMIT 30`,
    keyed: `SELECT day, crashes, first_order, last_order, first_pos FROM ${table} WHERE ${group} = $run_group ORDER BY day DESC`,
    answer: (value, probe) => {
      const entry = groupsOf(value).get(String(probe.run_group));
      if (!entry) return [];
      return Array.from(entry.days, (day, i) => ({
        day, crashes: entry.newer[i + 1] - entry.newer[i], first_order: entry.firstOrder[i], last_order: entry.lastOrder[i], first_pos: entry.firstPos,
      }));
    },
  };
}

/** The settlements' index of this database (required: the per-city windows have no other statement). */
export const cityIndex = requiredHeldView<CityIndex>({
  name: 'ptp.cityIndex',
  sql: { keys: 'SELECT key, location FROM ptp_place_keys', days: groupDaysSql('ptp_city_days', 'location') },
  key: ['key', 'location'],
  order: 'day DESC',
  rowsMax: 1_000_000,
  bytesMax: 256 * 2 ** 20,
  build: ({ keys, days }) => {
    const byKey = new Map<string, string[]>();
    for (const row of keys) {
      const key = String(row.key);
      const list = byKey.get(key);
      if (list) list.push(String(row.location));
      else byKey.set(key, [String(row.location)]);
    }
    return { byKey, settlements: buildGroupDays(days) };
  },
  bytesOf: (index, { keys }) => groupDaysBytes(index.settlements) + keys.length * 96,
  parity: [
    {
      part: 'name keys',
      probes: 'SELECT DISTINCT key FROM ptp_place_keys ORDER BY hash(key), key LIMIT 40',
      keyed: 'SELECT DISTINCT location FROM ptp_place_keys WHERE key = $key ORDER BY location',
      answer: (index, probe) => matchedSettlements(index, [String(probe.key)]).map((location) => ({ location })),
    },
    groupDaysParity('ptp_city_days', 'location', (index: CityIndex) => index.settlements),
  ],
});

/** The oblasts' days of this database by region code (required, as cityIndex). */
export const regionDays = requiredHeldView<Map<string, GroupDays>>({
  name: 'ptp.regionDays',
  sql: { days: groupDaysSql('ptp_region_days', 'region_code') },
  key: ['region_code'],
  order: 'day DESC',
  rowsMax: 1_000,
  bytesMax: 64 * 2 ** 20,
  build: ({ days }) => buildGroupDays(days),
  bytesOf: groupDaysBytes,
  parity: groupDaysParity('ptp_region_days', 'region_code', (groups: Map<string, GroupDays>) => groups),
});

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
