// The MCP server in remote mode, driven by the SDK's own client in-process: it calls a paid
// deployment (the app with payments on the in-process chain, through the local facilitator) and
// pays with the official x402 client. Charges are read from the token contract.
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { DEV_KEYS } from '../../devchain/chain.ts';
import { routes } from '../../domains/index.ts';
import { createMcpServer, localCaller, remoteCaller, type Caller } from '../../bin/mcpServer.ts';
import { atomicOf, usdOf } from '../../http/payments/assets.ts';
import { writeSebraSnapshot } from '../helpers/snapshot.ts';
import { fixtureDays, fixturePayments } from '../queries/sebra-fixture.ts';
import { FIXED_NOW, withoutRequestId } from '../helpers/app.ts';
import { devPaymentEnv, startPaidApp, startPaymentRig, type PaidApp, type PaymentRig } from '../helpers/payments.ts';

const PRICE = 10_000n;

let rig: PaymentRig;
let app: PaidApp;
let dataDir: string;
const clients: Client[] = [];
before(async () => {
  dataDir = await writeSebraSnapshot(fixturePayments, fixtureDays);
  rig = await startPaymentRig(dataDir);
  app = await startPaidApp({ db: rig.db, routes, env: devPaymentEnv(rig.chain, rig.facilitator.url) });
});
after(async () => {
  for (const client of clients) await client.close();
  await app?.close();
  await rig?.facilitator.stop();
  await rig?.db.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function connect(call: Caller, remote = true): Promise<Client> {
  const server = createMcpServer({ routes, call, remote });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(clientSide);
  clients.push(client);
  return client;
}

function remote(maxUsd: string, budgetUsd: string) {
  return remoteCaller({ baseUrl: app.base, payerKey: DEV_KEYS.payer, maxAtomic: atomicOf(maxUsd)!, budgetAtomic: atomicOf(budgetUsd)!, allowAsset: rig.chain.token });
}

const payerBalance = () => rig.chain.balanceOf(rig.chain.addresses.payer);
const settles = () => rig.facilitator.requests.filter((r) => r.path === '/settle').length;
type Result = Awaited<ReturnType<Client['callTool']>>;
const texts = (result: Result) => (result.content as Array<{ text: string }>).map((item) => item.text);

test('amounts: USD text <-> 6-decimal units', () => {
  assert.equal(atomicOf('0.01'), 10_000n);
  assert.equal(atomicOf('1'), 1_000_000n);
  assert.equal(atomicOf('0.0000001'), null);
  assert.equal(atomicOf('-1'), null);
  assert.equal(atomicOf('1e3'), null);
  assert.equal(usdOf(10_000n), '0.01');
  assert.equal(usdOf(1_500_000n), '1.5');
  assert.equal(usdOf(0n), '0');
});

describe('remote mode pays each call within the caps', () => {
  test('a paid call answers what the snapshot answers and says what was paid; the budget is never passed', async () => {
    const caller = remote('0.01', '0.02');
    const client = await connect(caller);
    const local = await connect(localCaller({ db: rig.db, routes, now: () => FIXED_NOW }), false);
    const before = await payerBalance();

    const first = await client.callTool({ name: 'getTaxonomyForYear', arguments: { year: 2024 } });
    assert.ok(!first.isError, texts(first).join('\n'));
    const expected = await local.callTool({ name: 'getTaxonomyForYear', arguments: { year: 2024 } });
    assert.equal(texts(first)[0], texts(expected)[0]);
    assert.deepEqual(first.structuredContent, expected.structuredContent);
    // The data origin the deployment's X-Data-Source header gave: the snapshot's own (local mode reads it there).
    assert.equal(typeof (first._meta as { data_source?: string }).data_source, 'string');
    assert.equal((first._meta as { data_source?: string }).data_source, (expected._meta as { data_source?: string }).data_source);
    assert.match(texts(first)[1], /^paid: 0\.01 USD \(10000 atomic units of 0x[0-9a-fA-F]{40}\) on eip155:31337, transaction 0x[0-9a-f]{64}; session total 0\.01 USD$/);
    const payment = (first._meta as { payment: { usd: string; atomic: string; payer: string; session_usd: string } }).payment;
    assert.deepEqual([payment.usd, payment.atomic, payment.session_usd, payment.payer.toLowerCase()], ['0.01', '10000', '0.01', rig.chain.addresses.payer.toLowerCase()]);
    assert.equal(await payerBalance(), before - PRICE);

    // The path form of the same operation; the second call fills the budget exactly.
    const second = await client.callTool({ name: 'getTaxonomyForYear', arguments: { year: 2024, currency: 'EUR' } });
    assert.ok(!second.isError, texts(second).join('\n'));
    assert.match(texts(second)[1], /session total 0\.02 USD$/);
    assert.equal(await payerBalance(), before - 2n * PRICE);

    // A third would pass the budget: a tool error, nothing signed, nothing charged.
    const settled = settles();
    const third = await client.callTool({ name: 'getTaxonomyForYear', arguments: { year: 2024 } });
    assert.equal(third.isError, true);
    const error = JSON.parse(texts(third)[0]);
    assert.equal(error.error.code, 'payment_refused');
    assert.match(error.error.message, /budget is exhausted: 0\.02 of --budget-usd 0\.02 spent, this call costs 0\.01 USD; nothing was paid/);
    assert.equal(texts(third)[1], 'paid: nothing');
    assert.equal(await payerBalance(), before - 2n * PRICE);
    assert.equal(settles(), settled);
    assert.equal(caller.spent(), 2n * PRICE);
  });

  test('a price above --max-usd is refused before signing: a tool error, nothing charged', async () => {
    const client = await connect(remote('0.005', '1'));
    const before = await payerBalance();
    const result = await client.callTool({ name: 'getTaxonomyForYear', arguments: { year: 2024 } });
    assert.equal(result.isError, true);
    assert.match(JSON.parse(texts(result)[0]).error.message, /the price 0\.01 USD is above --max-usd 0\.005; nothing was paid/);
    assert.equal(await payerBalance(), before);
  });

  test('concurrent calls with a budget for one: exactly one is paid', async () => {
    const client = await connect(remote('0.01', '0.01'));
    const before = await payerBalance();
    const results = await Promise.all([0, 1, 2].map(() => client.callTool({ name: 'getTaxonomyForYear', arguments: { year: 2024 } })));
    assert.equal(results.filter((r) => !r.isError).length, 1);
    assert.equal(results.filter((r) => r.isError).length, 2);
    assert.equal(await payerBalance(), before - PRICE);
  });

  test('the API\'s errors (400, 451) are tool errors with its JSON error, never charged', async () => {
    const client = await connect(remote('0.01', '1'));
    const before = await payerBalance();
    const invalid = await client.callTool({ name: 'getTaxonomyForYear', arguments: { year: 'abc' } });
    assert.equal(invalid.isError, true);
    const http = await (await app.request('/api/sebra/getTaxonomyForYear?year=abc')).json();
    // Each HTTP answer names its own request id (the tool's request is another one).
    assert.deepEqual(withoutRequestId(JSON.parse(texts(invalid)[0])), withoutRequestId(http));
    assert.equal(texts(invalid)[1], 'paid: nothing');
    // The reserve-bank series are not licensed in this snapshot: the gate refuses before any payment.
    const gated = routes.find((route) => route.gate)!;
    const refused = await client.callTool({ name: gated.id, arguments: {} });
    assert.equal(refused.isError, true);
    assert.equal(JSON.parse(texts(refused)[0]).error.status, gated.gate!.status);
    assert.equal(await payerBalance(), before);
  });

  test('an asset other than USDC or the allowed token is not paid: a tool error, nothing charged', async () => {
    const client = await connect(remoteCaller({ baseUrl: app.base, payerKey: DEV_KEYS.payer, maxAtomic: PRICE, budgetAtomic: PRICE }));
    const before = await payerBalance();
    const result = await client.callTool({ name: 'getTaxonomyForYear', arguments: { year: 2024 } });
    assert.equal(result.isError, true);
    const error = JSON.parse(texts(result)[0]).error;
    assert.equal(error.code, 'payment_refused');
    assert.match(error.message, /asks for no asset this client pays with/);
    assert.equal(await payerBalance(), before);
  });

  test('an unreachable deployment is a tool error, not a crash', async () => {
    const client = await connect(remoteCaller({ baseUrl: 'http://127.0.0.1:9', payerKey: DEV_KEYS.payer, maxAtomic: PRICE, budgetAtomic: PRICE }));
    const result = await client.callTool({ name: 'getTaxonomyForYear', arguments: { year: 2024 } });
    assert.equal(result.isError, true);
    assert.equal(JSON.parse(texts(result)[0]).error.code, 'remote_unavailable');
  });
});
