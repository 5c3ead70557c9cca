// The rankings' shape (energy_rankings: one row per metric and geo at the metric's period, and
// energy_metric_periods) held in JavaScript per database. It has a row per metric and country, whatever
// the observations (152 rows at x10), and ranking a request's geos as one statement (a window, a sort,
// a scalar subquery and a join) costs 5-8 ms of DuckDB's per-operator work, where a sort of a few dozen
// held rows costs microseconds. The rows are the statement's own (db.all, the same converter).
// Held only where JavaScript's order is provably DuckDB's: every value a finite number other than -0
// or NULL (NULL sorts last and ties with NULL, as in DuckDB), every geo printable ASCII (byte order).
// Above ROWS_MAX rows the statement is kept.
import type { Row } from '../../../engine/json.ts';
import { heldView } from '../../../engine/held.ts';
import { ordersAlike, ordersAlikeNumber } from '../../../engine/heldGuards.ts';

const ROWS_MAX = 100_000;

export interface RankingRow {
  geo: string;
  value: number | null;
  period: number | null;
  percentile: number | null;
}

export interface HeldRankings {
  /** Per metric, its rows (any order). */
  rows: ReadonlyMap<string, readonly RankingRow[]>;
  /** Per metric, its period (null: no year qualifies). */
  periods: ReadonlyMap<string, number | null>;
}

const RANKINGS_SQL = 'SELECT metric, geo, value, period, percentile FROM energy_rankings';

/** The held rankings, or null when the shape is too large or holds a value JavaScript would order differently. */
export const heldRankings = heldView<HeldRankings>({
  name: 'energy.rankings',
  sql: { rankings: RANKINGS_SQL, periods: 'SELECT metric, period FROM energy_metric_periods' },
  count: 'SELECT count(*)::INTEGER AS n FROM energy_rankings',
  key: ['metric'],
  order: '(any: the route ranks them)',
  // The periods' few rows count too (one per metric).
  rowsMax: ROWS_MAX,
  bytesMax: 32 * 2 ** 20,
  build: ({ rankings, periods: periodRows }) => {
    const rows = new Map<string, RankingRow[]>();
    for (const { metric, geo, value, period, percentile } of rankings) {
      if (!ordersAlike(geo) || !ordersAlikeNumber(value)) return null;
      const held = rows.get(String(metric)) ?? [];
      held.push({ geo, value, period: period as number | null, percentile: percentile as number | null });
      rows.set(String(metric), held);
    }
    const periods = new Map<string, number | null>();
    for (const row of periodRows) periods.set(String(row.metric), row.period as number | null);
    return { rows, periods };
  },
  parity: [
    {
      part: 'rows of a metric',
      probes: 'SELECT DISTINCT metric FROM energy_rankings ORDER BY metric',
      keyed: `SELECT geo, value, period, percentile FROM energy_rankings WHERE metric = $metric ORDER BY geo, value, period, percentile`,
      answer: (held, probe) => [...(held.rows.get(String(probe.metric)) ?? [])]
        .sort((a, b) => (a.geo < b.geo ? -1 : a.geo > b.geo ? 1 : 0) || (a.value ?? Infinity) - (b.value ?? Infinity))
        .map(({ geo, value, period, percentile }) => ({ geo, value, period, percentile })),
    },
    {
      part: 'period of a metric',
      probes: 'SELECT DISTINCT metric FROM energy_metric_periods ORDER BY metric',
      keyed: 'SELECT period FROM energy_metric_periods WHERE metric = $metric',
      answer: (held, probe) => (held.periods.has(String(probe.metric)) ? [{ period: held.periods.get(String(probe.metric))! }] : []),
    },
  ],
});

export interface RankedPage {
  period: number | null;
  /** The requested geos that have a row. */
  present: ReadonlySet<string>;
  /** The first `limit` ranked rows, by rank then geo. */
  rankings: Row[];
}

/**
 * The metric's rows for `geos`, ranked as `rank() OVER (ORDER BY value ASC|DESC)` ranks them (ties share a
 * rank, NULL last), listed by rank then geo, the first `limit`.
 */
export function rankHeld(held: HeldRankings, metric: string, geos: readonly string[], lowerFirst: boolean, limit: number): RankedPage {
  const wanted = new Set(geos);
  const chosen = (held.rows.get(metric) ?? []).filter((row) => wanted.has(row.geo));
  const byValue = (a: RankingRow, b: RankingRow): number => {
    if (a.value === b.value) return 0;
    if (a.value === null) return 1;
    if (b.value === null) return -1;
    return lowerFirst ? a.value - b.value : b.value - a.value;
  };
  chosen.sort((a, b) => byValue(a, b) || (a.geo < b.geo ? -1 : a.geo > b.geo ? 1 : 0));
  const rankings: Row[] = [];
  let rank = 0;
  for (const [i, row] of chosen.entries()) {
    if (i >= limit) break;
    if (i === 0 || byValue(chosen[i - 1]!, row) !== 0) rank = i + 1;
    rankings.push({ rank, geo: row.geo, value: row.value, period: row.period, percentile: row.percentile });
  }
  return { period: held.periods.get(metric) ?? null, present: new Set(chosen.map((row) => row.geo)), rankings };
}
