// CORS on the data routes, so a browser x402 client on any origin can call a route, read the 402's
// PAYMENT-REQUIRED challenge, pay with PAYMENT-SIGNATURE and read the PAYMENT-RESPONSE receipt. No
// credentials are involved (a payment is its own authorisation), so any origin is allowed.
import type Koa from 'koa';

/** Request headers a browser may send on a data route (besides the CORS-safelisted ones such as Accept). */
export const CORS_ALLOW_HEADERS = ['PAYMENT-SIGNATURE', 'Content-Type'];
/** Response headers a browser script may read (besides the safelisted ones such as Content-Type). */
export const CORS_EXPOSE_HEADERS = ['PAYMENT-REQUIRED', 'PAYMENT-RESPONSE', 'Content-Disposition'];
/** Seconds a browser may reuse a preflight answer. */
export const CORS_MAX_AGE = 600;

/** The CORS headers of every answer of a data route (set before the answer, so errors and 402s carry them too). */
export function setCorsHeaders(ctx: Koa.Context): void {
  ctx.set('Access-Control-Allow-Origin', '*');
  ctx.set('Access-Control-Expose-Headers', CORS_EXPOSE_HEADERS.join(', '));
}

/** The answer to OPTIONS on a data route (a preflight or a plain OPTIONS): 204 with the methods the path takes. */
export function answerPreflight(ctx: Koa.Context, methods: readonly string[]): void {
  const allow = [...methods, 'OPTIONS'].join(', ');
  setCorsHeaders(ctx);
  ctx.set('Allow', allow);
  ctx.set('Access-Control-Allow-Methods', allow);
  ctx.set('Access-Control-Allow-Headers', CORS_ALLOW_HEADERS.join(', '));
  ctx.set('Access-Control-Max-Age', String(CORS_MAX_AGE));
  ctx.status = 204;
}
