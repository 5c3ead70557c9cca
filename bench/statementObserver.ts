// The benchmark's statement observer: every Database.open, run, all and appendRows of the process,
// timed, while someone observes. The engine knows nothing of it: the first subscriber wraps those
// methods of the Database class and the last one to leave puts them back, so an unobserved process
// runs the engine's own code. Process-wide because an ingest opens its databases deep inside its
// readers (no one hands them a wrapped Database); the served database is wrapped per object instead
// (bench/recordingDatabase.ts).
import { Database } from '../engine/database.ts';

/**
 * One timed call. `sql` is the statement for run / all, the table for appendRows and the file (or
 * ':memory:') for open. Times are performance.now() milliseconds; a call that fails is reported too.
 */
export interface StatementEvent {
  kind: 'open' | 'run' | 'all' | 'appendRows';
  sql: string;
  startMs: number;
  endMs: number;
}

export type StatementObserver = (event: StatementEvent) => void;

const observers: StatementObserver[] = [];
let restore: (() => void) | null = null;

async function observed<T>(kind: StatementEvent['kind'], sql: string, work: () => Promise<T>): Promise<T> {
  const startMs = performance.now();
  try {
    return await work();
  } finally {
    const event: StatementEvent = { kind, sql, startMs, endMs: performance.now() };
    // A copy: an observer may unsubscribe while being told.
    for (const observer of [...observers]) observer(event);
  }
}

function wrapDatabase(): () => void {
  const open = Object.getOwnPropertyDescriptor(Database, 'open')!;
  const proto = Database.prototype;
  const { run, all, appendRows } = proto;
  Database.open = (options = {}) => observed('open', options.file ?? ':memory:', () => open.value.call(Database, options));
  proto.run = function (this: Database, sql, params) {
    return observed('run', sql, () => run.call(this, sql, params));
  };
  proto.all = function (this: Database, sql, params) {
    return observed('all', sql, () => all.call(this, sql, params));
  };
  proto.appendRows = function (this: Database, table, rows) {
    return observed('appendRows', table, () => appendRows.call(this, table, rows));
  };
  return () => {
    Object.defineProperty(Database, 'open', open);
    Object.assign(proto, { run, all, appendRows });
  };
}

/** Reports every Database.open, run, all and appendRows of the process to `observer` until the returned function is called. */
export function observeStatements(observer: StatementObserver): () => void {
  observers.push(observer);
  restore ??= wrapDatabase();
  let stopped = false;
  return () => {
    if (stopped) return;
    stopped = true;
    observers.splice(observers.indexOf(observer), 1);
    if (observers.length === 0) {
      restore?.();
      restore = null;
    }
  };
}
