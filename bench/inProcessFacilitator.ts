// A facilitator client that answers in the server's own process, for the benchmark only: a paid run
// through it costs the server everything a payment costs except the facilitator's round trips (and
// the facilitator's own work), which is what the paid-request target measures. It accepts every
// payment; the real facilitator's answers to /supported are asked once, at creation.
import type { FacilitatorClient } from '@x402/core/server';
import type { PaymentPayload, PaymentRequirements, SettleResponse, SupportedResponse, VerifyResponse } from '@x402/core/types';
import { createFacilitatorClient } from '../http/payments/facilitatorClient.ts';
import type { FacilitatorSettings } from '../http/payments/config.ts';

/** The payer an EIP-3009 authorization names (the exact scheme's payload). */
function payerOf(payload: PaymentPayload): string | undefined {
  const authorization = (payload.payload as { authorization?: { from?: unknown } }).authorization;
  return typeof authorization?.from === 'string' ? authorization.from : undefined;
}

export async function inProcessFacilitator(settings: FacilitatorSettings): Promise<FacilitatorClient> {
  const supported: SupportedResponse = await createFacilitatorClient(settings).getSupported();
  let settled = 0;
  return {
    getSupported: async () => supported,
    verify: async (payload: PaymentPayload): Promise<VerifyResponse> => ({ isValid: true, payer: payerOf(payload) }),
    settle: async (payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse> => ({
      success: true,
      payer: payerOf(payload),
      network: requirements.network,
      transaction: `0x${(++settled).toString(16).padStart(64, '0')}`,
    }),
  };
}
