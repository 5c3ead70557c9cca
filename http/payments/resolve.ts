// Resolving a settlement whose outcome is not known (its /settle answer was lost, or the replica
// sending it stopped): was the payer charged? Used by the payment stage when the payer retries and
// by `npm run payments -- reconcile`. The order:
//   1. the token's own record, when X402_RPC_URLS names a node for the network (chainReader.ts);
//   2. otherwise settle the kept authorization again: the facilitator either settles it now (so it
//      is paid once, now), answers a duplicate with the first result, or reports the nonce used
//      (an authorization to our pay-to address for our amount was used: we were paid);
//   3. anything else the facilitator refuses means it never moved money; an expired authorization
//      without a chain reader stays unknown (the facilitator checks expiry before the nonce).
import { encodePaymentResponseHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { authorizationOf } from './authorization.ts';
import type { ChainReader } from './chainReader.ts';
import type { KeptAnswer, PaymentStore, Settlement } from './store/types.ts';

export type Resolution =
  | { outcome: 'paid'; transaction: string | null; headers: Record<string, string> }
  | { outcome: 'unpaid'; reason: string }
  | { outcome: 'unknown'; reason: string };

/** What settling again answered: a receipt, a refusal, or a thrown error (the outcome is unknown again). */
export type SettleAgain =
  | { success: true; transaction: string; headers: Record<string, string> }
  | { success: false; errorReason: string };

export interface ResolverOptions {
  /** Sends the kept payload to the facilitator's /settle again (x402HTTPResourceServer.processSettlement). */
  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleAgain>;
  /** A chain reader per network (X402_RPC_URLS). */
  chains: ReadonlyMap<string, ChainReader>;
  nowSeconds(): number;
}

export const NONCE_USED = 'invalid_exact_evm_nonce_already_used';
/**
 * Refusals that do not prove the money never moved: the authorization expired before the nonce was
 * checked, or a transaction was sent and failed (another one, still on its way, may have used it).
 */
const UNCERTAIN = new Set([
  'invalid_exact_evm_payload_authorization_valid_before',
  'invalid_exact_evm_transaction_failed',
  'invalid_exact_evm_transfer_event_mismatch',
  'settlement_pending',
]);
/** The facilitator refuses an authorization this close to its validBefore; the chain's clock may also run ahead of ours. */
const EXPIRY_MARGIN_SECONDS = 6;
const CLOCK_SKEW_SECONDS = 60;

function receiptHeaders(settlement: Settlement, transaction: string): Record<string, string> {
  return {
    'PAYMENT-RESPONSE': encodePaymentResponseHeader({ success: true, transaction, network: settlement.terms.network as `${string}:${string}`, payer: settlement.terms.payer }),
  };
}

function nonceOf(settlement: Settlement): string {
  return settlement.key.slice(settlement.key.indexOf(':') + 1);
}

export function createSettlementResolver(options: ResolverOptions): (settlement: Settlement) => Promise<Resolution> {
  const paid = (settlement: Settlement, transaction: string | null): Resolution => ({
    outcome: 'paid', transaction, headers: transaction ? receiptHeaders(settlement, transaction) : {},
  });

  async function fromChain(settlement: Settlement, chain: ChainReader): Promise<Resolution | null> {
    try {
      const use = await chain.authorizationUse(settlement.terms, nonceOf(settlement));
      if (use.used) {
        if (use.paidUs === false) return { outcome: 'unpaid', reason: `the authorization was used by transaction ${use.transaction} for another transfer` };
        return paid(settlement, use.transaction);
      }
      // Unused and expired on any clock: it can never move money now.
      if (options.nowSeconds() > settlement.validBefore + CLOCK_SKEW_SECONDS) return { outcome: 'unpaid', reason: 'the authorization expired unused' };
      return null; // unused but still valid: settle it now (below)
    } catch {
      return null; // the node cannot be asked: the facilitator decides
    }
  }

  return async (settlement) => {
    const chain = options.chains.get(settlement.terms.network);
    if (chain) {
      const resolved = await fromChain(settlement, chain);
      if (resolved) return resolved;
    }
    if (options.nowSeconds() >= settlement.validBefore - EXPIRY_MARGIN_SECONDS) {
      return { outcome: 'unknown', reason: 'the authorization has expired, so the facilitator can no longer tell whether it was used; set X402_RPC_URLS for its network to read the token, or check the payer\'s transfers by hand' };
    }
    let again: SettleAgain;
    try {
      again = await options.settle(settlement.payload as PaymentPayload, settlement.requirements as PaymentRequirements);
    } catch (error) {
      return { outcome: 'unknown', reason: `the facilitator could not be asked: ${error instanceof Error ? error.message : String(error)}` };
    }
    if (again.success) return { outcome: 'paid', transaction: again.transaction, headers: again.headers };
    if (again.errorReason === NONCE_USED) {
      if (!chain) return paid(settlement, null);
      try {
        return paid(settlement, (await chain.authorizationUse(settlement.terms, nonceOf(settlement))).transaction);
      } catch {
        return paid(settlement, null);
      }
    }
    if (UNCERTAIN.has(again.errorReason)) {
      const resolved = chain ? await fromChain(settlement, chain) : null;
      return resolved ?? { outcome: 'unknown', reason: `settling again was refused with ${again.errorReason}, which does not tell whether the authorization was used` };
    }
    return { outcome: 'unpaid', reason: again.errorReason };
  };
}

/**
 * Records a resolution in the store: paid, settled (the kept answer gains the receipt headers);
 * unpaid, its payment id freed and the payload remembered as refused; unknown, a pending one
 * becomes unknown. Returns the answer to deliver when paid.
 */
export async function recordResolution(store: PaymentStore, settlement: Settlement, resolution: Resolution, now: Date): Promise<KeptAnswer | null> {
  const updatedAt = now.toISOString();
  if (resolution.outcome === 'unknown') {
    if (settlement.state === 'pending') await store.finish(settlement.key, { state: 'unknown', updatedAt });
    return null;
  }
  if (resolution.outcome === 'unpaid') {
    await store.finish(settlement.key, { state: 'unpaid', updatedAt });
    const facts = authorizationOf(settlement.payload as PaymentPayload);
    await store.rememberRefusal(facts.hash, resolution.reason, settlement.validBefore);
    return null;
  }
  const addHeaders = lowerCaseNames(resolution.headers);
  await store.finish(settlement.key, { state: 'settled', transaction: resolution.transaction, addHeaders, updatedAt });
  return settlement.answer && { ...settlement.answer, headers: { ...settlement.answer.headers, ...addHeaders } };
}

/** Headers as kept with an answer: lower-case names. */
export function lowerCaseNames(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
