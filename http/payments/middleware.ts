// The payment check of a paid route, run by the request pipeline after validation and before the
// handler. A payment is taken at most once and never without its answer:
//   1. Refused locally, before any facilitator call: an authorization with less than
//      X402_MIN_VALIDITY_SECONDS left, and a payload already refused (remembered until it expires).
//   2. An authorization (payer, nonce) or payment identifier seen before is answered from its
//      settlement: settled, its kept answer; unresolved (pending, unknown), resolved first
//      (resolve.ts): paid, the kept answer and never the new authorization; not paid, a fresh payment.
//   3. A fresh payment: shared locks on the authorization and the payment id, verify, run the
//      handler, record the settlement as pending with its answer, settle, then deliver. A settle
//      whose answer is lost is 502 settlement_unknown (never "nothing was charged", never a 402):
//      the answer stays kept, and the retry resolves it.
// Every piece of state lives in the payment store (store/types.ts), shared by replicas; a store
// that cannot be reached fails closed: 503, nothing verified, nothing charged, nothing served.
import { getFacilitatorResponseError, type x402HTTPResourceServer } from '@x402/core/server';
import type { HTTPRequestContext, HTTPResponseInstructions } from '@x402/core/server';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader, decodePaymentSignatureHeader, encodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentPayload } from '@x402/core/types';
import { extractPaymentIdentifier, isValidPaymentId, PAYMENT_IDENTIFIER } from '@x402/extensions/payment-identifier';
import type Koa from 'koa';
import { createHash } from 'node:crypto';
import { errorBody, type ErrorBody } from '../errors.ts';
import { koaPath } from '../dispatch.ts';
import type { EventLog } from '../log.ts';
import type { PaymentMetrics, PaymentOutcome } from '../metrics.ts';
import { requestRecordOf } from '../observe.ts';
import { validatedMatchOf } from '../pipeline/requestMatch.ts';
import { koaAdapter, paymentMethod, unpaidAdapter } from './adapter.ts';
import { authorizationOf, paymentTerms, samePayment, type AuthorizationFacts } from './authorization.ts';
import { decodeOnce } from './decodedOnce.ts';
import { facilitatorFailureStatus, settleWasNotSent } from './facilitatorClient.ts';
import type { ClientRequest } from './exemption.ts';
import { lowerCaseNames, recordResolution, type Resolution } from './resolve.ts';
import {
  PaymentStoreUnavailableError, SettlementExistsError, type KeptAnswer, type PaymentStore, type Settlement, type SettlementChange,
} from './store/types.ts';

export interface PaymentMiddlewareOptions {
  /** null when payments are not configured (development): non-exempt clients get 503. */
  server: x402HTTPResourceServer | null;
  isExempt: (request: ClientRequest) => boolean;
  baseUrl: string;
  /** Where settlements, locks and refusals live (null only when `server` is null). */
  store: PaymentStore | null;
  /** Resolves an earlier settlement whose outcome is not known. */
  resolve: (settlement: Settlement) => Promise<Resolution>;
  /** An authorization with less validity left is refused before verification. */
  minValiditySeconds: number;
  /** How long a payment that carries no expiry of its own is remembered (the challenge's maxTimeoutSeconds). */
  maxTimeoutSeconds: number;
  /** The lease of a payment's locks: longer than verify, handler and settle together, so it only lapses for a replica that stopped. */
  lockTtlMs: number;
  now: () => Date;
  log: EventLog;
  /** Payments by outcome (http/metrics.ts); none: not counted. */
  metrics?: PaymentMetrics;
}

type VerifiedPayment = Extract<Awaited<ReturnType<x402HTTPResourceServer['processHTTPRequest']>>, { type: 'payment-verified' }>;

function respond(ctx: Koa.Context, status: number, body: ErrorBody | (ErrorBody & Record<string, unknown>), headers: Record<string, string> = {}): void {
  for (const [name, value] of Object.entries(headers)) {
    if (name.toLowerCase() !== 'content-type') ctx.set(name, value);
  }
  ctx.set('Cache-Control', 'no-store');
  ctx.status = status;
  ctx.type = 'application/json';
  ctx.body = body;
}

const REASON_MESSAGES: Record<string, string> = {
  'Payment required': 'this route costs USD 0.01 in USDC: pay with x402 (the challenge is in the PAYMENT-REQUIRED header) and retry with PAYMENT-SIGNATURE',
  'No matching payment requirements': 'the payment does not match any option of the challenge (scheme, network, asset, amount or recipient)',
};

/** Why the x402 engine refused a payment: the challenge's error, or the failed receipt's reason. */
function refusalReason(response: HTTPResponseInstructions): string {
  const challengeHeader = response.headers['PAYMENT-REQUIRED'];
  const receiptHeader = response.headers['PAYMENT-RESPONSE'];
  if (challengeHeader) return decodePaymentRequiredHeader(challengeHeader).error ?? 'payment_required';
  if (receiptHeader) return decodePaymentResponseHeader(receiptHeader).errorReason ?? 'settlement_failed';
  if (response.body && typeof response.body === 'object' && 'error' in response.body) return String((response.body as { error: unknown }).error);
  return 'payment_required';
}

/** A 402 (or other) answer of the x402 engine, with our JSON error body and the reason it gives. */
function respondPaymentError(ctx: Koa.Context, response: HTTPResponseInstructions, message?: string): void {
  const reason = refusalReason(response);
  const challengeHeader = response.headers['PAYMENT-REQUIRED'];
  const challenge = challengeHeader ? decodePaymentRequiredHeader(challengeHeader) : undefined;
  const text = message ?? (Object.hasOwn(REASON_MESSAGES, reason) ? REASON_MESSAGES[reason] : undefined) ?? `payment refused: ${reason}`;
  const body = errorBody(response.status, response.status === 402 ? 'payment_required' : 'invalid_payment', text);
  respond(ctx, response.status, { ...body, reason, ...(challenge ? { challenge } : {}) }, response.headers);
}

function respondFacilitatorFailure(ctx: Koa.Context, error: unknown, log: PaymentMiddlewareOptions['log']): void {
  const failure = getFacilitatorResponseError(error);
  if (!failure) throw error; // unexpected: a 500 from the error handler, never a 402
  log('payment facilitator failure', failure, { event: 'facilitator_error', request_id: requestRecordOf(ctx.req)?.id });
  const status = facilitatorFailureStatus(failure);
  respond(ctx, status, errorBody(status, 'facilitator_unavailable', 'the payment facilitator is unavailable; nothing was charged, retry shortly'), { 'Retry-After': '5' });
}

function respondSettlementUnknown(ctx: Koa.Context): void {
  respond(ctx, 502, errorBody(502, 'settlement_unknown',
    'your payment was sent for settlement and its outcome could not be read, so it may have been taken; retry with the same PAYMENT-SIGNATURE, or with the same payment identifier, and you will not be charged twice: the answer is kept for you'),
  { 'Retry-After': '5' });
}

function respondStoreUnavailable(ctx: Koa.Context, error: unknown, log: PaymentMiddlewareOptions['log']): void {
  log('the payment store cannot be reached', error);
  respond(ctx, 503, errorBody(503, 'payment_store_unavailable', 'the payment records cannot be reached; nothing was verified or charged, retry shortly'), { 'Retry-After': '5' });
}

function respondInProgress(ctx: Koa.Context, what: 'authorization' | 'payment identifier'): void {
  respond(ctx, 409, errorBody(409, 'payment_in_progress', `this ${what} is being used by another request right now; one payment buys one answer, retry once it is done`));
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
 * What makes two requests "the same request" for a payment: the method (HEAD as GET, so a HEAD that
 * paid has its answer fetched by a GET with the same payment, not charged twice), the path, the query
 * parameters (sorted by name, repeated values in their order), the negotiated format and the JSON
 * body (keys sorted). A different parameter spelling (`?year=2024` against `?year=2024&currency=EUR`)
 * is another request even when the answers would agree.
 */
export function requestFingerprint(ctx: Koa.Context): string {
  const query = [...new URLSearchParams(ctx.querystring).entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const { validated } = validatedMatchOf(ctx);
  const body = validated.body === undefined ? null : validated.body;
  return createHash('sha256').update(canonicalJson([paymentMethod(ctx), ctx.path, query, validated.format, body])).digest('hex');
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
 * The headers this answer gained below the payment stage (the handler's, the settlement's): those
 * set before it (CORS, per-request headers) are set afresh on a retry.
 */
function keptHeaders(ctx: Koa.Context, before: Map<string, string>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of headersOf(ctx)) {
    if (UNKEPT_HEADERS.has(name) || before.get(name) === value) continue;
    headers[name] = value;
  }
  return headers;
}

/** The payment that bought this request's answer, in its record (its log line), counted by outcome. */
function notePayment(ctx: Koa.Context, metrics: PaymentMetrics | undefined, outcome: PaymentOutcome, settlement: Pick<Settlement, 'terms' | 'transaction'>): void {
  metrics?.payment(outcome);
  const record = requestRecordOf(ctx.req);
  if (record) record.payment = { outcome, payer: settlement.terms.payer, network: settlement.terms.network, transaction: settlement.transaction };
}

function replay(ctx: Koa.Context, answer: KeptAnswer): void {
  ctx.status = answer.status;
  for (const [name, value] of Object.entries(answer.headers)) ctx.set(name, value);
  ctx.set('Cache-Control', 'private, no-store');
  ctx.body = answer.body;
}

function nowSeconds(now: () => Date): number {
  return Math.floor(now().getTime() / 1000);
}

export function paymentMiddleware(options: PaymentMiddlewareOptions): Koa.Middleware {
  const { server, store, log, metrics } = options;
  const decodedPayments = server ? decodeOnce(server) : null;

  /** Changes a settlement's state; a failure is logged and leaves it pending, for the retry or reconcile to resolve. */
  async function finishQuietly(key: string, change: Omit<SettlementChange, 'updatedAt'>): Promise<void> {
    try {
      await store!.finish(key, { ...change, updatedAt: options.now().toISOString() });
    } catch (error) {
      log(`the payment store could not record settlement ${key} as ${change.state}; it stays pending until reconciled`, error);
    }
  }

  /** A 402 with a fresh challenge and a reason of our own, without asking the facilitator. */
  async function refuseLocally(ctx: Koa.Context, reason: string, message: string): Promise<void> {
    const { pathForm } = validatedMatchOf(ctx);
    refused(ctx, reason);
    const result = await server!.processHTTPRequest({ adapter: unpaidAdapter(ctx, options.baseUrl), path: koaPath(pathForm), method: paymentMethod(ctx) });
    if (result.type !== 'payment-error') throw new Error('a paid route answered a request without payment');
    const challenge = { ...decodePaymentRequiredHeader(result.response.headers['PAYMENT-REQUIRED']!), error: reason };
    respondPaymentError(ctx, { ...result.response, headers: { ...result.response.headers, 'PAYMENT-REQUIRED': encodePaymentRequiredHeader(challenge) } }, message);
  }

  /** A payment refused (not the challenge of a request without one): counted, and one log line. */
  function refused(ctx: Koa.Context, reason: string): void {
    metrics?.payment('refused');
    log(`payment refused: ${reason}`, undefined, { event: 'payment_refused', reason, request_id: requestRecordOf(ctx.req)?.id });
  }

  async function rememberRefusal(facts: AuthorizationFacts, reason: string): Promise<void> {
    const until = facts.validBefore ?? nowSeconds(options.now) + options.maxTimeoutSeconds;
    await store!.rememberRefusal(facts.hash, reason, until).catch((error: unknown) => log('a refused payment could not be remembered', error));
  }

  /** Runs `work` holding every named lock, or answers 409 when another request holds one. */
  async function withLocks(ctx: Koa.Context, locks: ReadonlyArray<[string, 'authorization' | 'payment identifier']>, work: () => Promise<void>): Promise<void> {
    const taken: string[] = [];
    try {
      for (const [name, what] of locks) {
        if (!(await store!.tryLock(name, options.lockTtlMs, options.now().getTime()))) return respondInProgress(ctx, what);
        taken.push(name);
      }
      await work();
    } finally {
      for (const name of taken) await store!.unlock(name).catch((error: unknown) => log(`the payment lock ${name} could not be released; its lease lapses`, error));
    }
  }

  return async (ctx, next) => {
    const { route } = validatedMatchOf(ctx);
    if (!route.paid || options.isExempt(ctx.req)) return next();
    if (!server || !store) {
      return respond(ctx, 503, errorBody(503, 'payments_not_configured', 'payments are not configured on this server (set X402_PAY_TO and X402_FACILITATOR_URL); only exempt clients are served'));
    }
    const paymentHeader = ctx.get('PAYMENT-SIGNATURE') || undefined;
    if (!paymentHeader) return pay(ctx, next, undefined, null, null, '');
    let decoded: PaymentPayload;
    try {
      decoded = decodePaymentSignatureHeader(paymentHeader);
    } catch {
      return respond(ctx, 400, errorBody(400, 'invalid_payment', 'PAYMENT-SIGNATURE is not a base64-encoded x402 payment payload', 'PAYMENT-SIGNATURE'));
    }
    // The package's id checks, not its validatePaymentIdentifier: that compiles the schema the
    // client sent (with Ajv) on every request.
    const info = (decoded.extensions?.[PAYMENT_IDENTIFIER] as { info?: { id?: unknown } } | undefined)?.info;
    const paymentId = extractPaymentIdentifier(decoded, false);
    if (info?.id !== undefined && (paymentId === null || !isValidPaymentId(paymentId))) {
      return respond(ctx, 400, errorBody(400, 'invalid_payment', 'the payment identifier (payment-identifier extension) must be 16 to 128 characters of A-Z, a-z, 0-9, _ and -', 'PAYMENT-SIGNATURE'));
    }
    const facts = authorizationOf(decoded);
    try {
      // Refusals that cost nothing: no facilitator call, no handler work.
      const left = facts.validBefore === null ? Infinity : facts.validBefore - nowSeconds(options.now);
      if (left < options.minValiditySeconds) {
        return await refuseLocally(ctx, 'authorization_expiring', `the authorization is valid for ${Math.max(0, left)} more second(s); sign one valid for at least ${options.minValiditySeconds} s (the challenge's maxTimeoutSeconds)`);
      }
      const refused = await store.refusal(facts.hash, nowSeconds(options.now));
      if (refused) return await refuseLocally(ctx, refused, `this payment was already refused (${refused}); sign a new one`);

      const fingerprint = requestFingerprint(ctx);
      const earlier = await store.byKey(facts.key);
      if (earlier) return await answerEarlier(ctx, next, earlier, decoded, facts, paymentId, fingerprint, 'authorization');
      if (paymentId !== null) {
        const byId = await store.byPaymentId(paymentId);
        if (byId) return await answerEarlier(ctx, next, byId, decoded, facts, paymentId, fingerprint, 'payment identifier');
      }
      return await pay(ctx, next, decoded, facts, paymentId, fingerprint);
    } catch (error) {
      // Only reached before a settlement is sent: after it, store failures are logged (finishQuietly).
      if (error instanceof PaymentStoreUnavailableError) {
        ctx.body = null;
        return respondStoreUnavailable(ctx, error, log);
      }
      throw error;
    }
  };

  /** A request whose authorization, or payment identifier, already has a settlement. */
  async function answerEarlier(
    ctx: Koa.Context, next: Koa.Next, earlier: Settlement, decoded: PaymentPayload, facts: AuthorizationFacts,
    paymentId: string | null, fingerprint: string, via: 'authorization' | 'payment identifier',
  ): Promise<void> {
    if (earlier.request !== fingerprint) {
      return respond(ctx, 409, errorBody(409, 'payment_identifier_conflict', `this ${via} already bought the answer to a different request; nothing was charged. Use a new ${via === 'authorization' ? 'payment' : 'identifier'} for a new request`));
    }
    if (earlier.key !== facts.key && !(await samePayment(earlier.terms, decoded))) {
      return respond(ctx, 409, errorBody(409, 'payment_identifier_conflict', 'this payment identifier was paid by another payer or on other terms (network, asset, amount or recipient), or the signature does not match; nothing was charged'));
    }
    if (earlier.state === 'settled') {
      if (earlier.answer) {
        notePayment(ctx, metrics, 'replayed', earlier);
        return replay(ctx, earlier.answer);
      }
      return refuseLocally(ctx, 'authorization_already_used', 'this authorization was already used to pay, and its answer is no longer kept; sign a new payment');
    }
    if (earlier.state === 'unpaid') {
      if (earlier.key === facts.key) return refuseLocally(ctx, 'authorization_refused', 'this authorization was refused before and charged nothing; sign a new payment');
      return pay(ctx, next, decoded, facts, paymentId, fingerprint);
    }
    // pending or unknown: resolve it before anything else, holding its lock (the replica that sent it may still be at it).
    return withLocks(ctx, [[`authorization:${earlier.key}`, via]], async () => {
      const resolution = await options.resolve(earlier);
      let answer: KeptAnswer | null = null;
      try {
        answer = await recordResolution(store!, earlier, resolution, options.now());
      } catch (error) {
        log(`the resolution of settlement ${earlier.key} (${resolution.outcome}) could not be recorded`, error);
      }
      if (resolution.outcome === 'unknown') {
        log(`settlement ${earlier.key} is still unknown: ${resolution.reason}`, undefined, { event: 'settlement_unknown', request_id: requestRecordOf(ctx.req)?.id });
        metrics?.payment('unknown');
        return respondSettlementUnknown(ctx);
      }
      if (resolution.outcome === 'unpaid') {
        if (earlier.key === facts.key) return refuseLocally(ctx, resolution.reason, `this payment was never charged (${resolution.reason}); sign a new one`);
        return pay(ctx, next, decoded, facts, paymentId, fingerprint);
      }
      // Paid: the kept answer, never the new authorization.
      notePayment(ctx, metrics, 'replayed', { terms: earlier.terms, transaction: resolution.transaction ?? earlier.transaction });
      if (answer) return replay(ctx, answer);
      // No answer was kept (it cannot happen for a settlement this stage recorded): answer afresh, not charged again.
      await next();
      for (const [name, value] of Object.entries(resolution.headers)) ctx.set(name, value);
    });
  }

  /** A payment seen for the first time (or no payment: the challenge). */
  async function pay(ctx: Koa.Context, next: Koa.Next, decoded: PaymentPayload | undefined, facts: AuthorizationFacts | null, paymentId: string | null, fingerprint: string): Promise<void> {
    const { route, pathForm } = validatedMatchOf(ctx);
    const adapter = koaAdapter(ctx, options.baseUrl);
    if (decoded) decodedPayments?.set(adapter, decoded); // the server reads this payload instead of decoding the header again
    // The catalog's path form, so the route table matches whatever the path parameters hold.
    const context: HTTPRequestContext = { adapter, path: koaPath(pathForm), method: paymentMethod(ctx), paymentHeader: ctx.get('PAYMENT-SIGNATURE') || undefined };
    if (!decoded || !facts) {
      const challenge = await server!.processHTTPRequest(context);
      if (challenge.type !== 'payment-error') throw new Error(`paid route ${route.id} answered a request without payment`);
      return respondPaymentError(ctx, challenge.response);
    }
    const locks: Array<[string, 'authorization' | 'payment identifier']> = [[`authorization:${facts.key}`, 'authorization']];
    if (paymentId !== null) locks.push([`payment-id:${paymentId}`, 'payment identifier']);
    return withLocks(ctx, locks, async () => {
      let result;
      try {
        result = await server!.processHTTPRequest(context);
      } catch (error) {
        return respondFacilitatorFailure(ctx, error, log);
      }
      if (result.type === 'no-payment-required') throw new Error(`paid route ${route.id} has no payment rule for ${context.path}`);
      if (result.type === 'payment-error') {
        const reason = refusalReason(result.response);
        refused(ctx, reason);
        await rememberRefusal(facts, reason);
        return respondPaymentError(ctx, result.response);
      }
      metrics?.payment('verified');
      const headersBefore = headersOf(ctx);
      try {
        await next();
      } catch (error) {
        await cancel(result, 'handler_threw', log);
        throw error;
      }
      if (ctx.status < 200 || ctx.status >= 300 || ctx.body === undefined || ctx.body === null) {
        return cancel(result, 'handler_failed', log, ctx.status);
      }
      return settle(ctx, result, facts, paymentId, fingerprint, context, headersBefore);
    });
  }

  async function settle(
    ctx: Koa.Context, payment: VerifiedPayment, facts: AuthorizationFacts, paymentId: string | null, fingerprint: string,
    request: HTTPRequestContext, headersBefore: Map<string, string>,
  ): Promise<void> {
    const { route } = validatedMatchOf(ctx);
    const body = bodyBuffer(ctx.body);
    const time = options.now().toISOString();
    // Recorded, with its answer, before /settle is sent: whatever happens next, a retry or reconcile finds it.
    try {
      await store!.begin({
        key: facts.key,
        paymentId,
        state: 'pending',
        validBefore: facts.validBefore ?? nowSeconds(options.now) + options.maxTimeoutSeconds,
        route: route.id,
        resource: ctx.originalUrl,
        terms: paymentTerms(payment.paymentPayload),
        payload: payment.paymentPayload,
        requirements: payment.paymentRequirements,
        request: fingerprint,
        requestId: requestRecordOf(ctx.req)?.id ?? null,
        answer: { status: ctx.status, headers: keptHeaders(ctx, headersBefore), body },
        transaction: null,
        createdAt: time,
        updatedAt: time,
      });
    } catch (error) {
      await cancel(payment, 'handler_failed', log, 503);
      ctx.body = null;
      if (error instanceof SettlementExistsError) return respondInProgress(ctx, error.field === 'key' ? 'authorization' : 'payment identifier');
      return respondStoreUnavailable(ctx, error, log);
    }
    let settlement;
    try {
      settlement = await server!.processSettlement(payment.paymentPayload, payment.paymentRequirements, payment.declaredExtensions, {
        request,
        responseBody: body,
        responseHeaders: Object.fromEntries(Object.entries(ctx.response.headers).map(([name, value]) => [name, String(value)])),
      });
    } catch (error) {
      ctx.body = null;
      if (settleWasNotSent(error)) {
        await finishQuietly(facts.key, { state: 'unpaid' });
        return respondFacilitatorFailure(ctx, error, log);
      }
      log(`settlement ${facts.key}: its outcome is unknown`, error, { event: 'settlement_unknown', request_id: requestRecordOf(ctx.req)?.id });
      metrics?.payment('unknown');
      await finishQuietly(facts.key, { state: 'unknown' });
      return respondSettlementUnknown(ctx);
    }
    if (!settlement.success) {
      ctx.body = null;
      refused(ctx, settlement.errorReason);
      await finishQuietly(facts.key, { state: 'unpaid' });
      await rememberRefusal(facts, settlement.errorReason);
      return respondPaymentError(ctx, { ...settlement.response, status: 402, headers: { ...settlement.response.headers, ...settlement.headers } });
    }
    for (const [name, value] of Object.entries(settlement.headers)) ctx.set(name, value);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = body; // the exact bytes kept for a retry are the bytes sent
    notePayment(ctx, metrics, 'settled', { terms: paymentTerms(payment.paymentPayload), transaction: settlement.transaction });
    await finishQuietly(facts.key, { state: 'settled', transaction: settlement.transaction, addHeaders: lowerCaseNames(settlement.headers) });
  }
}
