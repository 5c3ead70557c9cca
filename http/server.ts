// Loads the snapshot into DuckDB, locks DuckDB down, and serves the app.
import type { Server } from 'node:http';
import { Database } from '../engine/database.ts';
import { warmHeldState, type WarmResult } from '../engine/held.ts';
import { DOMAINS, routes } from '../domains/index.ts';
import { ingestCommandsOf } from '../domains/registry.ts';
import { freshnessOf, rawDirOf, readFetchState } from '../engine/fetchState.ts';
import { loadDeclaredModules } from '../queries/shared/firstUse.ts';
import { createApp } from './app.ts';
import { openGeneration } from './openSnapshot.ts';
import { warmValidators } from './dispatch.ts';
import type { ServerConfig } from './config.ts';
import { createLogger, eventLogOf, type EventLog, type Logger } from './log.ts';
import { ServerMetrics, startMetricsServer } from './metrics.ts';
import { SnapshotReloader } from './reload.ts';
import { GenerationCache, SnapshotHolder } from './snapshotHolder.ts';
import { paymentInfoFromSettings } from './docs/paymentInfo.ts';
import { createPayments } from './payments/index.ts';
import { createHttpServer } from './httpServer.ts';
import { AnswerSlots } from './pipeline/concurrency.ts';
import { openRateLimit } from './rateLimiter.ts';

export interface StartOptions {
  now?: () => Date;
  /** The request lines and, without `log`, the server's events; default one at LOG_LEVEL on stdout (http/log.ts). */
  logger?: Logger;
  /** The server's events (start, swaps, warm-up, facilitator errors, refusals); default the logger's lines. */
  log?: EventLog;
  /** How often the snapshot pointer is polled for a new generation (default 1 s; 0: no watching). */
  reloadPollMs?: number;
}

/**
 * Checks the payment settings against the facilitator (throws PaymentConfigError when a configured
 * network is not live), loads the snapshot and listens.
 */
export async function startServer(
  config: ServerConfig,
  options: StartOptions = {},
): Promise<{ server: Server; db: Database; snapshots: SnapshotHolder; reloader: SnapshotReloader; metrics: ServerMetrics; metricsServer: Server | null }> {
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  const log = options.log ?? eventLogOf(logger);
  const metrics = new ServerMetrics();
  const payments = createPayments({ routes, settings: config.payments, baseUrl: config.baseUrl, now: options.now, log, metrics });
  await payments.start();
  const snapshots = new SnapshotHolder(await openGeneration(config.dataDir, undefined, config.engine));
  // Cache keys carry the request's generation; the cache is emptied on every swap.
  const cache = new GenerationCache({ maxBytes: config.answerCacheBytes }, () => snapshots.pinned().generation);
  snapshots.onSwap(() => cache.clear());
  metrics.watchCache(cache);
  metrics.watchSnapshot(() => snapshots.current(), options.now);
  // Per source, when it was last fetched and changed (RAW_DIR/state.json, written by npm run fetch / refresh).
  const fetchable = ingestCommandsOf(DOMAINS).map((command) => command.source);
  const freshness = async () => freshnessOf(await readFetchState(rawDirOf(config.dataDir)), fetchable);
  metrics.watchFreshness(freshness);
  const db = snapshots.current().db;
  const { limits } = config;
  const rateLimit = limits.rateLimitPerMinute > 0
    ? await openRateLimit({ perMinute: limits.rateLimitPerMinute, allowlist: config.payments.allowlist, proxyHops: config.payments.proxyHops, databaseUrl: config.payments.databaseUrl })
    : undefined;
  const app = await createApp({
    db,
    snapshots,
    cache,
    routes,
    now: options.now,
    beforeHandler: [payments.middleware],
    needsPayment: payments.needsPayment,
    readiness: payments.readinessChecks(),
    docs: { baseUrl: config.baseUrl, payment: paymentInfoFromSettings(config.payments) },
    publicBaseUrl: config.publicBaseUrl,
    rateLimit,
    answerSlots: limits.concurrentAnswers > 0 ? new AnswerSlots(limits.concurrentAnswers, limits.answerQueue) : undefined,
    logError: (error) => log('internal error', error, { event: 'internal_error' }),
    log: (line) => log(line, undefined, { event: 'docs_examples' }),
    observe: { logger, metrics, trustProxy: config.payments.trustProxy },
    freshness,
  });
  // Timeouts and `100 Continue` after the body checks (http/httpServer.ts).
  const server = await new Promise<Server>((resolve) => {
    const listening = createHttpServer(app.callback(), limits.timeouts).listen(config.port, config.host, () => resolve(listening));
  });
  server.on('close', () => {
    void rateLimit?.close();
  });
  // The state some routes hold in memory (engine/held.ts) is read now, in the background, so the first
  // request that needs it does not wait for it (the SEBRA programme index takes seconds at scale).
  void warmHeldState(db).then((warm) => log(warmLine(warm), undefined, warmFields(warm)));
  // So are the modules loaded on first use (queries/shared/firstUse.ts: the MCP SDK, apache-arrow, the
  // product rules) and the routes' parameter validators, compiled on first use: no client's first
  // request, paid or not, waits for them. A module that fails here fails again, and is reported, on
  // the request that needs it.
  void loadDeclaredModules();
  void warmValidators(routes).catch((error: unknown) => log('compiling the parameter validators failed', error, { event: 'internal_error' }));
  const reloader = new SnapshotReloader({
    dataDir: config.dataDir,
    holder: snapshots,
    // A new generation's held state is read before it is swapped in: its first requests are not cold.
    open: async (id) => {
      const snapshot = await openGeneration(config.dataDir, id, config.engine);
      const warm = await warmHeldState(snapshot.db);
      log(warmLine(warm), undefined, warmFields(warm));
      return snapshot;
    },
    log,
    pollMs: options.reloadPollMs,
  });
  if (options.reloadPollMs !== 0) reloader.start();
  const metricsServer = config.metrics ? await startMetricsServer(metrics, config.metrics) : null;
  if (metricsServer) log(`metrics on http://${config.metrics!.host}:${(metricsServer.address() as { port: number }).port}/metrics`, undefined, { event: 'metrics_listening' });
  return { server, db, snapshots, reloader, metrics, metricsServer };
}

function warmFields(warm: WarmResult) {
  return { event: 'held_state_warm', holders: warm.holders, failed: warm.failed, duration_ms: Math.round(warm.ms) };
}

function warmLine(warm: WarmResult): string {
  const failed = warm.failed > 0 ? `; ${warm.failed} not read (a domain without data): read on demand` : '';
  return `held state: ${warm.holders - warm.failed} of ${warm.holders} read in ${(warm.ms / 1000).toFixed(1)} s${failed}`;
}
