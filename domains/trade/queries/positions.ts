// Per-key positions of a served shape (paging.ts), held in JavaScript per database: for every row (its
// place `pos`), the codes and days a request filters on, as small integers, and per grouping column the
// rows of each code in pos order. A filtered page then needs no count over the shape: the matches are
// counted here (a loop over the group's rows, not a scan of the table), and the page is read as the
// range of positions its first and last match span, with the request's own conditions (pageOfLocated).
// Bounded: a shape that would take more than SHAPE_BYTES_MAX is not held (its requests keep the counting statement).
import type { Database } from '../../../engine/database.ts';
import type { Row } from '../../../engine/json.ts';
import { heldView, type HeldView } from '../../../engine/held.ts';

/** What is held of a shape: its code columns (compared for equality), day columns (compared with bounds), and the columns rows are grouped by. */
export interface PositionSpec {
  /** The shape table read whole (pos 1..n), a name from the code. */
  table: string;
  codes: readonly string[];
  days: readonly string[];
  /** Code columns with a row list per code; a request is narrowed by the first of them it filters on. */
  groupBy: readonly string[];
}

/** A request's conditions: each code column to one of the values, day columns within inclusive bounds (YYYY-MM-DD). */
export interface PositionFilter {
  equals: ReadonlyArray<readonly [string, readonly string[]]>;
  atLeast: ReadonlyArray<readonly [string, string]>;
  atMost: ReadonlyArray<readonly [string, string]>;
}

/**
 * Most bytes held per shape: 2 bytes per row and code column (4 when a column has 65 535 codes or
 * more), 4 per day column and per grouping (x100: trade_list 0.65M rows 21 MB, trade_price_changes
 * 2.5M rows 45 MB).
 */
const SHAPE_BYTES_MAX = 64 * 2 ** 20;
/** A null day: fails every bound, as NULL compared in SQL does. */
const NULL_DAY = -1;

interface HeldPositions {
  rows: number;
  /** Per code column: each row's code id (0: null, which no request equals), and the ids by text. */
  codes: Map<string, { ids: Uint16Array | Uint32Array; byText: Map<string, number> }>;
  /** Per day column: each row's day as yyyymmdd (order-preserving), NULL_DAY when null. */
  days: Map<string, Int32Array>;
  /** Per grouping column: per code id, its rows in pos order. */
  groups: Map<string, Map<number, Int32Array>>;
}

const dayNumber = (isoDay: string) => Number(isoDay.slice(0, 4)) * 10_000 + Number(isoDay.slice(5, 7)) * 100 + Number(isoDay.slice(8, 10));

/** The bytes held per row of the shape (see SHAPE_BYTES_MAX). */
const bytesPerRow = (spec: PositionSpec) => 2 * spec.codes.length + 4 * spec.days.length + 4 * spec.groupBy.length;

async function readPositions(db: Database, spec: PositionSpec): Promise<HeldPositions | null> {
  const [shape] = await db.all(`SELECT count(*)::INTEGER AS n, min(pos)::INTEGER AS first, max(pos)::INTEGER AS last, count(DISTINCT pos)::INTEGER AS distinct_pos FROM ${spec.table}`);
  const rows = Number(shape.n);
  // pos must run 1..n without gaps: row i is pos i + 1.
  if (rows > 0 && (Number(shape.first) !== 1 || Number(shape.last) !== rows || Number(shape.distinct_pos) !== rows)) return null;
  // Each column comes back as one text of its values in pos order (the driver converts one value, not
  // one per row: a row-per-value read of the x100 trade_list took seconds).
  const inPosOrder = async (expression: string): Promise<number[]> => {
    const [row] = await db.all(`SELECT string_agg(CAST(${expression} AS VARCHAR), ',' ORDER BY pos) AS list FROM ${spec.table}`);
    const values = row.list === null ? [] : String(row.list).split(',').map(Number);
    if (values.length !== rows) throw new Error(`positions of ${spec.table}: ${values.length} values for ${rows} rows`);
    return values;
  };
  const codes = new Map<string, { ids: Uint16Array | Uint32Array; byText: Map<string, number> }>();
  for (const column of spec.codes) {
    // Ids numbered by the text's order (0: null); the dictionary and the per-row ids from the same numbering.
    const dictionary = `(SELECT v, row_number() OVER (ORDER BY v)::INTEGER AS id FROM (SELECT DISTINCT CAST(${column} AS VARCHAR) AS v FROM ${spec.table} WHERE ${column} IS NOT NULL))`;
    const entries = await db.all(`SELECT v, id FROM ${dictionary} ORDER BY id`);
    const byText = new Map(entries.map((entry) => [String(entry.v), Number(entry.id)]));
    const [row] = await db.all(
      `SELECT string_agg(CAST(coalesce(d.id, 0) AS VARCHAR), ',' ORDER BY t.pos) AS list FROM ${spec.table} t LEFT JOIN ${dictionary} d ON d.v = CAST(t.${column} AS VARCHAR)`,
    );
    const ids = row.list === null ? [] : String(row.list).split(',').map(Number);
    if (ids.length !== rows) throw new Error(`positions of ${spec.table}: ${ids.length} ${column} ids for ${rows} rows`);
    codes.set(column, { ids: byText.size < 0xffff ? Uint16Array.from(ids) : Uint32Array.from(ids), byText });
  }
  const days = new Map<string, Int32Array>();
  for (const column of spec.days) {
    days.set(column, Int32Array.from(await inPosOrder(`coalesce(year(${column}) * 10000 + month(${column}) * 100 + day(${column}), ${NULL_DAY})`)));
  }
  const groups = new Map<string, Map<number, Int32Array>>();
  for (const column of spec.groupBy) {
    const ids = codes.get(column)!.ids;
    const counts = new Map<number, number>();
    for (let i = 0; i < rows; i++) counts.set(ids[i], (counts.get(ids[i]) ?? 0) + 1);
    const lists = new Map<number, Int32Array>();
    const filled = new Map<number, number>();
    for (const [id, count] of counts) {
      lists.set(id, new Int32Array(count));
      filled.set(id, 0);
    }
    for (let i = 0; i < rows; i++) {
      const at = filled.get(ids[i])!;
      lists.get(ids[i])![at] = i;
      filled.set(ids[i], at + 1);
    }
    groups.set(column, lists);
  }
  return { rows, codes, days, groups };
}

/** Per shape (by its content: the same columns of the same table are the same positions), its held view. */
const shapeViews = new Map<string, HeldView<HeldPositions>>();

function viewOf(spec: PositionSpec): HeldView<HeldPositions> {
  const key = JSON.stringify([spec.table, spec.codes, spec.days, spec.groupBy]);
  let view = shapeViews.get(key);
  if (view) return view;
  const taken = [...shapeViews.values()].some((other) => other.spec.name === `trade.positions.${spec.table}`);
  view = heldView<HeldPositions>({
    name: taken ? `trade.positions.${key}` : `trade.positions.${spec.table}`,
    sql: { shape: `SELECT pos, ${[...spec.codes, ...spec.days].join(', ')} FROM ${spec.table} ORDER BY pos` },
    key: spec.groupBy,
    order: 'pos',
    count: `SELECT count(*)::INTEGER AS n FROM ${spec.table}`,
    // rows x bytesPerRow > SHAPE_BYTES_MAX exactly when rows > floor(SHAPE_BYTES_MAX / bytesPerRow).
    rowsMax: Math.floor(SHAPE_BYTES_MAX / bytesPerRow(spec)),
    bytesMax: SHAPE_BYTES_MAX,
    load: (db) => readPositions(db, spec),
    rowsOf: (held) => held.rows,
    bytesOf: (held) => held.rows * bytesPerRow(spec),
    // Per grouping column and code: the matches' count and first and last position, as SQL counts them.
    parity: spec.groupBy.map((column) => ({
      part: `by ${column}`,
      probes: `SELECT DISTINCT CAST(${column} AS VARCHAR) AS code FROM ${spec.table} WHERE ${column} IS NOT NULL ORDER BY hash(code), code LIMIT 30`,
      keyed: `SELECT count(*)::INTEGER AS total, min(pos)::INTEGER AS first, max(pos)::INTEGER AS last FROM ${spec.table}
        WHERE CAST(${column} AS VARCHAR) = $code HAVING count(*) > 0`,
      answer: (held: HeldPositions, probe: Row) => {
        const located = locate(held, spec, { equals: [[column, [String(probe.code)]]], atLeast: [], atMost: [] }, { limit: 2 ** 31, offset: 0 });
        return located === null ? null : located.range === null ? [] : [{ total: located.total, first: located.range.first, last: located.range.last }];
      },
    })),
  });
  shapeViews.set(key, view);
  return view;
}

/**
 * Declares a shape whose positions a route reads (a held view: the server's warm-up reads it, in the
 * background once it listens and before a new generation is swapped in); returns the spec. Read on a
 * request's demand instead, a large shape's read (seconds at x100) ran beside every example's first
 * requests, which counted in SQL meanwhile and were slowed by it (x100 listTrade: 25-150 ms).
 */
export function declarePositions(spec: PositionSpec): PositionSpec {
  viewOf(spec);
  return spec;
}

/**
 * Waits for the shape's positions to be read (false: not held). Requests do not wait: a read takes
 * seconds on a large shape (x100 trade_price_changes, 2.5M rows), so until it completes they count
 * in SQL; this is for the tests and for warming.
 */
export async function positionsRead(db: Database, spec: PositionSpec): Promise<boolean> {
  return (await viewOf(spec)(db)) !== null;
}

/** Where a page lies: the matches' count and the positions of the page's first and last match (null when the page is empty). */
export interface LocatedPage {
  total: number;
  range: { first: number; last: number } | null;
}

/**
 * The matches of `filter` in the shape and the position range of the page [offset, offset + limit);
 * null when the shape is not held (or not read yet), or the filter names a column it does not hold or
 * no grouping column.
 */
export async function locatePage(db: Database, spec: PositionSpec, filter: PositionFilter, page: { limit: number; offset: number }): Promise<LocatedPage | null> {
  // Not read yet (or not held): this request counts in SQL.
  const held = viewOf(spec).peek(db);
  return held === null ? null : locate(held, spec, filter, page);
}

function locate(held: HeldPositions, spec: PositionSpec, filter: PositionFilter, page: { limit: number; offset: number }): LocatedPage | null {
  const grouping = spec.groupBy.find((column) => filter.equals.some(([c]) => c === column));
  if (grouping === undefined) return null;
  // Each equality as the accepted ids of its column (a text no row has accepts nothing).
  const equals: Array<{ ids: Uint16Array | Uint32Array; accepted: Set<number> }> = [];
  let groupIds: number[] = [];
  for (const [column, values] of filter.equals) {
    const codes = held.codes.get(column);
    if (!codes) return null;
    const accepted = new Set<number>();
    for (const value of values) {
      const id = codes.byText.get(value);
      if (id !== undefined) accepted.add(id);
    }
    if (column === grouping) groupIds = [...accepted];
    else equals.push({ ids: codes.ids, accepted });
  }
  const bounds: Array<{ days: Int32Array; min: number; max: number }> = [];
  for (const [column, day] of filter.atLeast) {
    const days = held.days.get(column);
    if (!days) return null;
    bounds.push({ days, min: dayNumber(day), max: Number.MAX_SAFE_INTEGER });
  }
  for (const [column, day] of filter.atMost) {
    const days = held.days.get(column);
    if (!days) return null;
    bounds.push({ days, min: 0, max: dayNumber(day) });
  }
  // The group's rows (several codes: merged into pos order).
  const lists = groupIds.map((id) => held.groups.get(grouping)!.get(id)).filter((list): list is Int32Array => list !== undefined);
  let candidates: Int32Array;
  if (lists.length === 1) candidates = lists[0];
  else {
    candidates = new Int32Array(lists.reduce((n, list) => n + list.length, 0));
    let at = 0;
    for (const list of lists) {
      candidates.set(list, at);
      at += list.length;
    }
    candidates.sort();
  }
  let total = 0;
  let first = 0;
  let last = 0;
  const end = page.offset + page.limit;
  scan: for (let k = 0; k < candidates.length; k++) {
    const i = candidates[k];
    for (const { ids, accepted } of equals) if (!accepted.has(ids[i])) continue scan;
    for (const { days, min, max } of bounds) {
      const day = days[i];
      if (day === NULL_DAY || day < min || day > max) continue scan;
    }
    if (total === page.offset) first = i + 1;
    if (total < end) last = i + 1;
    total++;
  }
  return { total, range: page.offset < total ? { first, last } : null };
}
