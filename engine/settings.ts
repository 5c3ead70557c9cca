// The engine's settings read from the environment, in a module of its own (no DuckDB): the server
// reads them with its configuration before it loads anything heavy (http/config.ts).

/**
 * DUCKDB_THREADS: the worker threads of every engine a process opens without its own setting (the
 * ingest, the CLIs; the server reads and checks it at start, http/config.ts, and passes it). Absent:
 * DuckDB's own choice; not a whole number from 1 to 64: a RangeError naming the variable.
 */
export function threadsFromEnv(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const text = env.DUCKDB_THREADS?.trim();
  if (!text) return undefined;
  if (!/^[0-9]{1,2}$/.test(text) || Number(text) < 1 || Number(text) > 64) {
    throw new RangeError(`DUCKDB_THREADS must be a whole number from 1 to 64 (got "${env.DUCKDB_THREADS}")`);
  }
  return Number(text);
}
