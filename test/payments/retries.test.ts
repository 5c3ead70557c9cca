// Safe paid retries (x402 `payment-identifier` extension) end to end on loopback: the official
// client (@x402/fetch, the id added with the package's appendPaymentIdentifierToExtensions in an
// onBeforePaymentCreation hook, as the x402 examples do) pays through the local facilitator on the
// in-process chain. A loopback proxy drops the connection after the server settled, so the client
// never sees its paid answer; the retry with the same id must be answered from the store of settled
// answers: one charge on the chain, the same body and the original PAYMENT-RESPONSE.
import assert from 'node:assert/strict';
import { request as httpRequest, createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import { x402HTTPClient } from '@x402/core/client';
import type { PaymentRequired } from '@x402/core/types';
import { generatePaymentId, PAYMENT_IDENTIFIER } from '@x402/extensions/payment-identifier';
import { DEV_KEYS } from '../../devchain/chain.ts';
import { routes } from '../../domains/index.ts';
import { readRevenue } from '../../http/payments/ledger.ts';
import { writeSebraSnapshot } from '../helpers/snapshot.ts';
import { fixtureDays, fixturePayments } from '../queries/sebra-fixture.ts';
import { clientWithId, devPaymentEnv, fetchWithId, officialClient, startPaidApp, startPaymentRig, type PaidApp, type PaymentRig } from '../helpers/payments.ts';

const PRICE = 10_000n;
const TAXONOMY = '/api/sebra/getTaxonomyForYear?year=2024';

let rig: PaymentRig;
let app: PaidApp;
before(async () => {
  rig = await startPaymentRig(await writeSebraSnapshot(fixturePayments, fixtureDays));
  app = await startPaidApp({ db: rig.db, routes, env: devPaymentEnv(rig.chain, rig.facilitator.url) });
});
after(async () => {
  await app?.close();
  if (app) await rm(dirname(app.ledgerPath), { recursive: true, force: true });
  await rig?.facilitator.stop();
  await rig?.db.close();
});

const payerBalance = () => rig.chain.balanceOf(rig.chain.addresses.payer);
const otherPayerBalance = () => rig.chain.balanceOf(rig.chain.addresses.otherPayer);
const facilitatorCalls = (path: '/verify' | '/settle') => rig.facilitator.requests.filter((r) => r.path === path).length;

interface Captured {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A loopback HTTP proxy in front of the app. With `dropNextPaidAnswer` set, it reads the next
 * answer that carries PAYMENT-RESPONSE in full (the server has settled by then), keeps it in
 * `dropped`, and destroys the client's connection instead of forwarding it.
 */
async function startDroppingProxy(target: string): Promise<{ url: string; dropNextPaidAnswer: boolean; dropped: Captured[]; close(): Promise<void> }> {
  const state = { dropNextPaidAnswer: false, dropped: [] as Captured[] };
  const server: Server = createServer((incoming, outgoing) => {
    const upstream = httpRequest(`${target}${incoming.url}`, { method: incoming.method, headers: incoming.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const body = Buffer.concat(chunks);
        if (state.dropNextPaidAnswer && answer.headers['payment-response']) {
          state.dropNextPaidAnswer = false;
          // The body as the client would read it: decoded from the coding the server chose (br, gzip).
          state.dropped.push({ status: answer.statusCode!, headers: answer.headers, body: decoded(body, answer.headers['content-encoding']) });
          incoming.socket.destroy();
          return;
        }
        const headers = { ...answer.headers };
        delete headers['transfer-encoding'];
        headers['content-length'] = String(body.length);
        outgoing.writeHead(answer.statusCode!, headers);
        outgoing.end(body);
      });
    });
    upstream.on('error', () => incoming.socket.destroy());
    incoming.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(state, {
    url,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  });
}

function decoded(body: Buffer, coding: string | undefined): Buffer {
  if (coding === 'br') return brotliDecompressSync(body);
  if (coding === 'gzip') return gunzipSync(body);
  assert.equal(coding, undefined, `a coding the test reads: ${coding}`);
  return body;
}

async function errorOf(response: Response): Promise<{ status: number; code: string; param?: string | null }> {
  const body = await response.json();
  return { status: body.error.status, code: body.error.code, param: body.error.param };
}

describe('the challenge', () => {
  test('advertises the payment-identifier extension (optional id of 16 to 128 characters)', async () => {
    const response = await app.request(TAXONOMY);
    assert.equal(response.status, 402);
    const challenge = decodePaymentRequiredHeader(response.headers.get('payment-required')!);
    const extension = challenge.extensions![PAYMENT_IDENTIFIER] as { info: Record<string, unknown>; schema: any };
    assert.deepEqual(extension.info, { required: false });
    assert.equal(extension.schema.properties.id.minLength, 16);
    assert.equal(extension.schema.properties.id.maxLength, 128);
    assert.ok(challenge.extensions!.bazaar, 'the discovery extension is still there');
  });
});

describe('retrying a paid request with the same payment identifier', () => {
  test('the connection drops after settlement: the retry gets the same answer and the payer is charged once', async () => {
    const proxy = await startDroppingProxy(app.base);
    try {
      const id = generatePaymentId();
      const paying = fetchWithId(DEV_KEYS.payer, id);
      const start = await payerBalance();
      const ledgerStart = (await readRevenue(app.ledgerPath)).length;
      const [verifies, settles] = [facilitatorCalls('/verify'), facilitatorCalls('/settle')];

      proxy.dropNextPaidAnswer = true;
      await assert.rejects(paying(`${proxy.url}${TAXONOMY}`), 'the paid answer never reaches the client');
      assert.equal(proxy.dropped.length, 1);
      const original = proxy.dropped[0]!;
      assert.equal(original.status, 200);
      assert.equal(start - (await payerBalance()), PRICE, 'the first attempt was settled');

      const retry = await paying(`${proxy.url}${TAXONOMY}`);
      assert.equal(retry.status, 200);
      const body = Buffer.from(await retry.arrayBuffer());
      assert.ok(body.equals(original.body), 'the same body, byte for byte');
      assert.equal(JSON.parse(body.toString('utf8')).endpoint, 'getTaxonomyForYear');
      assert.equal(retry.headers.get('payment-response'), original.headers['payment-response'], 'the original PAYMENT-RESPONSE');
      assert.equal(retry.headers.get('content-type'), original.headers['content-type']);
      const receipt = decodePaymentResponseHeader(retry.headers.get('payment-response')!);
      assert.equal(receipt.success, true);
      assert.match(receipt.transaction, /^0x[0-9a-f]{64}$/);

      assert.equal(start - (await payerBalance()), PRICE, 'charged exactly once');
      assert.equal(facilitatorCalls('/verify'), verifies + 1, 'no second verify');
      assert.equal(facilitatorCalls('/settle'), settles + 1, 'no second settle');
      assert.equal((await readRevenue(app.ledgerPath)).length, ledgerStart + 1, 'one revenue record');

      // A third try, resending the very same kind of payment directly, is answered the same way.
      const again = await paying(`${app.base}${TAXONOMY}`);
      assert.equal(again.status, 200);
      assert.ok(Buffer.from(await again.arrayBuffer()).equals(original.body));
      assert.equal(start - (await payerBalance()), PRICE);
    } finally {
      await proxy.close();
    }
  });

  test('resending the identical PAYMENT-SIGNATURE (raw flow) is answered from the store, not refused as a used nonce', async () => {
    const id = generatePaymentId();
    const client = new x402HTTPClient(clientWithId(DEV_KEYS.payer, id));
    const challenge: PaymentRequired = decodePaymentRequiredHeader((await app.request(TAXONOMY)).headers.get('payment-required')!);
    const header = client.encodePaymentSignatureHeader(await client.createPaymentPayload(challenge))['PAYMENT-SIGNATURE']!;
    const start = await payerBalance();
    const first = await app.request(TAXONOMY, { headers: { 'PAYMENT-SIGNATURE': header } });
    assert.equal(first.status, 200);
    const firstBody = await first.text();
    const second = await app.request(TAXONOMY, { headers: { 'PAYMENT-SIGNATURE': header } });
    assert.equal(second.status, 200);
    assert.equal(await second.text(), firstBody);
    assert.equal(second.headers.get('payment-response'), first.headers.get('payment-response'));
    assert.equal(start - (await payerBalance()), PRICE);
  });

  test('the same id for another request, or paid by another payer, is a 409 and charges nothing', async () => {
    const id = generatePaymentId();
    const first = await fetchWithId(DEV_KEYS.payer, id)(`${app.base}${TAXONOMY}`);
    assert.equal(first.status, 200);
    await first.arrayBuffer();
    const [payer, other] = [await payerBalance(), await otherPayerBalance()];
    const [verifies, settles] = [facilitatorCalls('/verify'), facilitatorCalls('/settle')];

    for (const path of ['/api/sebra/getTaxonomyForYear?year=2024&currency=BGN', '/api/sebra/getTaxonomyForYear/2024']) {
      const response = await fetchWithId(DEV_KEYS.payer, id)(`${app.base}${path}`);
      assert.equal(response.status, 409, path);
      assert.equal(response.headers.get('payment-response'), null);
      assert.deepEqual(await errorOf(response), { status: 409, code: 'payment_identifier_conflict', param: null });
    }
    const byOther = await fetchWithId(DEV_KEYS.otherPayer, id)(`${app.base}${TAXONOMY}`);
    assert.equal(byOther.status, 409);
    assert.equal((await errorOf(byOther)).code, 'payment_identifier_conflict');

    assert.equal(await payerBalance(), payer);
    assert.equal(await otherPayerBalance(), other);
    assert.equal(facilitatorCalls('/verify'), verifies);
    assert.equal(facilitatorCalls('/settle'), settles);
  });

  test('two attempts with one id at once: never two charges', async () => {
    const id = generatePaymentId();
    const start = await payerBalance();
    const answers = await Promise.all([1, 2].map(() => fetchWithId(DEV_KEYS.payer, id)(`${app.base}${TAXONOMY}`)));
    const statuses = answers.map((r) => r.status).sort();
    assert.ok(statuses.includes(200), `statuses: ${statuses}`);
    for (const answer of answers) {
      if (answer.status === 409) assert.equal((await errorOf(answer)).code, 'payment_in_progress');
      else assert.equal(answer.status, 200);
    }
    assert.equal(start - (await payerBalance()), PRICE);
  });

  test('a malformed identifier is a 400 naming PAYMENT-SIGNATURE, before any verify', async () => {
    const client = new x402HTTPClient(officialClient(DEV_KEYS.payer));
    const challenge: PaymentRequired = decodePaymentRequiredHeader((await app.request(TAXONOMY)).headers.get('payment-required')!);
    const payload = await client.createPaymentPayload(challenge);
    (payload.extensions![PAYMENT_IDENTIFIER] as { info: { id?: string } }).info.id = 'too-short';
    const verifies = facilitatorCalls('/verify');
    const response = await app.request(TAXONOMY, { headers: client.encodePaymentSignatureHeader(payload) });
    assert.equal(response.status, 400);
    assert.deepEqual(await errorOf(response), { status: 400, code: 'invalid_payment', param: 'PAYMENT-SIGNATURE' });
    assert.equal(facilitatorCalls('/verify'), verifies);
  });

  test('an answer that was not settled is not kept: a retry after a 404 pays (and is refused) normally', async () => {
    const id = generatePaymentId();
    const noData = '/api/sebra/getTaxonomyForYear?year=2019';
    const start = await payerBalance();
    const first = await fetchWithId(DEV_KEYS.payer, id)(`${app.base}${noData}`);
    assert.equal(first.status, 404);
    const settles = facilitatorCalls('/settle');
    const verifies = facilitatorCalls('/verify');
    const second = await fetchWithId(DEV_KEYS.payer, id)(`${app.base}${noData}`);
    assert.equal(second.status, 404);
    assert.equal(facilitatorCalls('/verify'), verifies + 1, 'verified again: nothing was kept');
    assert.equal(facilitatorCalls('/settle'), settles);
    assert.equal(await payerBalance(), start);
  });

  test('the kept answers survive a restart (kept beside the revenue ledger)', async () => {
    const id = generatePaymentId();
    const first = await fetchWithId(DEV_KEYS.payer, id)(`${app.base}${TAXONOMY}`);
    assert.equal(first.status, 200);
    const firstBody = await first.text();
    const receipt = first.headers.get('payment-response');
    const stored = await readFile(app.payments.settings.paidAnswers.path, 'utf8');
    assert.ok(stored.includes(id), 'the answer is on disk');
    assert.equal(app.payments.settings.paidAnswers.path.replace(/(?<=^|\/)[^/]+$/, ''), app.ledgerPath.replace(/(?<=^|\/)[^/]+$/, ''));

    // A second server process on the same files (the first one gone from the client's view).
    const restarted = await startPaidApp({ db: rig.db, routes, env: devPaymentEnv(rig.chain, rig.facilitator.url, { REVENUE_LEDGER: app.ledgerPath }) });
    try {
      const start = await payerBalance();
      const settles = facilitatorCalls('/settle');
      const retry = await fetchWithId(DEV_KEYS.payer, id)(`${restarted.base}${TAXONOMY}`);
      assert.equal(retry.status, 200);
      assert.equal(await retry.text(), firstBody);
      assert.equal(retry.headers.get('payment-response'), receipt);
      assert.equal(await payerBalance(), start);
      assert.equal(facilitatorCalls('/settle'), settles);
    } finally {
      await restarted.close();
    }
  });
});
