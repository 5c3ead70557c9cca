// The product analyzer through the paid path (local chain, local facilitator, the official client):
// every refused body (400, 413, 415) is answered before any payment is looked at, even when a valid
// payment is attached: no verify, no settle, balances and ledger unchanged. A valid body without
// payment gets the 402 whose discovery extension describes the JSON body; with payment, a 200.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import { x402HTTPClient } from '@x402/core/client';
import { DEV_KEYS } from '../../devchain/chain.ts';
import { readRevenue } from '../../http/payments/ledger.ts';
import { PRODUCT_EXAMPLE_BODIES, analyzeProductRoute } from '../../domains/product/queries/analyze.ts';
import { devPaymentEnv, officialClient, payingFetch, startPaidApp, startPaymentRig, type PaidApp, type PaymentRig } from '../helpers/payments.ts';

const PATH = '/api/v1/product/analyze';
const VALID = JSON.stringify(PRODUCT_EXAMPLE_BODIES[0]);

let rig: PaymentRig;
let app: PaidApp;
let dataDir: string;

before(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'product-paid-'));
  rig = await startPaymentRig(dataDir);
  app = await startPaidApp({ db: rig.db, routes: [analyzeProductRoute], env: devPaymentEnv(rig.chain, rig.facilitator.url) });
});

after(async () => {
  await app?.close();
  await rig?.facilitator.stop();
  await rig?.db.close();
  await rm(dataDir, { recursive: true, force: true });
});

const post = (body: string, headers: Record<string, string> = {}, contentType: string | null = 'application/json') =>
  app.request(PATH, { method: 'POST', headers: { ...(contentType ? { 'Content-Type': contentType } : {}), ...headers }, body });

async function paymentHeader(): Promise<string> {
  const unpaid = await post(VALID);
  assert.equal(unpaid.status, 402);
  const client = new x402HTTPClient(officialClient(DEV_KEYS.payer));
  const payload = await client.createPaymentPayload(decodePaymentRequiredHeader(unpaid.headers.get('payment-required')!));
  return client.encodePaymentSignatureHeader(payload)['PAYMENT-SIGNATURE']!;
}

const facilitatorCalls = () => rig.facilitator.requests.filter((r) => r.path === '/verify' || r.path === '/settle').length;

const REFUSED: ReadonlyArray<[string, string, string | null, number, string]> = [
  ['no content type', VALID, null, 415, 'unsupported_media_type'],
  ['text/plain', VALID, 'text/plain', 415, 'unsupported_media_type'],
  ['over 64 KiB', JSON.stringify({ ...(PRODUCT_EXAMPLE_BODIES[0] as object), description: 'x'.repeat(70_000) }), 'application/json', 413, 'payload_too_large'],
  ['malformed JSON', '{"title":', 'application/json', 400, 'invalid_parameter'],
  ['not an object', '[1,2]', 'application/json', 400, 'invalid_parameter'],
  ['missing title', JSON.stringify({ description: 'd' }), 'application/json', 400, 'invalid_parameter'],
  ['blank description', JSON.stringify({ title: 't', description: ' ' }), 'application/json', 400, 'invalid_parameter'],
  ['negative price', JSON.stringify({ title: 't', description: 'd', price: -5 }), 'application/json', 400, 'invalid_parameter'],
  ['currency not ISO 4217', JSON.stringify({ title: 't', description: 'd', currency: 'ABC' }), 'application/json', 400, 'invalid_parameter'],
  ['sku a number', JSON.stringify({ title: 't', description: 'd', sku: 7 }), 'application/json', 400, 'invalid_parameter'],
  ['unknown field', JSON.stringify({ title: 't', description: 'd', color: 'red' }), 'application/json', 400, 'invalid_parameter'],
];

describe('refused bodies are never charged', () => {
  for (const [name, body, contentType, status, code] of REFUSED) {
    test(`${name}: ${status} before the payment check, with and without a payment`, async () => {
      const header = await paymentHeader();
      const balanceBefore = await rig.chain.balanceOf(rig.chain.addresses.payer);
      const ledgerBefore = (await readRevenue(app.ledgerPath)).length;
      const callsBefore = facilitatorCalls();
      for (const headers of [{}, { 'PAYMENT-SIGNATURE': header }] as Array<Record<string, string>>) {
        const response = await post(body, headers, contentType);
        const text = await response.text();
        assert.equal(response.status, status, text);
        assert.equal(JSON.parse(text).error.code, code);
        assert.equal(response.headers.get('payment-required'), null);
        assert.equal(response.headers.get('payment-response'), null);
      }
      assert.equal(facilitatorCalls(), callsBefore, 'the facilitator was not asked');
      assert.equal(await rig.chain.balanceOf(rig.chain.addresses.payer), balanceBefore);
      assert.equal((await readRevenue(app.ledgerPath)).length, ledgerBefore);
    });
  }
});

describe('a valid body', () => {
  test('unpaid: 402 whose bazaar extension describes the JSON body', async () => {
    const response = await post(VALID);
    assert.equal(response.status, 402);
    const challenge = decodePaymentRequiredHeader(response.headers.get('payment-required')!);
    const bazaar = (challenge.extensions as Record<string, any>).bazaar;
    assert.equal(bazaar.info.input.type, 'http');
    assert.equal(bazaar.info.input.method, 'POST');
    assert.equal(bazaar.info.input.bodyType, 'json');
    assert.deepEqual(bazaar.info.input.body, PRODUCT_EXAMPLE_BODIES[0]);
    assert.deepEqual(bazaar.schema.properties.input.properties.body.required, ['title', 'description']);
    assert.equal(bazaar.schema.properties.input.properties.body.additionalProperties, false);
  });

  test('/.well-known/x402 describes the body exactly as the 402 challenge does', async () => {
    const discovery = await (await app.request('/.well-known/x402')).json();
    const item = discovery.items.find((candidate: { resource: string }) => candidate.resource.endsWith(PATH));
    const input = item.extensions.bazaar.info.input;
    const response = await post(JSON.stringify(input.body));
    assert.equal(response.status, 402);
    const challenge = decodePaymentRequiredHeader(response.headers.get('payment-required')!);
    assert.deepEqual(item.extensions.bazaar.info, (challenge.extensions as Record<string, any>).bazaar.info);
  });

  test('paid with the official client: 200, the receipt, one ledger line', async () => {
    const ledgerBefore = (await readRevenue(app.ledgerPath)).length;
    const response = await payingFetch(DEV_KEYS.payer)(app.base + PATH, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: VALID });
    const body = await response.json();
    assert.equal(response.status, 200, JSON.stringify(body));
    assert.equal(body.endpoint, 'product_analyze');
    assert.equal(decodePaymentResponseHeader(response.headers.get('payment-response')!).success, true);
    const ledger = await readRevenue(app.ledgerPath);
    assert.equal(ledger.length, ledgerBefore + 1);
    assert.equal(ledger.at(-1)!.route, 'analyzeProduct');
  });
});
