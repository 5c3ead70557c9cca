// The payment store: every piece of payment state that two replicas must share. One interface,
// two implementations: `FilePaymentStore` (the embedded default: local JSON-lines files, one
// process) and `PostgresPaymentStore` (DATABASE_URL: one database shared by every replica).
// Exactly-once comes from the store (a unique authorization key, a unique payment id, leased
// locks), never from timing. A store that cannot be reached throws; the payment stage then fails
// closed (503, nothing verified, nothing charged, nothing served).

/** The terms of the payment that bought an answer: a retry must be paid by the same payer on the same terms. */
export interface PaymentTerms {
  /** The payer's address, lower case. */
  payer: string;
  network: string;
  /** Token address, lower case. */
  asset: string;
  /** Recipient address, lower case. */
  payTo: string;
  /** Atomic units (USDC: 6 decimals). */
  amount: string;
}

/** The answer a payment bought, kept byte for byte (headers with lower-case names, PAYMENT-RESPONSE included once settled). */
export interface KeptAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * pending: `/settle` is about to be sent or was sent, and its answer has not been read yet.
 * settled: the facilitator (or the chain) confirmed the transfer; `transaction` may be null when
 *          it was only learnt that the authorization was used.
 * unknown: `/settle` was sent and its answer was lost (timeout, reset, 5xx): the payer may have paid.
 * unpaid:  resolved as never charged (the facilitator refused it): the payment id is free again.
 */
export type SettlementState = 'pending' | 'settled' | 'unknown' | 'unpaid';

export interface Settlement {
  /** The authorization's key, `${payer}:${nonce}` in lower case: one EIP-3009 authorization buys one answer. */
  key: string;
  /** The client's payment identifier (payment-identifier extension), or null. Unique among settlements that hold one. */
  paymentId: string | null;
  state: SettlementState;
  /** The authorization's validBefore in unix seconds: after it, the authorization can no longer move money. */
  validBefore: number;
  /** Catalog operation id, and the request path and query that was paid for. */
  route: string;
  resource: string;
  terms: PaymentTerms;
  /** The payment payload and the requirement it accepted, as sent to the facilitator (settled again when resolving). */
  payload: unknown;
  requirements: unknown;
  /** Fingerprint of the request (method, path, sorted query, format, body). */
  request: string;
  /** The X-Request-Id of the request that paid (its log line); null when not known (recorded before request ids). */
  requestId: string | null;
  /** The answer, kept while the settlement is unresolved and, once settled, for retries (bounded); null when dropped. */
  answer: KeptAnswer | null;
  transaction: string | null;
  /** ISO times. */
  createdAt: string;
  updatedAt: string;
}

/** One line of the revenue ledger: a settled payment, or one whose outcome is unknown. */
export interface LedgerRecord {
  /** ISO time of the settlement attempt (createdAt). */
  time: string;
  key: string;
  state: 'settled' | 'unknown' | 'pending';
  route: string;
  resource: string;
  network: string;
  payer: string;
  amount: string;
  asset: string;
  transaction: string | null;
  /** The X-Request-Id of the request that paid: joins the record to its log line; null when not known. */
  requestId: string | null;
}

export interface SettlementChange {
  state: Exclude<SettlementState, 'pending'>;
  /** The transaction, when known (settled). */
  transaction?: string | null;
  /** Headers the kept answer gains (lower-case names: the settlement's PAYMENT-RESPONSE); its body is never written again. */
  addHeaders?: Record<string, string>;
  updatedAt: string;
}

/** `begin` found the authorization key, or the payment id, already taken by another settlement. */
export class SettlementExistsError extends Error {
  constructor(readonly field: 'key' | 'paymentId') {
    super(`a settlement with this ${field === 'key' ? 'authorization' : 'payment identifier'} already exists`);
    this.name = 'SettlementExistsError';
  }
}

/** The store could not be reached or failed: the caller answers 503 and charges nothing. */
export class PaymentStoreUnavailableError extends Error {
  constructor(message: string, override readonly cause?: unknown) {
    super(message);
    this.name = 'PaymentStoreUnavailableError';
  }
}

export interface PaymentStoreStats {
  settlements: number;
  unresolved: number;
  /** Kept answers and their body bytes. */
  answers: number;
  answerBytes: number;
}

export interface PaymentStore {
  readonly kind: 'file' | 'postgres';
  /** Reads the files or runs the migrations; idempotent, safe when two replicas open at once. */
  open(): Promise<void>;
  close(): Promise<void>;
  /** Resolves when the store can be used now (readiness: /readyz); rejects with PaymentStoreUnavailableError otherwise. */
  ping(): Promise<void>;

  /** Takes the lock `name` for `ttlMs` unless another live lease holds it; true when taken. A lease lapses, so a crashed replica never holds a lock for ever. */
  tryLock(name: string, ttlMs: number, nowMs: number): Promise<boolean>;
  unlock(name: string): Promise<void>;

  /** Records a settlement about to be sent (state pending), durably. Rejects with SettlementExistsError when its key or payment id is taken. */
  begin(settlement: Settlement): Promise<void>;
  /** Moves a settlement out of pending/unknown (or unknown out of pending); `unpaid` also frees its payment id and drops its answer. */
  finish(key: string, change: SettlementChange): Promise<void>;
  byKey(key: string): Promise<Settlement | undefined>;
  byPaymentId(paymentId: string): Promise<Settlement | undefined>;
  /** Pending and unknown settlements, oldest first (`npm run payments -- reconcile`). */
  unresolved(): Promise<Settlement[]>;
  /** The revenue ledger: settled, unknown and pending settlements, oldest first (ties by key). */
  ledger(): Promise<LedgerRecord[]>;

  /** Remembers that a payload (its sha256) was refused, with the reason, until `validBefore` (unix seconds); bounded. */
  rememberRefusal(payloadHash: string, reason: string, validBefore: number): Promise<void>;
  /** The reason a payload was refused, while remembered (`nowSeconds` < its validBefore). */
  refusal(payloadHash: string, nowSeconds: number): Promise<string | undefined>;

  /** Adds one to the fixed-window counter `name` (window of `windowSeconds` containing nowMs) and returns the count (rate limits). */
  hit(name: string, windowSeconds: number, nowMs: number): Promise<number>;

  stats(): Promise<PaymentStoreStats>;
}
