// The market moves and anomalies (marketShapes.ts) held whole in JavaScript per database. They have a
// row per market series and year, so their size follows the series, not the observations (7,518 moves
// at x1, x10 and x100 alike), and a request's count and top-N over them as a statement cost 3-6 ms of
// DuckDB's fixed work per statement (late materialisation of a dozen text columns), where a loop over
// the held rows in pos order costs microseconds. The rows are the statement's own (db.all, the same
// converter), so an answer is the one the statement gives. Bounded: a shape with more than ROWS_MAX
// rows or more than BYTES_MAX of text (or over the shared budget) is not held, and its requests keep
// the statement (pageOfShape).
import type { Row } from '../../../engine/json.ts';
import { estimatedRowBytes, heldView, type HeldRows } from '../../../engine/held.ts';
import type { ListPage, PageOfRows } from '../../../queries/kinds/index.ts';
import { MARKET_ANOMALIES, MARKET_ANOMALIES_COLUMNS, MARKET_MOVES, MARKET_MOVES_COLUMNS } from './marketShapes.ts';

const ROWS_MAX = 200_000;
/** Estimated by estimatedRowBytes over the answer's columns. */
const BYTES_MAX = 32 * 2 ** 20;

export interface HeldMarketRows {
  /** The answer's columns of each row, in pos order (pos 1 first). */
  rows: readonly Row[];
  countries: readonly string[];
  commodities: readonly string[];
  /** Per row: |percent change| and |z-score| (NaN where the statement has NULL). */
  absPercent: Float64Array;
  absZscore: Float64Array;
}

/** The request's filters: the thresholds and the code lists (null: every code). */
export interface MarketListFilter {
  countries: readonly string[] | null;
  commodities: readonly string[] | null;
}

function buildHeld({ rows }: HeldRows): HeldMarketRows {
  const absPercent = new Float64Array(rows.length);
  const absZscore = new Float64Array(rows.length);
  const answers: Row[] = [];
  for (const [i, row] of rows.entries()) {
    const { held_abs_percent: percent, held_abs_zscore: z, ...answer } = row;
    absPercent[i] = percent === null ? Number.NaN : Number(percent);
    absZscore[i] = z === null ? Number.NaN : Number(z);
    answers.push(answer);
  }
  return {
    rows: answers, absPercent, absZscore,
    countries: answers.map((row) => String(row.country)),
    commodities: answers.map((row) => String(row.commodity)),
  };
}

/** Held as NaN where SQL has NULL: back to NULL, as the statement gives it. */
const nullable = (value: number) => (Number.isNaN(value) ? null : value);

function marketList(name: string, table: string, columns: string, zscore: boolean) {
  return heldView<HeldMarketRows>({
    name,
    sql: { rows: `SELECT ${columns}, abs_percent AS held_abs_percent, ${zscore ? 'abs_zscore' : 'NULL::DOUBLE'} AS held_abs_zscore FROM ${table} ORDER BY pos` },
    count: `SELECT count(*)::INTEGER AS n FROM ${table}`,
    key: ['pos'],
    order: 'pos',
    rowsMax: ROWS_MAX,
    bytesMax: BYTES_MAX,
    build: buildHeld,
    bytesOf: (held) => held.rows.reduce((bytes, row) => bytes + estimatedRowBytes(row), 0),
    // Runs of positions (pos 1..n is row i + 1), with the thresholds' columns.
    parity: {
      probes: `SELECT pos AS first, pos + 9 AS last FROM ${table} WHERE pos % 97 = 1 ORDER BY pos`,
      keyed: `SELECT ${columns}, abs_percent AS held_abs_percent, ${zscore ? 'abs_zscore' : 'NULL::DOUBLE'} AS held_abs_zscore
        FROM ${table} WHERE pos BETWEEN $first AND $last ORDER BY pos`,
      answer: (held, probe) => held.rows.slice(Number(probe.first) - 1, Number(probe.last)).map((row, k) => ({
        ...row,
        held_abs_percent: nullable(held.absPercent[Number(probe.first) - 1 + k]),
        held_abs_zscore: nullable(held.absZscore[Number(probe.first) - 1 + k]),
      })),
    },
  });
}

/** The moves (listMarketChanges), or null when not held. */
export const heldMarketMoves = marketList('trade.marketMoves', MARKET_MOVES.table, MARKET_MOVES_COLUMNS, false);
/** The anomalies (listMarketAnomalies), or null when not held. */
export const heldMarketAnomalies = marketList('trade.marketAnomalies', MARKET_ANOMALIES.table, MARKET_ANOMALIES_COLUMNS, true);

/** `value >= bound` as SQL reads it: NULL, held as NaN, meets no bound (every comparison with NaN is false). */
export const atLeast = (value: number, bound: number): boolean => value >= bound;

/**
 * The rows (in pos order) at `i` with `keep(i)` and codes in the lists, as the statement counts and
 * pages them: the total, and the page's rows from `shape(row, i)` (by default a copy: the held rows stay
 * as read). An offset at or past the total gives an empty page.
 */
export function pageOfHeld(
  held: HeldMarketRows, filter: MarketListFilter, keep: (i: number) => boolean, page: ListPage, shape: (row: Row, i: number) => Row = (row) => ({ ...row }),
): PageOfRows<Row> {
  const countries = filter.countries === null ? null : new Set(filter.countries);
  const commodities = filter.commodities === null ? null : new Set(filter.commodities);
  const rows: Row[] = [];
  let total = 0;
  for (let i = 0; i < held.rows.length; i++) {
    if (!keep(i)) continue;
    if (countries !== null && !countries.has(held.countries[i]!)) continue;
    if (commodities !== null && !commodities.has(held.commodities[i]!)) continue;
    if (total >= page.offset && rows.length < page.limit) rows.push(shape(held.rows[i]!, i));
    total++;
  }
  return { rows, limit: page.limit, offset: page.offset, total };
}
