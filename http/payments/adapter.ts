// The Koa side of the x402 HTTP resource server: how it reads a request.
import type { HTTPAdapter } from '@x402/core/server';
import type Koa from 'koa';
import { queryOf } from '../pipeline/boundQuery.ts';

/**
 * The method the payment check prices and fingerprints: HEAD is the GET it mirrors (the route table
 * has GET rules only, so a HEAD matched nothing and the check threw: a 500).
 */
export function paymentMethod(ctx: Koa.Context): string {
  return ctx.method === 'HEAD' ? 'GET' : ctx.method;
}

export function koaAdapter(ctx: Koa.Context, baseUrl: string): HTTPAdapter {
  return {
    getHeader: (name) => ctx.get(name) || undefined,
    getMethod: () => paymentMethod(ctx),
    getPath: () => ctx.path,
    // The challenge's resource URL: the public address, not whatever Host the request carried.
    getUrl: () => `${baseUrl}${ctx.originalUrl}`,
    // Always JSON: this is an API, so the packages' HTML paywall page is never chosen.
    getAcceptHeader: () => 'application/json',
    getUserAgent: () => ctx.get('User-Agent'),
    // The query parsed once by the pipeline (Koa's ctx.query is quadratic in the number of keys).
    getQueryParams: () => queryOf(ctx) as Record<string, string | string[]>,
    getQueryParam: (name) => queryOf(ctx)[name],
  };
}

/** The same request as the server would see it without a payment: for a fresh challenge when a payment is refused locally. */
export function unpaidAdapter(ctx: Koa.Context, baseUrl: string): HTTPAdapter {
  const adapter = koaAdapter(ctx, baseUrl);
  return { ...adapter, getHeader: (name) => (name.toLowerCase() === 'payment-signature' ? undefined : adapter.getHeader(name)) };
}
