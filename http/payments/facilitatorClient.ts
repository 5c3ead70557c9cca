// The facilitator client: the official HTTPFacilitatorClient over one or more facilitators, with
// network failures made distinct. The packages turn a refused connection or a non-JSON 5xx into a
// 402 "fetch failed", which tells a client to pay again; here they become FacilitatorUnavailableError,
// which the payment middleware answers with 503 (unreachable, timed out) or 502 (answered nonsense),
// charging nothing.
//
// With several facilitators (X402_FACILITATOR_URL=a,b) the first healthy one is used. A /supported or
// /verify that fails (unreachable, timed out, or answered but not usefully) moves on to the next one and
// rests the failed one for a short back-off; a protocol answer (an invalid payment) is an answer and
// moves nowhere. A /settle is never sent to a second facilitator: its outcome may be unknown, and the
// caller resolves it (settleWasNotSent tells when it is known not to have left).
//
// The hosted Coinbase facilitator (api.cdp.coinbase.com) wants a freshly signed token on every request:
// with a CDP API key in the settings, each request to it gets its own JWT from @coinbase/x402.
import { FacilitatorResponseError, FacilitatorTimeoutError, HTTPFacilitatorClient, type FacilitatorClient } from '@x402/core/server';
import { SettleError, VerifyError } from '@x402/core/types';
import { redactUrl, redactUrlsIn } from '../log.ts';
import type { CdpApiKey, FacilitatorPath, FacilitatorSettings } from './config.ts';

export class FacilitatorUnavailableError extends FacilitatorResponseError {
  constructor(
    readonly operation: string,
    override readonly cause: unknown,
    /** The facilitator asked, when known (messages name it without user, password or query). */
    readonly url?: string,
  ) {
    super(`facilitator ${operation}${url ? ` at ${redactUrl(url)}` : ''} failed: ${redactUrlsIn(cause instanceof Error ? cause.message : String(cause))}`);
    this.name = 'FacilitatorUnavailableError';
  }
}

/** The headers of a facilitator request could not be built (the CDP key could not sign it): nothing was sent. */
export class FacilitatorAuthHeadersError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FacilitatorAuthHeadersError';
  }
}

/** 503 when the facilitator could not be reached in time; 502 when it answered but not usefully. */
export function facilitatorFailureStatus(error: FacilitatorResponseError): 502 | 503 {
  if (error instanceof FacilitatorTimeoutError) return 503;
  if (error instanceof FacilitatorUnavailableError && error.cause instanceof TypeError) return 503; // fetch failed
  return 502;
}

/** Error codes of a connection that was never made: the request cannot have reached anyone. */
const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/** The first error code in a fetch failure's cause chain decides; an AggregateError (one attempt per address) needs all. */
function neverConnected(cause: unknown, depth = 0): boolean {
  if (!(cause instanceof Error) || depth > 8) return false;
  if (cause instanceof AggregateError && cause.errors.length > 0) return cause.errors.every((inner) => neverConnected(inner, depth + 1));
  const code = (cause as NodeJS.ErrnoException).code;
  if (typeof code === 'string') return NEVER_CONNECTED.has(code);
  return neverConnected(cause.cause, depth + 1);
}

/**
 * Whether a failed settle provably never reached a facilitator: the connection was refused or the name
 * did not resolve (or its auth headers could not even be built), so nothing was settled and the payment
 * may be settled again. False for everything else: a timeout, a reset connection, a 5xx or a malformed
 * answer leave the outcome unknown.
 */
export function settleWasNotSent(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 8; depth++) {
    if (current instanceof FacilitatorAuthHeadersError) return true;
    if (current instanceof TypeError) return neverConnected(current.cause); // fetch failed
    current = current.cause;
  }
  return false;
}

/** Builds the headers of one request to the CDP facilitator; called once per request. */
export type CdpHeaderBuilder = (request: { method: 'GET' | 'POST'; url: string }) => Promise<Record<string, string>>;

export interface FacilitatorClientOptions {
  /** Clock for the back-off, in milliseconds (default Date.now). */
  now?: () => number;
  /** How long a failed facilitator is skipped, in milliseconds (default 30 s). */
  backoffMs?: number;
  /** The per-request headers of the CDP facilitator; default a JWT signed with `settings.cdp` through @coinbase/x402. */
  cdpHeaders?: CdpHeaderBuilder;
  /** Which facilitators get the CDP headers; default those on host api.cdp.coinbase.com. */
  isCdp?: (url: string) => boolean;
}

export const CDP_FACILITATOR_HOST = 'api.cdp.coinbase.com';
export const FACILITATOR_BACKOFF_MS = 30_000;

const METHODS: Record<FacilitatorPath, 'GET' | 'POST'> = { verify: 'POST', settle: 'POST', supported: 'GET' };

function isCdpHost(url: string): boolean {
  return new URL(url).hostname.toLowerCase() === CDP_FACILITATOR_HOST;
}

/** The text without the secret, nor any long piece of it (a PEM key's lines). */
function redact(text: string, secret: string | undefined): string {
  if (!secret) return text;
  const pieces = [secret, ...secret.split(/-----[^-]*-----|\s+/).filter((piece) => piece.length >= 8)];
  return pieces.reduce((result, piece) => result.split(piece).join('[redacted]'), text);
}

/** A JWT per request from the CDP API key (@coinbase/x402, loaded on first use), with CDP's correlation header. */
function cdpSigner(key: CdpApiKey): CdpHeaderBuilder {
  let loading: Promise<typeof import('@coinbase/x402')> | undefined;
  return async ({ method, url }) => {
    loading ??= import('@coinbase/x402');
    const { createAuthHeader, createCorrelationHeader } = await loading;
    const { host, pathname } = new URL(url);
    return {
      Authorization: await createAuthHeader(key.id, key.secret, method, host, pathname),
      'Correlation-Context': createCorrelationHeader(),
    };
  };
}

async function guarded<T>(operation: string, url: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    // Protocol answers (invalid payment, failed settlement) and the packages' own boundary errors pass through.
    if (error instanceof VerifyError || error instanceof SettleError || error instanceof FacilitatorResponseError) throw error;
    throw new FacilitatorUnavailableError(operation, error, url);
  }
}

interface Facilitator {
  url: string;
  /** One client per path, so that each request signs only its own headers. */
  clients: Record<FacilitatorPath, HTTPFacilitatorClient>;
  /** Skipped until then (milliseconds), unless every facilitator is. */
  restingUntil: number;
}

/**
 * One FacilitatorClient over `settings.urls`: /supported and /verify go to the first healthy
 * facilitator and move on when it fails; /settle goes to the preferred one only, and its errors pass
 * through unchanged.
 */
export function createFacilitatorClient(settings: FacilitatorSettings, options: FacilitatorClientOptions = {}): FacilitatorClient {
  if (settings.urls.length === 0) throw new RangeError('createFacilitatorClient needs at least one facilitator URL');
  const now = options.now ?? Date.now;
  const backoffMs = options.backoffMs ?? FACILITATOR_BACKOFF_MS;
  const isCdp = options.isCdp ?? isCdpHost;
  const sign = options.cdpHeaders ?? (settings.cdp ? cdpSigner(settings.cdp) : undefined);
  const secret = settings.cdp?.secret;

  const authHeaders = async (url: string, path: FacilitatorPath): Promise<Record<string, string>> => {
    const fixed = settings.headers[path] ?? {};
    if (!sign || !isCdp(url)) return fixed;
    try {
      return { ...fixed, ...(await sign({ method: METHODS[path], url: `${url}/${path}` })) };
    } catch (error) {
      // The cause is dropped: a key library's error could quote the key.
      const reason = redact(error instanceof Error ? error.message : String(error), secret);
      throw new FacilitatorAuthHeadersError(`the CDP API key (CDP_API_KEY_ID, CDP_API_KEY_SECRET) could not sign the ${path} request: ${reason}`);
    }
  };
  const facilitators: Facilitator[] = settings.urls.map((url) => {
    const client = (path: FacilitatorPath) =>
      new HTTPFacilitatorClient({ url, timeoutMs: settings.timeoutMs, createAuthHeaders: async () => ({ [path]: await authHeaders(url, path) }) });
    return { url, clients: { verify: client('verify'), settle: client('settle'), supported: client('supported') }, restingUntil: 0 };
  });

  /** The healthy facilitators in preference order, then the resting ones (tried only when the healthy ones failed). */
  const inOrder = (): Facilitator[] => {
    const time = now();
    return [...facilitators.filter((f) => f.restingUntil <= time), ...facilitators.filter((f) => f.restingUntil > time)];
  };
  const rest = (facilitator: Facilitator): void => {
    facilitator.restingUntil = now() + backoffMs;
  };

  /** Asks each facilitator in turn until one answers; a protocol answer (VerifyError) is an answer. */
  const withFailover = async <T>(path: 'verify' | 'supported', call: (client: HTTPFacilitatorClient) => Promise<T>): Promise<T> => {
    let failure: unknown;
    for (const facilitator of inOrder()) {
      try {
        const result = await guarded(path, facilitator.url, () => call(facilitator.clients[path]));
        facilitator.restingUntil = 0;
        return result;
      } catch (error) {
        if (!(error instanceof FacilitatorResponseError)) throw error;
        rest(facilitator);
        failure = error;
      }
    }
    throw failure;
  };

  return {
    verify: (payload, requirements) => withFailover('verify', (client) => client.verify(payload, requirements)),
    getSupported: () => withFailover('supported', (client) => client.getSupported()),
    async settle(payload, requirements) {
      const facilitator = inOrder()[0]!;
      try {
        return await guarded('settle', facilitator.url, () => facilitator.clients.settle.settle(payload, requirements));
      } catch (error) {
        // Never retried elsewhere; later requests avoid a facilitator that could not be reached at all.
        if (settleWasNotSent(error)) rest(facilitator);
        throw error;
      }
    },
  };
}
