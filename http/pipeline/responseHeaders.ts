// The headers the app decides, in one place, from the request's match:
// - X-Content-Type-Options: nosniff on every answer;
// - on a catalog path: CORS (any origin; a preflight answered 204 with the path's methods; http/cors.ts)
//   and `Vary: Accept` where the format is negotiated (list routes), whatever the status;
// - Cache-Control: `no-store` on /healthz and /readyz; `public, max-age=DOCS_MAX_AGE` on a free document (it has an
//   ETag to revalidate with) and `no-cache` on a missing one; `private, no-store` on every answer of a
//   paid route (a paid answer is one client's), except that the payment check's own `no-store` on its
//   402s and refusals is kept (http/payments/middleware.ts, to be reworked with the payments);
// - X-Data-Source (sample | imported | mixed) on every 2xx data answer, any format: it describes the
//   served snapshot as a whole (routes do not declare their tables; engine/dataOrigin.ts); on a paid
//   route's 402, the challenge's resource description says sample data when it is (PAYMENT-REQUIRED).
// The one header of an answer decided elsewhere: a list page's Link (next, prev), from the answer's
// page, where the answer is written (http/pipeline/sendAnswer.ts), below the payment check, so a paid
// answer keeps it for a retry.
import type Koa from 'koa';
import type { Database } from '../../engine/database.ts';
import { snapshotOriginsOf } from '../../engine/dataOrigin.ts';
import { corsFor } from '../cors.ts';
import { labelSampleChallenge } from '../payments/challenge.ts';
import { DOCS_MAX_AGE } from '../docs/index.ts';
import { documentAnswerOf } from './documentAnswer.ts';
import { HEALTH_PATH } from './health.ts';
import { READINESS_PATH } from './readiness.ts';
import { matchOf, type RequestMatch } from './requestMatch.ts';

export const DATA_SOURCE_HEADER = 'X-Data-Source';

export interface ResponseHeadersOptions {
  /** The database the request is pinned to (its import records say sample or imported). */
  db: () => Database;
}

export function responseHeaders(options: ResponseHeadersOptions): Koa.Middleware {
  const corsByMethods = new Map<string, Koa.Middleware>();
  const corsOf = (methods: string[]) => {
    const key = methods.join(',');
    let cors = corsByMethods.get(key);
    if (!cors) corsByMethods.set(key, (cors = corsFor(methods)));
    return cors;
  };
  return async (ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    const match = matchOf(ctx);
    // Every catalog match, however the path is cased (`/API/...` is the same route): a paid answer
    // must never go out without `private, no-store`, where a shared cache could keep it.
    const catalogPath = match;
    try {
      if (catalogPath) {
        const methods = [...new Set(catalogPath.routeMethods.flatMap((method) => (method === 'GET' ? ['GET', 'HEAD'] : [method])))];
        await corsOf(methods)(ctx, async () => {
          if (catalogPath.route.listRows) ctx.vary('Accept');
          await next();
        });
      } else {
        await next();
      }
    } finally {
      const cacheControl = cacheControlOf(ctx, catalogPath);
      if (cacheControl) ctx.set('Cache-Control', cacheControl);
    }
    if (match?.validated && ctx.status >= 200 && ctx.status < 300) {
      ctx.set(DATA_SOURCE_HEADER, (await snapshotOriginsOf(options.db())).data);
    }
    if (match?.paid && ctx.status === 402) labelSampleChallenge(ctx.response, (await snapshotOriginsOf(options.db())).data);
  };
}

/** The Cache-Control this answer gets from the app (undefined: none, or the one already set is kept). */
function cacheControlOf(ctx: Koa.Context, catalogPath: RequestMatch | undefined): string | undefined {
  if ((ctx.path === HEALTH_PATH || ctx.path === READINESS_PATH) && (ctx.method === 'GET' || ctx.method === 'HEAD')) return 'no-store';
  const document = documentAnswerOf(ctx);
  if (document === 'document') return `public, max-age=${DOCS_MAX_AGE}`;
  if (document === 'missing-document') return 'no-cache';
  // After the payment check, whose 402s and refusals already say no-store (kept as they are).
  if (catalogPath?.paid && ctx.method !== 'OPTIONS' && !/\bno-store\b/.test(ctx.response.get('Cache-Control'))) return 'private, no-store';
  return undefined;
}
