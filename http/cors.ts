// CORS on the data routes (@koa/cors), so a browser x402 client on any origin can call a route, read
// the 402's PAYMENT-REQUIRED challenge, pay with PAYMENT-SIGNATURE and read the PAYMENT-RESPONSE
// receipt, and walk a list by its Link header. No credentials are involved (a payment is its own
// authorisation), so any origin is allowed.
import cors from '@koa/cors';
import type Koa from 'koa';

/** Request headers a browser may send on a data route (besides the CORS-safelisted ones such as Accept). */
export const CORS_ALLOW_HEADERS = ['PAYMENT-SIGNATURE', 'Content-Type'];
/** Response headers a browser script may read (besides the safelisted ones such as Content-Type). */
export const CORS_EXPOSE_HEADERS = ['PAYMENT-REQUIRED', 'PAYMENT-RESPONSE', 'Content-Disposition', 'X-Data-Source', 'Link'];
/** Seconds a browser may reuse a preflight answer. */
export const CORS_MAX_AGE = 600;

/**
 * The CORS middleware of a path taking `methods`: headers on every answer (errors and 402s too), and
 * a preflight (OPTIONS with Access-Control-Request-Method) answered 204 allowing those methods.
 */
export function corsFor(methods: readonly string[]): Koa.Middleware {
  return cors({
    origin: '*',
    allowMethods: [...methods, 'OPTIONS'],
    allowHeaders: CORS_ALLOW_HEADERS,
    exposeHeaders: CORS_EXPOSE_HEADERS,
    maxAge: CORS_MAX_AGE,
    keepHeadersOnError: true,
  }) as unknown as Koa.Middleware;
}
