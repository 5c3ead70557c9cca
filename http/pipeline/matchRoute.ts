// The catalog match, found once per request: the method and path against every path form of the
// catalog (the dispatcher's patterns, shared with the query CLI and the MCP server), kept as the
// request's RequestMatch. Not a catalog path (health, docs, unknown): no match, nothing else to do.
import type Koa from 'koa';
import type { Route } from '../../queries/catalog.ts';
import type { Dispatcher } from '../dispatch.ts';
import type { ClientRequest } from '../payments/exemption.ts';
import { queryOf } from './boundQuery.ts';
import { setMatch } from './requestMatch.ts';

export interface MatchRouteOptions {
  dispatcher: Dispatcher;
  /** Whether this request for this route must pass the payment check (paid and not exempt). */
  needsPayment: (route: Route, request: ClientRequest) => boolean;
}

export function matchRoute(options: MatchRouteOptions): Koa.Middleware {
  return (ctx, next) => {
    const found = options.dispatcher.findPath(ctx.method, ctx.path);
    if (found) {
      const { endpoint } = found;
      setMatch(ctx, {
        endpoint,
        route: endpoint.route,
        pathForm: endpoint.path,
        query: queryOf(ctx),
        pathParams: found.pathParams,
        methodTaken: found.methodTaken,
        routeMethods: found.routeMethods,
        paid: endpoint.route.paid,
        needsPayment: options.needsPayment(endpoint.route, ctx.req),
      });
    }
    return next();
  };
}
