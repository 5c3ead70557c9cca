// The revenue ledger: one JSON line per settled payment, appended and fsynced before the paid answer
// leaves. A crash mid-write can leave at most a torn last line; readers skip it and the next append
// starts on a fresh line, so every complete record survives restarts.
import { readFile } from 'node:fs/promises';
import { DurableLineWriter } from './jsonLines.ts';

export interface RevenueRecord {
  /** ISO timestamp of the settlement. */
  time: string;
  /** Catalog operation id. */
  route: string;
  /** The request path and query that was paid for. */
  resource: string;
  network: string;
  payer: string;
  /** Atomic units of the asset (USDC: 6 decimals). */
  amount: string;
  asset: string;
  transaction: string;
}

export class RevenueLedger {
  private readonly lines: DurableLineWriter;

  constructor(readonly path: string) {
    this.lines = new DurableLineWriter(path);
  }

  /** Appends one record durably; appends are serialised in call order (concurrent ones share an fsync). */
  async append(record: RevenueRecord): Promise<void> {
    await this.lines.append(`${JSON.stringify(record)}\n`);
  }
}

/** Every complete record of a ledger file ([] when there is none); torn lines are skipped. */
export async function readRevenue(path: string): Promise<RevenueRecord[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const records: RevenueRecord[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const record = JSON.parse(line) as RevenueRecord;
      if (typeof record.time === 'string' && typeof record.amount === 'string') records.push(record);
    } catch {
      // a torn line from an interrupted write
    }
  }
  return records;
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
