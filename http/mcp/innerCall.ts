// A tool call of the HTTP endpoint answered as an HTTP request to the app itself, in process
// (light-my-request, Fastify's injection library, on the app's own request listener): the request
// passes every stage a client's request passes (validation before payment, the rate limit, the
// payment check with its exemptions, locks, payment identifiers, kept answers and lost settlements,
// the fail-closed store), so MCP follows the HTTP rules because it is the same code.
//
// The inner request carries only: the method, path, query and JSON body of the call (requestFor),
// `Accept: application/json`, the x402 payment of the call's `_meta["x402/payment"]` as the
// PAYMENT-SIGNATURE header, and, for the exemption and the rate limit to decide exactly as for the
// outer request, the outer request's socket address and its X-Forwarded-For header. No other header
// of the client reaches it.
import type { RequestListener } from 'node:http';
import inject from 'light-my-request';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequired, SettleResponse } from '@x402/core/types';
import type { Route } from '../../queries/catalog.ts';
import { errorBody } from '../errors.ts';
import { DATA_SOURCE_HEADER } from '../pipeline/responseHeaders.ts';
import type { CallContext, CallOutcome, Caller } from './server.ts';
import type { ToolRequest } from './tools.ts';

/** The outer request's client, as the exemption and the rate limit read it. */
export interface OuterClient {
  /** The socket's address; undefined once the client has gone. */
  remoteAddress: string | undefined;
  forwardedFor: string | string[] | undefined;
}

export interface InnerCallOptions {
  /** The app's request listener (read per call: the app is built after its stages). */
  listener: () => RequestListener;
  client: OuterClient;
  /** How x402 over MCP differs from HTTP (http/payments/challenge.ts); none: not at all. */
  x402?: McpPaymentTerms;
}

export interface McpPaymentTerms {
  /** The challenge as an MCP client sees it (the Bazaar extension describing the tool). */
  challenge: (route: Route, challenge: PaymentRequired) => PaymentRequired;
  /** A payment made for that challenge, as the HTTP payment check takes it. */
  payment: (route: Route, payment: PaymentPayload) => PaymentPayload;
}

function refusal(status: number, code: Parameters<typeof errorBody>[1], message: string, param: string | null = null): CallOutcome {
  const json = errorBody(status, code, message, param);
  return { ok: false, json, text: JSON.stringify(json) };
}

function headerText(value: string | string[] | number | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value === undefined ? undefined : String(value);
}

function decoded<T>(header: string | undefined, decode: (text: string) => T): T | undefined {
  if (header === undefined) return undefined;
  try {
    return decode(header);
  } catch {
    return undefined;
  }
}

export function innerCaller(options: InnerCallOptions): Caller {
  return async (route: Route, request: ToolRequest, context: CallContext): Promise<CallOutcome> => {
    const { remoteAddress, forwardedFor } = options.client;
    // light-my-request would call a request without an address loopback (exempt in development).
    if (!remoteAddress) return refusal(400, 'bad_request', 'the connection of this request has closed');
    const headers: Record<string, string | string[]> = { accept: 'application/json' };
    if (forwardedFor !== undefined) headers['x-forwarded-for'] = forwardedFor;
    if (context.payment !== undefined) {
      const payment = context.payment;
      if (payment === null || typeof payment !== 'object' || Array.isArray(payment)) {
        return refusal(400, 'invalid_payment', '_meta["x402/payment"] must be an x402 PaymentPayload object', '_meta.x402/payment');
      }
      const payload = payment as PaymentPayload;
      headers['payment-signature'] = encodePaymentSignatureHeader(options.x402 ? options.x402.payment(route, payload) : payload);
    }
    let payload: string | undefined;
    if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(request.body);
    }
    const response = await inject(options.listener(), { method: request.method, url: request.target, headers, remoteAddress, ...(payload !== undefined ? { payload } : {}) });
    const paymentResponse = decoded(headerText(response.headers['payment-response']), decodePaymentResponseHeader) as SettleResponse | undefined;
    const withReceipt = paymentResponse ? { paymentResponse } : {};
    if (response.statusCode === 402) {
      const challenge = decoded(headerText(response.headers['payment-required']), decodePaymentRequiredHeader);
      if (challenge) {
        const shown = options.x402 ? options.x402.challenge(route, challenge) : challenge;
        return { ok: false, json: shown, text: JSON.stringify(shown), paymentRequired: shown, ...withReceipt };
      }
    }
    const text = response.payload;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return { ...refusal(500, 'internal_error', `the API answered ${response.statusCode} with a body that is not JSON`), ...withReceipt };
    }
    const ok = response.statusCode >= 200 && response.statusCode < 300;
    const dataSource = ok ? headerText(response.headers[DATA_SOURCE_HEADER.toLowerCase()]) : undefined;
    return { ok, json, text: ok ? text : JSON.stringify(json), ...(dataSource ? { dataSource } : {}), ...withReceipt };
  };
}
