// Where an ingest's wall time goes: the Database calls observed during it (bench/statementObserver.ts
// observeStatements), each put in one category, and the wall time split over those categories, the
// rest being the ingest's own JavaScript (parsing, shaping rows, file handling) and awaiting.
import type { StatementEvent } from './statementObserver.ts';

export type IngestCategory = 'open' | 'read' | 'write' | 'append' | 'otherSql';

/** Milliseconds per category over one ingest; they add up to its wall time. */
export interface IngestProfile {
  /** Inside Database.open: DuckDB instance creation and its connections. */
  openMs: number;
  /** Statements reading source or snapshot files (read_csv / read_json / read_parquet ..., FROM 'file'). */
  readMs: number;
  /** Statements writing files (COPY ... TO). */
  writeMs: number;
  /** Database.appendRows (the appender). */
  appendMs: number;
  /** Every other statement: checks, merges, DDL. */
  otherSqlMs: number;
  /** The wall time outside every observed call. */
  jsMs: number;
  /** Statements run (run and all calls; opens and appendRows calls not counted). */
  statements: number;
}

/** COPY (...) TO 'file' / COPY table TO 'file': the statement writes a file (whatever it reads on the way). */
const WRITES_FILE = /\bCOPY\b[\s\S]*\WTO\s+'/i;
/** DuckDB's file readers, or a FROM of a quoted path (DuckDB reads the file it names; COPY t FROM 'file' too). */
const READS_FILE = /\bread_(?:csv|json|ndjson|parquet)\w*\s*\(|\bFROM\s+'/i;

/** The category of one observed call; a statement that both reads and writes files counts as a write. */
export function categoryOf(event: Pick<StatementEvent, 'kind' | 'sql'>): IngestCategory {
  if (event.kind === 'open') return 'open';
  if (event.kind === 'appendRows') return 'append';
  if (WRITES_FILE.test(event.sql)) return 'write';
  if (READS_FILE.test(event.sql)) return 'read';
  return 'otherSql';
}

const CATEGORIES: readonly IngestCategory[] = ['open', 'read', 'write', 'append', 'otherSql'];

/**
 * Splits the window [startMs, endMs] over the observed calls. Calls may overlap each other (two
 * connections, or several databases at once) and a plain sum of their durations would count the
 * overlap twice and could exceed the wall time: instead the window is cut at every call's start and
 * end, and each piece goes to the categories of the calls covering it, in equal shares when calls of
 * several categories cover it (two reads overlapping count once, as read). So each category is its
 * share of the union of the calls' intervals, and JS is the wall time minus that union: the parts add
 * up to the wall time. Calls are clipped to the window.
 */
export function splitIngest(events: readonly StatementEvent[], startMs: number, endMs: number): IngestProfile {
  const totals = new Map<IngestCategory, number>(CATEGORIES.map((c) => [c, 0]));
  // Boundaries: +1 where a call starts, -1 where it ends; at one instant, ends before starts (a
  // piece of zero length either way, so the order only keeps the counters simple).
  const points: Array<{ at: number; delta: 1 | -1; category: IngestCategory }> = [];
  let statements = 0;
  for (const event of events) {
    if (event.kind === 'run' || event.kind === 'all') statements++;
    const from = Math.max(event.startMs, startMs);
    const to = Math.min(event.endMs, endMs);
    if (to <= from) continue;
    const category = categoryOf(event);
    points.push({ at: from, delta: 1, category }, { at: to, delta: -1, category });
  }
  points.sort((a, b) => a.at - b.at || a.delta - b.delta);
  const active = new Map<IngestCategory, number>(CATEGORIES.map((c) => [c, 0]));
  let covered = 0;
  let previous = startMs;
  for (const point of points) {
    const length = point.at - previous;
    if (length > 0) {
      const covering = CATEGORIES.filter((c) => active.get(c)! > 0);
      for (const c of covering) totals.set(c, totals.get(c)! + length / covering.length);
      if (covering.length > 0) covered += length;
    }
    active.set(point.category, active.get(point.category)! + point.delta);
    previous = point.at;
  }
  return {
    openMs: totals.get('open')!, readMs: totals.get('read')!, writeMs: totals.get('write')!,
    appendMs: totals.get('append')!, otherSqlMs: totals.get('otherSql')!,
    jsMs: Math.max(0, endMs - startMs) - covered,
    statements,
  };
}
