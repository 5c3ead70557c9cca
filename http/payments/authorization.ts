// What the payment stage reads of a payment payload before asking anyone: the EIP-3009
// authorization's key (payer, nonce), how long it stays valid, the payload's hash, the terms it
// pays on, and whether a retry is signed by the same payer on the same terms (checked locally).
import type { PaymentPayload } from '@x402/core/types';
import { createHash } from 'node:crypto';
import { verifyTypedData, type Hex } from 'viem';
import type { PaymentTerms } from './store/types.ts';

export interface AuthorizationFacts {
  /** `${payer}:${nonce}` in lower case: one authorization buys one answer. The payload's hash when it has no EIP-3009 authorization. */
  key: string;
  payer: string;
  /** Unix seconds after which it can no longer move money; null when the payload does not say. */
  validBefore: number | null;
  /** sha256 of the whole payload (signature included): what a refusal is remembered under. */
  hash: string;
}

interface Eip3009Payload {
  authorization?: { from?: unknown; to?: unknown; value?: unknown; validAfter?: unknown; validBefore?: unknown; nonce?: unknown };
  signature?: unknown;
}

function authorizationFields(payload: PaymentPayload): Eip3009Payload['authorization'] {
  return (payload.payload as Eip3009Payload | undefined)?.authorization;
}

export function authorizationOf(payload: PaymentPayload): AuthorizationFacts {
  const hash = createHash('sha256').update(JSON.stringify(payload.payload ?? null)).digest('hex');
  const authorization = authorizationFields(payload);
  const from = typeof authorization?.from === 'string' ? authorization.from.toLowerCase() : '';
  const nonce = typeof authorization?.nonce === 'string' ? authorization.nonce.toLowerCase() : '';
  const before = typeof authorization?.validBefore === 'string' && /^[0-9]{1,20}$/.test(authorization.validBefore) ? Number(authorization.validBefore) : null;
  return { key: from && nonce ? `${from}:${nonce}` : `payload:${hash}`, payer: from, validBefore: before, hash };
}

/** The terms of a payment payload: its payer and the accepted requirement's network, asset, recipient and amount. */
export function paymentTerms(payload: PaymentPayload): PaymentTerms {
  const from = authorizationFields(payload)?.from;
  return {
    payer: typeof from === 'string' ? from.toLowerCase() : '',
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
 * Whether a payload is paid by the payer of `kept`, on the same terms: the same payer, network,
 * asset, recipient and amount, an authorization to that recipient for that amount, and an EIP-3009
 * signature that recovers to the payer (checked locally: no facilitator call, no charge). Payloads
 * this cannot check (no EIP-3009 authorization, smart-wallet signatures) do not match.
 */
export async function samePayment(kept: PaymentTerms, payload: PaymentPayload): Promise<boolean> {
  const terms = paymentTerms(payload);
  if ((Object.keys(kept) as Array<keyof PaymentTerms>).some((key) => kept[key] !== terms[key])) return false;
  const authorization = authorizationFields(payload);
  const signature = (payload.payload as Eip3009Payload).signature;
  if (!authorization || typeof signature !== 'string') return false;
  const { from, to, value, validAfter, validBefore, nonce } = authorization;
  if (typeof from !== 'string' || typeof to !== 'string' || typeof value !== 'string' || typeof validAfter !== 'string' ||
    typeof validBefore !== 'string' || typeof nonce !== 'string') return false;
  if (to.toLowerCase() !== kept.payTo || value !== kept.amount) return false;
  const chainId = /^eip155:([0-9]+)$/.exec(kept.network)?.[1];
  const extra = (payload.accepted?.extra ?? {}) as { name?: unknown; version?: unknown };
  if (!chainId || typeof extra.name !== 'string' || typeof extra.version !== 'string') return false;
  try {
    return await verifyTypedData({
      address: from as Hex,
      domain: { name: extra.name, version: extra.version, chainId: Number(chainId), verifyingContract: payload.accepted.asset as Hex },
      types: { TransferWithAuthorization: TRANSFER_WITH_AUTHORIZATION },
      primaryType: 'TransferWithAuthorization',
      message: { from: from as Hex, to: to as Hex, value: BigInt(value), validAfter: BigInt(validAfter), validBefore: BigInt(validBefore), nonce: nonce as Hex },
      signature: signature as Hex,
    });
  } catch {
    return false; // malformed numbers, addresses or signature
  }
}
