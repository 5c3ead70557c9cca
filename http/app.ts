// The Koa application over the catalog: the request pipeline's stages (http/pipeline/index.ts, where
// the request's path is told) built from the options, behind a listener that replays fast answers.
import { ServerResponse, type IncomingMessage, type RequestListener } from 'node:http';
import Koa from 'koa';
import type { Database } from '../engine/database.ts';
import type { Route } from '../queries/catalog.ts';
import { snapshotImportDate } from '../queries/imports.ts';
import { isoToday } from '../queries/shared/window.ts';
import { cacheBytesFromEnv, ResponseCache } from './cache.ts';
import { Dispatcher } from './dispatch.ts';
import { FastAnswers } from './fastAnswers.ts';
import { RequestObserver, type ObserveOptions } from './observe.ts';
import type { ClientRequest } from './payments/exemption.ts';
import { requestPipeline } from './pipeline/index.ts';
import type { ReadinessCheck } from './readiness.ts';
import type { SnapshotHolder } from './snapshotHolder.ts';
import type { AnswerSlots } from './pipeline/concurrency.ts';
import type { ClientRateLimit } from './rateLimiter.ts';
import { docsDefaults, docsMiddleware, type DocsOptions } from './docs/index.ts';
import { snapshotDocsFacts } from './docs/exampleAnswers.ts';
import { mcpResources } from './mcp/resources.ts';
import { httpPaymentOfMcp, mcpChallenge } from './payments/challenge.ts';
import { mcpEndpoint } from './pipeline/mcp.ts';
import type { SourceFetchState } from '../engine/fetchState.ts';

export interface AppOptions {
  db: Database;
  routes: readonly Route[];
  /** Injectable clock; windows whose `to` defaults to today read it. */
  now?: () => Date;
  /** Time zone of "today" (the data's own: Europe/Sofia). */
  timeZone?: string;
  /** The payment check (http/payments), run after validation and before the answer. */
  beforeHandler?: Koa.Middleware[];
  logError?: (error: unknown) => void;
  /** Informational lines (the operations whose example answer the docs could not show); default console.warn. */
  log?: (line: string) => void;
  /** The free docs' base address and payment facts; default: BASE_URL and the payment settings of the environment. */
  docs?: Partial<DocsOptions>;
  /**
   * The answer cache; default a fresh ResponseCache bounded by ANSWER_CACHE_MB (the benchmark passes a
   * zero-size one to time misses). Its size and hit rate are reported on /healthz.
   */
  cache?: ResponseCache;
  /**
   * Whether a request for a route must pass the payment check (paid and not exempt): such requests
   * never take the fast path (http/fastAnswers.ts). Default: every paid route when `beforeHandler`
   * is given (the payment check may be among them), none otherwise.
   */
  needsPayment?: (route: Route, request: ClientRequest) => boolean;
  /**
   * The served snapshot, hot-swappable (http/server.ts): each request is pinned to the generation
   * current when it starts, and /healthz names it. Without it every request uses `db`.
   */
  snapshots?: SnapshotHolder;
  /** The per-client rate limit of data routes (http/rateLimiter.ts); none: off. */
  rateLimit?: ClientRateLimit;
  /** The bound on answers computed at once (http/pipeline/concurrency.ts); none: unbounded. */
  answerSlots?: AnswerSlots;
  /** The configured public base URL (BASE_URL): list pages' Link targets are absolute on it; none: root-relative. */
  publicBaseUrl?: string | null;
  /** What /readyz checks besides the snapshot: with payments, the store and the facilitator (Payments.readinessChecks). */
  readiness?: readonly ReadinessCheck[];
  /**
   * The request log and metrics (http/observe.ts): a JSON line and the request metrics per answer.
   * Default none of either; every answer still carries its X-Request-Id.
   */
  observe?: ObserveOptions;
  /** Per source, when it was last fetched and changed (engine/fetchState.ts), shown on /healthz as `freshness`; none: not shown. */
  freshness?: () => Promise<Record<string, SourceFetchState>>;
}

/** Stream failures caused by the client's connection: its going away, or its slowness. */
const CLIENT_STREAM_ERRORS = new Set(['ERR_HTTP_REQUEST_TIMEOUT', 'ECONNRESET', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE']);

export async function createApp(options: AppOptions): Promise<FastAnswersApp> {
  const now = options.now ?? (() => new Date());
  const timeZone = options.timeZone ?? 'Europe/Sofia';
  const today = () => isoToday(now(), timeZone);
  const snapshots = options.snapshots;
  // Read per request: the database of the snapshot the request is pinned to.
  const db = () => snapshots?.pinned().db ?? options.db;
  const cache = options.cache ?? new ResponseCache({ maxBytes: cacheBytesFromEnv() });
  const needsPayment = options.needsPayment ?? (options.beforeHandler?.length ? (route: Route) => route.paid : () => false);
  // A repeated answer that needs no payment is sent by the listener, before Koa (http/fastAnswers.ts).
  const fastAnswers = new FastAnswers({
    bound: cache.bound,
    maxAnswerBytes: cache.maxAnswerBytes,
    needsPayment,
    generation: () => snapshots?.current().generation ?? null,
    today,
    countHit: () => cache.countHit(),
  });
  snapshots?.onSwap(() => fastAnswers.clear());
  // Matching, validation, gate, answer and encoding are the dispatcher's (shared with the query CLI and the MCP server).
  const dispatcher = new Dispatcher({ get db() { return db(); }, routes: options.routes, today, cache });
  // The environment's defaults only when the caller did not give both (they read BASE_URL and the payment settings).
  const given = options.docs;
  const docsBase = given?.baseUrl !== undefined && given.payment !== undefined ? { baseUrl: given.baseUrl, payment: given.payment } : docsDefaults();
  // The docs' example answers and sample banner come from the served snapshot, computed on the first docs request.
  const facts = snapshotDocsFacts({ db, routes: options.routes, today, log: options.log ?? ((line) => console.warn(line)) });
  const app = new FastAnswersApp(fastAnswers, new RequestObserver(options.observe));
  // The MCP endpoint's tool calls enter the app again through its listener, taken once the stages are in.
  let listener: RequestListener | undefined;
  const mcp = mcpEndpoint({
    routes: options.routes,
    listener: () => (listener ??= app.callback() as RequestListener),
    resources: mcpResources(options.routes, async () => {
      const found = await facts().catch(() => undefined);
      return { routes: options.routes, ...docsBase, examples: found?.examples, dataOrigin: found?.dataOrigin };
    }),
    x402: { challenge: mcpChallenge, payment: httpPaymentOfMcp },
  });
  const stages = requestPipeline({
    fastAnswers,
    snapshots,
    db,
    importDate: await snapshotImportDate(options.db),
    cache,
    dispatcher,
    needsPayment,
    logError: options.logError ?? ((error) => console.error(error)),
    readinessChecks: options.readiness ?? [],
    // The error's name only: a facilitator error's message names its URL, which may carry a password.
    log: (message, error) => (options.log ?? ((line: string) => console.warn(line)))(error instanceof Error ? `${message} (${error.name})` : message),
    docs: docsMiddleware({ facts, ...given, ...docsBase, routes: options.routes, now }),
    mcp,
    payment: options.beforeHandler ?? [],
    rateLimit: options.rateLimit,
    answerSlots: options.answerSlots,
    publicBaseUrl: options.publicBaseUrl,
    freshness: options.freshness,
  });
  for (const stage of stages) app.use(stage);
  // Koa reports here what no stage could answer: a response stream's failure once the answer was under
  // way. A client that left or sent too slowly (Node has already answered 408) is not a server error.
  app.on('error', (error: Error & { code?: string }) => {
    if (error.code !== undefined && CLIENT_STREAM_ERRORS.has(error.code)) return;
    (options.logError ?? ((failure) => console.error(failure)))(error);
  });
  return app;
}

/**
 * Koa whose request listener first gives the request its id and record (its log line and metrics),
 * then offers it to the fast path (so `listen` and `callback` both have them).
 */
export class FastAnswersApp extends Koa {
  /** `fastAnswers`: the answers replayed by the listener (their bytes count against the answer cache's bound). */
  constructor(
    readonly fastAnswers: FastAnswers,
    private readonly observer: RequestObserver = new RequestObserver(),
  ) {
    super();
  }

  override callback(): ReturnType<Koa['callback']> {
    const handle = super.callback();
    return async (request, response) => {
      // HTTP/1 only (the server's); an HTTP/2 request goes to Koa as it is.
      if (!(response instanceof ServerResponse)) return handle(request, response);
      const record = this.observer.begin(request as IncomingMessage, response);
      if (this.fastAnswers.serve(request as IncomingMessage, response, record)) return;
      await handle(request, response);
    };
  }
}
