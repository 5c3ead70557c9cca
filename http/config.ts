// The run contract's environment variables (see README "Configuration").
import path from 'node:path';
import { cacheBytesFromEnv } from './cache.ts';
import { readPaymentSettings, type PaymentSettings } from './payments/config.ts';

export interface ServerConfig {
  port: number;
  host: string;
  baseUrl: string;
  dataDir: string;
  sampleDir: string;
  nodeEnv: string;
  payments: PaymentSettings;
  /** ANSWER_CACHE_MB in bytes: the bound of the answer cache (0: off). */
  answerCacheBytes: number;
}

/** Throws PaymentConfigError (a clear message naming the variable) for bad payment or cache settings. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number (got ${env.PORT})`);
  const host = env.HOST ?? '127.0.0.1';
  return {
    port,
    host,
    baseUrl: env.BASE_URL ?? `http://${host}:${port}`,
    dataDir: path.resolve(env.DATA_DIR ?? 'data/parquet'),
    sampleDir: path.resolve(env.SAMPLE_DIR ?? 'data/sample'),
    nodeEnv: env.NODE_ENV ?? 'development',
    payments: readPaymentSettings(env),
    answerCacheBytes: cacheBytesFromEnv(env),
  };
}
