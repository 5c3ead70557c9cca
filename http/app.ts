// The Koa application: error shape, health check, catalog routes, JSON 404s.
import { ServerResponse, type IncomingMessage } from 'node:http';
import Koa from 'koa';
import type { Database } from '../engine/database.ts';
import type { Route } from '../queries/catalog.ts';
import { snapshotImportDate } from '../queries/imports.ts';
import { isoToday } from '../queries/shared/window.ts';
import { errorBody, errorHandler, emptyResponseHandler } from './errors.ts';
import { cacheBytesFromEnv, ResponseCache } from './cache.ts';
import { corsFor } from './cors.ts';
import { pathPattern } from './dispatch.ts';
import { dataSourceMiddleware } from './dataSource.ts';
import { FastAnswers } from './fastAnswers.ts';
import type { ClientRequest } from './payments/exemption.ts';
import { buildRouter } from './router.ts';
import type { SnapshotHolder } from './snapshotHolder.ts';
import { docsDefaults, docsMiddleware, type DocsOptions } from './docs/index.ts';
import { snapshotDocsFacts } from './docs/exampleAnswers.ts';

export interface AppOptions {
  db: Database;
  routes: readonly Route[];
  /** Injectable clock; windows whose `to` defaults to today read it. */
  now?: () => Date;
  /** Time zone of "today" (the data's own: Europe/Sofia). */
  timeZone?: string;
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
}

export async function createApp(options: AppOptions): Promise<FastAnswersApp> {
  const now = options.now ?? (() => new Date());
  const timeZone = options.timeZone ?? 'Europe/Sofia';
  const importDate = await snapshotImportDate(options.db);
  const snapshots = options.snapshots;
  const cache = options.cache ?? new ResponseCache({ maxBytes: cacheBytesFromEnv() });
  // A repeated answer that needs no payment is sent by the listener, before Koa (http/fastAnswers.ts).
  const fast = new FastAnswers({
    bound: cache.bound,
    maxAnswerBytes: cache.maxAnswerBytes,
    needsPayment: options.needsPayment ?? (options.beforeHandler?.length ? (route) => route.paid : () => false),
    generation: () => snapshots?.current().generation ?? null,
    today: () => isoToday(now(), timeZone),
    countHit: () => cache.countHit(),
  });
  snapshots?.onSwap(() => fast.clear());
  const app = new FastAnswersApp(fast);
  app.use(fast.recorder());
  if (snapshots) app.use((_ctx, next) => snapshots.run(next));
  app.use(errorHandler(options.logError ?? ((error) => console.error(error))));
  app.use(emptyResponseHandler);
  // Sample or imported: /healthz per source and X-Data-Source on every data answer (http/dataSource.ts).
  app.use(dataSourceMiddleware(() => snapshots?.pinned().db ?? options.db));
  app.use(async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    await next();
  });
  app.use(async (ctx, next) => {
    if (ctx.path !== '/healthz') return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD');
      ctx.status = 405;
      ctx.body = errorBody(405, 'method_not_allowed', `${ctx.method} is not allowed on /healthz; allowed: GET, HEAD`);
      return;
    }
    ctx.set('Cache-Control', 'no-store');
    const served = snapshots?.pinned();
    ctx.body = served
      ? { status: 'ok', generation: served.generation, import_date: served.importDate, cache: cache.stats() }
      : { status: 'ok', import_date: importDate, cache: cache.stats() };
  });
  app.use(dataRouteHeaders(options.routes));
  // The environment's defaults only when the caller did not give both (they read BASE_URL and the payment settings).
  const given = options.docs;
  const docsBase = given?.baseUrl !== undefined && given.payment !== undefined ? { baseUrl: given.baseUrl, payment: given.payment } : docsDefaults();
  // The docs' example answers and sample banner come from the served snapshot, computed on the first docs request.
  const facts = snapshotDocsFacts({ db: () => snapshots?.pinned().db ?? options.db, routes: options.routes, today: () => isoToday(now(), timeZone), log: options.log ?? ((line) => console.warn(line)) });
  app.use(docsMiddleware({ facts, ...given, ...docsBase, routes: options.routes, now }));
  const router = buildRouter({
    // Read per request: the database of the snapshot the request is pinned to.
    get db() {
      return snapshots?.pinned().db ?? options.db;
    },
    routes: options.routes,
    today: () => isoToday(now(), timeZone),
    beforeHandler: options.beforeHandler,
    cache,
  });
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}

/** Koa whose request listener first offers the request to the fast path (so `listen` and `callback` both have it). */
export class FastAnswersApp extends Koa {
  /** `fastAnswers`: the answers replayed by the listener (their bytes count against the answer cache's bound). */
  constructor(readonly fastAnswers: FastAnswers) {
    super();
  }

  override callback(): ReturnType<Koa['callback']> {
    const handle = super.callback();
    return async (request, response) => {
      // HTTP/1 only (the server's); an HTTP/2 request goes to Koa as it is.
      if (response instanceof ServerResponse && this.fastAnswers.serve(request as IncomingMessage, response)) return;
      await handle(request, response);
    };
  }
}

/**
 * The headers every answer of a data route carries, whatever its status: CORS (any origin; a
 * preflight is answered 204 with the path's methods), `Vary: Accept` where the format is negotiated
 * (list routes), and `Cache-Control: private, no-store` on paid routes (a paid answer is one client's;
 * the payment check's 402s and refusals keep their `no-store`).
 */
function dataRouteHeaders(routes: readonly Route[]): Koa.Middleware {
  const forms = routes.flatMap((route) => route.paths.map((path) => ({ route, pattern: pathPattern(path) })));
  const corsByMethods = new Map<string, Koa.Middleware>();
  const corsOf = (methods: string[]) => {
    const key = methods.join(',');
    if (!corsByMethods.has(key)) corsByMethods.set(key, corsFor(methods));
    return corsByMethods.get(key)!;
  };
  return async (ctx, next) => {
    if (!ctx.path.startsWith('/api/')) return next();
    const matching = forms.filter((form) => form.pattern.test(ctx.path)).map((form) => form.route);
    if (matching.length === 0) return next();
    const methods = [...new Set(matching.flatMap((route) => (route.method === 'GET' ? ['GET', 'HEAD'] : [route.method])))];
    const route = matching.find((candidate) => candidate.method === ctx.method || (ctx.method === 'HEAD' && candidate.method === 'GET')) ?? matching[0]!;
    return corsOf(methods)(ctx, async () => {
      if (route.listRows) ctx.vary('Accept');
      try {
        await next();
      } finally {
        // After the payment check, whose 402s and refusals already say no-store (kept as they are).
        if (route.paid && ctx.method !== 'OPTIONS' && !/\bno-store\b/.test(ctx.response.get('Cache-Control'))) ctx.set('Cache-Control', 'private, no-store');
      }
    });
  };
}
