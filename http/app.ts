// The Koa application: error shape, health check, catalog routes, JSON 404s.
import Koa from 'koa';
import type { Database } from '../engine/database.ts';
import type { Route } from '../queries/catalog.ts';
import { snapshotImportDate } from '../queries/imports.ts';
import { isoToday } from '../queries/shared/window.ts';
import { errorHandler, emptyResponseHandler } from './errors.ts';
import type { ResponseCache } from './cache.ts';
import { buildRouter } from './router.ts';
import { docsDefaults, docsMiddleware, type DocsOptions } from './docs/index.ts';

export interface AppOptions {
  db: Database;
  routes: readonly Route[];
  /** Injectable clock; windows whose `to` defaults to today read it. */
  now?: () => Date;
  /** Time zone of "today" (the data's own: Europe/Sofia). */
  timeZone?: string;
  beforeHandler?: Koa.Middleware[];
  logError?: (error: unknown) => void;
  /** The free docs' base address and payment facts; default: BASE_URL and the payment settings of the environment. */
  docs?: Partial<DocsOptions>;
  /** The answer cache; default a fresh ResponseCache (the benchmark passes a zero-size one to time misses). */
  cache?: ResponseCache;
}

export async function createApp(options: AppOptions): Promise<Koa> {
  const now = options.now ?? (() => new Date());
  const timeZone = options.timeZone ?? 'Europe/Sofia';
  const importDate = await snapshotImportDate(options.db);
  const app = new Koa();
  app.use(errorHandler(options.logError ?? ((error) => console.error(error))));
  app.use(emptyResponseHandler);
  app.use(async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    await next();
  });
  app.use(async (ctx, next) => {
    if (ctx.path !== '/healthz') return next();
    ctx.body = { status: 'ok', import_date: importDate };
  });
  // The environment's defaults only when the caller did not give both (they read BASE_URL and the payment settings).
  const given = options.docs;
  const docsBase = given?.baseUrl !== undefined && given.payment !== undefined ? { baseUrl: given.baseUrl, payment: given.payment } : docsDefaults();
  app.use(docsMiddleware({ ...given, ...docsBase, routes: options.routes, now }));
  const router = buildRouter({
    db: options.db,
    routes: options.routes,
    today: () => isoToday(now(), timeZone),
    beforeHandler: options.beforeHandler,
    cache: options.cache,
  });
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}
