// One in-process DuckDB instance with a small pool of connections.
// @duckdb/node-api has no pool and no query timeout: each connection runs one query at a time,
// keeps its own prepared statements, and a timer interrupts a query that runs too long.
import {
  DuckDBInstance,
  type DuckDBConnection,
  type DuckDBPreparedStatement,
  type DuckDBValue,
} from '@duckdb/node-api';
import { jsonValueConverter, type Row } from './json.ts';

/** Values bound to `$name` placeholders. Only values are ever bound; SQL text is fixed. */
export type SqlParams = Record<string, string | number | boolean | null>;

export interface DatabaseOptions {
  /** Connections in the pool (default 3). */
  connections?: number;
  /** Interrupt a query after this many milliseconds (default 10 000). */
  queryTimeoutMs?: number;
  /** DuckDB worker threads (default: DuckDB's own choice). */
  threads?: number;
  /** A database file instead of memory (a generation's serving database, engine/servingFile.ts). */
  file?: string;
  /** Open the file read-only (the server: any number of processes may share it). */
  readOnly?: boolean;
  /** DuckDB's memory_limit, e.g. '2GB' (default: DuckDB's own, 80% of RAM). */
  memoryLimit?: string;
}

export class QueryTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`query interrupted after ${timeoutMs} ms`);
    this.name = 'QueryTimeoutError';
  }
}

/**
 * One timed call, for an opt-in observer (the benchmark's ingest profile, bench/ingestProfile.ts).
 * `sql` is the statement for run / all, the table for appendRows and the file (or ':memory:') for open.
 * Times are performance.now() milliseconds; a call that fails is reported too.
 */
export interface StatementEvent {
  kind: 'open' | 'run' | 'all' | 'appendRows';
  sql: string;
  startMs: number;
  endMs: number;
}

export type StatementObserver = (event: StatementEvent) => void;

/** Process-wide and empty unless someone observes: an unobserved call pays one length check. */
const observers: StatementObserver[] = [];

/** Reports every Database.open, run, all and appendRows of the process to `observer` until the returned function is called. */
export function observeStatements(observer: StatementObserver): () => void {
  observers.push(observer);
  return () => {
    const at = observers.indexOf(observer);
    if (at >= 0) observers.splice(at, 1);
  };
}

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

interface PooledConnection {
  connection: DuckDBConnection;
  statements: Map<string, DuckDBPreparedStatement>;
}

export class Database {
  /**
   * Identifies this database for per-database registries (WeakMap keys): the same object through any
   * wrapper that forwards properties (the benchmark's recording proxies), unlike the wrapper itself.
   */
  readonly identity: object = Object.freeze({});
  private readonly idle: PooledConnection[] = [];
  private readonly waiting: Array<(pooled: PooledConnection) => void> = [];
  private closed = false;

  private constructor(
    private readonly instance: DuckDBInstance,
    pool: PooledConnection[],
    private readonly queryTimeoutMs: number,
  ) {
    this.idle.push(...pool);
  }

  static open(options: DatabaseOptions = {}): Promise<Database> {
    if (observers.length === 0) return Database.openInstance(options);
    return observed('open', options.file ?? ':memory:', () => Database.openInstance(options));
  }

  private static async openInstance(options: DatabaseOptions): Promise<Database> {
    const config: Record<string, string> = {};
    if (options.threads) config.threads = String(options.threads);
    if (options.memoryLimit) config.memory_limit = options.memoryLimit;
    if (options.readOnly) config.access_mode = 'READ_ONLY';
    const instance = await DuckDBInstance.create(options.file ?? ':memory:', config);
    const pool: PooledConnection[] = [];
    for (let i = 0; i < (options.connections ?? 3); i++) {
      pool.push({ connection: await instance.connect(), statements: new Map() });
    }
    return new Database(instance, pool, options.queryTimeoutMs ?? 10_000);
  }

  /** Runs a statement (DDL, COPY, INSERT) without reading rows. */
  run(sql: string, params?: SqlParams): Promise<void> {
    if (observers.length === 0) return this.runStatement(sql, params);
    return observed('run', sql, () => this.runStatement(sql, params));
  }

  private async runStatement(sql: string, params: SqlParams | undefined): Promise<void> {
    await this.withConnection(async ({ connection }) => {
      await connection.run(sql, params as Record<string, DuckDBValue> | undefined);
    });
  }

  /** Runs a query through a cached prepared statement and returns JSON-ready rows. */
  all(sql: string, params: SqlParams = {}): Promise<Row[]> {
    if (observers.length === 0) return this.allRows(sql, params);
    return observed('all', sql, () => this.allRows(sql, params));
  }

  private async allRows(sql: string, params: SqlParams): Promise<Row[]> {
    return this.withConnection(async (pooled) => {
      let statement = pooled.statements.get(sql);
      if (!statement) {
        statement = await pooled.connection.prepare(sql);
        pooled.statements.set(sql, statement);
      }
      statement.clearBindings();
      if (Object.keys(params).length > 0) statement.bind(params as Record<string, DuckDBValue>);
      const timer = setTimeout(() => pooled.connection.interrupt(), this.queryTimeoutMs);
      try {
        const reader = await statement.runAndReadAll();
        return reader.convertRowObjects(jsonValueConverter) as Row[];
      } catch (error) {
        if (error instanceof Error && /interrupt/i.test(error.message)) throw new QueryTimeoutError(this.queryTimeoutMs);
        throw error;
      } finally {
        clearTimeout(timer);
      }
    });
  }

  /**
   * Bulk-loads rows into an existing table with DuckDB's appender (far faster than INSERTs).
   * Strings go to VARCHAR columns and integers to INTEGER columns: stage into such a table,
   * then cast with INSERT ... SELECT.
   */
  appendRows(table: string, rows: ReadonlyArray<ReadonlyArray<string | number | null>>): Promise<void> {
    if (observers.length === 0) return this.appendWithAppender(table, rows);
    return observed('appendRows', table, () => this.appendWithAppender(table, rows));
  }

  private async appendWithAppender(table: string, rows: ReadonlyArray<ReadonlyArray<string | number | null>>): Promise<void> {
    await this.withConnection(async ({ connection }) => {
      const appender = await connection.createAppender(table);
      try {
        for (const row of rows) {
          for (const value of row) {
            if (value === null) appender.appendNull();
            else if (typeof value === 'number') appender.appendInteger(value);
            else appender.appendVarchar(value);
          }
          appender.endRow();
        }
        appender.flushSync();
      } finally {
        appender.closeSync();
      }
    });
  }

  /**
   * After loading: no statement may touch the file system or change settings again.
   * Applied on every pooled connection's shared instance (settings are instance-wide).
   */
  async lockDown(): Promise<void> {
    await this.run('SET enable_external_access = false');
    await this.run('SET lock_configuration = true');
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const pooled of this.idle) {
      for (const statement of pooled.statements.values()) statement.destroySync();
      pooled.connection.closeSync();
    }
    this.idle.length = 0;
    this.instance.closeSync();
  }

  private async withConnection<T>(work: (pooled: PooledConnection) => Promise<T>): Promise<T> {
    if (this.closed) throw new Error('database is closed');
    const pooled = this.idle.pop() ?? (await new Promise<PooledConnection>((resolve) => this.waiting.push(resolve)));
    try {
      return await work(pooled);
    } finally {
      const next = this.waiting.shift();
      if (next) next(pooled);
      else this.idle.push(pooled);
    }
  }
}
