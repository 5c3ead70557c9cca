// What both payment stores agree on: which settlements `begin` and `finish` accept, what `finish`
// makes of a settlement, and the revenue-ledger record a settlement stands for.
import type { LedgerRecord, Settlement, SettlementChange, SettlementState } from './types.ts';

/** `begin` records settlements about to be sent, nothing else. */
export function checkBegin(settlement: Settlement): void {
  if (settlement.state !== 'pending') throw new Error(`payment store: begin records pending settlements (got ${settlement.state} for ${settlement.key})`);
}

/** Only a pending or unknown settlement moves; `current` is undefined when there is no settlement with that key. */
export function checkFinish(key: string, current: SettlementState | undefined): void {
  if (current === undefined) throw new Error(`payment store: no settlement with the key ${key} to finish`);
  if (current !== 'pending' && current !== 'unknown') throw new Error(`payment store: the settlement ${key} is already ${current}`);
}

/**
 * The settlement after `change` (not checked: replaying a journal applies what was recorded).
 * An omitted transaction or answer stays as it is; unpaid drops the answer and frees the payment id.
 */
export function finished(current: Settlement, change: SettlementChange): Settlement {
  const next: Settlement = {
    ...current,
    state: change.state,
    transaction: change.transaction === undefined ? current.transaction : change.transaction,
    answer: current.answer && change.addHeaders ? { ...current.answer, headers: { ...current.answer.headers, ...change.addHeaders } } : current.answer,
    updatedAt: change.updatedAt,
  };
  if (change.state === 'unpaid') {
    next.answer = null;
    next.paymentId = null;
  }
  return next;
}

export function ledgerRecordOf(settlement: Settlement): LedgerRecord {
  if (settlement.state === 'unpaid') throw new Error(`payment store: an unpaid settlement (${settlement.key}) has no ledger record`);
  const { terms } = settlement;
  return {
    time: settlement.createdAt,
    key: settlement.key,
    state: settlement.state,
    route: settlement.route,
    resource: settlement.resource,
    network: terms.network,
    payer: terms.payer,
    amount: terms.amount,
    asset: terms.asset,
    transaction: settlement.transaction,
    requestId: settlement.requestId,
  };
}

/** Oldest first, ties by key (the order of `ledger()` and `unresolved()`). */
export function byTimeThenKey(a: { time: string; key: string }, b: { time: string; key: string }): number {
  const at = Date.parse(a.time);
  const bt = Date.parse(b.time);
  if (at !== bt) return at - bt;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}
