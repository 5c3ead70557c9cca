// The query string, refused past its bounds before anything reads it (414 past MAX_QUERY_BYTES, 400
// past MAX_QUERY_PARAMETERS; http/query.ts), then parsed once in one pass: every later stage reads
// queryOf(ctx) (the match's `query`), never Koa's quadratic ctx.query.
import type Koa from 'koa';
import { parseQuery, queryBoundsError } from '../query.ts';
import type { RawQuery } from '../validate.ts';

const parsed = new WeakMap<Koa.Context, RawQuery>();

export function boundQuery(): Koa.Middleware {
  return (ctx, next) => {
    const refusal = queryBoundsError(ctx.querystring);
    if (refusal) {
      // A client may still be sending a body: do not keep the connection for it.
      ctx.set('Connection', 'close');
      throw refusal;
    }
    queryOf(ctx);
    return next();
  };
}

/** The request's parsed query (a null-prototype object; a repeated key as an array), parsed on first use. */
export function queryOf(ctx: Koa.Context): RawQuery {
  let query = parsed.get(ctx);
  if (!query) parsed.set(ctx, (query = parseQuery(ctx.querystring)));
  return query;
}
