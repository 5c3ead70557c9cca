// The answer of a validated (and, where it must be, paid) request: from the answer cache, or the
// route's handler encoded in the negotiated format (http/dispatch.ts); a cache hit is noted in the
// request's record (its log line).
import type Koa from 'koa';
import type { Dispatcher } from '../dispatch.ts';
import { requestRecordOf } from '../observe.ts';
import { validatedMatchOf } from './requestMatch.ts';

export function answer(dispatcher: Dispatcher): Koa.Middleware {
  return async (ctx, next) => {
    const match = validatedMatchOf(ctx);
    const record = requestRecordOf(ctx.req);
    match.answer = await dispatcher.answerEncoded({ endpoint: match.endpoint, ...match.validated }, record && ((hit) => (record.cacheHit = hit)));
    await next();
  };
}
