// The answer of a validated (and, where it must be, paid) request: from the answer cache, or the
// route's handler encoded in the negotiated format (http/dispatch.ts).
import type Koa from 'koa';
import type { Dispatcher } from '../dispatch.ts';
import { validatedMatchOf } from './requestMatch.ts';

export function answer(dispatcher: Dispatcher): Koa.Middleware {
  return async (ctx, next) => {
    const match = validatedMatchOf(ctx);
    match.answer = await dispatcher.answerEncoded({ endpoint: match.endpoint, ...match.validated });
    await next();
  };
}
