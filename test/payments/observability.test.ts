// A paid request seen by the operator (issue 34): its X-Request-Id is in its revenue ledger record and in
// its log line with the payer, network and transaction; payments are counted by outcome and the
// facilitator's calls timed. Paid on the in-process chain through the local facilitator.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { decodePaymentResponseHeader } from '@x402/core/http';
import { privateKeyToAccount } from 'viem/accounts';
import { DEV_KEYS, DEV_NETWORK } from '../../devchain/chain.ts';
import { routes } from '../../domains/index.ts';
import { createLogger } from '../../http/log.ts';
import { ServerMetrics } from '../../http/metrics.ts';
import { readRevenue } from '../../http/payments/ledger.ts';
import {
  challengeFor, devPaymentEnv, forgedPaymentHeader, officialPaymentHeader, payingFetch, startPaidApp, startPaymentRig, type PaidApp, type PaymentRig,
} from '../helpers/payments.ts';
import { writeSebraSnapshot } from '../helpers/snapshot.ts';
import { fixtureDays, fixturePayments } from '../queries/sebra-fixture.ts';
import { eventually } from '../helpers/eventually.ts';

const TAXONOMY = '/api/sebra/getTaxonomyForYear?year=2024';
type Line = Record<string, unknown>;

const lines: Line[] = [];
const destination = {
  write(text: string) {
    for (const line of text.split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Line);
  },
};
const metrics = new ServerMetrics();
let rig: PaymentRig;
let app: PaidApp;
before(async () => {
  rig = await startPaymentRig(await writeSebraSnapshot(fixturePayments, fixtureDays));
  app = await startPaidApp({ db: rig.db, routes, env: devPaymentEnv(rig.chain, rig.facilitator.url), observe: { logger: createLogger({ destination }), metrics } });
});
after(async () => {
  await app?.close();
  await rig?.facilitator.stop();
  await rig?.db.close();
});

const requestLine = (id: string) => eventually(() => {
  const found = lines.filter((line) => line.msg === 'request' && line.request_id === id);
  assert.equal(found.length, 1, `one request line for ${id}`);
  return found[0]!;
});

async function count(name: string, labels: Record<string, string>): Promise<number> {
  const metric = await metrics.registry.getSingleMetric(name)!.get();
  const value = metric.values.find((item) => Object.entries(labels).every(([key, label]) => item.labels[key] === label));
  return value?.value ?? 0;
}

test('a paid request\'s X-Request-Id joins its ledger record and its log line, which names the payer, network and transaction', async () => {
  const response = await payingFetch(DEV_KEYS.payer)(`${app.base}${TAXONOMY}`);
  assert.equal(response.status, 200);
  await response.arrayBuffer();
  const id = response.headers.get('x-request-id')!;
  assert.match(id, /^[0-9a-f-]{36}$/);
  const receipt = decodePaymentResponseHeader(response.headers.get('payment-response')!);
  const payer = privateKeyToAccount(DEV_KEYS.payer).address.toLowerCase();

  const ledger = await readRevenue(app.ledgerPath);
  const record = ledger.find((entry) => entry.requestId === id);
  assert.ok(record, `a ledger record with requestId ${id}: ${JSON.stringify(ledger)}`);
  assert.equal(record.transaction, receipt.transaction);
  assert.equal(record.payer, payer);
  const stored = (await app.payments.store()!.ledger()).find((entry) => entry.transaction === receipt.transaction);
  assert.equal(stored?.requestId, id, 'the store\'s ledger record names the request too');

  const line = await requestLine(id);
  assert.equal(line.route, 'getTaxonomyForYear');
  assert.equal(line.status, 200);
  assert.equal(line.payment, 'settled');
  assert.equal(line.payer, payer);
  assert.equal(line.network, DEV_NETWORK);
  assert.equal(line.transaction, receipt.transaction);
  assert.equal(line.cache_hit, false);
  assert.equal(await count('payments_total', { outcome: 'settled' }), 1);
  assert.equal(await count('payments_total', { outcome: 'verified' }), 1);
});

test('the challenge and a refused payment: their error bodies and lines name their ids; refusals are counted and logged', async () => {
  const unpaid = await app.request(TAXONOMY);
  assert.equal(unpaid.status, 402);
  const body = await unpaid.json();
  assert.equal(body.error.request_id, unpaid.headers.get('x-request-id'));
  assert.equal((await requestLine(body.error.request_id)).status, 402);

  const refusedBefore = await count('payments_total', { outcome: 'refused' });
  const forged = await forgedPaymentHeader(await challengeFor(app, TAXONOMY), { signerKey: DEV_KEYS.otherPayer });
  const refused = await app.request(TAXONOMY, { headers: { 'PAYMENT-SIGNATURE': forged } });
  assert.equal(refused.status, 402);
  const refusedId: string = (await refused.json()).error.request_id;
  assert.equal(refusedId, refused.headers.get('x-request-id'));
  assert.equal(await count('payments_total', { outcome: 'refused' }) - refusedBefore, 1);
  const event = lines.find((line) => line.event === 'payment_refused' && line.request_id === refusedId);
  assert.ok(event, 'a payment_refused event line with the request id');
  assert.equal(typeof event.reason, 'string');
  const line = await requestLine(refusedId);
  assert.equal(line.payer, undefined, 'a refused payment names no payer');
});

test('a retry with the same payment replays the paid answer: counted as replayed, logged with the first request\'s transaction', async () => {
  const header = await officialPaymentHeader(app, TAXONOMY);
  const first = await app.request(TAXONOMY, { headers: { 'PAYMENT-SIGNATURE': header } });
  assert.equal(first.status, 200);
  await first.arrayBuffer();
  const transaction = decodePaymentResponseHeader(first.headers.get('payment-response')!).transaction;
  const replayedBefore = await count('payments_total', { outcome: 'replayed' });
  const again = await app.request(TAXONOMY, { headers: { 'PAYMENT-SIGNATURE': header } });
  assert.equal(again.status, 200);
  await again.arrayBuffer();
  assert.notEqual(again.headers.get('x-request-id'), first.headers.get('x-request-id'));
  const line = await requestLine(again.headers.get('x-request-id')!);
  assert.equal(line.payment, 'replayed');
  assert.equal(line.transaction, transaction);
  assert.equal(await count('payments_total', { outcome: 'replayed' }) - replayedBefore, 1);
  // The ledger keeps the first request's id: one payment, one record.
  const records = (await readRevenue(app.ledgerPath)).filter((record) => record.transaction === transaction);
  assert.deepEqual(records.map((record) => record.requestId), [first.headers.get('x-request-id')]);
});

test('facilitator calls are timed by call: as many as the facilitator received', async () => {
  const histogram = await metrics.registry.getSingleMetric('facilitator_request_duration_seconds')!.get();
  const timed = (call: string) => histogram.values.find((item) => (item as { metricName?: string }).metricName === 'facilitator_request_duration_seconds_count' && item.labels.call === call)?.value ?? 0;
  const received = (path: string) => rig.facilitator.requests.filter((request) => request.path === path).length;
  for (const call of ['supported', 'verify', 'settle']) {
    assert.ok(received(`/${call}`) > 0, call);
    assert.equal(timed(call), received(`/${call}`), call);
  }
  // Three payments verified (two fresh ones and the forged one), two settled.
  assert.equal(received('/verify'), 3);
  assert.equal(await count('payments_total', { outcome: 'verified' }), 2);
});
