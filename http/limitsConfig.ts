// The settings of the limits that refuse work cheaply (README "Limits: query strings, rate limits,
// concurrency, timeouts"): the per-client rate limit, the bound on answers computed at once and its
// wait queue, and the server's timeouts. Bad values are refused naming the variable.
import os from 'node:os';
import { ConfigError } from './configError.ts';

/** RATE_LIMIT_PER_MINUTE's default in production (NODE_ENV=production); off in development. */
export const DEFAULT_PRODUCTION_RATE_LIMIT_PER_MINUTE = 600;
/** ANSWER_QUEUE's default: requests waiting for a computing slot; past it 503. */
export const DEFAULT_ANSWER_QUEUE = 64;
/** HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS, HTTP_KEEP_ALIVE_TIMEOUT_MS defaults. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 5_000;

/** A bad RATE_LIMIT_PER_MINUTE, CONCURRENT_ANSWERS, ANSWER_QUEUE or HTTP_*_TIMEOUT_MS. */
export class LimitsConfigError extends ConfigError {
  constructor(message: string) {
    super(message);
    this.name = 'LimitsConfigError';
  }
}

export interface HttpTimeouts {
  /** server.headersTimeout: the whole request head must arrive within it (408 and closed otherwise). */
  headersTimeoutMs: number;
  /** server.requestTimeout: the whole request, body included (a slow body is dropped after it). */
  requestTimeoutMs: number;
  /** server.keepAliveTimeout: an idle kept-alive connection is closed after it. */
  keepAliveTimeoutMs: number;
}

export interface LimitSettings {
  /** Requests per minute per client address on data routes; 0: off. */
  rateLimitPerMinute: number;
  /** Answers computed at once (cache misses); 0: unbounded. */
  concurrentAnswers: number;
  /** Requests waiting for a computing slot; past it 503. */
  answerQueue: number;
  timeouts: HttpTimeouts;
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^[0-9]{1,9}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new LimitsConfigError(`${name} must be a whole number from ${min} to ${max} (got "${env[name]}")`);
  }
  return Number(raw);
}

/** CONCURRENT_ANSWERS' default: twice the engine's threads (DUCKDB_THREADS, else the machine's cores, DuckDB's own default). */
export function defaultConcurrentAnswers(engineThreads: number | undefined): number {
  return 2 * (engineThreads ?? os.availableParallelism());
}

export function readLimitSettings(env: NodeJS.ProcessEnv, engineThreads: number | undefined): LimitSettings {
  const production = (env.NODE_ENV ?? 'development') === 'production';
  const timeouts: HttpTimeouts = {
    headersTimeoutMs: wholeNumber(env, 'HTTP_HEADERS_TIMEOUT_MS', DEFAULT_HEADERS_TIMEOUT_MS, 1, 600_000),
    requestTimeoutMs: wholeNumber(env, 'HTTP_REQUEST_TIMEOUT_MS', DEFAULT_REQUEST_TIMEOUT_MS, 1, 3_600_000),
    keepAliveTimeoutMs: wholeNumber(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', DEFAULT_KEEP_ALIVE_TIMEOUT_MS, 1, 600_000),
  };
  // Node refuses a head timeout longer than the whole request's.
  if (timeouts.headersTimeoutMs > timeouts.requestTimeoutMs) {
    throw new LimitsConfigError(`HTTP_HEADERS_TIMEOUT_MS (${timeouts.headersTimeoutMs}) must not exceed HTTP_REQUEST_TIMEOUT_MS (${timeouts.requestTimeoutMs})`);
  }
  return {
    rateLimitPerMinute: wholeNumber(env, 'RATE_LIMIT_PER_MINUTE', production ? DEFAULT_PRODUCTION_RATE_LIMIT_PER_MINUTE : 0, 0, 1_000_000),
    concurrentAnswers: wholeNumber(env, 'CONCURRENT_ANSWERS', defaultConcurrentAnswers(engineThreads), 0, 10_000),
    answerQueue: wholeNumber(env, 'ANSWER_QUEUE', DEFAULT_ANSWER_QUEUE, 0, 100_000),
    timeouts,
  };
}
