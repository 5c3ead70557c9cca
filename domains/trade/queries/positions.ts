// Per-key positions of a served shape (paging.ts), held in JavaScript per database: for every row (its
// place `pos`), the codes and days a request filters on, as small integers, and per grouping column the
// rows of each code in pos order. A filtered page then needs no count over the shape: the matches are
// counted here (a loop over the group's rows, not a scan of the table), and the page is read as the
// range of positions its first and last match span, with the request's own conditions (pageOfLocated).
// Bounded: a shape of more than ROWS_MAX rows is not held (its requests keep the counting statement).
import type { Database } from '../../../engine/database.ts';
import { perDatabase } from '../../../engine/perDatabase.ts';

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

/** Most rows held per shape: 4 bytes per code and day column and per grouping (about 40 MB at this bound for trade_list). */
const ROWS_MAX = 1_500_000;
const READ_CHUNK = 100_000;
/** A null day: fails every bound, as NULL compared in SQL does. */
const NULL_DAY = -1;

interface HeldPositions {
  rows: number;
  /** Per code column: each row's code id (0: null, which no request equals), and the ids by text. */
  codes: Map<string, { ids: Uint32Array; byText: Map<string, number> }>;
  /** Per day column: each row's day as yyyymmdd (order-preserving), NULL_DAY when null. */
  days: Map<string, Int32Array>;
  /** Per grouping column: per code id, its rows in pos order. */
  groups: Map<string, Map<number, Int32Array>>;
}

const dayNumber = (isoDay: string) => Number(isoDay.slice(0, 4)) * 10_000 + Number(isoDay.slice(5, 7)) * 100 + Number(isoDay.slice(8, 10));

async function readPositions(db: Database, spec: PositionSpec): Promise<HeldPositions | null> {
  const [{ n }] = await db.all(`SELECT count(*)::INTEGER AS n, min(pos)::INTEGER AS first, max(pos)::INTEGER AS last FROM ${spec.table}`);
  const rows = Number(n);
  if (rows > ROWS_MAX) return null;
  const codes = new Map(spec.codes.map((c) => [c, { ids: new Uint32Array(rows), byText: new Map<string, number>() }]));
  const days = new Map(spec.days.map((d) => [d, new Int32Array(rows)]));
  const select = [
    'pos',
    ...spec.codes.map((c) => `CAST(${c} AS VARCHAR) AS ${c}`),
    ...spec.days.map((d) => `(year(${d}) * 10000 + month(${d}) * 100 + day(${d}))::INTEGER AS ${d}`),
  ].join(', ');
  for (let start = 0; start < rows; start += READ_CHUNK) {
    const chunk = await db.all(`SELECT ${select} FROM ${spec.table} WHERE pos > $start AND pos <= $end ORDER BY pos`, { start, end: start + READ_CHUNK });
    for (let k = 0; k < chunk.length; k++) {
      const row = chunk[k];
      const i = start + k;
      // pos must run 1..n without gaps: row i is pos i + 1.
      if (Number(row.pos) !== i + 1) return null;
      for (const [column, held] of codes) {
        const text = row[column];
        if (text === null) continue;
        let id = held.byText.get(String(text));
        if (id === undefined) held.byText.set(String(text), (id = held.byText.size + 1));
        held.ids[i] = id;
      }
      for (const [column, held] of days) held[i] = row[column] === null ? NULL_DAY : Number(row[column]);
    }
    if (chunk.length < Math.min(READ_CHUNK, rows - start)) return null;
  }
  const groups = new Map<string, Map<number, Int32Array>>();
  for (const column of spec.groupBy) {
    const ids = codes.get(column)!.ids;
    const counts = new Map<number, number>();
    for (let i = 0; i < rows; i++) counts.set(ids[i], (counts.get(ids[i]) ?? 0) + 1);
    const lists = new Map<number, Int32Array>();
    const filled = new Map<number, number>();
    for (const [id, count] of counts) (lists.set(id, new Int32Array(count)), filled.set(id, 0));
    for (let i = 0; i < rows; i++) {
      const at = filled.get(ids[i])!;
      lists.get(ids[i])![at] = i;
      filled.set(ids[i], at + 1);
    }
    groups.set(column, lists);
  }
  return { rows, codes, days, groups };
}

/** Per database, per shape spec (by identity), its held positions (null: too large). */
const heldShapes = perDatabase(async () => new Map<PositionSpec, Promise<HeldPositions | null>>());

async function heldPositions(db: Database, spec: PositionSpec): Promise<HeldPositions | null> {
  const shapes = await heldShapes(db);
  let held = shapes.get(spec);
  if (!held) {
    held = readPositions(db, spec);
    shapes.set(spec, held);
    held.catch(() => shapes.delete(spec));
  }
  return held;
}

/** Where a page lies: the matches' count and the positions of the page's first and last match (null when the page is empty). */
export interface LocatedPage {
  total: number;
  range: { first: number; last: number } | null;
}

/**
 * The matches of `filter` in the shape and the position range of the page [offset, offset + limit);
 * null when the shape is not held or the filter names a column it does not hold or no grouping column.
 */
export async function locatePage(db: Database, spec: PositionSpec, filter: PositionFilter, page: { limit: number; offset: number }): Promise<LocatedPage | null> {
  const held = await heldPositions(db, spec);
  if (!held) return null;
  const grouping = spec.groupBy.find((column) => filter.equals.some(([c]) => c === column));
  if (grouping === undefined) return null;
  // Each equality as the accepted ids of its column (a text no row has accepts nothing).
  const equals: Array<{ ids: Uint32Array; accepted: Set<number> }> = [];
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
    for (const list of lists) (candidates.set(list, at), (at += list.length));
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
