// The per-client rate limit on data routes (rate-limiter-flexible): RATE_LIMIT_PER_MINUTE requests per
// client address per fixed minute, the address read after the proxy-hop rule (TRUST_PROXY, as the
// payment exemption reads it), allowlisted clients (X402_ALLOWLIST) exempt. Counters in memory, or in
// PostgreSQL (DATABASE_URL, table rate_limit_counters, created by the library) so that replicas share
// them; if PostgreSQL stops answering, each replica counts in memory meanwhile (the insurance limiter).
import type pg from 'pg';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { clientAddress, exemption, type ClientRequest } from './payments/exemption.ts';
import { describeServer } from './payments/store/postgres.ts';

/** The counting window, seconds. */
export const RATE_LIMIT_WINDOW_SECONDS = 60;
/** The PostgreSQL table of the shared counters. */
export const RATE_LIMIT_TABLE = 'rate_limit_counters';

export interface RateLimitOptions {
  perMinute: number;
  allowlist: readonly string[];
  proxyHops: number;
  /** DATABASE_URL: counters shared by every replica; null: in this process's memory. */
  databaseUrl: string | null;
}

/** One client's standing after a request was counted. */
export interface RateLimitOutcome {
  allowed: boolean;
  /** Requests left in the window. */
  remaining: number;
  /** Seconds until the window ends (at least 1). */
  resetSeconds: number;
}

export interface ClientRateLimit {
  readonly perMinute: number;
  /** Counts the request against its client; null for an allowlisted client (not counted). */
  consume(request: ClientRequest): Promise<RateLimitOutcome | null>;
  close(): Promise<void>;
}

function outcomeOf(result: RateLimiterRes, allowed: boolean): RateLimitOutcome {
  return { allowed, remaining: Math.max(0, result.remainingPoints), resetSeconds: Math.max(1, Math.ceil(result.msBeforeNext / 1000)) };
}

/** The rate limit of the settings; for PostgreSQL it waits until the counters' table exists (throws naming the server otherwise). */
export async function openRateLimit(options: RateLimitOptions): Promise<ClientRateLimit> {
  const counting = { points: options.perMinute, duration: RATE_LIMIT_WINDOW_SECONDS, keyPrefix: 'data' };
  let pool: pg.Pool | null = null;
  let limiter: RateLimiterMemory | RateLimiterPostgres;
  if (options.databaseUrl) {
    const server = describeServer(options.databaseUrl);
    // pg loads only for shared counters (a server without DATABASE_URL never loads it).
    const { default: pgModule } = await import('pg');
    pool = new pgModule.Pool({ connectionString: options.databaseUrl, max: 4, connectionTimeoutMillis: 5_000, query_timeout: 5_000 });
    pool.on('error', () => undefined);
    try {
      limiter = await new Promise<RateLimiterPostgres>((resolve, reject) => {
        const created: RateLimiterPostgres = new RateLimiterPostgres(
          {
            ...counting,
            storeClient: pool,
            storeType: 'pool',
            tableName: RATE_LIMIT_TABLE,
            clearExpiredByTimeout: true,
            insuranceLimiter: new RateLimiterMemory(counting),
          },
          (error?: Error) => (error ? reject(error) : resolve(created)),
        );
      });
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw new Error(`rate limits: the counters' table could not be made in PostgreSQL at ${server} (DATABASE_URL): ${(error as Error).message}`, { cause: error });
    }
  } else {
    limiter = new RateLimiterMemory(counting);
  }
  const exempt = exemption({ exemptLoopback: false, allowlist: options.allowlist, proxyHops: options.proxyHops });
  return {
    perMinute: options.perMinute,
    async consume(request) {
      if (exempt(request)) return null;
      // An entry that is not an address (nginx's "unknown") is counted with every other such client.
      const key = clientAddress(request, options.proxyHops) || 'unknown';
      try {
        return outcomeOf(await limiter.consume(key, 1), true);
      } catch (refusal) {
        if (refusal instanceof RateLimiterRes) return outcomeOf(refusal, false);
        throw refusal;
      }
    },
    async close() {
      await pool?.end();
    },
  };
}
