// Client-facing errors. The HTTP layer renders them as
// {"error": {"status", "code", "message", "param"}}; anything else becomes a 500 without internals.
// Every code the service sends is declared here once, with its status and meaning (the OpenAPI
// lists them per operation from this table).

export interface ErrorCodeInfo {
  /** The HTTP statuses the code is sent with (the first is the usual one). */
  statuses: readonly number[];
  description: string;
}

export const ERROR_CODES = {
  invalid_parameter: { statuses: [400], description: 'A parameter (or body field) is missing or invalid; `param` names it. Never charged.' },
  bad_request: { statuses: [400], description: 'The request itself is malformed (not one of its parameters); other client errors of the HTTP layer keep their own 4xx status. Never charged.' },
  invalid_payment: { statuses: [400], description: 'PAYMENT-SIGNATURE is not a decodable x402 payment payload.' },
  payment_required: { statuses: [402], description: 'Payment required: the x402 v2 challenge is in the PAYMENT-REQUIRED header; `reason` says why a given payment was refused.' },
  not_found: { statuses: [404], description: 'No such resource, or no data for the requested selection.' },
  method_not_allowed: { statuses: [405, 501], description: 'The path does not take this method (the Allow header lists those it takes).' },
  not_acceptable: { statuses: [406], description: 'None of the formats in Accept (or `format`) is offered by this route.' },
  payment_in_progress: { statuses: [409], description: 'The same payment is being used by another request; one payment buys one answer.' },
  payment_identifier_conflict: { statuses: [409], description: 'The payment identifier (x402 `payment-identifier` extension) already bought the answer to a different request, or is presented with a different payment (payer, network, asset, amount or recipient); nothing was charged. Use a new identifier for a new request.' },
  payload_too_large: { statuses: [413], description: 'The request body is larger than the route accepts. Never charged.' },
  uri_too_long: { statuses: [414], description: 'The query string is longer than 4096 bytes. Never charged.' },
  unsupported_media_type: { statuses: [415], description: 'The request body is not of a content type the route accepts. Never charged.' },
  rate_limited: { statuses: [429], description: 'More requests from this client in a minute than the server allows (RATE_LIMIT_PER_MINUTE); Retry-After says when to retry. Never charged.' },
  license_not_approved: { statuses: [451], description: 'A source series the route needs is not licensed (APPROVED) by the operator. Never charged.' },
  internal_error: { statuses: [500], description: 'An unexpected failure; nothing was charged.' },
  facilitator_unavailable: { statuses: [503, 502], description: 'The payment facilitator did not answer (503) or answered nonsense (502); nothing was charged, retry shortly.' },
  settlement_unknown: { statuses: [502], description: 'The payment was sent for settlement and the answer was lost: your payment may have been taken. Retry with the same PAYMENT-SIGNATURE, or with the same payment identifier, and you will not be charged twice; the answer is kept for you.' },
  payment_store_unavailable: { statuses: [503], description: 'The payment records cannot be reached; nothing was verified or charged, retry shortly.' },
  payments_not_configured: { statuses: [503], description: 'Payments are not configured on this server; only exempt clients are served paid routes.' },
  overloaded: { statuses: [503], description: 'Too many answers are being computed and the wait queue is full; Retry-After says when to retry. Never charged.' },
  timeout: { statuses: [503], description: 'The query took too long; try a narrower selection.' },
} as const satisfies Record<string, ErrorCodeInfo>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The code of an HTTP error raised below the catalog (Koa, body parsing) by its status: never invalid_parameter, which names a parameter; any other 4xx is bad_request. */
export function codeForStatus(status: number): ErrorCode | null {
  for (const [code, info] of Object.entries(ERROR_CODES) as Array<[ErrorCode, ErrorCodeInfo]>) {
    if (code !== 'invalid_parameter' && info.statuses.includes(status) && status !== 402) return code;
  }
  return status >= 400 && status < 500 ? 'bad_request' : null;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly param: string | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function invalidParameter(param: string, message: string): ApiError {
  return new ApiError(400, 'invalid_parameter', message, param);
}

export function notFound(message: string): ApiError {
  return new ApiError(404, 'not_found', message);
}

/** 451: a reserve-bank series the route needs is not APPROVED by the operator (answered before any payment). */
export function licenseNotApproved(message: string): ApiError {
  return new ApiError(451, 'license_not_approved', message);
}
