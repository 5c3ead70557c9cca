// `npm run revenue` over the payment store's ledger: settled payments in the totals, settlements
// whose outcome is not known yet listed apart; from the ledger file, old lines included, and from
// PostgreSQL when DATABASE_URL is set (a scratch database, skipped without a server outside CI).
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FilePaymentStore } from '../../http/payments/store/file.ts';
import { PostgresPaymentStore } from '../../http/payments/store/postgres.ts';
import type { PaymentStore, Settlement } from '../../http/payments/store/types.ts';
import { runCli } from '../helpers/cli.ts';
import { postgresSkipReason, scratchPostgres, type ScratchPostgres } from '../helpers/postgres.ts';
import { tempDirUntilExit } from '../helpers/tmp.ts';

const PAYER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';

function settlement(name: string, createdAt: string, network: string, amount: string): Settlement {
  return {
    key: `${PAYER}:0x${name}`, paymentId: null, state: 'pending', validBefore: 1_900_000_000, route: 'getTaxonomyForYear',
    resource: `/api/sebra/getTaxonomyForYear?year=2024&n=${name}`, terms: { payer: PAYER, network, asset: '0xusdc', payTo: '0xpayto', amount },
    payload: {}, requirements: {}, request: `fingerprint-of-${name}`, requestId: null, answer: null, transaction: null, createdAt, updatedAt: createdAt,
  };
}

/** Settles a and b, leaves c unknown and d pending, e unpaid: 0.030000 USDC settled, two to reconcile. */
async function fillLedger(store: PaymentStore): Promise<void> {
  const all = [
    settlement('a', '2026-11-21T10:00:00.000Z', 'eip155:8453', '10000'),
    settlement('b', '2026-11-22T10:00:00.000Z', 'eip155:137', '20000'),
    settlement('c', '2026-11-22T11:00:00.000Z', 'eip155:8453', '10000'),
    settlement('d', '2026-11-22T12:00:00.000Z', 'eip155:8453', '10000'),
    settlement('e', '2026-11-22T13:00:00.000Z', 'eip155:8453', '10000'),
  ];
  for (const s of all) await store.begin(s);
  const later = '2026-11-22T14:00:00.000Z';
  await store.finish(all[0]!.key, { state: 'settled', transaction: '0xtx-a', updatedAt: later });
  await store.finish(all[1]!.key, { state: 'settled', transaction: '0xtx-b', updatedAt: later });
  await store.finish(all[2]!.key, { state: 'unknown', updatedAt: later });
  await store.finish(all[4]!.key, { state: 'unpaid', updatedAt: later });
}

/** The report of fillLedger's payments; the pending one is listed only from PostgreSQL (the file has no line for it yet). */
function assertReport(output: string, pendingListed: boolean): void {
  assert.match(output, /: 2 settled payment\(s\), 0\.030000 USDC/);
  assert.match(output, /2026-11-21\s+1\s+0\.010000/);
  assert.match(output, /2026-11-22\s+1\s+0\.020000/);
  assert.match(output, /eip155:137\s+1\s+0\.020000/);
  assert.match(output, /eip155:8453\s+1\s+0\.010000/);
  assert.match(output, new RegExp(`^${pendingListed ? 2 : 1} settlement\\(s\\) with an unknown outcome: run npm run payments -- reconcile$`, 'm'));
  assert.match(output, /2026-11-22T11:00:00\.000Z\s+unknown\s+eip155:8453\s+0\.010000 USDC\s+getTaxonomyForYear\s+\S+:0xc$/m);
  if (pendingListed) assert.match(output, /2026-11-22T12:00:00\.000Z\s+pending\s.*:0xd$/m);
  else assert.doesNotMatch(output, /:0xd\b/);
  assert.doesNotMatch(output, /:0xe\b/, 'unpaid: neither in the totals nor to reconcile');
}

test('from the ledger file: old lines count as settled, an unknown outcome is listed apart and counted once it is settled', async () => {
  const file = path.join(await tempDirUntilExit('revenue-store-'), 'ledger.jsonl');
  const line = (fields: Record<string, unknown>) => JSON.stringify({ route: 'getTaxonomyForYear', resource: '/api/x', network: 'eip155:8453', payer: PAYER, amount: '10000', asset: '0xusdc', ...fields });
  await writeFile(file, [
    line({ time: '2026-11-20T09:00:00.000Z', transaction: '0xold' }), // written before the payment store: no key, no state
    line({ time: '2026-11-21T09:00:00.000Z', key: 'k1', state: 'unknown', transaction: null }),
    line({ time: '2026-11-21T10:00:00.000Z', key: 'k2', state: 'unknown', transaction: null }),
    line({ time: '2026-11-21T10:00:00.000Z', key: 'k2', state: 'settled', transaction: '0xtx-k2' }),
    line({ time: '2026-11-21T11:00:00.000Z', key: 'k3', state: 'unknown', transaction: null }),
    line({ time: '2026-11-21T11:00:00.000Z', key: 'k3', state: 'unpaid', transaction: null }),
  ].join('\n') + '\n');
  const { code, stdout } = await runCli('bin/revenue.ts', [], { REVENUE_LEDGER: file, DATABASE_URL: '' });
  assert.equal(code, 0);
  assert.match(stdout, new RegExp(`revenue ledger ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: 2 settled payment\\(s\\), 0\\.020000 USDC`));
  assert.match(stdout, /^1 settlement\(s\) with an unknown outcome: run npm run payments -- reconcile$/m);
  assert.match(stdout, /2026-11-21T09:00:00\.000Z\s+unknown\s.*\sk1$/m);
  assert.doesNotMatch(stdout, /k3/);
});

test('from the ledger file the file store writes', async () => {
  const folder = await tempDirUntilExit('revenue-file-store-');
  const ledgerPath = path.join(folder, 'ledger.jsonl');
  const store = new FilePaymentStore({ settlementsPath: path.join(folder, 'settlements.jsonl'), ledgerPath, maxAnswerBytes: 1_000_000, maxAnswerAgeSeconds: 3600 });
  await store.open();
  try {
    await fillLedger(store);
  } finally {
    await store.close();
  }
  const { code, stdout, stderr } = await runCli('bin/revenue.ts', [], { REVENUE_LEDGER: ledgerPath, DATABASE_URL: '' });
  assert.equal(code, 0, stderr);
  assertReport(stdout, false);
});

const postgresSkip = await postgresSkipReason();

describe('from PostgreSQL (DATABASE_URL)', { skip: postgresSkip }, () => {
  let db: ScratchPostgres | undefined;
  before(async () => {
    db = await scratchPostgres();
  });
  after(async () => {
    await db?.drop();
  });

  test('the store\'s ledger: settled totals, the unknown and pending ones to reconcile, the unpaid one nowhere', async () => {
    const store = new PostgresPaymentStore({ connectionString: db!.url, maxAnswerBytes: 1_000_000, maxAnswerAgeSeconds: 3600 });
    await store.open();
    try {
      await fillLedger(store);
    } finally {
      await store.close();
    }
    const { code, stdout, stderr } = await runCli('bin/revenue.ts', [], { DATABASE_URL: db!.url, REVENUE_LEDGER: '/nonexistent/ledger.jsonl' });
    assert.equal(code, 0, stderr);
    assert.match(stdout, new RegExp(`^revenue ledger PostgreSQL at 127\\.0\\.0\\.1:5432/pds_test_\\w+: `));
    assertReport(stdout, true);
  });

  test('an unreachable server: exit code 1 and one line naming the host, never the password', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const { code, stdout, stderr } = await runCli('bin/revenue.ts', [], { DATABASE_URL: `postgres://postgres:secret-password-2@127.0.0.1:${port}/payments` });
    assert.equal(code, 1);
    assert.equal(stdout, '');
    assert.match(stderr, new RegExp(`^revenue: payment store: PostgreSQL at 127\\.0\\.0\\.1:${port}/payments cannot be used`));
    assert.doesNotMatch(stderr, /secret-password-2/);
  });
});
