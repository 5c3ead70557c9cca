// The payment check of a paid route, run by the router after parameter validation and before the
// handler: challenge (402), verify through the facilitator, run the handler, settle only a 2xx
// answer, record it in the ledger. The paid body is held (Koa sends after this returns) until the
// settlement succeeded; otherwise it is replaced by an error and nothing is charged.
import { getFacilitatorResponseError, type x402HTTPResourceServer } from '@x402/core/server';
import type { HTTPRequestContext, HTTPResponseInstructions } from '@x402/core/server';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader, decodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload } from '@x402/core/types';
import type Koa from 'koa';
import { createHash } from 'node:crypto';
import type { Route } from '../../queries/catalog.ts';
import { errorBody, type ErrorBody } from '../errors.ts';
import { koaPath } from '../router.ts';
import { koaAdapter } from './adapter.ts';
import { facilitatorFailureStatus } from './facilitatorClient.ts';
import type { RevenueLedger } from './ledger.ts';

export interface PaymentMiddlewareOptions {
  /** null when payments are not configured (development): non-exempt clients get 503. */
  server: x402HTTPResourceServer | null;
  isExempt: (ctx: Koa.Context) => boolean;
  baseUrl: string;
  ledger: RevenueLedger | null;
  now: () => Date;
  log: (message: string, error?: unknown) => void;
}

type VerifiedPayment = Extract<Awaited<ReturnType<x402HTTPResourceServer['processHTTPRequest']>>, { type: 'payment-verified' }>;

function respond(ctx: Koa.Context, status: number, body: ErrorBody | (ErrorBody & Record<string, unknown>), headers: Record<string, string> = {}): void {
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() !== 'content-type') ctx.set(name, value);
  }
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = body;
}

const REASON_MESSAGES: Record<string, string> = {
  'Payment required': 'this route costs USD 0.01 in USDC: pay with x402 (the challenge is in the PAYMENT-REQUIRED header) and retry with PAYMENT-SIGNATURE',
  'No matching payment requirements': 'the payment does not match any option of the challenge (scheme, network, asset, amount or recipient)',
};

/** A 402 (or other) answer of the x402 engine, with our JSON error body and the reason it gives. */
function respondPaymentError(ctx: Koa.Context, response: HTTPResponseInstructions): void {
  const challengeHeader = response.headers['PAYMENT-REQUIRED'];
  const receiptHeader = response.headers['PAYMENT-RESPONSE'];
  let reason = 'payment_required';
  let challenge: unknown = undefined;
  if (challengeHeader) {
    const decoded = decodePaymentRequiredHeader(challengeHeader);
    reason = decoded.error ?? reason;
    challenge = decoded;
  } else if (receiptHeader) {
    reason = decodePaymentResponseHeader(receiptHeader).errorReason ?? 'settlement_failed';
  } else if (response.body && typeof response.body === 'object' && 'error' in response.body) {
    reason = String((response.body as { error: unknown }).error);
  }
  const message = REASON_MESSAGES[reason] ?? `payment refused: ${reason}`;
  const body = errorBody(response.status, response.status === 402 ? 'payment_required' : 'invalid_payment', message);
  respond(ctx, response.status, { ...body, reason, ...(challenge ? { challenge } : {}) }, { 'Cache-Control': 'no-store', ...response.headers });
}

function respondFacilitatorFailure(ctx: Koa.Context, error: unknown, log: PaymentMiddlewareOptions['log']): void {
  const failure = getFacilitatorResponseError(error);
  if (!failure) throw error; // unexpected: a 500 from the error handler, never a 402
  log('payment facilitator failure', failure);
  const status = facilitatorFailureStatus(failure);
  ctx.set('Retry-After', '5');
  ctx.set('Cache-Control', 'no-store');
  respond(ctx, status, errorBody(status, 'facilitator_unavailable', 'the payment facilitator is unavailable; nothing was charged, retry shortly'));
}

/** One signed authorization buys one answer: its (payer, nonce), or the payload's hash. */
function inFlightKey(payload: PaymentPayload): string {
  const authorization = (payload.payload as { authorization?: { from?: string; nonce?: string } }).authorization;
  if (authorization?.from && authorization.nonce) return `${authorization.from.toLowerCase()}:${authorization.nonce.toLowerCase()}`;
  return createHash('sha256').update(JSON.stringify(payload.payload)).digest('hex');
}

function payerOf(payload: PaymentPayload): string {
  return (payload.payload as { authorization?: { from?: string } }).authorization?.from ?? '';
}

function bodyBuffer(body: unknown): Buffer {
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body);
  return Buffer.from(JSON.stringify(body));
}

async function cancel(payment: VerifiedPayment, reason: 'handler_threw' | 'handler_failed', log: PaymentMiddlewareOptions['log'], responseStatus?: number): Promise<void> {
  try {
    await payment.cancellationDispatcher.cancel({ reason, responseStatus });
  } catch (error) {
    log('cancelling a verified payment failed', error);
  }
}

export function paymentMiddleware(options: PaymentMiddlewareOptions): Koa.Middleware {
  const inFlight = new Set<string>();
  return async (ctx, next) => {
    const route = ctx.state.route as Route;
    if (!route.paid || options.isExempt(ctx)) return next();
    if (!options.server) {
      ctx.set('Cache-Control', 'no-store');
      return respond(ctx, 503, errorBody(503, 'payments_not_configured', 'payments are not configured on this server (set X402_PAY_TO and X402_FACILITATOR_URL); only exempt clients are served'));
    }
    const paymentHeader = ctx.get('PAYMENT-SIGNATURE') || undefined;
    if (paymentHeader) {
      try {
        decodePaymentSignatureHeader(paymentHeader);
      } catch {
        return respond(ctx, 400, errorBody(400, 'invalid_payment', 'PAYMENT-SIGNATURE is not a base64-encoded x402 payment payload', 'PAYMENT-SIGNATURE'));
      }
    }
    const context: HTTPRequestContext = {
      adapter: koaAdapter(ctx, options.baseUrl),
      // The catalog's path form, so the route table matches whatever the path parameters hold.
      path: koaPath(ctx.state.pathTemplate as string),
      method: ctx.method,
      paymentHeader,
    };
    let result;
    try {
      result = await options.server.processHTTPRequest(context);
    } catch (error) {
      return respondFacilitatorFailure(ctx, error, options.log);
    }
    if (result.type === 'no-payment-required') throw new Error(`paid route ${route.id} has no payment rule for ${context.path}`);
    if (result.type === 'payment-error') return respondPaymentError(ctx, result.response);

    const key = inFlightKey(result.paymentPayload);
    if (inFlight.has(key)) {
      ctx.set('Cache-Control', 'no-store');
      return respond(ctx, 409, errorBody(409, 'payment_in_progress', 'this payment is already being used by another request; one payment buys one answer'));
    }
    inFlight.add(key);
    try {
      try {
        await next();
      } catch (error) {
        await cancel(result, 'handler_threw', options.log);
        throw error;
      }
      if (ctx.status < 200 || ctx.status >= 300 || ctx.body === undefined || ctx.body === null) {
        return await cancel(result, 'handler_failed', options.log, ctx.status);
      }
      let settlement;
      try {
        settlement = await options.server.processSettlement(result.paymentPayload, result.paymentRequirements, result.declaredExtensions, {
          request: context,
          responseBody: bodyBuffer(ctx.body),
          responseHeaders: Object.fromEntries(Object.entries(ctx.response.headers).map(([name, value]) => [name, String(value)])),
        });
      } catch (error) {
        ctx.body = null;
        return respondFacilitatorFailure(ctx, error, options.log);
      }
      if (!settlement.success) {
        ctx.body = null;
        return respondPaymentError(ctx, { ...settlement.response, status: 402, headers: { ...settlement.response.headers, ...settlement.headers } });
      }
      for (const [name, value] of Object.entries(settlement.headers)) ctx.set(name, value);
      ctx.set('Cache-Control', 'private, no-store');
      await options.ledger
        ?.append({
          time: options.now().toISOString(),
          route: route.id,
          resource: ctx.originalUrl,
          network: settlement.network,
          payer: settlement.payer ?? payerOf(result.paymentPayload),
          amount: settlement.amount ?? result.paymentRequirements.amount,
          asset: result.paymentRequirements.asset,
          transaction: settlement.transaction,
        })
        .catch((error: unknown) => options.log('the revenue ledger could not record a settled payment', error));
    } finally {
      inFlight.delete(key);
    }
  };
}
