// Pages of the served shapes (shapes.ts). Every shape table carries `pos`, the row's place in its
// route's total order, and is kept in copies sorted by (keys..., pos): a request reads the copy whose
// leading keys it filters on, so DuckDB's zone maps skip the other keys' row groups and the top-N on
// `pos` stops reading once the page is full. The total and the page come from one statement.
import type { Database, SqlParams } from '../../../engine/database.ts';
import { heldSlot } from '../../../engine/held.ts';
import type { Row } from '../../../engine/json.ts';
import type { ListPage, PageOfRows } from '../../../queries/kinds/index.ts';
import type { LocatedPage } from './positions.ts';

/** A shape table and its copies: each sorted by its leading keys, then pos. */
export interface SortedCopies {
  table: string;
  /** The keys the table itself is sorted by before pos (default none: pos order). */
  sortedBy?: readonly string[];
  /** Each copy is `${table}_by_${keys.join('_')}`, sorted by (keys..., pos): it serves requests that filter on its first keys. */
  keyed: ReadonlyArray<readonly string[]>;
}

export const copyName = (table: string, keys: readonly string[]) => (keys.length === 0 ? table : `${table}_by_${keys.join('_')}`);

/** SQL: the shape table from `select` (which yields pos) and its keyed copies, each sorted by its keys then pos. */
export function sortedShapeSql(copies: SortedCopies, select: string): string[] {
  const orderBy = (keys: readonly string[]) => [...keys, 'pos'].join(', ');
  return [
    `CREATE TABLE ${copies.table} AS SELECT * FROM (${select}) ORDER BY ${orderBy(copies.sortedBy ?? [])}`,
    ...copies.keyed.map((keys) => `CREATE TABLE ${copyName(copies.table, keys)} AS SELECT * FROM ${copies.table} ORDER BY ${orderBy(keys)}`),
  ];
}

/** The copy to read when the request filters on `given` keys: the one with the longest leading run of given keys (none: the table). */
export function copyFor(copies: SortedCopies, given: ReadonlySet<string>): string {
  const givenRun = (keys: readonly string[]) => {
    const run = keys.findIndex((key) => !given.has(key));
    return run === -1 ? keys.length : run;
  };
  let best = copies.table;
  let bestRun = givenRun(copies.sortedBy ?? []);
  for (const keys of copies.keyed) {
    if (givenRun(keys) > bestRun) [best, bestRun] = [copyName(copies.table, keys), givenRun(keys)];
  }
  return best;
}

/** The names of the filters a request gives (those not null). */
export const givenKeys = (filters: Record<string, unknown>): Set<string> =>
  new Set(Object.entries(filters).filter(([, value]) => value !== null).map(([key]) => key));

/** Above this offset the total is counted first, so a page past the end is never sorted for. */
const INLINE_OFFSET_MAX = 10_000;

export interface ShapePageQuery {
  /** The copy read (copyFor). */
  table: string;
  /** The output columns, in the answer's key order (fixed SQL, no client text). */
  columns: string;
  /** Conditions ANDed (fixed SQL fragments with $named placeholders); none: every row. */
  conditions: readonly string[];
  bindings: SqlParams;
  /**
   * The rows meeting the conditions are a leading run of pos (1..total: the table's order is by what the
   * conditions bound), so the page is a range of positions within them.
   */
  leadingRun?: boolean;
}

/**
 * The rows of a shape that meet the conditions, in `pos` order: the total and one page. Without
 * conditions (or when they keep a leading run of pos) the page is a range of positions. An offset at or
 * beyond the total gives an empty page.
 */
export async function pageOfShape(db: Database, query: ShapePageQuery, page: ListPage): Promise<PageOfRows<Row>> {
  const where = query.conditions.length === 0 ? 'true' : query.conditions.join(' AND ');
  const used = usedBindings(query.bindings, where);
  const bindings = { ...used, page_limit: page.limit, page_offset: page.offset };
  const pageSql = query.conditions.length === 0 || query.leadingRun
    ? `SELECT ${query.columns}, pos AS page_pos FROM ${query.table} WHERE ${query.conditions.length === 0 ? '' : `${where} AND `}pos > $page_offset AND pos <= $page_offset + $page_limit ORDER BY pos`
    : `SELECT ${query.columns}, pos AS page_pos FROM ${query.table} WHERE ${where} ORDER BY pos LIMIT $page_limit OFFSET $page_offset`;
  if (query.conditions.length === 0) {
    // Every row: the total is the table's (counted once per database), the page a range of pos.
    const total = await rowCount(db, query.table);
    const rows = page.offset >= total ? [] : await db.all(pageSql, bindings);
    return { rows: rows.map(withoutPaging), limit: page.limit, offset: page.offset, total };
  }
  const countSql = `SELECT count(*)::INTEGER AS page_total FROM ${query.table} WHERE ${where}`;
  if (page.offset > INLINE_OFFSET_MAX) {
    const [{ page_total: total }] = await db.all(countSql, used);
    const rows = page.offset >= Number(total) ? [] : await db.all(pageSql, bindings);
    return { rows: rows.map(withoutPaging), limit: page.limit, offset: page.offset, total: Number(total) };
  }
  // One statement: the count joined to the page (one row of nulls but the total when the page is empty).
  const rows = await db.all(
    `WITH counted AS (${countSql}), page AS (${pageSql})
     SELECT counted.page_total, page.* FROM counted LEFT JOIN page ON true ORDER BY page.page_pos`,
    bindings,
  );
  const total = Number(rows[0].page_total);
  return { rows: rows.filter((row) => row.page_pos !== null).map(withoutPaging), limit: page.limit, offset: page.offset, total };
}

/**
 * A page whose matches were counted and located in JavaScript (positions.ts): the total is given, and
 * the page is the matches between the page's first and last positions, read with the conditions.
 */
export async function pageOfLocated(db: Database, query: ShapePageQuery, page: ListPage, located: LocatedPage): Promise<PageOfRows<Row>> {
  if (located.range === null) return { rows: [], limit: page.limit, offset: page.offset, total: located.total };
  const where = query.conditions.length === 0 ? 'true' : query.conditions.join(' AND ');
  const rows = await db.all(
    `SELECT ${query.columns}, pos AS page_pos FROM ${query.table} WHERE ${where} AND pos >= $page_first AND pos <= $page_last ORDER BY pos`,
    { ...usedBindings(query.bindings, where), page_first: located.range.first, page_last: located.range.last },
  );
  return { rows: rows.map(withoutPaging), limit: page.limit, offset: page.offset, total: located.total };
}

/** The column a page of a shape built withItem reads (format.ts), and its rows as the answer's items. */
export const ITEM_COLUMN = 'item';
export function parsedItems(page: PageOfRows<Row>): PageOfRows<Row> {
  return { ...page, rows: page.rows.map((row) => JSON.parse(String(row.item)) as Row) };
}

/** Per database, the row count of each shape table read whole (a snapshot does not change while served). */
const tableCounts = heldSlot('trade.tableCounts', () => new Map<string, Promise<number>>());

/** The number of rows of `table` (a shape name from the code, never client text), counted once per database. */
async function rowCount(db: Database, table: string): Promise<number> {
  const counts = tableCounts(db);
  let count = counts.get(table);
  if (!count) {
    count = db.all(`SELECT count(*)::INTEGER AS total FROM ${table}`).then(([row]) => Number(row.total));
    counts.set(table, count);
    count.catch(() => counts.delete(table));
  }
  return count;
}

/** The bindings whose placeholders the SQL names (a statement refuses values it has no place for). */
export function usedBindings(bindings: SqlParams, sql: string): SqlParams {
  return Object.fromEntries(Object.entries(bindings).filter(([name]) => new RegExp(`\\$${name}\\b`).test(sql)));
}

function withoutPaging(row: Row): Row {
  const { page_total: _total, page_pos: _pos, ...rest } = row;
  return rest;
}

/** Placeholders for a list of values (`col IN ($p_0, $p_1, ...)`), so the filter reaches the scan. */
export function inList(column: string, name: string, values: readonly string[]): { sql: string; bindings: SqlParams } {
  if (values.length === 0) return { sql: 'false', bindings: {} };
  // Padded to a power of two with the last value: few distinct statements, same meaning.
  let size = 1;
  while (size < values.length) size *= 2;
  const padded = Array.from({ length: size }, (_, i) => values[Math.min(i, values.length - 1)]);
  const bindings = Object.fromEntries(padded.map((value, i) => [`${name}_${i}`, value]));
  return { sql: `${column} IN (${padded.map((_, i) => `$${name}_${i}`).join(', ')})`, bindings };
}
