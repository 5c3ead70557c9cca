// The measured process (one per scale): loads a snapshot, times every catalog example's handler
// against its SQL floor and through HTTP without the cache, then every route family over drawn
// parameters (bench/varied.ts) through HTTP without the cache, then serves the app (cache on), a bare
// Koa route and, when payment settings are given, the paid app, for the load runs of the parent.
// Protocol: one JSON line (TargetReport) on stdout when ready; then each command line on stdin is
// answered with one JSON line: `cpu` -> {"cpuMs": <user + system CPU so far>, "mainThreadCpuMs": <the
// JavaScript thread's share, null off Linux>}; `profile-start` ->
// {}; `profile-stop <file>` -> {"top": ProfileLine[]} (the profile written to file). Exits when stdin closes.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { PerformanceObserver } from 'node:perf_hooks';
import type { FacilitatorClient } from '@x402/core/server';
import Koa from 'koa';
import { isEntryPoint } from '../bin/commandLine.ts';
import { Database } from '../engine/database.ts';
import { warmHeldState } from '../engine/held.ts';
import { createApp } from '../http/app.ts';
import { engineOptionsFromEnv } from '../http/config.ts';
import { cacheBytesFromEnv, ResponseCache } from '../http/cache.ts';
import { readPaymentSettings } from '../http/payments/config.ts';
import { createPayments } from '../http/payments/index.ts';
import { openSnapshot, routes } from '../domains/index.ts';
import type { Route } from '../queries/catalog.ts';
import { benchCases, type BenchCase } from './examples.ts';
import { inProcessFacilitator } from './inProcessFacilitator.ts';
import { startProfile } from './profile.ts';
import { recordingDatabase, tablesRead, timingDatabase, type RecordedQuery, type TimedStatement } from './recordingDatabase.ts';
import { summarize, timeRuns, type Summary } from './stats.ts';
import { drawVaried, measureVaried, VARIED_SEED, type VariedResult } from './varied.ts';

export const BENCH_NOW = new Date('2026-11-22T12:00:00Z');
const TODAY = '2026-11-22';

export interface TargetOptions {
  dataDir: string;
  /** Timed runs per example of the handler, its SQL floor and the keyed floor. */
  runs: number;
  /** Timed uncached HTTP requests per example (more than `runs`: its p99 must not be its maximum). */
  httpRuns: number;
  /** Only these domain tags (all when absent). */
  tags?: string[];
  /** Payment environment (X402_* variables) for the paid app; none: no paid app. */
  paymentEnv?: Record<string, string>;
  /** Drawn requests per route family over varied parameters (none: not measured). */
  variedPerFamily?: number;
  /** A family's drawn requests stop once this many ms have passed (keeps the measure bounded at x100). */
  variedBudgetMs?: number;
}

export interface CaseResult {
  routeId: string;
  tag: string;
  url: string;
  /** POST for a sample with a JSON body (timed here; the load mix replays the GET samples only). */
  method?: 'GET' | 'POST';
  /** HTTP status of the uncached request (200 expected). */
  status: number;
  /** The handler's error message when it did not answer (then handler and sqlFloor are null). */
  error: string | null;
  handler: Summary | null;
  /** The handler's own statements re-run directly through the engine, timed together. */
  sqlFloor: Summary | null;
  statements: number;
  /** Tables the statements read, with their row counts at this scale. */
  tables: Record<string, number>;
  /** Through HTTP with the answer cache off (a miss every time), sequential. */
  httpUncached: Summary;
  /** The slowest timed HTTP request of the example, and the garbage-collection pauses of this process inside it. */
  httpSlowest?: { ms: number; gcMs: number };
  /**
   * The keyed-lookup floor: the cheapest query that could answer it, its JSON answer precomputed under
   * its URL in a keyed table and read back by one prepared lookup (null when the handler did not answer).
   */
  keyedFloor: Summary | null;
  /** Response size in bytes (JSON). */
  bytes: number;
}

export interface TargetReport {
  startupMs: number;
  /** file: the serving database opened; memory: the snapshot loaded and the rollups built at startup. */
  startupMode: 'file' | 'memory';
  /** The slowest statements of the startup (load snapshot, build rollups), slowest first. */
  startupSlowest: TimedStatement[];
  rssBeforeMb: number;
  rssAfterLoadMb: number;
  heapUsedMb: number;
  /** Reading every route's held state right after startup, as the server does once it listens (engine/held.ts). */
  heldStateMs: number;
  rssAfterHeldStateMb: number;
  cases: CaseResult[];
  /** Every route family over drawn parameters, cache off (absent when not measured). */
  varied?: { seed: number; perFamily: number; budgetMs: number; families: VariedResult[] };
  /** paid: through the facilitator over HTTP; paidLocal: the same with the facilitator answering in-process. */
  ports: { app: number; bare: number; paid: number | null; paidLocal: number | null };
  rssAfterRunMb: number;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

async function serveKoa(app: Koa): Promise<{ server: Server; port: number }> {
  const handle = app.callback();
  const server = createServer((request, response) => void handle(request, response));
  return { server, port: await listen(server) };
}

/** The ceiling: Koa answering a small JSON body with no work behind it. */
export function bareKoa(): Koa {
  const app = new Koa();
  app.use((ctx) => {
    ctx.body = { status: 'ok' };
  });
  return app;
}

/** One in-memory table of precomputed answers keyed by URL: what a keyed lookup through the engine costs. */
class KeyedFloor {
  private constructor(private readonly db: Database) {}

  static async open(): Promise<KeyedFloor> {
    const db = await Database.open({ connections: 1 });
    await db.run('CREATE TABLE keyed_answers (key VARCHAR PRIMARY KEY, answer VARCHAR NOT NULL)');
    return new KeyedFloor(db);
  }

  async time(key: string, answer: unknown, runs: number): Promise<Summary> {
    await this.db.run('INSERT OR REPLACE INTO keyed_answers VALUES ($key, $answer)', { key, answer: JSON.stringify(answer) });
    return summarize(await timeRuns(() => this.db.all('SELECT answer FROM keyed_answers WHERE key = $key', { key }), runs));
  }

  close(): Promise<void> {
    return this.db.close();
  }
}

/** Garbage-collection pauses of this process (the server and the measuring client share it), oldest first. */
const gcPauses: Array<{ start: number; end: number }> = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcPauses.push({ start: entry.startTime, end: entry.startTime + entry.duration });
  if (gcPauses.length > 10_000) gcPauses.splice(0, gcPauses.length - 10_000);
}).observe({ entryTypes: ['gc'] });

/** Milliseconds of garbage collection inside [start, end]. */
function gcInside(start: number, end: number): number {
  let ms = 0;
  for (const pause of gcPauses) ms += Math.max(0, Math.min(end, pause.end) - Math.max(start, pause.start));
  return ms;
}

async function measureCase(db: Database, route: Route, c: BenchCase, runs: number, httpRuns: number, uncachedBase: string, keyed: KeyedFloor): Promise<CaseResult> {
  const recorded: RecordedQuery[] = [];
  const recording = recordingDatabase(db, recorded);
  let error: string | null = null;
  const body = c.body;
  const init: RequestInit = body ? { method: c.method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) } : {};
  const answer = await route.handle(c.params, { db: recording, today: TODAY, body }).catch((e: unknown) => {
    error = e instanceof Error ? e.message : String(e);
    return null;
  });
  const statements = [...recorded];
  // A handler that answers an error (no data for its domain at this scale) is timed over HTTP only.
  const handler = error ? null : summarize(await timeRuns(() => route.handle(c.params, { db, today: TODAY, body }), runs));
  const sqlFloor = error
    ? null
    : summarize(
        await timeRuns(async () => {
          for (const q of statements) await db.all(q.sql, q.params);
        }, runs),
      );
  let status = 0;
  let bytes = 0;
  const spans: Array<{ start: number; end: number }> = [];
  const httpUncached = summarize(
    await timeRuns(async () => {
      const start = performance.now();
      const response = await fetch(uncachedBase + c.url, init);
      const body = await response.arrayBuffer();
      spans.push({ start, end: performance.now() });
      status = response.status;
      bytes = body.byteLength;
    }, httpRuns),
  );
  // The observer reports a pause on a later tick: wait one so the slowest request's pauses are in.
  await new Promise((resolve) => setImmediate(resolve));
  const timed = spans.slice(1); // the first was the warm-up
  const slowest = timed.reduce((a, b) => (b.end - b.start > a.end - a.start ? b : a), timed[0]);
  const httpSlowest = slowest ? { ms: slowest.end - slowest.start, gcMs: gcInside(slowest.start, slowest.end) } : undefined;
  const keyedFloor = error ? null : await keyed.time(`${c.method} ${c.url} ${JSON.stringify(body ?? null)}`, answer, runs);
  const tables: Record<string, number> = {};
  for (const table of [...new Set(statements.flatMap((q) => tablesRead(q.sql)))].sort()) {
    const rows = await db.all(`SELECT count(*)::INTEGER AS n FROM ${table}`).catch(() => null);
    if (rows) tables[table] = Number(rows[0].n);
  }
  return { routeId: c.routeId, tag: c.tag, url: c.url, method: c.method, status, error, handler, sqlFloor, statements: statements.length, tables, httpUncached, httpSlowest, keyedFloor, bytes };
}

export async function runTarget(options: TargetOptions): Promise<{ report: TargetReport; close: () => Promise<void> }> {
  const rssBeforeMb = process.memoryUsage().rss / 2 ** 20;
  const started = performance.now();
  const startupStatements: TimedStatement[] = [];
  // As the server does: the serving database when the snapshot has one, else loaded into memory.
  // DUCKDB_THREADS / DUCKDB_MEMORY_LIMIT apply as they do to the server (to measure a setting).
  const { db, mode: startupMode } = await openSnapshot(options.dataDir, engineOptionsFromEnv(), (engine) => timingDatabase(engine, startupStatements));
  const startupMs = performance.now() - started;
  const rssAfterLoadMb = process.memoryUsage().rss / 2 ** 20;
  const heapUsedMb = process.memoryUsage().heapUsed / 2 ** 20;
  // As the server does once it listens: the held state read ahead of the first request that needs it.
  const heldState = await warmHeldState(db);
  const rssAfterHeldStateMb = process.memoryUsage().rss / 2 ** 20;

  const selected = routes.filter((r) => !options.tags || options.tags.includes(r.tag));
  const now = () => BENCH_NOW;
  const quiet = () => undefined;
  const servers: Server[] = [];
  const uncached = await serveKoa(await createApp({ db, routes: selected, now, logError: quiet, cache: new ResponseCache(0) }));
  servers.push(uncached.server);
  const cases: CaseResult[] = [];
  const keyed = await KeyedFloor.open();
  try {
    for (const c of benchCases(selected)) {
      cases.push(await measureCase(db, selected.find((r) => r.id === c.routeId)!, c, options.runs, options.httpRuns, `http://127.0.0.1:${uncached.port}`, keyed));
    }
  } finally {
    await keyed.close();
  }
  let varied: TargetReport['varied'];
  if (options.variedPerFamily) {
    const budgetMs = options.variedBudgetMs ?? 5000;
    const families = await measureVaried((url) => fetch(`http://127.0.0.1:${uncached.port}${url}`), drawVaried(selected, options.variedPerFamily, VARIED_SEED, TODAY), budgetMs);
    varied = { seed: VARIED_SEED, perFamily: options.variedPerFamily, budgetMs, families };
  }
  uncached.server.close();

  // One answer cache for the app and the paid app: a paid request of a warm answer costs the payment only.
  const answers = new ResponseCache({ maxBytes: cacheBytesFromEnv() });
  const app = await serveKoa(await createApp({ db, routes: selected, now, logError: quiet, cache: answers }));
  const bare = await serveKoa(bareKoa());
  servers.push(app.server, bare.server);
  let paidPort: number | null = null;
  let paidLocalPort: number | null = null;
  if (options.paymentEnv) {
    const settings = readPaymentSettings(options.paymentEnv);
    /** A paid app on its own port (listening first: the challenge's resource URL needs the bound address). */
    const paidApp = async (facilitatorClient?: FacilitatorClient): Promise<number> => {
      const server = createServer();
      const port = await listen(server);
      const payments = createPayments({ routes: selected, settings, baseUrl: `http://127.0.0.1:${port}`, now, log: quiet, facilitatorClient });
      await payments.start();
      const handle = (await createApp({ db, routes: selected, now, logError: quiet, cache: answers, beforeHandler: [payments.middleware] })).callback();
      server.on('request', (request, response) => void handle(request, response));
      servers.push(server);
      return port;
    };
    paidPort = await paidApp();
    // The same, its facilitator answering in-process: the payment's cost without the round trips.
    paidLocalPort = await paidApp(await inProcessFacilitator(settings.facilitator!));
  }
  const report: TargetReport = {
    startupMs, startupMode, startupSlowest: [...startupStatements].sort((a, b) => b.ms - a.ms).slice(0, 8), rssBeforeMb, rssAfterLoadMb, heapUsedMb, heldStateMs: heldState.ms, rssAfterHeldStateMb, cases, varied,
    ports: { app: app.port, bare: bare.port, paid: paidPort, paidLocal: paidLocalPort },
    rssAfterRunMb: process.memoryUsage().rss / 2 ** 20,
  };
  return {
    report,
    async close() {
      for (const server of servers) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
      await db.close();
    },
  };
}

/**
 * The CPU (user + system, ms) of this process's main thread, the one that runs JavaScript: Linux's
 * /proc/self/task/<pid>/stat (fields 14 and 15, in clock ticks of 10 ms); null elsewhere. The rest
 * of the process's CPU is other threads' (V8's garbage collector and compiler helpers, libuv's pool, DuckDB).
 */
function mainThreadCpuMs(): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

// As a child process: options as JSON in argv[2].
if (isEntryPoint(import.meta.url)) {
  const options = JSON.parse(process.argv[2]) as TargetOptions;
  const { report, close } = await runTarget(options);
  process.stdout.write(`${JSON.stringify(report)}\n`);
  const commands = createInterface({ input: process.stdin });
  let profiling: Awaited<ReturnType<typeof startProfile>> | null = null;
  const answer = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);
  commands.on('line', (line) => {
    const [command, argument] = line.trim().split(' ');
    if (command === 'cpu') {
      const usage = process.cpuUsage();
      answer({ cpuMs: (usage.user + usage.system) / 1000, mainThreadCpuMs: mainThreadCpuMs() });
    } else if (command === 'profile-start') {
      void startProfile().then((started) => {
        profiling = started;
        answer({});
      });
    } else if (command === 'profile-stop' && profiling && argument) {
      void profiling.stop(argument).then((top) => answer({ top }));
      profiling = null;
    }
  });
  commands.on('close', () => void close().then(() => process.exit(0)));
}
