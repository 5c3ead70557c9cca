// A catalog request's parameters (query and path), its JSON body (content type, size, syntax, schema),
// its format and the route's gate, checked before the payment check: an invalid request is a 400 (or
// 413, 415, ...) and is never charged. The typed values join the request's match.
import type Koa from 'koa';
import { readJsonBody } from '../body.ts';
import type { Dispatcher } from '../dispatch.ts';
import { negotiateFormat } from '../formats.ts';
import { matchOf } from './requestMatch.ts';

export function validateRequest(dispatcher: Dispatcher): Koa.Middleware {
  return async (ctx, next) => {
    const match = matchOf(ctx);
    // No catalog path: nothing answered it, so the errors stage answers 404.
    if (!match) return;
    const { route } = match;
    const prepared = await dispatcher.prepare(match.endpoint, {
      query: match.query,
      pathParams: match.pathParams,
      readBody: () => readJsonBody(ctx, route.requestBody!),
      format: () => negotiateFormat(ctx, route, match.query.format),
    });
    match.validated = { params: prepared.params, body: prepared.body, format: prepared.format };
    await next();
  };
}
