// A page and its total from one statement, whose first column is `total` (the rows before paging):
//   - pageWithTotal: the statement counts in a one-row subquery and LEFT JOINs it with the page, so
//     the total comes back even when the page is empty (one row whose item columns are all null);
//   - windowPage (small tables): the total is a window count on every row of the page; only an empty
//     page past the first needs a second statement to count.
import type { Database, SqlParams } from '../../../engine/database.ts';
import type { Row } from '../../../engine/json.ts';
import { PAGE_LIMIT_MAX, type ListPage, type PageOfRows } from '../../../queries/kinds/index.ts';

/**
 * Runs `sql` (its bindings include the page's, see below) and splits its rows into the total and
 * the items. `marker` is an item column that is never null on a real row. A statement that returns
 * no row at all (nothing to count) has total 0.
 */
export async function pageWithTotal(db: Database, sql: string, bindings: SqlParams, page: ListPage, marker: string): Promise<PageOfRows<Row>> {
  const rows = await db.all(sql, bindings);
  const total = rows.length === 0 ? 0 : Number(rows[0].total);
  const items = rows.filter((row) => row[marker] !== null).map(({ total: _total, ...item }) => item);
  return { rows: items, limit: page.limit, offset: page.offset, total };
}

/**
 * A page of `sql` (a small table's rows: it selects `count(*) OVER ()::INTEGER AS total` first and
 * ends with its ORDER BY, a total order); LIMIT and OFFSET are appended here.
 */
export async function windowPage(db: Database, sql: string, bindings: SqlParams, page: ListPage): Promise<PageOfRows<Row>> {
  const rows = await db.all(`${sql}\n  LIMIT $page_limit OFFSET $page_offset`, { ...bindings, ...limitBindings(page) });
  let total = rows.length === 0 ? 0 : Number(rows[0].total);
  if (rows.length === 0 && page.offset > 0) {
    const [counted] = await db.all(`SELECT count(*)::INTEGER AS total FROM (${sql}) AS counted`, bindings);
    total = Number(counted.total);
  }
  return { rows: rows.map(({ total: _total, ...item }) => item), limit: page.limit, offset: page.offset, total };
}

/** $page_limit and $page_offset, for LIMIT / OFFSET. */
export function limitBindings(page: ListPage): SqlParams {
  return { page_limit: page.limit, page_offset: page.offset };
}

/** $page_first and $page_last: the 1-based positions of the page's first and last row. */
export function positionBindings(page: ListPage): SqlParams {
  return { page_first: page.offset + 1, page_last: page.offset + page.limit };
}

/**
 * DuckDB turns a hash join whose build side has at most this many keys into an IN filter on the
 * probe side (its dynamic_or_filter_threshold, default 50), which a table with an index on the
 * column reads by index lookups instead of scanning.
 */
const LOOKUP_SLICE = 50;

/**
 * The rows of `table` (which has a unique index on price_order) at the price_orders of the CTE
 * `page` (columns price_order and slot, 1 to at most `slots`): one semi-join per slice of
 * LOOKUP_SLICE slots, so each is index lookups, not a scan of the range the page spans.
 */
export function rowsAtPageSql(table: string, slots: number): string {
  const slices = Math.max(1, Math.ceil(slots / LOOKUP_SLICE));
  return Array.from({ length: slices }, (_, i) =>
    `SELECT * FROM ${table} WHERE price_order IN (SELECT price_order FROM page WHERE slot BETWEEN ${i * LOOKUP_SLICE + 1} AND ${(i + 1) * LOOKUP_SLICE})`,
  ).join('\n    UNION ALL ');
}

/**
 * The SQL texts of a statement for every page limit up to PAGE_LIMIT_MAX, one per number of lookup
 * slices (built once, so each is prepared once per connection): `build` gets the slots to cover.
 */
export function sqlPerSliceCount(build: (slots: number) => string): (limit: number) => string {
  const texts = Array.from({ length: Math.ceil(PAGE_LIMIT_MAX / LOOKUP_SLICE) }, (_, i) => build((i + 1) * LOOKUP_SLICE));
  return (limit) => texts[Math.max(1, Math.ceil(limit / LOOKUP_SLICE)) - 1];
}
