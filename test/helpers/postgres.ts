// Scratch PostgreSQL databases for tests: each made fresh on the test server (TEST_DATABASE_URL, or
// the local postgres user on 127.0.0.1:5432) and dropped by the test (in `after`, so a failing test
// still drops it). Without a server, the PostgreSQL tests are skipped, except in CI where a server
// is required.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const TEST_SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** host:port of the test server, for messages. */
function serverName(): string {
  const url = new URL(TEST_SERVER_URL);
  return `${url.hostname}:${url.port || '5432'}`;
}

/** Runs `use` with a connection to the test server's administrative database. */
async function withServer<T>(use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_SERVER_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`PostgreSQL is required at ${serverName()} (TEST_DATABASE_URL): ${(error as Error).message}`, { cause: error });
  }
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/**
 * Why the PostgreSQL tests are skipped (the server does not answer), or undefined to run them. In
 * CI they always run: there, a missing server fails them (scratchPostgres says why), never skips.
 */
export async function postgresSkipReason(): Promise<string | undefined> {
  if (process.env.CI) return undefined;
  try {
    await withServer((client) => client.query('SELECT 1'));
    return undefined;
  } catch (error) {
    return `skipped: ${(error as Error).message}`;
  }
}

export interface ScratchPostgres {
  /** Connection string of the new, empty database. */
  url: string;
  /** Drops the database, closing whatever connections are left. */
  drop(): Promise<void>;
}

/** A new empty database pds_test_<pid>_<random> on the test server. */
export async function scratchPostgres(): Promise<ScratchPostgres> {
  const name = `pds_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  // CREATE DATABASE takes no bound parameters: the generated name goes in quoted as an identifier.
  await withServer((client) => client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`));
  const url = new URL(TEST_SERVER_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withServer((client) => client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`)).then(() => undefined),
  };
}
