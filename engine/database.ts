// One in-process DuckDB instance with a small pool of connections.
// @duckdb/node-api has no pool and no query timeout: each connection runs one query at a time,
// keeps its own prepared statements (the most recently used few), and a timer interrupts a query
// that runs too long.
import {
  DuckDBInstance,
  type DuckDBConnection,
  type DuckDBPreparedStatement,
  type DuckDBValue,
} from '@duckdb/node-api';
import { jsonValueConverter, type Row } from './json.ts';
import { threadsFromEnv } from './settings.ts';

/** Values bound to `$name` placeholders. Only values are ever bound; SQL text is fixed. */
export type SqlParams = Record<string, string | number | boolean | null>;

export interface DatabaseOptions {
  /** Connections in the pool (default 3). */
  connections?: number;
  /** Interrupt a query after this many milliseconds (default 10 000). */
  queryTimeoutMs?: number;
  /** DuckDB worker threads (default: DUCKDB_THREADS when set, threadsFromEnv; else DuckDB's own choice). */
  threads?: number;
  /** A database file instead of memory (a generation's serving database, domains/servingDatabase.ts). */
  file?: string;
  /** Open the file read-only (the server: any number of processes may share it). */
  readOnly?: boolean;
  /** DuckDB's memory_limit, e.g. '2GB' (default: DuckDB's own, 80% of RAM). */
  memoryLimit?: string;
  /**
   * Prepared statements kept per connection, the least recently used destroyed beyond it (default
   * PREPARED_STATEMENTS_KEPT): statements whose text varies (IN lists of any length) would otherwise
   * pile up for the life of the process.
   */
  preparedStatements?: number;
}

/** Per connection: well above the distinct statements of the catalog's examples, so a warm server re-prepares nothing. */
export const PREPARED_STATEMENTS_KEPT = 256;

export class QueryTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`query interrupted after ${timeoutMs} ms`);
    this.name = 'QueryTimeoutError';
  }
}

interface PooledConnection {
  connection: DuckDBConnection;
  /** By SQL text, least recently used first (a Map keeps insertion order; a hit is re-inserted). */
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
    private readonly statementsKept: number,
  ) {
    this.idle.push(...pool);
  }

  static async open(options: DatabaseOptions = {}): Promise<Database> {
    const kept = options.preparedStatements ?? PREPARED_STATEMENTS_KEPT;
    if (!Number.isInteger(kept) || kept < 1) throw new RangeError(`preparedStatements must be a positive integer, not ${kept}`);
    const config: Record<string, string> = {};
    const threads = options.threads ?? threadsFromEnv();
    if (threads) config.threads = String(threads);
    if (options.memoryLimit) config.memory_limit = options.memoryLimit;
    if (options.readOnly) config.access_mode = 'READ_ONLY';
    const instance = await DuckDBInstance.create(options.file ?? ':memory:', config);
    const pool: PooledConnection[] = [];
    for (let i = 0; i < (options.connections ?? 3); i++) {
      pool.push({ connection: await instance.connect(), statements: new Map() });
    }
    return new Database(instance, pool, options.queryTimeoutMs ?? 10_000, kept);
  }

  /** Runs a statement (DDL, COPY, INSERT) without reading rows. */
  async run(sql: string, params?: SqlParams): Promise<void> {
    await this.withConnection(async ({ connection }) => {
      await connection.run(sql, params as Record<string, DuckDBValue> | undefined);
    });
  }

  /** Runs a query through a cached prepared statement and returns JSON-ready rows. */
  async all(sql: string, params: SqlParams = {}): Promise<Row[]> {
    return this.withConnection(async (pooled) => {
      const statement = await this.preparedStatement(pooled, sql);
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
   * The connection's statement for sql, prepared on a miss; the least recently used beyond the bound
   * is destroyed. Only this connection's current holder touches its map, so an evicted statement is
   * never one in use (the one in use is the newest).
   */
  private async preparedStatement(pooled: PooledConnection, sql: string): Promise<DuckDBPreparedStatement> {
    const held = pooled.statements.get(sql);
    if (held) {
      pooled.statements.delete(sql);
      pooled.statements.set(sql, held);
      return held;
    }
    const statement = await pooled.connection.prepare(sql);
    pooled.statements.set(sql, statement);
    for (const [oldest, evicted] of pooled.statements) {
      if (pooled.statements.size <= this.statementsKept) break;
      pooled.statements.delete(oldest);
      evicted.destroySync();
    }
    return statement;
  }

  /**
   * Bulk-loads rows into an existing table with DuckDB's appender (far faster than INSERTs).
   * Strings go to VARCHAR columns and integers to INTEGER columns: stage into such a table,
   * then cast with INSERT ... SELECT.
   */
  async appendRows(table: string, rows: ReadonlyArray<ReadonlyArray<string | number | null>>): Promise<void> {
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
