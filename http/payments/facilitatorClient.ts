// The facilitator client: the official HTTPFacilitatorClient, with network failures made distinct.
// The packages turn a refused connection or a non-JSON 5xx into a 402 "fetch failed", which tells a
// client to pay again; here they become FacilitatorUnavailableError, which the payment middleware
// answers with 503 (unreachable, timed out) or 502 (answered nonsense), charging nothing.
import { FacilitatorResponseError, FacilitatorTimeoutError, HTTPFacilitatorClient, type FacilitatorClient } from '@x402/core/server';
import { SettleError, VerifyError } from '@x402/core/types';
import type { FacilitatorSettings } from './config.ts';

export class FacilitatorUnavailableError extends FacilitatorResponseError {
  constructor(
    readonly operation: string,
    override readonly cause: unknown,
  ) {
    super(`facilitator ${operation} failed: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'FacilitatorUnavailableError';
  }
}

/** 503 when the facilitator could not be reached in time; 502 when it answered but not usefully. */
export function facilitatorFailureStatus(error: FacilitatorResponseError): 502 | 503 {
  if (error instanceof FacilitatorTimeoutError) return 503;
  if (error instanceof FacilitatorUnavailableError && error.cause instanceof TypeError) return 503; // fetch failed
  return 502;
}

async function guarded<T>(operation: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    // Protocol answers (invalid payment, failed settlement) and the packages' own boundary errors pass through.
    if (error instanceof VerifyError || error instanceof SettleError || error instanceof FacilitatorResponseError) throw error;
    throw new FacilitatorUnavailableError(operation, error);
  }
}

export function createFacilitatorClient(settings: FacilitatorSettings): FacilitatorClient {
  const inner = new HTTPFacilitatorClient({
    url: settings.url,
    timeoutMs: settings.timeoutMs,
    createAuthHeaders: async () => ({
      verify: settings.headers.verify ?? {},
      settle: settings.headers.settle ?? {},
      supported: settings.headers.supported ?? {},
    }),
  });
  return {
    verify: (payload, requirements) => guarded('verify', () => inner.verify(payload, requirements)),
    settle: (payload, requirements) => guarded('settle', () => inner.settle(payload, requirements)),
    getSupported: () => guarded('supported', () => inner.getSupported()),
  };
}
