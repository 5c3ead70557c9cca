// HEAD on a paid route with payments configured: answered like GET without a body (402 and the
// challenge headers when unpaid), never a 5xx.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { routes } from '../../domains/index.ts';
import { writeSebraSnapshot } from '../helpers/snapshot.ts';
import { fixtureDays, fixturePayments } from '../queries/sebra-fixture.ts';
import { devPaymentEnv, officialPaymentHeader, startPaidApp, startPaymentRig, type PaidApp, type PaymentRig } from '../helpers/payments.ts';

const TAXONOMY = '/api/sebra/getTaxonomyForYear?year=2024';

let rig: PaymentRig;
let app: PaidApp;
before(async () => {
  rig = await startPaymentRig(await writeSebraSnapshot(fixturePayments, fixtureDays));
  app = await startPaidApp({ db: rig.db, routes, env: devPaymentEnv(rig.chain, rig.facilitator.url) });
});
after(async () => {
  await app?.close();
  await rig?.facilitator.stop();
  await rig?.db.close();
});

test('HEAD on a paid route without payment: 402 with the challenge headers of GET, no body', async () => {
  const get = await app.request(TAXONOMY);
  assert.equal(get.status, 402);
  await get.arrayBuffer();
  const head = await app.request(TAXONOMY, { method: 'HEAD' });
  assert.equal(head.status, 402);
  assert.equal((await head.arrayBuffer()).byteLength, 0);
  const challenge = head.headers.get('payment-required');
  assert.ok(challenge, 'HEAD carries PAYMENT-REQUIRED');
  const fromHead = decodePaymentRequiredHeader(challenge);
  const fromGet = decodePaymentRequiredHeader(get.headers.get('payment-required')!);
  assert.deepEqual(fromHead.accepts, fromGet.accepts);
  assert.equal(head.headers.get('cache-control'), get.headers.get('cache-control'));
  assert.equal(head.headers.get('content-type'), get.headers.get('content-type'));
  assert.equal(get.headers.get('etag'), null);
  const conditional = await app.request(TAXONOMY, { headers: { 'If-None-Match': '*' } });
  assert.equal(conditional.status, 402);
});

test('HEAD on a paid route with a malformed payment: the same 400 as GET, no 5xx', async () => {
  const init = { headers: { 'PAYMENT-SIGNATURE': 'not-base64!' } };
  const get = await app.request(TAXONOMY, init);
  await get.arrayBuffer();
  const head = await app.request(TAXONOMY, { ...init, method: 'HEAD' });
  assert.equal(head.status, get.status);
  assert.ok(head.status < 500);
});

test('a paid HEAD is charged once and its answer is fetched by GET with the same payment', async () => {
  const signature = await officialPaymentHeader(app, TAXONOMY);
  const before = await rig.chain.balanceOf(rig.chain.addresses.payer);
  const head = await app.request(TAXONOMY, { method: 'HEAD', headers: { 'PAYMENT-SIGNATURE': signature } });
  assert.equal(head.status, 200);
  assert.equal((await head.arrayBuffer()).byteLength, 0);
  assert.ok(head.headers.get('payment-response'), 'the settlement receipt');
  const get = await app.request(TAXONOMY, { headers: { 'PAYMENT-SIGNATURE': signature } });
  assert.equal(get.status, 200);
  // A paid answer has no 304 shortcut: no ETag, and If-None-Match does not spare the payment.
  assert.equal(get.headers.get('etag'), null);
  const body = await get.json();
  assert.equal(typeof body, 'object');
  assert.match(get.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(before - (await rig.chain.balanceOf(rig.chain.addresses.payer)), 10_000n, 'one charge of USD 0.01');
});
