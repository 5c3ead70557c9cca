// The Koa router, built from the route catalog: one registration per path form.
// Per request: validate parameters (400 before anything else), run the per-route hooks
// (payments plug in here), answer from the cache or the handler, encode.
import Router from '@koa/router';
import type Koa from 'koa';
import type { Database } from '../engine/database.ts';
import type { Route } from '../queries/catalog.ts';
import { ResponseCache } from './cache.ts';
import { negotiateFormat, writeBody } from './formats.ts';
import { buildBodyValidator, readJsonBody } from './body.ts';
import { buildValidator, type RawQuery } from './validate.ts';

export interface RouteState {
  route: Route;
  params: Record<string, unknown>;
}

export interface RouterOptions {
  db: Database;
  routes: readonly Route[];
  today: () => string;
  /** Middleware run after validation and before the handler, e.g. the x402 payment check. */
  beforeHandler?: Koa.Middleware[];
  cache?: ResponseCache;
}

/** `/api/x/{year}` -> `/api/x/:year` */
export function koaPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}

export function buildRouter(options: RouterOptions): Router {
  const router = new Router();
  const cache = options.cache ?? new ResponseCache();
  for (const route of options.routes) {
    for (const path of route.paths) {
      const validate = buildValidator(route, path);
      const validateBody = route.requestBody ? buildBodyValidator(route.requestBody) : null;
      const prepare: Koa.Middleware = async (ctx, next) => {
        const params = validate(ctx.query as RawQuery, (ctx as unknown as { params: Record<string, string> }).params ?? {});
        // A JSON body (content type, size, syntax, schema) is checked here, before the payment check.
        const body = validateBody ? validateBody(await readJsonBody(ctx, route.requestBody!)) : undefined;
        const format = negotiateFormat(ctx, route);
        ctx.state.route = route;
        ctx.state.pathTemplate = path;
        ctx.state.params = params;
        ctx.state.body = body;
        ctx.state.format = format;
        // A gate (e.g. a licence) answers before the payment check: a refused request is never charged.
        const refusal = route.gate ? await route.gate.check(params, { db: options.db, today: options.today() }) : null;
        if (refusal) throw refusal;
        await next();
      };
      const answer: Koa.Middleware = async (ctx) => {
        const today = options.today();
        const params = ctx.state.params as Record<string, unknown>;
        const requestBody = ctx.state.body as Record<string, unknown> | undefined;
        // Answers to a body are computed each time (the body is not part of the cache key).
        const body = requestBody
          ? await route.handle(params, { db: options.db, today, body: requestBody })
          : await cache.getOrCompute(ResponseCache.key(route.id, params, today), () => route.handle(params, { db: options.db, today }));
        writeBody(ctx, route, body, ctx.state.format);
      };
      const method = route.method === 'GET' ? 'get' : 'post';
      router[method](route.id + ':' + path, koaPath(path), prepare, ...(options.beforeHandler ?? []), answer);
    }
  }
  return router;
}
