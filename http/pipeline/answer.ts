// The answer of a validated (and, where it must be, paid) request: from the answer cache, or the
// route's handler encoded in the negotiated format (http/dispatch.ts); a cache hit is noted in the
// request's record (its log line).
import type Koa from 'koa';
import type { Dispatcher } from '../dispatch.ts';
import { requestRecordOf } from '../observe.ts';
import { OVERLOADED_RETRY_AFTER_SECONDS, Overloaded, type AnswerSlots } from './concurrency.ts';
import { validatedMatchOf } from './requestMatch.ts';

/** `slots`: the bound on answers computed at once (http/pipeline/concurrency.ts); none: unbounded. */
export function answer(dispatcher: Dispatcher, slots?: AnswerSlots): Koa.Middleware {
  return async (ctx, next) => {
    const match = validatedMatchOf(ctx);
    const computing = slots ? <T>(compute: () => Promise<T>) => slots.run(compute, ctx.res) : undefined;
    const record = requestRecordOf(ctx.req);
    const cacheHit = record && ((hit: boolean) => (record.cacheHit = hit));
    try {
      match.answer = await dispatcher.answerEncoded({ endpoint: match.endpoint, ...match.validated }, { computing, cacheHit });
    } catch (error) {
      if (error instanceof Overloaded) ctx.set('Retry-After', String(OVERLOADED_RETRY_AFTER_SECONDS));
      throw error;
    }
    await next();
  };
}
