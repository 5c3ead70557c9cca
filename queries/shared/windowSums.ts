// Cumulative window sums: running totals per key and calendar day, so that the totals of ANY from/to
// window are two lookups per key (the running total at the window's last day minus the one just
// before its first day), whatever the window's length. A year or a month is the same mechanism.
//
// A shape is two tables, built once in a domain's load (buildWindowSumsSql):
//   <table>_days  (partition columns, day DATE, position INTEGER): the calendar, one row per
//                 partition and day that has at least one source row. Positions run over
//                 (partition, day), so each partition's days are one consecutive run.
//   <table>       (position, key columns, days BIGINT, one column per sum): for every key, one row
//                 per day of its partition's calendar from the key's first row on, holding the
//                 running totals up to and including that day (days = the key's rows so far).
//                 Sorted by (position, keys): the rows at one position are one contiguous slice.
// It is dense (keys x days of the calendar), which suits keys that are active on most days; for keys
// active on few days, accumulate over a coarser calendar (month starts) to keep the table small.
//
// A query then builds the bounds of its window (windowBoundsSql: per partition, `lo` = the last
// position before the window and `hi` = the last position inside it) and reads the totals of every
// key (windowTotalsSql) or of arbitrary (before, upto] spans (spanTotalsSql). The lookups are equality
// joins on `position` with a handful of build rows, so DuckDB pushes them into the scan as dynamic
// filters (position = ..., or an IN list up to `dynamic_or_filter_threshold` values) and zone maps
// skip every row group but the looked-up slices: a window costs O(keys), not O(rows in the window).
//
// Money sums stay exact: declare them DECIMAL(38,2) (or HUGEINT for squares in cents), never DOUBLE.
// Every name here comes from the catalog's own code; client values stay bound parameters.

export interface WindowSums {
  /** Name of the running-totals table; its calendar is `<table>_days`. */
  table: string;
  /** Columns that each have their own calendar (e.g. currency); empty for one calendar. */
  partitionBy: readonly string[];
  /** Key columns inside a partition; never null. */
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
 * Statements that create the shape's two tables from `source`: a SELECT with exactly one row per
 * partition, key and day, with the partition and key columns, `day` (DATE) and a column per sum.
 */
export function buildWindowSumsSql(shape: WindowSums, source: string): string[] {
  const { partitionBy: p, keys: k } = shape;
  const days = calendarTable(shape);
  const sums = Object.entries(shape.sums);
  const running = `OVER (PARTITION BY ${list([...p, ...k], 'g.')} ORDER BY g.position ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)`;
  return [
    `CREATE TABLE ${days} AS
      SELECT ${list([...p, 'day'])}, CAST(row_number() OVER (ORDER BY ${list([...p, 'day'])}) AS INTEGER) AS position
      FROM (SELECT DISTINCT ${list([...p, 'day'])} FROM (${source}))
      ORDER BY position`,
    `CREATE TABLE ${shape.table} AS
      WITH source AS (
        SELECT ${['d.position', ...prefixed([...p, ...k], 's.'), ...sums.map(([name]) => `s.${name}`)].join(', ')}
        FROM (${source}) s JOIN ${days} d ON ${and([...equal(p, 'd', 's'), 'd.day = s.day'])}
      ), firsts AS (
        SELECT ${list([...p, ...k])}, min(position) AS first_position FROM source GROUP BY ALL
      ), grid AS (
        SELECT ${['d.position', ...prefixed(p, 'd.'), ...prefixed(k, 'f.')].join(', ')}
        FROM firsts f JOIN ${days} d ON ${and([...equal(p, 'd', 'f'), 'd.position >= f.first_position'])}
      )
      SELECT ${[
        'g.position',
        ...prefixed(k, 'g.'),
        `CAST(count(s.position) ${running} AS BIGINT) AS days`,
        ...sums.map(([name, type]) => `CAST(sum(coalesce(s.${name}, 0)) ${running} AS ${type}) AS ${name}`),
      ].join(',\n             ')}
      FROM grid g LEFT JOIN source s ON ${and(['s.position = g.position', ...equal(k, 's', 'g')])}
      ORDER BY ${list(['position', ...k], 'g.')}`,
  ];
}

export interface WindowBoundsOptions {
  /** SQL expressions of the window's first and last day (DATE), e.g. `CAST($from AS DATE)`. */
  from: string;
  to: string;
  /** A condition on the calendar's partition columns (e.g. a currency filter); all partitions when omitted. */
  where?: string;
}

/**
 * One row per partition with at least one day in the window: the partition columns, `lo` (its last
 * position before the window; null when the window starts before its first day), `hi` (its last
 * position inside the window) and `first_day` / `last_day` (its first and last day inside the window).
 */
export function windowBoundsSql(shape: WindowSums, options: WindowBoundsOptions): string {
  const p = shape.partitionBy;
  const inWindow = `day BETWEEN ${options.from} AND ${options.to}`;
  return `SELECT ${[
    ...p,
    `max(position) FILTER (WHERE day < ${options.from}) AS lo`,
    `max(position) FILTER (WHERE ${inWindow}) AS hi`,
    `min(day) FILTER (WHERE ${inWindow}) AS first_day`,
    `max(day) FILTER (WHERE ${inWindow}) AS last_day`,
  ].join(', ')}
    FROM ${calendarTable(shape)}
    WHERE ${options.where ?? 'true'}${p.length > 0 ? ` GROUP BY ${list(p)}` : ''}
    HAVING count(*) FILTER (WHERE ${inWindow}) > 0`;
}

export interface Spans {
  /** A CTE or table with one row per span. */
  from: string;
  /** Its columns that identify a span (carried into the result; they must not be the shape's column names). */
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
 * The totals over the window of every key with at least one row in it: the partition columns, the
 * keys, `days` and each sum. `bounds` names a CTE built from windowBoundsSql.
 */
export function windowTotalsSql(shape: WindowSums, bounds: string): string {
  return spanTotalsSql(shape, { from: bounds, carry: shape.partitionBy, upto: 'hi', before: 'lo' });
}
