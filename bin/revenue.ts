// `npm run revenue`: totals of the revenue ledger per day, route and network, over the settled
// payments; settlements whose outcome is not known yet (unknown, or still pending) are listed apart.
// The ledger is the PostgreSQL payment store's when DATABASE_URL is set, else the ledger file
// (REVENUE_LEDGER, default data/revenue/ledger.jsonl).
import type { RevenueRecord } from '../http/payments/ledger.ts';
import type { LedgerRecord } from '../http/payments/store/types.ts';
import { endQuietlyOnClosedPipe, exitWithHelpIfAsked } from './commandLine.ts';

exitWithHelpIfAsked(`usage: npm run revenue

Totals of the settled payments per day, route and network, and the settlements whose outcome is not
known yet. Reads the PostgreSQL payment store when DATABASE_URL is set, else the ledger file
REVENUE_LEDGER (default data/revenue/ledger.jsonl).`);
endQuietlyOnClosedPipe();

const { formatUsdc, revenueTotals } = await import('../http/payments/ledger.ts');
const { readLedgerFile } = await import('../http/payments/store/file.ts');
const { PostgresPaymentStore } = await import('../http/payments/store/postgres.ts');

async function readLedger(): Promise<{ source: string; records: LedgerRecord[] }> {
  const databaseUrl = process.env.DATABASE_URL?.trim();
  if (!databaseUrl) {
    const path = process.env.REVENUE_LEDGER?.trim() || 'data/revenue/ledger.jsonl';
    return { source: path, records: await readLedgerFile(path) };
  }
  // The answer bounds do not matter here: reading the ledger evicts nothing.
  const store = new PostgresPaymentStore({ connectionString: databaseUrl, maxAnswerBytes: 64 * 1024 * 1024, maxAnswerAgeSeconds: 24 * 60 * 60 });
  try {
    await store.open();
    return { source: `PostgreSQL at ${store.server}`, records: await store.ledger() };
  } finally {
    await store.close();
  }
}

let ledger: Awaited<ReturnType<typeof readLedger>>;
try {
  ledger = await readLedger();
} catch (error) {
  console.error(`revenue: ${(error as Error).message}`);
  process.exit(1);
}

const settled: RevenueRecord[] = ledger.records
  .filter((record) => record.state === 'settled')
  .map((record) => ({ ...record, transaction: record.transaction ?? '' }));
const open = ledger.records.filter((record) => record.state !== 'settled');

console.log(`revenue ledger ${ledger.source}: ${settled.length} settled payment(s), ${formatUsdc(settled.reduce((sum, r) => sum + BigInt(r.amount), 0n))} USDC`);

const views: Array<[string, (record: RevenueRecord) => string]> = [
  ['day', (record) => record.time.slice(0, 10)],
  ['route', (record) => record.route],
  ['network', (record) => record.network],
];
for (const [name, keyOf] of views) {
  console.log(`\nper ${name}`);
  const totals = revenueTotals(settled, keyOf);
  const width = Math.max(name.length, ...totals.map((t) => t.key.length));
  console.log(`  ${name.padEnd(width)}  payments  USDC`);
  for (const total of totals) console.log(`  ${total.key.padEnd(width)}  ${String(total.payments).padStart(8)}  ${formatUsdc(total.amount)}`);
}

if (open.length > 0) {
  // Not in the totals: the payer may or may not have paid until `reconcile` finds out.
  console.log(`\n${open.length} settlement(s) with an unknown outcome: run npm run payments -- reconcile`);
  for (const record of open) {
    console.log(`  ${record.time}  ${record.state.padEnd(7)}  ${record.network}  ${formatUsdc(BigInt(record.amount))} USDC  ${record.route}  ${record.key}`);
  }
}
