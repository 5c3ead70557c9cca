// The small agri-food tables held in JavaScript, read once per database on first use (a few hundred
// rows at x10, a few thousand at x100): the commodities, the keys (text columns of the price rows),
// the begin_dates with their price_order runs, and per key its number of rows and of changes at each
// date (agri_key_grid) as running counts. With them a list's text filters, its total and the
// price_order range holding its page are computed here, and the page is one range read of a
// rendered table sorted by price_order (agri_price_rows, agri_change_rows), in table order.
import type { Database } from '../../../engine/database.ts';
import type { Row } from '../../../engine/json.ts';
import { requiredHeldView, type HeldRows } from '../../../engine/held.ts';
import type { ListPage, PageOfRows } from '../../../queries/kinds/index.ts';
import type { PriceFilter } from './filters.ts';

interface KeyRow {
  key_id: number;
  dataset: string;
  commodity_id: string;
  member_state_code: string;
  market: [string | null, string | null];
  stage: [string | null, string | null];
  unit: string | null;
  product_type: string | null;
  pig_class: string | null;
}

export interface AgriState {
  /** agri_commodities (id columns) in commodity_id order. */
  commodities: Row[];
  keys: KeyRow[];
  maxKey: number;
  /** begin_dates newest first, with their price_order runs. */
  dates: string[];
  first: Int32Array;
  last: Int32Array;
  /** Per key_id, its anomalies at the default thresholds (agri_anomaly_rows). */
  anomalies: Int32Array;
  /**
   * agri_anomaly_rows by pos_all (index pos_all - 1): its dataset, member state and sizes (|percent
   * change|, |z-score|; NaN for null), so a threshold over the defaults is counted and paged here.
   */
  anomalyRows: { dataset: string[]; memberState: string[]; percentSize: Float64Array; zSize: Float64Array };
  /** agri_latest's series (dataset, member state) in series order. */
  latest: Array<{ dataset: string; member_state_code: string }>;
  /** Per kind, running counts: [key_id * (dates + 1) + i] = rows of the key at date indexes < i; key 0 = every key. */
  running: { prices: Int32Array; changes: Int32Array };
  /** Per kind, [key_id] = the kpos of the key's first row in the _by_key copy (rows of the keys before it). */
  keyStart: { prices: Float64Array; changes: Float64Array };
}

const lowerOrNull = (value: unknown) => (value === null || value === undefined ? null : String(value).toLowerCase());

const KEYS_SQL = `SELECT key_id, dataset, commodity_id, member_state_code, market_name, market_code, stage_name, stage_code, unit,
    product_type, pig_class FROM agri_price_keys`;

function buildState({ commodities, keyRows, dateRows, gridRows, latestRows, anomalyRows }: HeldRows): AgriState {
  const keys = keyRows.map((row) => ({
    key_id: Number(row.key_id),
    dataset: String(row.dataset),
    commodity_id: String(row.commodity_id),
    member_state_code: String(row.member_state_code),
    market: [lowerOrNull(row.market_name), lowerOrNull(row.market_code)] as [string | null, string | null],
    stage: [lowerOrNull(row.stage_name), lowerOrNull(row.stage_code)] as [string | null, string | null],
    unit: lowerOrNull(row.unit),
    product_type: lowerOrNull(row.product_type),
    pig_class: lowerOrNull(row.pig_class),
  }));
  const maxKey = keys.reduce((max, key) => Math.max(max, key.key_id), 0);
  const n = dateRows.length;
  const width = n + 1;
  const running = { prices: new Int32Array((maxKey + 1) * width), changes: new Int32Array((maxKey + 1) * width) };
  const anomalies = new Int32Array(maxKey + 1);
  for (const row of gridRows) {
    anomalies[Number(row.key_id)] = Number(row.anomalies);
    const base = Number(row.key_id) * width;
    for (const kind of ['prices', 'changes'] as const) {
      const text = String(row[kind]);
      const counts = running[kind];
      for (let i = 0; i < n; i++) {
        const count = text.charCodeAt(i) - 48;
        counts[base + i + 1] = counts[base + i] + count;
        counts[i + 1] += count;
      }
    }
  }
  // Key 0 (every key) holds per-date counts so far: make them running.
  for (const kind of ['prices', 'changes'] as const) {
    const counts = running[kind];
    for (let i = 1; i <= n; i++) counts[i] += counts[i - 1];
  }
  // A key's rows in the _by_key copies follow every row of the keys before it (key 0 is every key: skipped).
  const keyStart = { prices: new Float64Array(maxKey + 2), changes: new Float64Array(maxKey + 2) };
  for (const kind of ['prices', 'changes'] as const) {
    for (let key = 1; key <= maxKey; key++) keyStart[kind][key + 1] = keyStart[kind][key] + running[kind][key * width + n];
  }
  return {
    commodities,
    keys,
    maxKey,
    keyStart,
    dates: dateRows.map((row) => String(row.begin_date)),
    first: Int32Array.from(dateRows, (row) => Number(row.first_order)),
    last: Int32Array.from(dateRows, (row) => Number(row.last_order)),
    running,
    anomalies,
    latest: latestRows.map((row) => ({ dataset: String(row.dataset), member_state_code: String(row.member_state_code) })),
    anomalyRows: {
      dataset: anomalyRows.map((row) => String(row.dataset)),
      memberState: anomalyRows.map((row) => String(row.member_state_code)),
      percentSize: Float64Array.from(anomalyRows, (row) => (row.percent_size === null ? NaN : Number(row.percent_size))),
      zSize: Float64Array.from(anomalyRows, (row) => (row.z_size === null ? NaN : Number(row.z_size))),
    },
  };
}

/** A rendered row's item (its JSON text, tables.ts: itemAsJson). */
export const parsedItem = (row: Row): Row => JSON.parse(String(row.item)) as Row;

/** The database's agri-food state (required: the lists have no other statement for their totals and ranges). */
export const agriState = requiredHeldView<AgriState>({
  name: 'agrifood.keyGrid',
  sql: {
    commodities: 'SELECT commodity_id, dataset, product_name, product_code, product_type, pig_class FROM agri_commodities ORDER BY commodity_id',
    keyRows: `${KEYS_SQL} ORDER BY key_id`,
    dateRows: 'SELECT begin_date, first_order, last_order FROM agri_price_dates ORDER BY begin_date DESC',
    gridRows: 'SELECT key_id, anomalies, prices, changes FROM agri_key_grid ORDER BY key_id',
    latestRows: 'SELECT dataset, member_state_code FROM agri_latest ORDER BY series_id',
    anomalyRows: 'SELECT dataset, member_state_code, percent_size, z_size FROM agri_anomaly_rows ORDER BY pos_all',
  },
  key: ['key_id'],
  order: 'key_id; begin_date DESC; pos_all',
  rowsMax: 2_000_000,
  bytesMax: 256 * 2 ** 20,
  build: buildState,
  parity: [
    {
      // The key's text columns as the filters compare them (JavaScript's toLowerCase against DuckDB's lower()).
      part: 'a key, lower-cased',
      probes: 'SELECT key_id FROM agri_price_keys ORDER BY hash(key_id), key_id LIMIT 40',
      keyed: `SELECT key_id, dataset, commodity_id, member_state_code, lower(market_name) AS market_name, lower(market_code) AS market_code,
          lower(stage_name) AS stage_name, lower(stage_code) AS stage_code, lower(unit) AS unit, lower(product_type) AS product_type,
          lower(pig_class) AS pig_class
        FROM agri_price_keys WHERE key_id = $key_id`,
      answer: (state, probe) => state.keys.filter((key) => key.key_id === Number(probe.key_id)).map((key) => ({
        key_id: key.key_id, dataset: key.dataset, commodity_id: key.commodity_id, member_state_code: key.member_state_code,
        market_name: key.market[0], market_code: key.market[1], stage_name: key.stage[0], stage_code: key.stage[1],
        unit: key.unit, product_type: key.product_type, pig_class: key.pig_class,
      })),
    },
    {
      part: 'a date and its price_order run',
      probes: 'SELECT CAST(begin_date AS VARCHAR) AS day FROM agri_price_dates ORDER BY hash(day), day LIMIT 40',
      keyed: 'SELECT CAST(begin_date AS VARCHAR) AS day, first_order, last_order FROM agri_price_dates WHERE CAST(begin_date AS VARCHAR) = $day',
      answer: (state, probe) => state.dates.flatMap((day, i) => (day === probe.day ? [{ day, first_order: state.first[i], last_order: state.last[i] }] : [])),
    },
  ],
});

const same = (value: string | null, wanted: string | null) => value !== null && value === wanted;

/** The key_ids KEY_FILTER_SQL keeps (ascending), or null when the filter does not narrow the keys. */
export function matchedKeys(state: AgriState, filter: PriceFilter): number[] | null {
  const market = lowerOrNull(filter.market ?? null);
  const unit = lowerOrNull(filter.unit ?? null);
  const stage = lowerOrNull(filter.stage ?? null);
  const productType = lowerOrNull(filter.productType ?? null);
  const pigClass = lowerOrNull(filter.pigClass ?? null);
  const dataset = filter.dataset ?? null;
  const country = filter.country ?? null;
  const commodities = filter.commodities ? new Set(filter.commodities) : null;
  if (dataset === null && country === null && commodities === null && market === null && unit === null && stage === null &&
    productType === null && pigClass === null) return null;
  const ids: number[] = [];
  for (const key of state.keys) {
    if (dataset !== null && key.dataset !== dataset) continue;
    if (country !== null && key.member_state_code !== country) continue;
    if (commodities !== null && !commodities.has(key.commodity_id)) continue;
    if (market !== null && !same(key.market[0], market) && !same(key.market[1], market)) continue;
    if (unit !== null && !same(key.unit, unit)) continue;
    if (stage !== null && !same(key.stage[0], stage) && !same(key.stage[1], stage)) continue;
    if (productType !== null && !same(key.product_type, productType)) continue;
    if (pigClass !== null && !same(key.pig_class, pigClass)) continue;
    ids.push(key.key_id);
  }
  return ids;
}

/** The date indexes [newest, oldest] of a begin_date window (newest > oldest: no date). */
export function dateWindow(state: AgriState, filter: Pick<PriceFilter, 'date' | 'dateFrom' | 'dateTo'>): [number, number] {
  let upper = filter.dateTo ?? null;
  let lower = filter.dateFrom ?? null;
  if (filter.date) {
    if (upper === null || filter.date < upper) upper = filter.date;
    if (lower === null || filter.date > lower) lower = filter.date;
  }
  const { dates } = state;
  // dates are descending: the first index whose date <= upper, the last whose date >= lower.
  let lo = 0;
  let hi = dates.length;
  if (upper !== null) {
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (dates[mid] > upper) lo = mid + 1;
      else hi = mid;
    }
  }
  const newest = lo;
  hi = dates.length;
  if (lower === null) lo = hi;
  else {
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (dates[mid] >= lower) lo = mid + 1;
      else hi = mid;
    }
  }
  return [newest, lo - 1];
}

export type GridKind = 'prices' | 'changes';

/** Rows of `keys` (null: every key) at date indexes [a, b). */
function rowsBetween(state: AgriState, kind: GridKind, keys: readonly number[] | null, a: number, b: number): number {
  if (b <= a) return 0;
  const counts = state.running[kind];
  const width = state.dates.length + 1;
  if (keys === null) return counts[b] - counts[a];
  let total = 0;
  for (const key of keys) total += counts[key * width + b] - counts[key * width + a];
  return total;
}

/** The SQL of a page read: a price_order range of `table`, kept to a key range and (when given) the keys of a mask. */
const rangeSql = (table: string) => `SELECT item FROM ${table}
  WHERE price_order BETWEEN $lo AND $hi AND key_id BETWEEN $key_lo AND $key_hi
    AND (CAST($mask AS VARCHAR) IS NULL OR substr($mask, key_id - $key_lo + 1, 1) = '1')`;
const RANGE_SQL: Record<GridKind, string> = { prices: rangeSql('agri_price_rows'), changes: rangeSql('agri_change_rows') };
/** The same rows from the key-major copy: a kpos range (the keys' rows, all dates between) kept to the price_order range. */
const keyRangeSql = (table: string) => `SELECT price_order, item FROM ${table}_by_key
  WHERE kpos BETWEEN $kpos_lo AND $kpos_hi AND price_order BETWEEN $lo AND $hi
    AND (CAST($mask AS VARCHAR) IS NULL OR substr($mask, key_id - $key_lo + 1, 1) = '1')`;
const KEY_RANGE_SQL: Record<GridKind, string> = { prices: keyRangeSql('agri_price_rows'), changes: keyRangeSql('agri_change_rows') };
/** The SQL of an unfiltered page: a range of list positions. */
const POSITION_SQL: Record<GridKind, string> = {
  prices: 'SELECT item FROM agri_price_rows WHERE price_order BETWEEN $lo AND $hi',
  changes: 'SELECT item FROM agri_change_rows WHERE list_pos BETWEEN $lo AND $hi',
};

/**
 * The page of a grid list: the rows of `keys` (null: all) at date indexes [newest, oldest], in
 * price_order (ASC: newest first) or reversed (DESC), with the total. One range read.
 */
export async function gridPage(
  db: Database,
  state: AgriState,
  kind: GridKind,
  keys: readonly number[] | null,
  [newest, oldest]: [number, number],
  page: ListPage,
  direction: 'ASC' | 'DESC',
): Promise<PageOfRows<Row>> {
  const empty = (total: number): PageOfRows<Row> => ({ rows: [], limit: page.limit, offset: page.offset, total });
  if (newest > oldest || (keys !== null && keys.length === 0)) return empty(0);
  const total = rowsBetween(state, kind, keys, newest, oldest + 1);
  if (page.offset >= total || page.limit <= 0) return empty(total);
  const want = Math.min(page.limit, total - page.offset);
  // Date indexes in list order: ASC walks newest -> oldest, DESC oldest -> newest. `before(d)` counts
  // the rows listed before date index d's rows; the page starts in the last date whose before <= offset.
  const before = (d: number) => (direction === 'ASC'
    ? rowsBetween(state, kind, keys, newest, d)
    : rowsBetween(state, kind, keys, d + 1, oldest + 1));
  // Positions along the list: p = 0 .. span-1, date index = newest + p (ASC) or oldest - p (DESC).
  const span = oldest - newest + 1;
  const dateAt = (p: number) => (direction === 'ASC' ? newest + p : oldest - p);
  const lastStartingBefore = (position: number) => {
    // The largest p with before(dateAt(p)) <= position (before is nondecreasing in p).
    let lo = 0;
    let hi = span - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (before(dateAt(mid)) <= position) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const startP = lastStartingBefore(page.offset);
  const endP = lastStartingBefore(page.offset + want - 1);
  const skipped = before(dateAt(startP));
  const [dNew, dOld] = direction === 'ASC' ? [dateAt(startP), dateAt(endP)] : [dateAt(endP), dateAt(startP)];
  let keyLo = 1;
  let keyHi = state.maxKey;
  let mask: string | null = null;
  if (keys !== null) {
    keyLo = keys[0];
    keyHi = keys[keys.length - 1];
    if (keyHi - keyLo + 1 !== keys.length) {
      const bits = new Array<string>(keyHi - keyLo + 1).fill('0');
      for (const key of keys) bits[key - keyLo] = '1';
      mask = bits.join('');
    }
  }
  let rows: Row[];
  if (keys === null) {
    // Every row of the window counts: the page is a range of list positions (1-based, in price_order).
    const start = rowsBetween(state, kind, null, 0, newest);
    const lo = direction === 'ASC' ? start + page.offset + 1 : start + total - page.offset - want + 1;
    rows = await db.all(POSITION_SQL[kind], { lo, hi: lo + want - 1 });
    if (direction === 'DESC') rows.reverse();
  } else {
    const lo = state.first[dNew];
    const hi = state.last[dOld];
    // The key-major copy when its range is the shorter scan: from the first key's rows at dNew to the
    // last key's rows at dOld (the keys between contribute all their dates, cut by price_order).
    const width = state.dates.length + 1;
    const counts = state.running[kind];
    const kposLo = state.keyStart[kind][keyLo] + counts[keyLo * width + dNew];
    const kposHi = state.keyStart[kind][keyHi] + counts[keyHi * width + dOld + 1] - 1;
    if (kposHi - kposLo < hi - lo) {
      rows = await db.all(KEY_RANGE_SQL[kind], { kpos_lo: kposLo, kpos_hi: kposHi, lo, hi, key_lo: keyLo, mask });
      // In key order: put them in list order (price_order is unique).
      rows.sort((a, b) => (direction === 'ASC' ? Number(a.price_order) - Number(b.price_order) : Number(b.price_order) - Number(a.price_order)));
    } else {
      rows = await db.all(RANGE_SQL[kind], { lo, hi, key_lo: keyLo, key_hi: keyHi, mask });
      if (direction === 'DESC') rows.reverse();
    }
    const skip = page.offset - skipped;
    rows = rows.slice(skip, skip + want);
  }
  return { rows: rows.map(parsedItem), limit: page.limit, offset: page.offset, total };
}

/** Most rows a period page scans in the key-major copy; a wider range takes the general statement (priceList.ts). */
const PERIOD_SCAN_MAX = 4000;

const PERIOD_SQL = `SELECT price_order, item FROM agri_price_rows_by_key
  WHERE kpos BETWEEN $kpos_lo AND $kpos_hi AND price_order BETWEEN $lo AND $hi
    AND (CAST($mask AS VARCHAR) IS NULL OR substr($mask, key_id - $key_lo + 1, 1) = '1')
    AND (CAST($week AS INTEGER) IS NULL OR week_number = CAST($week AS INTEGER))
    AND (CAST($marketing_year AS VARCHAR) IS NULL OR marketing_year = $marketing_year)`;

/**
 * A price list with a period (week number or marketing year) and text filters that match `keys`: the
 * grid does not count periods, so every row of the keys in the date window that has the period is
 * read (one kpos range of the key-major copy), then counted, ordered and paged here. Null when that
 * range exceeds PERIOD_SCAN_MAX rows (the caller takes the general statement).
 */
export async function periodPage(
  db: Database,
  state: AgriState,
  keys: readonly number[],
  [newest, oldest]: [number, number],
  period: { week: number | null; marketingYear: string | null },
  page: ListPage,
  direction: 'ASC' | 'DESC',
): Promise<PageOfRows<Row> | null> {
  if (newest > oldest || keys.length === 0) return { rows: [], limit: page.limit, offset: page.offset, total: 0 };
  const keyLo = keys[0];
  const keyHi = keys[keys.length - 1];
  const width = state.dates.length + 1;
  const counts = state.running.prices;
  const kposLo = state.keyStart.prices[keyLo] + counts[keyLo * width + newest];
  const kposHi = state.keyStart.prices[keyHi] + counts[keyHi * width + oldest + 1] - 1;
  if (kposHi - kposLo + 1 > PERIOD_SCAN_MAX) return null;
  let mask: string | null = null;
  if (keyHi - keyLo + 1 !== keys.length) {
    const bits = new Array<string>(keyHi - keyLo + 1).fill('0');
    for (const key of keys) bits[key - keyLo] = '1';
    mask = bits.join('');
  }
  const rows = await db.all(PERIOD_SQL, {
    kpos_lo: kposLo, kpos_hi: kposHi, lo: state.first[newest], hi: state.last[oldest], key_lo: keyLo, mask,
    week: period.week, marketing_year: period.marketingYear,
  });
  rows.sort((a, b) => (direction === 'ASC' ? Number(a.price_order) - Number(b.price_order) : Number(b.price_order) - Number(a.price_order)));
  const onPage = page.limit <= 0 ? [] : rows.slice(page.offset, page.offset + page.limit);
  return { rows: onPage.map(parsedItem), limit: page.limit, offset: page.offset, total: rows.length };
}
