// The payment check of a paid route, run by the request pipeline after validation and before the
// handler: challenge (402), verify through the facilitator, run the handler, settle only a 2xx
// answer, record it in the ledger. The paid body is held (Koa sends after this returns) until the
// settlement succeeded; otherwise it is replaced by an error and nothing is charged.
// Safe retries (x402 `payment-identifier` extension): a settled answer bought with a payment
// identifier is kept (paidAnswers.ts); a later request with that identifier, for the same request
// and paid by the same payer on the same terms (its signature checked locally), gets the same
// status, headers (the original PAYMENT-RESPONSE) and body without a second verify or settle; the
// same identifier with another request or another payment is a 409 payment_identifier_conflict.
import { getFacilitatorResponseError, type x402HTTPResourceServer } from '@x402/core/server';
import type { HTTPRequestContext, HTTPResponseInstructions } from '@x402/core/server';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader, decodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload } from '@x402/core/types';
import { extractPaymentIdentifier, isValidPaymentId, PAYMENT_IDENTIFIER } from '@x402/extensions/payment-identifier';
import type Koa from 'koa';
import { createHash } from 'node:crypto';
import { verifyTypedData, type Hex } from 'viem';
import { errorBody, type ErrorBody } from '../errors.ts';
import { koaPath } from '../dispatch.ts';
import { validatedMatchOf } from '../pipeline/requestMatch.ts';
import { koaAdapter } from './adapter.ts';
import { decodeOnce } from './decodedOnce.ts';
import { facilitatorFailureStatus } from './facilitatorClient.ts';
import type { ClientRequest } from './exemption.ts';
import type { RevenueLedger } from './ledger.ts';
import type { PaidAnswer, PaidAnswerStore, PaymentTerms } from './paidAnswers.ts';

export interface PaymentMiddlewareOptions {
  /** null when payments are not configured (development): non-exempt clients get 503. */
  server: x402HTTPResourceServer | null;
  isExempt: (request: ClientRequest) => boolean;
  baseUrl: string;
  ledger: RevenueLedger | null;
  /** Settled answers kept for retries with a payment identifier; null: identifiers are ignored. */
  answers?: PaidAnswerStore | null;
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
  const message = (Object.hasOwn(REASON_MESSAGES, reason) ? REASON_MESSAGES[reason] : undefined) ?? `payment refused: ${reason}`;
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

/** Canonical JSON: object keys sorted, so a body's key order does not make another request. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * What makes two requests "the same request" for a payment identifier: the method, the path, the
 * query parameters (sorted by name, repeated values in their order), the negotiated format and the
 * JSON body (keys sorted). A different parameter spelling (`?year=2024` against `?year=2024&currency=EUR`)
 * is another request even when the answers would agree.
 */
export function requestFingerprint(ctx: Koa.Context): string {
  const query = [...new URLSearchParams(ctx.querystring).entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const { validated } = validatedMatchOf(ctx);
  const body = validated.body === undefined ? null : validated.body;
  const format = validated.format;
  return createHash('sha256').update(canonicalJson([ctx.method, ctx.path, query, format, body])).digest('hex');
}

/** The terms of a payment payload: its payer and the accepted requirement's network, asset, recipient and amount. */
function paymentTerms(payload: PaymentPayload): PaymentTerms {
  return {
    payer: payerOf(payload).toLowerCase(),
    network: String(payload.accepted?.network ?? ''),
    asset: String(payload.accepted?.asset ?? '').toLowerCase(),
    payTo: String(payload.accepted?.payTo ?? '').toLowerCase(),
    amount: String(payload.accepted?.amount ?? ''),
  };
}

const TRANSFER_WITH_AUTHORIZATION = [
  { name: 'from', type: 'address' }, { name: 'to', type: 'address' }, { name: 'value', type: 'uint256' },
  { name: 'validAfter', type: 'uint256' }, { name: 'validBefore', type: 'uint256' }, { name: 'nonce', type: 'bytes32' },
] as const;

/**
 * Whether a retry is paid by the payer who bought the kept answer, on the same terms: the same
 * payer, network, asset, recipient and amount, an authorization to that recipient for that amount,
 * and an EIP-3009 signature that recovers to the payer (checked locally: no facilitator call, no
 * charge). Payloads this cannot check (no EIP-3009 authorization, smart-wallet signatures) do not match.
 */
async function samePayment(kept: PaymentTerms, payload: PaymentPayload): Promise<boolean> {
  const terms = paymentTerms(payload);
  if ((Object.keys(kept) as Array<keyof PaymentTerms>).some((key) => kept[key] !== terms[key])) return false;
  const { authorization, signature } = payload.payload as {
    authorization?: { from?: string; to?: string; value?: string; validAfter?: string; validBefore?: string; nonce?: string };
    signature?: string;
  };
  if (!authorization || typeof signature !== 'string') return false;
  const { from, to, value, validAfter, validBefore, nonce } = authorization;
  if (![from, to, value, validAfter, validBefore, nonce].every((field) => typeof field === 'string')) return false;
  if (to!.toLowerCase() !== kept.payTo || value !== kept.amount) return false;
  const chainId = /^eip155:([0-9]+)$/.exec(kept.network)?.[1];
  const extra = (payload.accepted?.extra ?? {}) as { name?: unknown; version?: unknown };
  if (!chainId || typeof extra.name !== 'string' || typeof extra.version !== 'string') return false;
  try {
    return await verifyTypedData({
      address: from as Hex,
      domain: { name: extra.name, version: extra.version, chainId: Number(chainId), verifyingContract: payload.accepted.asset as Hex },
      types: { TransferWithAuthorization: TRANSFER_WITH_AUTHORIZATION },
      primaryType: 'TransferWithAuthorization',
      message: {
        from: from as Hex, to: to as Hex, value: BigInt(value!), validAfter: BigInt(validAfter!), validBefore: BigInt(validBefore!), nonce: nonce as Hex,
      },
      signature: signature as Hex,
    });
  } catch {
    return false; // malformed numbers, addresses or signature
  }
}

/** Headers not kept with an answer: Koa recomputes the length, the connection is per request. */
const UNKEPT_HEADERS = new Set(['content-length', 'connection', 'date', 'keep-alive', 'transfer-encoding']);

function headersOf(ctx: Koa.Context): Map<string, string> {
  const headers = new Map<string, string>();
  for (const [name, value] of Object.entries(ctx.response.headers)) {
    if (value !== undefined) headers.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value));
  }
  return headers;
}

/**
 * The headers this answer gained below the outer middleware (the handler's, the settlement's):
 * those set before the payment check (CORS, per-request headers) are set afresh on a retry.
 */
function keptHeaders(ctx: Koa.Context, before: Map<string, string>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of headersOf(ctx)) {
    if (UNKEPT_HEADERS.has(name) || before.get(name) === value) continue;
    headers[name] = value;
  }
  return headers;
}

function replay(ctx: Koa.Context, answer: PaidAnswer): void {
  ctx.status = answer.status;
  for (const [name, value] of Object.entries(answer.headers)) ctx.set(name, value);
  ctx.body = answer.body;
}

export function paymentMiddleware(options: PaymentMiddlewareOptions): Koa.Middleware {
  const inFlight = new Set<string>();
  /** Payment identifiers whose request is being answered right now. */
  const inFlightIds = new Set<string>();
  const answers = options.answers ?? null;
  const decodedPayments = options.server ? decodeOnce(options.server) : null;
  return async (ctx, next) => {
    const { route } = validatedMatchOf(ctx);
    if (!route.paid || options.isExempt(ctx.req)) return next();
    if (!options.server) {
      ctx.set('Cache-Control', 'no-store');
      return respond(ctx, 503, errorBody(503, 'payments_not_configured', 'payments are not configured on this server (set X402_PAY_TO and X402_FACILITATOR_URL); only exempt clients are served'));
    }
    const paymentHeader = ctx.get('PAYMENT-SIGNATURE') || undefined;
    let decoded: PaymentPayload | undefined;
    if (paymentHeader) {
      try {
        decoded = decodePaymentSignatureHeader(paymentHeader);
      } catch {
        return respond(ctx, 400, errorBody(400, 'invalid_payment', 'PAYMENT-SIGNATURE is not a base64-encoded x402 payment payload', 'PAYMENT-SIGNATURE'));
      }
    }
    let paymentId: string | null = null;
    if (decoded && answers) {
      // The package's id checks, not its validatePaymentIdentifier: that compiles the schema the
      // client sent (with Ajv) on every request.
      const info = (decoded.extensions?.[PAYMENT_IDENTIFIER] as { info?: { id?: unknown } } | undefined)?.info;
      const id = extractPaymentIdentifier(decoded, false);
      if (info?.id !== undefined && (id === null || !isValidPaymentId(id))) {
        return respond(ctx, 400, errorBody(400, 'invalid_payment', 'the payment identifier (payment-identifier extension) must be 16 to 128 characters of A-Z, a-z, 0-9, _ and -', 'PAYMENT-SIGNATURE'));
      }
      paymentId = id;
    }
    if (paymentId === null) return pay(ctx, next, paymentHeader, decoded, null);
    if (inFlightIds.has(paymentId)) {
      ctx.set('Cache-Control', 'no-store');
      return respond(ctx, 409, errorBody(409, 'payment_in_progress', 'a request with this payment identifier is being answered right now; retry once it is done'));
    }
    inFlightIds.add(paymentId);
    try {
      const kept = await answers!.get(paymentId);
      if (!kept) return await pay(ctx, next, paymentHeader, decoded, paymentId);
      ctx.set('Cache-Control', 'no-store');
      if (kept.request !== requestFingerprint(ctx)) {
        return respond(ctx, 409, errorBody(409, 'payment_identifier_conflict', 'this payment identifier already bought the answer to a different request; nothing was charged. Use a new identifier for a new request'));
      }
      if (!(await samePayment(kept.payment, decoded!))) {
        return respond(ctx, 409, errorBody(409, 'payment_identifier_conflict', 'this payment identifier was paid by another payer or on other terms (network, asset, amount or recipient), or the signature does not match; nothing was charged'));
      }
      return replay(ctx, kept);
    } finally {
      inFlightIds.delete(paymentId);
    }
  };

  async function pay(ctx: Koa.Context, next: Koa.Next, paymentHeader: string | undefined, decoded: PaymentPayload | undefined, paymentId: string | null): Promise<void> {
    const { route, pathForm } = validatedMatchOf(ctx);
    if (!options.server) throw new Error('payments are not configured');
    const adapter = koaAdapter(ctx, options.baseUrl);
    if (decoded) decodedPayments?.set(adapter, decoded); // the server reads this payload instead of decoding the header again
    const context: HTTPRequestContext = {
      adapter,
      // The catalog's path form, so the route table matches whatever the path parameters hold.
      path: koaPath(pathForm),
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
    const headersBefore = headersOf(ctx);
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
      const paidBody = bodyBuffer(ctx.body);
      if (paymentId !== null) ctx.body = paidBody; // the exact bytes kept for a retry are the bytes sent
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
      if (paymentId !== null && answers) {
        await answers
          .put({
            id: paymentId,
            savedAt: options.now().toISOString(),
            request: requestFingerprint(ctx),
            payment: paymentTerms(result.paymentPayload),
            status: ctx.status,
            headers: keptHeaders(ctx, headersBefore),
            body: paidBody,
          })
          .catch((error: unknown) => options.log('a settled answer could not be kept for retries', error));
      }
    } finally {
      inFlight.delete(key);
    }
  }
}
