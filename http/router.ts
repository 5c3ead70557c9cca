// The Koa router, built from the route catalog: one registration per path form.
// Per request: validate parameters (400 before anything else), run the per-route hooks
// (payments plug in here), answer from the cache or the handler, encode; the steps themselves are
// the dispatcher's (http/dispatch.ts), which the query CLI and the MCP server call directly.
import Router from '@koa/router';
import type Koa from 'koa';
import type { Database } from '../engine/database.ts';
import type { Route } from '../queries/catalog.ts';
import type { ResponseCache } from './cache.ts';
import { Dispatcher } from './dispatch.ts';
import { negotiateFormat, writeEncoded } from './formats.ts';
import { readJsonBody } from './body.ts';
import type { RawQuery } from './validate.ts';

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
  /** The shared request pipeline; default one built from db, routes, today and cache. */
  dispatcher?: Dispatcher;
}

/** `/api/x/{year}` -> `/api/x/:year` */
export function koaPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}

export function buildRouter(options: RouterOptions): Router {
  const router = new Router();
  // Validation, gate, answer and encoding live in the dispatcher (shared with the query CLI and the MCP server).
  const dispatcher = options.dispatcher ?? new Dispatcher({ get db() { return options.db; }, routes: options.routes, today: options.today, cache: options.cache });
  for (const endpoint of dispatcher.endpoints) {
    const { route, path } = endpoint;
    const prepare: Koa.Middleware = async (ctx, next) => {
      const prepared = await dispatcher.prepare(endpoint, {
        query: ctx.query as RawQuery,
        pathParams: (ctx as unknown as { params: Record<string, string> }).params ?? {},
        // A JSON body (content type, size, syntax, schema) is checked here, before the payment check.
        readBody: () => readJsonBody(ctx, route.requestBody!),
        format: () => negotiateFormat(ctx, route),
      });
      ctx.state.route = route;
      ctx.state.pathTemplate = path;
      ctx.state.params = prepared.params;
      ctx.state.body = prepared.body;
      ctx.state.format = prepared.format;
      await next();
    };
    const answer: Koa.Middleware = async (ctx) => {
      const encoded = await dispatcher.answerEncoded({
        endpoint, params: ctx.state.params as Record<string, unknown>, body: ctx.state.body as Record<string, unknown> | undefined, format: ctx.state.format,
      });
      writeEncoded(ctx, encoded);
    };
    const method = route.method === 'GET' ? 'get' : 'post';
    router[method](route.id + ':' + path, koaPath(path), prepare, ...(options.beforeHandler ?? []), answer);
  }
  return router;
}
