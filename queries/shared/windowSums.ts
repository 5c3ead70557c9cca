// Cumulative window sums: running totals per key and calendar day, so that the totals of ANY from/to
// window are two lookups per key (the running total at the window's last day minus the one just
// before its first day), whatever the window's length. A year or a month is the same mechanism.
//
// A shape is two tables, built once in a domain's load (buildWindowSumsSql):
//   <table>_days  (day DATE, position INTEGER): the calendar, one row per day that has at least one
//                 source row, numbered in date order.
//   <table>       (position, key columns, days BIGINT, one column per sum): for every key, one row per
//                 calendar day from the key's first row on, holding the running totals up to and
//                 including that day (days = the key's rows so far). Sorted by (position, keys): the
//                 rows at one position are one contiguous slice.
// It is dense (keys x calendar days), which suits keys that are active on most days; for keys active
// on few days, accumulate over a coarser calendar (month starts) to keep the table small. Keys that
// split the calendar (a currency used in one period only) are plain key columns: their running totals
// simply stay constant over the other days, and a filter on them is a WHERE on the totals.
//
// A query then builds the bounds of its window (windowBoundsSql: `lo` = the last position before the
// window, `hi` = the last position inside it) and reads the totals of every key (windowTotalsSql) or of
// arbitrary (before, upto] spans (spanTotalsSql). A lookup is an equality join on `position` with one
// build row, so DuckDB pushes it into the scan as a dynamic filter (position = ...) and zone maps skip
// every row group but the looked-up slice: a window costs O(keys), not O(rows in the window). (Several
// positions in one join become an IN list that prunes only by its min..max range: keep one position
// per join where the slices are large.)
//
// Money sums stay exact: declare them DECIMAL(38,2) (or HUGEINT for squares in cents), never DOUBLE;
// with a count, a sum and a sum of squares per key, a window's mean and standard deviation are exact
// too (n Q - S^2 in integers). Every name here comes from the catalog's own code; client values stay
// bound parameters. Key and sum columns must not be named day, position, days or first_position.
//
// Usage (domains/sebra/queries/tables.ts builds three shapes; programmes.ts reads one):
//   const SUMS: WindowSums = { table: 'x_sums', keys: ['item_id'], sums: { amount: 'DECIMAL(38,2)' } };
//   load:  for (const sql of buildWindowSumsSql(SUMS, 'SELECT item_id, day, amount FROM x_daily')) await db.run(sql);
//   query: `WITH bounds AS (${windowBoundsSql(SUMS, { from: 'CAST($from AS DATE)', to: 'CAST($to AS DATE)' })})
//           SELECT item_id, days, amount FROM (${windowTotalsSql(SUMS, 'bounds')})`

export interface WindowSums {
  /** Name of the running-totals table; its calendar is `<table>_days`. */
  table: string;
  /** Key columns; never null. */
  keys: readonly string[];
  /** Running totals kept per key: column name -> SQL type (the source has a column of that name). */
  sums: Readonly<Record<string, string>>;
}

/** Name of the calendar table of a shape. */
export function calendarTable(shape: WindowSums): string {
  return `${shape.table}_days`;
}

const prefixed = (columns: readonly string[], prefix: string): string[] => columns.map((c) => `${prefix}${c}`);
const list = (columns: readonly string[], prefix = ''): string => prefixed(columns, prefix).join(', ');
const equal = (columns: readonly string[], left: string, right: string): string[] => columns.map((c) => `${left}.${c} = ${right}.${c}`);
const and = (conditions: string[]): string => (conditions.length === 0 ? 'true' : conditions.join(' AND '));

/**
 * Statements that create the shape's two tables from `source`: a SELECT with exactly one row per key
 * and day, with the key columns, `day` (DATE) and a column per sum.
 */
export function buildWindowSumsSql(shape: WindowSums, source: string): string[] {
  const k = shape.keys;
  const days = calendarTable(shape);
  const sums = Object.keys(shape.sums);
  const running = `OVER (PARTITION BY ${list(k)} ORDER BY position ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)`;
  // Running totals on the key's own rows first (a window over the source only), then carried to every
  // later calendar day by an ASOF join: cheaper than a window over the dense grid.
  return [
    `CREATE TABLE ${days} AS
      SELECT day, CAST(row_number() OVER (ORDER BY day) AS INTEGER) AS position
      FROM (SELECT DISTINCT day FROM (${source}))
      ORDER BY position`,
    `CREATE TABLE ${shape.table} AS
      WITH running AS (
        SELECT ${[
          'd.position',
          ...prefixed(k, 's.'),
          `CAST(count(*) ${running} AS BIGINT) AS days`,
          ...sums.map((name) => `CAST(sum(s.${name}) ${running} AS ${shape.sums[name]}) AS ${name}`),
        ].join(', ')}
        FROM (${source}) s JOIN ${days} d ON d.day = s.day
      ), firsts AS (
        SELECT ${list(k)}, min(position) AS first_position FROM running GROUP BY ALL
      ), grid AS (
        SELECT ${['d.position', ...prefixed(k, 'f.')].join(', ')}
        FROM firsts f JOIN ${days} d ON d.position >= f.first_position
      )
      SELECT ${['g.position', ...prefixed(k, 'g.'), ...prefixed(['days', ...sums], 'r.')].join(', ')}
      FROM grid g ASOF JOIN running r ON ${and([...equal(k, 'r', 'g'), 'g.position >= r.position'])}
      ORDER BY ${list(['position', ...k], 'g.')}`,
  ];
}

export interface WindowBoundsOptions {
  /** SQL expressions of the window's first and last day (DATE), e.g. `CAST($from AS DATE)`. */
  from: string;
  to: string;
}

/**
 * One row when the calendar has a day in the window (none otherwise): `lo` (the last position before
 * the window; null when the window starts before the first day), `hi` (the last position inside it)
 * and `first_day` / `last_day` (the first and last calendar day inside the window).
 */
export function windowBoundsSql(shape: WindowSums, options: WindowBoundsOptions): string {
  const inWindow = `day BETWEEN ${options.from} AND ${options.to}`;
  return `SELECT max(position) FILTER (WHERE day < ${options.from}) AS lo,
      max(position) FILTER (WHERE ${inWindow}) AS hi,
      min(day) FILTER (WHERE ${inWindow}) AS first_day, max(day) FILTER (WHERE ${inWindow}) AS last_day
    FROM ${calendarTable(shape)}
    HAVING count(*) FILTER (WHERE ${inWindow}) > 0`;
}

export interface Spans {
  /** A CTE or table with one row per span. */
  from: string;
  /** Its columns that identify a span (carried into the result; not the shape's own column names). */
  carry: readonly string[];
  /** Its column holding the last position of the span, and the one holding the position just before it (null: from the start). */
  upto: string;
  before: string;
}

/**
 * The totals of every key over each span (before, upto] of `spans`: the span's carried columns, the
 * keys, `days` and each sum. Keys without a row inside a span are left out. Two lookups per key and span.
 */
export function spanTotalsSql(shape: WindowSums, spans: Spans): string {
  const { keys: k, table } = shape;
  const carry = spans.carry;
  const types: Record<string, string> = { days: 'BIGINT', ...shape.sums };
  const columns = Object.keys(types);
  const at = (positionColumn: string) =>
    `SELECT ${[...prefixed(carry, 'm.'), ...prefixed(k, 'g.'), ...prefixed(columns, 'g.')].join(', ')}
      FROM ${spans.from} m JOIN ${table} g ON g.position = m.${positionColumn}`;
  const difference = (name: string) => `CAST(u.${name} - coalesce(b.${name}, 0) AS ${types[name]}) AS ${name}`;
  return `SELECT ${[...prefixed(carry, 'u.'), ...prefixed(k, 'u.'), ...columns.map(difference)].join(', ')}
    FROM (${at(spans.upto)}) u
    LEFT JOIN (${at(spans.before)}) b ON ${and([...equal(carry, 'b', 'u'), ...equal(k, 'b', 'u')])}
    WHERE u.days > coalesce(b.days, 0)`;
}

/**
 * The totals over the window of every key with at least one row in it: the keys, `days` and each
 * sum. `bounds` names a CTE built from windowBoundsSql.
 */
export function windowTotalsSql(shape: WindowSums, bounds: string): string {
  return spanTotalsSql(shape, { from: bounds, carry: [], upto: 'hi', before: 'lo' });
}
