// A view of the engine that records every query a handler issues, so the same statements can be
// re-run directly as the handler's SQL floor (the query cost without the handler's own work).
import type { Database, SqlParams } from '../engine/database.ts';

export interface RecordedQuery {
  sql: string;
  params: SqlParams;
}

/** The same Database, with `all` calls appended to `log`; every other member passes through. */
export function recordingDatabase(db: Database, log: RecordedQuery[]): Database {
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property === 'all') {
        return (sql: string, params: SqlParams = {}) => {
          log.push({ sql, params: { ...params } });
          return target.all(sql, params);
        };
      }
      const value = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Table names a statement reads (FROM / JOIN targets that are plain identifiers), sorted, without CTE names. */
export function tablesRead(sql: string): string[] {
  const ctes = new Set([...sql.matchAll(/(?:\bWITH\b|,)\s*(?:RECURSIVE\s+)?([a-z_][a-z0-9_]*)\s+AS\s*(?:MATERIALIZED\s*)?\(/gi)].map((m) => m[1].toLowerCase()));
  const tables = new Set<string>();
  for (const match of sql.matchAll(/\b(?:FROM|JOIN)\s+([a-z_][a-z0-9_]*)\b/gi)) {
    const name = match[1].toLowerCase();
    if (!ctes.has(name) && !['unnest', 'range', 'generate_series', 'lateral', 'values', 'read_parquet'].includes(name)) tables.add(name);
  }
  return [...tables].sort();
}

export interface TimedStatement {
  /** The statement's first line, shortened. */
  sql: string;
  ms: number;
}

/** The same Database, with the time of every run / all / appendRows call appended to `log` (startup profile). */
export function timingDatabase(db: Database, log: TimedStatement[]): Database {
  return new Proxy(db, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      if (property !== 'run' && property !== 'all' && property !== 'appendRows') return value.bind(target);
      return async (first: string, ...rest: unknown[]) => {
        const started = performance.now();
        try {
          return await (value as (...args: unknown[]) => Promise<unknown>).call(target, first, ...rest);
        } finally {
          const text = property === 'appendRows' ? `append into ${first}` : first.replace(/\s+/g, ' ').trim();
          log.push({ sql: text.length > 100 ? `${text.slice(0, 97)}...` : text, ms: performance.now() - started });
        }
      };
    },
  });
}
