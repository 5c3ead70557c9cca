// The run contract's environment variables (see README "Configuration").
import path from 'node:path';
import { cacheBytesFromEnv } from './cache.ts';
import type { DatabaseOptions } from '../engine/database.ts';
import { threadsFromEnv } from '../engine/settings.ts';
import { booleanSetting, ConfigError } from './configError.ts';
import { readLimitSettings, type LimitSettings } from './limitsConfig.ts';
import { logLevelFromEnv, type LogLevel } from './log.ts';
import { metricsListenFromEnv, type MetricsListen } from './metrics.ts';
import { readPaymentSettings, type PaymentSettings } from './payments/config.ts';

export { ConfigError } from './configError.ts';

/** A bad DUCKDB_THREADS or DUCKDB_MEMORY_LIMIT. */
export class EngineConfigError extends ConfigError {
  constructor(message: string) {
    super(message);
    this.name = 'EngineConfigError';
  }
}

export interface ServerConfig {
  port: number;
  host: string;
  baseUrl: string;
  /** BASE_URL as configured (null: not set, so baseUrl is the listening address): list pages' Link targets are absolute on it. */
  publicBaseUrl: string | null;
  dataDir: string;
  sampleDir: string;
  nodeEnv: string;
  /** ALLOW_SAMPLE_DATA: NODE_ENV=production serves a snapshot holding generated sample data only when true (bin/start.ts). */
  allowSampleData: boolean;
  payments: PaymentSettings;
  /** ANSWER_CACHE_MB in bytes: the bound of the answer cache (0: off). */
  answerCacheBytes: number;
  /** DUCKDB_THREADS and DUCKDB_MEMORY_LIMIT: the engine's settings (absent: DuckDB's own). */
  engine: Pick<DatabaseOptions, 'threads' | 'memoryLimit'>;
  /** Rate limit, answers computed at once and their queue, HTTP timeouts (http/limitsConfig.ts). */
  limits: LimitSettings;
  /** LOG_LEVEL (default info). */
  logLevel: LogLevel;
  /** METRICS_PORT and METRICS_HOST: the metrics listener; null (no METRICS_PORT): none. */
  metrics: MetricsListen | null;
}

/** DUCKDB_THREADS (1-64) and DUCKDB_MEMORY_LIMIT (`512MB`, `2GB`, `1.5GiB`, ...); refused naming the variable otherwise. */
export function engineOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): ServerConfig['engine'] {
  const engine: ServerConfig['engine'] = {};
  try {
    const threads = threadsFromEnv(env);
    if (threads) engine.threads = threads;
  } catch (error) {
    throw new EngineConfigError((error as Error).message);
  }
  const memory = env.DUCKDB_MEMORY_LIMIT?.trim();
  if (memory) {
    if (!/^[0-9]{1,6}(\.[0-9]{1,3})?\s?(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i.test(memory)) throw new EngineConfigError(`DUCKDB_MEMORY_LIMIT must be an amount with its unit, such as 2GB or 512MiB (got "${env.DUCKDB_MEMORY_LIMIT}")`);
    engine.memoryLimit = memory;
  }
  return engine;
}

/** ALLOW_SAMPLE_DATA: true/1/yes or false/0/no (default false). */
export function allowSampleDataFromEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  return booleanSetting(env, 'ALLOW_SAMPLE_DATA', false, (message) => new ConfigError(message));
}

/** Throws a ConfigError (PaymentConfigError, CacheConfigError, EngineConfigError: a clear message naming the variable) for a bad setting. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number (got ${env.PORT})`);
  const host = env.HOST ?? '127.0.0.1';
  return {
    port,
    host,
    baseUrl: env.BASE_URL ?? `http://${host}:${port}`,
    publicBaseUrl: env.BASE_URL?.trim() || null,
    dataDir: path.resolve(env.DATA_DIR ?? 'data/parquet'),
    sampleDir: path.resolve(env.SAMPLE_DIR ?? 'data/sample'),
    nodeEnv: env.NODE_ENV ?? 'development',
    allowSampleData: allowSampleDataFromEnv(env),
    payments: readPaymentSettings(env),
    answerCacheBytes: cacheBytesFromEnv(env),
    engine: engineOptionsFromEnv(env),
    limits: readLimitSettings(env, engineOptionsFromEnv(env).threads),
    logLevel: logLevelFromEnv(env),
    metrics: metricsListenFromEnv(env),
  };
}
