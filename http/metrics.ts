// The server's Prometheus metrics (prom-client), one registry per server (not prom-client's global
// one, so servers in one process keep their own counts), served as text on a listener of their own
// (METRICS_PORT on METRICS_HOST, never the public port). Route labels are catalog route ids or a fixed
// kind (health, docs, unknown): never a client's raw path, so the label set stays bounded.
import { createServer, type Server } from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Database } from '../engine/database.ts';
import type { SourceFetchState } from '../engine/fetchState.ts';
import { heldStateStats } from '../engine/held.ts';
import type { ResponseCache } from './cache.ts';
import { ConfigError } from './configError.ts';

export type PaymentOutcome = 'verified' | 'settled' | 'refused' | 'unknown' | 'replayed';
export type FacilitatorCall = 'verify' | 'settle' | 'supported';

/** What the payments report (http/payments takes it, optional). */
export interface PaymentMetrics {
  payment(outcome: PaymentOutcome): void;
  facilitatorCall(call: FacilitatorCall, seconds: number): void;
}

/** What the metrics read of the served snapshot at each scrape. */
export interface SnapshotFacts {
  db: Database;
  generation: string | null;
  /** The newest import record's time (ISO). */
  importDate: string | null;
}

/** A bad METRICS_PORT or METRICS_HOST. */
export class MetricsConfigError extends ConfigError {
  constructor(message: string) {
    super(message);
    this.name = 'MetricsConfigError';
  }
}

export interface MetricsListen {
  port: number;
  host: string;
}

/** METRICS_PORT (unset: no metrics listener) and METRICS_HOST (default 127.0.0.1). */
export function metricsListenFromEnv(env: NodeJS.ProcessEnv = process.env): MetricsListen | null {
  const raw = env.METRICS_PORT?.trim();
  if (raw === undefined || raw === '') return null;
  if (!/^[0-9]{1,5}$/.test(raw) || Number(raw) > 65535) throw new MetricsConfigError(`METRICS_PORT must be a port number from 0 to 65535 (got "${env.METRICS_PORT}")`);
  const host = env.METRICS_HOST?.trim() || '127.0.0.1';
  return { port: Number(raw), host };
}

/** Seconds between the snapshot's newest import (else the time in its generation id) and now; null when neither is known. */
export function snapshotAgeSeconds(snapshot: Pick<SnapshotFacts, 'generation' | 'importDate'>, now: Date): number | null {
  let time = snapshot.importDate === null ? NaN : Date.parse(snapshot.importDate);
  const stamp = snapshot.generation?.match(/-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/);
  if (Number.isNaN(time) && stamp) time = Date.parse(`${stamp[1]}-${stamp[2]}-${stamp[3]}T${stamp[4]}:${stamp[5]}:${stamp[6]}Z`);
  return Number.isNaN(time) ? null : Math.max(0, (now.getTime() - time) / 1000);
}

export class ServerMetrics implements PaymentMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'route' | 'status'>;
  private readonly latency: Histogram<'route'>;
  private readonly payments: Counter<'outcome'>;
  private readonly facilitator: Histogram<'call'>;

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({ name: 'http_requests_total', help: 'Requests answered, by route id (or health, docs, unknown) and status.', labelNames: ['route', 'status'], registers });
    this.latency = new Histogram({
      name: 'http_request_duration_seconds', help: 'Time from the request\'s arrival to its last byte, by route.', labelNames: ['route'], registers,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    });
    this.payments = new Counter({ name: 'payments_total', help: 'Payments by outcome: verified, settled, refused, unknown (settlement outcome lost), replayed (a paid answer sent again).', labelNames: ['outcome'], registers });
    for (const outcome of ['verified', 'settled', 'refused', 'unknown', 'replayed'] as const) this.payments.inc({ outcome }, 0);
    this.facilitator = new Histogram({
      name: 'facilitator_request_duration_seconds', help: 'Facilitator calls (verify, settle, supported), failed ones included.', labelNames: ['call'], registers,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20],
    });
  }

  /** One answered request (the listener calls it when the response is done). */
  request(route: string, status: number, seconds: number): void {
    this.requests.inc({ route, status: String(status) });
    this.latency.observe({ route }, seconds);
  }

  payment(outcome: PaymentOutcome): void {
    this.payments.inc({ outcome });
  }

  facilitatorCall(call: FacilitatorCall, seconds: number): void {
    this.facilitator.observe({ call }, seconds);
  }

  /** The answer cache's hits, misses and bytes (with the fast answers' bytes), read at each scrape. */
  watchCache(cache: ResponseCache): void {
    const registers = [this.registry];
    const counted = { hits: 0, misses: 0 };
    // Counters that follow the cache's own counts (which never go down): each scrape adds what they grew by.
    new Counter({
      name: 'answer_cache_hits_total', help: 'Answers served from the answer cache or replayed by the fast path.', registers,
      collect() {
        const { hits } = cache.stats();
        this.inc(hits - counted.hits);
        counted.hits = hits;
      },
    });
    new Counter({
      name: 'answer_cache_misses_total', help: 'Answers computed because the answer cache did not hold them.', registers,
      collect() {
        const { misses } = cache.stats();
        this.inc(misses - counted.misses);
        counted.misses = misses;
      },
    });
    new Gauge({ name: 'answer_cache_bytes', help: 'Bytes held by the answer cache and the fast answers together (ANSWER_CACHE_MB bounds them).', registers, collect() { this.set(cache.bound.bytes); } });
    new Gauge({ name: 'answer_cache_max_bytes', help: 'The bound of the answer cache and fast answers (ANSWER_CACHE_MB).', registers, collect() { this.set(cache.maxBytes); } });
  }

  /** The served snapshot: its generation (a label of an info gauge), its age, and the bytes its held state takes. */
  watchSnapshot(current: () => SnapshotFacts, now: () => Date = () => new Date()): void {
    const registers = [this.registry];
    new Gauge({
      name: 'snapshot_generation_info', help: 'The generation served (value 1; "flat" for a snapshot folder without generations).', labelNames: ['generation'], registers,
      collect() {
        this.reset();
        this.set({ generation: current().generation ?? 'flat' }, 1);
      },
    });
    new Gauge({
      name: 'snapshot_age_seconds', help: 'Seconds since the served snapshot\'s newest import (else since its generation was published).', registers,
      collect() {
        const age = snapshotAgeSeconds(current(), now());
        if (age === null) this.reset();
        else this.set(age);
      },
    });
    new Gauge({ name: 'held_state_bytes', help: 'Bytes of the state some routes hold in memory (engine/held.ts) for the served snapshot.', registers, collect() { this.set(heldStateStats(current().db).bytes); } });
  }

  /**
   * Per fetchable source (engine/fetchState.ts, read at each scrape): the time of its last fetch and of
   * its last change (Unix seconds; absent when never), and its status (1 on the status it has).
   */
  watchFreshness(read: () => Promise<Record<string, SourceFetchState>>): void {
    const registers = [this.registry];
    // Each gauge reads the small state file itself: nothing is held between scrapes.
    const current = read;
    const seconds = (iso: string | null) => (iso === null ? null : Date.parse(iso) / 1000);
    new Gauge({
      name: 'source_last_fetch_timestamp_seconds', help: 'When each source was last fetched from its publisher (npm run fetch / refresh), Unix seconds.', labelNames: ['source'], registers,
      async collect() {
        this.reset();
        for (const [source, entry] of Object.entries(await current())) {
          const at = seconds(entry.last_fetch);
          if (at !== null) this.set({ source }, at);
        }
      },
    });
    new Gauge({
      name: 'source_last_change_timestamp_seconds', help: 'When a fetch last published new data of each source, Unix seconds.', labelNames: ['source'], registers,
      async collect() {
        this.reset();
        for (const [source, entry] of Object.entries(await current())) {
          const at = seconds(entry.last_change);
          if (at !== null) this.set({ source }, at);
        }
      },
    });
    new Gauge({
      name: 'source_fetch_status', help: 'Each source\'s last fetch: 1 on its status (ok, failed, never), 0 on the others.', labelNames: ['source', 'status'], registers,
      async collect() {
        this.reset();
        for (const [source, entry] of Object.entries(await current())) {
          for (const status of ['ok', 'failed', 'never'] as const) this.set({ source, status }, entry.status === status ? 1 : 0);
        }
      },
    });
  }

  /** The Prometheus text exposition. */
  text(): Promise<string> {
    return this.registry.metrics();
  }
}

/** The metrics listener: GET /metrics (Prometheus text), 404 for any other path, 405 for any other method. */
export async function startMetricsServer(metrics: ServerMetrics, listen: MetricsListen): Promise<Server> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found: the metrics are at /metrics\n');
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('method not allowed\n');
      return;
    }
    metrics.text().then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' }).end(request.method === 'HEAD' ? undefined : text),
      (error: unknown) => response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end(`metrics could not be collected: ${error instanceof Error ? error.message : String(error)}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
