// Per-client rate limit on the catalog's data routes (http/rateLimiter.ts), after the route match and
// before validation and payment, so a refused client costs a counter and nothing else. Health, docs and
// unknown paths are not counted. Every counted answer carries the IETF RateLimit fields in the form of
// draft-ietf-httpapi-ratelimit-headers-10 (`RateLimit-Policy: "data";q=600;w=60`,
// `RateLimit: "data";r=12;t=41`); past the limit a 429 with Retry-After (seconds to the window's end).
import type Koa from 'koa';
import { ApiError } from '../../queries/shared/errors.ts';
import { RATE_LIMIT_WINDOW_SECONDS, type ClientRateLimit } from '../rateLimiter.ts';
import { matchOf } from './requestMatch.ts';

/** The policy's name in RateLimit-Policy and RateLimit. */
export const RATE_LIMIT_POLICY = 'data';

export function rateLimit(limit: ClientRateLimit): Koa.Middleware {
  const policy = `"${RATE_LIMIT_POLICY}";q=${limit.perMinute};w=${RATE_LIMIT_WINDOW_SECONDS}`;
  return async (ctx, next) => {
    if (!matchOf(ctx)) return next();
    const outcome = await limit.consume(ctx.req);
    if (!outcome) return next();
    ctx.set('RateLimit-Policy', policy);
    ctx.set('RateLimit', `"${RATE_LIMIT_POLICY}";r=${outcome.remaining};t=${outcome.resetSeconds}`);
    if (!outcome.allowed) {
      ctx.set('Retry-After', String(outcome.resetSeconds));
      throw new ApiError(429, 'rate_limited', `more than ${limit.perMinute} requests in a minute from this client; retry after ${outcome.resetSeconds} s`);
    }
    return next();
  };
}
