// `npm run revenue`: totals of the revenue ledger per day, route and network.
import { formatUsdc, readRevenue, revenueTotals, type RevenueRecord } from '../http/payments/ledger.ts';

const path = process.env.REVENUE_LEDGER?.trim() || 'data/revenue/ledger.jsonl';
const records = await readRevenue(path);
console.log(`revenue ledger ${path}: ${records.length} settled payment(s), ${formatUsdc(records.reduce((sum, r) => sum + BigInt(r.amount), 0n))} USDC`);

const views: Array<[string, (record: RevenueRecord) => string]> = [
  ['day', (record) => record.time.slice(0, 10)],
  ['route', (record) => record.route],
  ['network', (record) => record.network],
];
for (const [name, keyOf] of views) {
  console.log(`\nper ${name}`);
  const totals = revenueTotals(records, keyOf);
  const width = Math.max(name.length, ...totals.map((t) => t.key.length));
  console.log(`  ${name.padEnd(width)}  payments  USDC`);
  for (const total of totals) console.log(`  ${total.key.padEnd(width)}  ${String(total.payments).padStart(8)}  ${formatUsdc(total.amount)}`);
}
