// Sample data is never passed off as real in what a paying client reads before it pays: with payments
// configured (the in-process chain and the local facilitator), on the generated sample the 402
// challenge's resource description (PAYMENT-REQUIRED and the JSON body's copy) and every item of
// /.well-known/x402 say sample data; the labelled challenge is still paid as it is, and the answer
// says sample in X-Data-Source. On a snapshot whose records say nothing of their origin the
// description is the route's summary alone.
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { DEV_KEYS } from '../../devchain/chain.ts';
import { routes } from '../../domains/index.ts';
import type { Database } from '../../engine/database.ts';
import { openSnapshot } from '../../http/openSnapshot.ts';
import type { TestApp } from '../helpers/app.ts';
import { devPaymentEnv, payingFetch, startPaidApp, startPaymentRig, type PaidApp, type PaymentRig } from '../helpers/payments.ts';
import { writeSebraSnapshot } from '../helpers/snapshot.ts';
import { startSampleApp } from '../http/sample-app.ts';
import { fixtureDays, fixturePayments } from '../queries/sebra-fixture.ts';

const PATH = '/api/sebra/getTaxonomyForYear/2024';
const SUMMARY = routes.find((route) => route.id === 'getTaxonomyForYear')!.summary;
const SAMPLE_WORDS = "sample data: invented by the project's sample generator, not published figures";

let sample: TestApp & { dataDir: string };
let rig: PaymentRig;
let paid: PaidApp;
let fixtureDir: string;
let fixtureDb: Database;
let fixturePaid: PaidApp;
before(async () => {
  sample = await startSampleApp('payments-sample-label-');
  rig = await startPaymentRig(sample.dataDir);
  paid = await startPaidApp({ db: rig.db, routes, env: devPaymentEnv(rig.chain, rig.facilitator.url) });
  fixtureDir = await writeSebraSnapshot(fixturePayments, fixtureDays);
  // Nothing is paid on the fixture: its app shares the sample's chain and facilitator.
  fixtureDb = await openSnapshot(fixtureDir);
  fixturePaid = await startPaidApp({ db: fixtureDb, routes, env: devPaymentEnv(rig.chain, rig.facilitator.url) });
});
after(async () => {
  await paid?.close();
  await fixturePaid?.close();
  await rig?.facilitator.stop();
  await rig?.db.close();
  await fixtureDb?.close();
  await sample?.close();
  if (fixtureDir) await rm(fixtureDir, { recursive: true, force: true });
});

describe('on the generated sample', () => {
  test('the 402 challenge says sample data, in the header and in the body', async () => {
    const response = await paid.request(PATH);
    assert.equal(response.status, 402);
    const header = decodePaymentRequiredHeader(response.headers.get('payment-required')!);
    assert.equal(header.resource.description, `${SUMMARY} (${SAMPLE_WORDS})`);
    const body = await response.json() as { challenge: { resource: { description: string } } };
    assert.equal(body.challenge.resource.description, header.resource.description);
  });

  test('the labelled challenge is paid as it is; the answer says sample', async () => {
    const response = await payingFetch(DEV_KEYS.payer)(paid.base + PATH);
    assert.equal(response.status, 200, await response.clone().text());
    assert.equal(response.headers.get('X-Data-Source'), 'sample');
    assert.ok(response.headers.get('payment-response'));
  });

  test('/.well-known/x402 says sample in every item and in its instructions', async () => {
    const response = await paid.request('/.well-known/x402');
    assert.equal(response.status, 200);
    const discovery = await response.json() as { instructions: string; items: Array<{ description: string }> };
    const summaries = new Set(routes.filter((route) => route.paid).map((route) => route.summary));
    assert.ok(discovery.items.length > 0);
    for (const item of discovery.items) {
      assert.ok(item.description.endsWith(` (${SAMPLE_WORDS})`), item.description);
      assert.ok(summaries.has(item.description.slice(0, -` (${SAMPLE_WORDS})`.length)), item.description);
    }
    assert.match(discovery.instructions, /\*\*Sample data: invented by the project's sample generator, not published figures\*\*/);
  });
});

describe('on data that do not say they are samples', () => {
  test('the challenge and discovery describe the route by its summary alone', async () => {
    const response = await fixturePaid.request(PATH);
    assert.equal(response.status, 402);
    assert.equal(decodePaymentRequiredHeader(response.headers.get('payment-required')!).resource.description, SUMMARY);
    const discovery = await (await fixturePaid.request('/.well-known/x402')).json() as { instructions: string; items: Array<{ description: string }> };
    const summaries = new Set(routes.filter((route) => route.paid).map((route) => route.summary));
    for (const item of discovery.items) assert.ok(summaries.has(item.description), item.description);
    assert.doesNotMatch(discovery.instructions, /sample data/i);
  });
});
