// The revenue ledger as `npm run revenue` reads it: the settled payments and their totals. The payment
// store writes it (store/file.ts: a JSON line per settlement that becomes settled or unknown, fsynced
// before the answer leaves; store/postgres.ts: the settlements table).
import { readLedgerFile } from './store/file.ts';
import type { LedgerRecord } from './store/types.ts';

/** A settled payment as `npm run revenue` totals it: a ledger record whose transaction is known ('' when only the authorization's use was learnt). */
export type RevenueRecord = Omit<LedgerRecord, 'key' | 'state' | 'transaction'> & { transaction: string };

/** The settled payments of a ledger file, one per payment ([] when there is none); torn lines are skipped. */
export async function readRevenue(path: string): Promise<RevenueRecord[]> {
  const records = await readLedgerFile(path);
  return records
    .filter((record) => record.state === 'settled')
    .map(({ time, route, resource, network, payer, amount, asset, transaction, requestId }) => ({ time, route, resource, network, payer, amount, asset, transaction: transaction ?? '', requestId }));
}

export interface RevenueTotal {
  key: string;
  payments: number;
  /** Sum of atomic units. */
  amount: bigint;
}

/** Totals per key (day, route or network), sorted by key. */
export function revenueTotals(records: readonly RevenueRecord[], keyOf: (record: RevenueRecord) => string): RevenueTotal[] {
  const totals = new Map<string, RevenueTotal>();
  for (const record of records) {
    const key = keyOf(record);
    const total = totals.get(key) ?? { key, payments: 0, amount: 0n };
    total.payments += 1;
    total.amount += BigInt(record.amount);
    totals.set(key, total);
  }
  return [...totals.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Atomic USDC units as a decimal string: 10000n -> "0.010000". */
export function formatUsdc(amount: bigint): string {
  const negative = amount < 0n;
  const digits = (negative ? -amount : amount).toString().padStart(7, '0');
  return `${negative ? '-' : ''}${digits.slice(0, -6)}.${digits.slice(-6)}`;
}
