// x402 v2 end to end on loopback: the official client (@x402/fetch with a viem account) pays the
// server through the local facilitator on the in-process chain. Balances are read from the token
// contract, so "charged" and "not charged" are facts on the chain, not what the server says.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import { privateKeyToAccount } from 'viem/accounts';
import { toHex } from 'viem';
import { DEV_KEYS, DEV_NETWORK } from '../../devchain/chain.ts';
import { startLocalFacilitator } from '../../devchain/facilitator.ts';
import { defineRoute, type Route } from '../../queries/catalog.ts';
import { routes } from '../../domains/index.ts';
import { USDC } from '../../http/payments/config.ts';
import { readRevenue } from '../../http/payments/ledger.ts';
import { writeSebraSnapshot } from '../helpers/snapshot.ts';
import { fixtureDays, fixturePayments } from '../queries/sebra-fixture.ts';
import {
  challengeFor, devPaymentEnv, forgedPaymentHeader, mintTestUsdc, officialPaymentHeader, payingFetch, startPaidApp, startPaymentRig,
  transferAway, type PaidApp, type PaymentRig,
} from '../helpers/payments.ts';

const PRICE = 10_000n;
const TAXONOMY = '/api/sebra/getTaxonomyForYear?year=2024';

const failingRoute: Route = defineRoute<Record<string, never>>({
  id: 'alwaysFails', method: 'GET', tag: 'test', paths: ['/api/test/alwaysFails'], summary: 'fails', description: 'throws',
  paid: true, params: {}, response: {}, examples: ['/api/test/alwaysFails'],
  async handle() {
    throw new Error('handler exploded');
  },
});
/** What the next request to /api/test/drainsPayer does while its payment is verified but unsettled. */
let duringHandler: () => Promise<void> = async () => undefined;
const drainingRoute: Route = defineRoute<Record<string, never>>({
  id: 'drainsPayer', method: 'GET', tag: 'test', paths: ['/api/test/drainsPayer'], summary: 'drains', description: 'runs a hook',
  paid: true, params: {}, response: {}, examples: ['/api/test/drainsPayer'],
  async handle() {
    await duringHandler();
    return { secret: 'data that must not leave unpaid' };
  },
});
const testRoutes = [...routes, failingRoute, drainingRoute];

let rig: PaymentRig;
let app: PaidApp;
before(async () => {
  rig = await startPaymentRig(await writeSebraSnapshot(fixturePayments, fixtureDays));
  app = await startPaidApp({ db: rig.db, routes: testRoutes, env: devPaymentEnv(rig.chain, rig.facilitator.url) });
});
after(async () => {
  await app?.close();
  await rig?.facilitator.stop();
  await rig?.db.close();
});

const payer = () => rig.chain.addresses.payer;
const payTo = () => rig.chain.addresses.payTo;
async function balances(): Promise<{ payer: bigint; payTo: bigint }> {
  return { payer: await rig.chain.balanceOf(payer()), payTo: await rig.chain.balanceOf(payTo()) };
}
const settleCalls = () => rig.facilitator.requests.filter((r) => r.path === '/settle').length;

async function errorOf(response: Response): Promise<{ status: number; code: string; reason?: string; message: string }> {
  const body = await response.json();
  return { status: body.error.status, code: body.error.code, reason: body.reason, message: body.error.message };
}

describe('the challenge', () => {
  test('an unpaid request gets 402, a JSON body and PAYMENT-REQUIRED with every field', async () => {
    // A facilitator announcing the three production networks too (it could only settle locally).
    const networks = [DEV_NETWORK, 'eip155:8453', 'eip155:137', 'eip155:42161'];
    const wide = await startLocalFacilitator({ chain: rig.chain, networks });
    const multi = await startPaidApp({ db: rig.db, routes, env: devPaymentEnv(rig.chain, wide.url, { X402_NETWORKS: networks.join(',') }) });
    try {
      const response = await multi.request(TAXONOMY);
      assert.equal(response.status, 402);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.match(response.headers.get('content-type')!, /^application\/json/);
      const body = await response.json();
      assert.equal(body.error.code, 'payment_required');
      assert.equal(body.error.status, 402);

      const challenge = decodePaymentRequiredHeader(response.headers.get('payment-required')!);
      assert.equal(challenge.x402Version, 2);
      const route = routes.find((r) => r.id === 'getTaxonomyForYear')!;
      assert.equal(challenge.resource.url, `${multi.base}${TAXONOMY}`);
      assert.equal(challenge.resource.description, route.summary);
      assert.equal(challenge.resource.mimeType, 'application/json');
      assert.deepEqual(challenge.accepts.map((a) => a.network), [DEV_NETWORK, 'eip155:8453', 'eip155:137', 'eip155:42161']);
      for (const accept of challenge.accepts) {
        const asset = accept.network === DEV_NETWORK ? rig.chain.token : USDC[accept.network]!.address;
        assert.deepEqual(accept, {
          scheme: 'exact', network: accept.network, amount: '10000', asset, payTo: payTo(), maxTimeoutSeconds: 300,
          extra: { name: 'USD Coin', version: '2' },
        });
      }
      assert.equal(USDC['eip155:8453']!.address, '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913');
      // Bazaar discovery: the query parameters of the catalog, with year required.
      const bazaar = challenge.extensions!.bazaar as { info: any; schema: any };
      assert.equal(bazaar.info.input.type, 'http');
      assert.equal(bazaar.info.input.method, 'GET');
      const query = bazaar.schema.properties.input.properties.queryParams;
      assert.deepEqual(Object.keys(query.properties).sort(), Object.keys(route.params).sort());
      assert.deepEqual(query.required, ['year']);
    } finally {
      await multi.close();
      await wide.stop();
    }
  });

  test('a path form is challenged for its own URL, with its path parameter in the discovery schema', async () => {
    const challenge = await challengeFor(app, '/api/sebra/getTaxonomyForYear/2024?currency=BGN');
    assert.equal(challenge.resource.url, `${app.base}/api/sebra/getTaxonomyForYear/2024?currency=BGN`);
    const bazaar = challenge.extensions!.bazaar as { schema: any };
    assert.deepEqual(Object.keys(bazaar.schema.properties.input.properties.pathParams.properties), ['year']);
  });

  test('invalid parameters are a 400 before any payment question; unknown paths and /healthz never 402', async () => {
    const invalid = await app.request('/api/sebra/getTaxonomyForYear?year=abc');
    assert.equal(invalid.status, 400);
    assert.equal(invalid.headers.get('payment-required'), null);
    assert.equal((await errorOf(invalid)).code, 'invalid_parameter');
    const health = await app.request('/healthz');
    assert.equal(health.status, 200);
    const unknown = await app.request('/api/nosuch/route');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.headers.get('payment-required'), null);
  });

  test('a PAYMENT-SIGNATURE that is not a payload is a 400 naming the header', async () => {
    const response = await app.request(TAXONOMY, { headers: { 'PAYMENT-SIGNATURE': 'not base64 json!' } });
    assert.equal(response.status, 400);
    const body = await response.json();
    assert.deepEqual([body.error.code, body.error.param], ['invalid_payment', 'PAYMENT-SIGNATURE']);
  });
});

describe('paying', () => {
  test('the official client pays once: 200, the receipt, balances moved by exactly 10000, one ledger line', async () => {
    const start = await balances();
    const ledgerBefore = (await readRevenue(app.ledgerPath)).length;
    const response = await payingFetch(DEV_KEYS.payer)(`${app.base}${TAXONOMY}`);
    assert.equal(response.status, 200);
    const body = await response.json();
    assert.equal(body.endpoint, 'getTaxonomyForYear');
    assert.equal(body.year, 2024);
    assert.match(response.headers.get('cache-control')!, /private/);
    const receipt = decodePaymentResponseHeader(response.headers.get('payment-response')!);
    assert.equal(receipt.success, true);
    assert.equal(receipt.network, DEV_NETWORK);
    assert.equal(receipt.payer, payer());
    assert.match(receipt.transaction, /^0x[0-9a-f]{64}$/);
    const end = await balances();
    assert.equal(start.payer - end.payer, PRICE);
    assert.equal(end.payTo - start.payTo, PRICE);

    const ledger = await readRevenue(app.ledgerPath);
    assert.equal(ledger.length, ledgerBefore + 1);
    assert.deepEqual(ledger.at(-1), {
      time: '2026-11-22T12:00:00.000Z', route: 'getTaxonomyForYear', resource: TAXONOMY, network: DEV_NETWORK,
      payer: payer().toLowerCase(), amount: '10000', asset: rig.chain.token.toLowerCase(), transaction: receipt.transaction,
      // The paid answer's X-Request-Id: the ledger record joins the request's log line.
      requestId: response.headers.get('x-request-id'),
    });
    assert.match(response.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  });

  test('a replayed payment buys nothing more: the same request gets the answer it paid for, another request a 409', async () => {
    const header = await officialPaymentHeader(app, TAXONOMY);
    const first = await app.request(TAXONOMY, { headers: { 'PAYMENT-SIGNATURE': header } });
    assert.equal(first.status, 200);
    const firstBody = await first.text();
    const afterFirst = await balances();
    const settles = settleCalls();
    const replay = await app.request(TAXONOMY, { headers: { 'PAYMENT-SIGNATURE': header } });
    assert.equal(replay.status, 200);
    assert.equal(await replay.text(), firstBody);
    assert.equal(replay.headers.get('payment-response'), first.headers.get('payment-response'));
    const elsewhere = await app.request('/api/sebra/getTaxonomyForYear?year=2025', { headers: { 'PAYMENT-SIGNATURE': header } });
    assert.equal(elsewhere.status, 409);
    assert.equal((await errorOf(elsewhere)).code, 'payment_identifier_conflict');
    assert.deepEqual(await balances(), afterFirst);
    assert.equal(settleCalls(), settles);
  });

  test('two concurrent requests with one signature get one answer and one charge', async () => {
    const header = await officialPaymentHeader(app, TAXONOMY);
    const start = await balances();
    const answers = await Promise.all([1, 2].map(() => app.request(TAXONOMY, { headers: { 'PAYMENT-SIGNATURE': header } })));
    const statuses = answers.map((r) => r.status).sort();
    assert.ok(statuses.includes(200), `statuses: ${statuses}`);
    assert.ok(statuses.every((s) => s === 200 || s === 409), `statuses: ${statuses}`);
    const bodies = new Set(await Promise.all(answers.filter((r) => r.status === 200).map((r) => r.text())));
    assert.equal(bodies.size, 1, 'one answer, given again at most');
    const end = await balances();
    assert.equal(start.payer - end.payer, PRICE);
  });

  test('tampered payments are refused with the reason, and nothing is charged or settled', async () => {
    const challenge = await challengeFor(app, TAXONOMY);
    const start = await balances();
    const settles = settleCalls();
    const attempts: Array<[string, Parameters<typeof forgedPaymentHeader>[1], RegExp]> = [
      ['low amount', { value: '1', accepted: { amount: '1' } }, /No matching payment requirements/],
      ['wrong recipient', { to: rig.chain.addresses.otherPayer }, /recipient/],
      ['expired', { validBefore: String(Math.floor(Date.now() / 1000) - 60) }, /valid_before/],
      ['wrong signer', { signerKey: DEV_KEYS.otherPayer }, /signature/],
    ];
    for (const [name, changes, reason] of attempts) {
      const response = await app.request(TAXONOMY, { headers: { 'PAYMENT-SIGNATURE': await forgedPaymentHeader(challenge, changes) } });
      assert.equal(response.status, 402, name);
      assert.ok(response.headers.get('payment-required'), `${name}: a fresh challenge`);
      const error = await errorOf(response);
      assert.match(error.reason!, reason, `${name}: ${error.reason}`);
    }
    assert.deepEqual(await balances(), start);
    assert.equal(settleCalls(), settles);
  });

  test('invalid parameters with a valid payment: 400, never verified nor settled, nothing charged', async () => {
    const header = await officialPaymentHeader(app, TAXONOMY);
    const start = await balances();
    const calls = rig.facilitator.requests.length;
    const response = await app.request('/api/sebra/getTaxonomyForYear?year=1800', { headers: { 'PAYMENT-SIGNATURE': header } });
    assert.equal(response.status, 400);
    assert.equal((await errorOf(response)).code, 'invalid_parameter');
    assert.equal(rig.facilitator.requests.length, calls);
    assert.deepEqual(await balances(), start);
  });

  test('a handler that answers 404 or throws is not settled', async () => {
    const start = await balances();
    const settles = settleCalls();
    const noData = '/api/sebra/getTaxonomyForYear?year=2019';
    const notFound = await app.request(noData, { headers: { 'PAYMENT-SIGNATURE': await officialPaymentHeader(app, noData) } });
    assert.equal(notFound.status, 404);
    assert.equal(notFound.headers.get('payment-response'), null);
    const failing = '/api/test/alwaysFails';
    const thrown = await app.request(failing, { headers: { 'PAYMENT-SIGNATURE': await officialPaymentHeader(app, failing) } });
    assert.equal(thrown.status, 500);
    assert.equal((await errorOf(thrown)).code, 'internal_error');
    assert.equal(thrown.headers.get('payment-response'), null);
    assert.equal(settleCalls(), settles);
    assert.deepEqual(await balances(), start);
  });

  test('a settlement that fails after the handler: 402 with PAYMENT-RESPONSE success false, none of the data', async () => {
    // A payer whose funds leave between verification and settlement (it signs a second
    // authorization for its whole balance, which the facilitator's account submits first).
    const drainedKey = toHex(randomBytes(32));
    const drained = privateKeyToAccount(drainedKey);
    await mintTestUsdc(rig.chain, drained.address, PRICE);
    duringHandler = () => transferAway(rig.chain, drained, rig.chain.addresses.otherPayer, PRICE);
    try {
      const ledgerBefore = (await readRevenue(app.ledgerPath)).length;
      const payToBefore = await rig.chain.balanceOf(payTo());
      const path = '/api/test/drainsPayer';
      const response = await app.request(path, { headers: { 'PAYMENT-SIGNATURE': await officialPaymentHeader(app, path, drainedKey) } });
      assert.equal(response.status, 402);
      const text = await response.text();
      assert.ok(!text.includes('must not leave'), text);
      const receipt = decodePaymentResponseHeader(response.headers.get('payment-response')!);
      assert.equal(receipt.success, false);
      assert.match(receipt.errorReason!, /insufficient|balance|simulation|failed/i);
      assert.equal(JSON.parse(text).error.code, 'payment_required');
      assert.equal(await rig.chain.balanceOf(payTo()), payToBefore);
      assert.equal((await readRevenue(app.ledgerPath)).length, ledgerBefore);
    } finally {
      duringHandler = async () => undefined;
    }
  });

  test('facilitator down: 503 JSON, no data, nothing charged; paying works again once it is back', async () => {
    const start = await balances();
    const header = await officialPaymentHeader(app, TAXONOMY);
    await rig.facilitator.stop();
    try {
      const response = await app.request(TAXONOMY, { headers: { 'PAYMENT-SIGNATURE': header } });
      assert.equal(response.status, 503);
      const body = await response.json();
      assert.equal(body.error.code, 'facilitator_unavailable');
      assert.equal(body.items, undefined);
      assert.equal(response.headers.get('payment-response'), null);
    } finally {
      await rig.facilitator.start();
    }
    assert.deepEqual(await balances(), start);
    const again = await app.request(TAXONOMY, { headers: { 'PAYMENT-SIGNATURE': header } });
    assert.equal(again.status, 200);
    assert.equal(start.payer - (await balances()).payer, PRICE);
  });

  test('the ledger holds exactly the settled payments', async () => {
    const ledger = await readRevenue(app.ledgerPath);
    const settlements = rig.facilitator.requests.filter((r) => r.path === '/settle');
    const settled = settlements.filter((r) => (r.result as { success?: boolean }).success === true).length;
    assert.ok(settlements.length > settled, 'the failed settlement above reached the facilitator');
    assert.equal(ledger.length, settled);
    assert.deepEqual(
      ledger.map((r) => r.transaction).sort(),
      settlements.filter((r) => (r.result as { success?: boolean }).success).map((r) => (r.result as { transaction: string }).transaction).sort(),
    );
    assert.equal(new Set(ledger.map((r) => r.transaction)).size, ledger.length);
    const paidTotal = ledger.reduce((sum, r) => sum + BigInt(r.amount), 0n);
    assert.equal(paidTotal, PRICE * BigInt(settled));
    const raw = await readFile(app.ledgerPath, 'utf8');
    assert.equal(raw.split('\n').filter(Boolean).length, settled);
  });
});

describe('who pays', () => {
  const paidStatus = async (paidApp: PaidApp, headers: Record<string, string> = {}) => (await paidApp.request(TAXONOMY, { headers })).status;

  test('development exempts loopback by default; behind a trusted proxy the forwarded client pays', async () => {
    const env = devPaymentEnv(rig.chain, rig.facilitator.url, { X402_EXEMPT_LOOPBACK: '', TRUST_PROXY: 'true' });
    const dev = await startPaidApp({ db: rig.db, routes, env });
    try {
      assert.equal(await paidStatus(dev), 200);
      // The client wrote the loopback entry; the proxy appended the real address (counted from the right).
      assert.equal(await paidStatus(dev, { 'X-Forwarded-For': '127.0.0.1, 203.0.113.9' }), 402);
      assert.equal(await paidStatus(dev, { 'X-Forwarded-For': '127.0.0.1' }), 200);
    } finally {
      await dev.close();
    }
  });

  test('production turns the loopback exemption off', async () => {
    const env = devPaymentEnv(rig.chain, rig.facilitator.url, { NODE_ENV: 'production', X402_EXEMPT_LOOPBACK: '' });
    const production = await startPaidApp({ db: rig.db, routes, env });
    try {
      assert.equal(await paidStatus(production), 402);
    } finally {
      await production.close();
    }
  });

  test('the allowlist takes IPs and CIDRs; X-Forwarded-For counts only with TRUST_PROXY', async () => {
    const direct = await startPaidApp({ db: rig.db, routes, env: devPaymentEnv(rig.chain, rig.facilitator.url, { X402_ALLOWLIST: '127.0.0.1' }) });
    const proxied = await startPaidApp({
      db: rig.db, routes, env: devPaymentEnv(rig.chain, rig.facilitator.url, { X402_ALLOWLIST: '10.0.0.0/8, 2001:db8::/32', TRUST_PROXY: 'true' }),
    });
    const untrusted = await startPaidApp({ db: rig.db, routes, env: devPaymentEnv(rig.chain, rig.facilitator.url, { X402_ALLOWLIST: '10.0.0.0/8' }) });
    try {
      assert.equal(await paidStatus(direct), 200);
      assert.equal(await paidStatus(proxied, { 'X-Forwarded-For': '10.2.3.4' }), 200);
      assert.equal(await paidStatus(proxied, { 'X-Forwarded-For': '2001:db8::7' }), 200);
      assert.equal(await paidStatus(proxied, { 'X-Forwarded-For': '11.0.0.1' }), 402);
      assert.equal(await paidStatus(untrusted, { 'X-Forwarded-For': '10.2.3.4' }), 402);
    } finally {
      await Promise.all([direct.close(), proxied.close(), untrusted.close()]);
    }
  });

  test('development without payment settings serves loopback and answers others 503, never data', async () => {
    const bare = await startPaidApp({ db: rig.db, routes, env: { NODE_ENV: 'development', TRUST_PROXY: 'true' } });
    try {
      assert.equal(await paidStatus(bare), 200);
      const response = await bare.request(TAXONOMY, { headers: { 'X-Forwarded-For': '198.51.100.4' } });
      assert.equal(response.status, 503);
      const body = await response.json();
      assert.equal(body.error.code, 'payments_not_configured');
      assert.equal(body.items, undefined);
    } finally {
      await bare.close();
    }
  });
});

describe('the facilitator connection', () => {
  test('per-path facilitator headers are sent; a facilitator that refuses them stops the start', async () => {
    const guarded = await startLocalFacilitator({ chain: rig.chain, authorization: 'Bearer s3cret' });
    try {
      const auth = { Authorization: 'Bearer s3cret' };
      const headers = JSON.stringify({ verify: auth, settle: auth, supported: auth });
      const withAuth = await startPaidApp({ db: rig.db, routes, env: devPaymentEnv(rig.chain, guarded.url, { X402_FACILITATOR_HEADERS: headers }) });
      try {
        const response = await payingFetch(DEV_KEYS.otherPayer)(`${withAuth.base}${TAXONOMY}`);
        assert.equal(response.status, 200);
        assert.deepEqual(
          [...new Set(guarded.requests.map((r) => `${r.path} ${r.authorization}`))].sort(),
          ['/settle Bearer s3cret', '/supported Bearer s3cret', '/verify Bearer s3cret'],
        );
      } finally {
        await withAuth.close();
      }
      await assert.rejects(
        startPaidApp({ db: rig.db, routes, env: devPaymentEnv(rig.chain, guarded.url) }),
        /could not be asked what it supports/,
      );
    } finally {
      await guarded.stop();
    }
  });

  test('a slow facilitator is a 503 after X402_FACILITATOR_TIMEOUT_MS; one answering nonsense is a 502; neither charges', async () => {
    // In front of the real facilitator: /supported passes through, /verify stalls or breaks.
    let verifyMode: 'stall' | 'html' = 'stall';
    const front = createServer((request, response) => {
      if (request.url === '/supported') {
        void fetch(`${rig.facilitator.url}/supported`).then(async (real) => {
          response.writeHead(real.status, { 'Content-Type': 'application/json' });
          response.end(await real.text());
        });
      } else if (verifyMode === 'stall') {
        setTimeout(() => response.end('{}'), 2_000);
      } else {
        response.writeHead(500, { 'Content-Type': 'text/html' });
        response.end('<html>upstream exploded</html>');
      }
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', () => resolve()));
    const frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
    const paid = await startPaidApp({ db: rig.db, routes, env: devPaymentEnv(rig.chain, frontUrl, { X402_FACILITATOR_TIMEOUT_MS: '300' }) });
    try {
      const start = await balances();
      const slow = await paid.request(TAXONOMY, { headers: { 'PAYMENT-SIGNATURE': await officialPaymentHeader(paid, TAXONOMY) } });
      assert.equal(slow.status, 503);
      assert.equal((await errorOf(slow)).code, 'facilitator_unavailable');
      assert.equal(slow.headers.get('retry-after'), '5');
      verifyMode = 'html';
      const broken = await paid.request(TAXONOMY, { headers: { 'PAYMENT-SIGNATURE': await officialPaymentHeader(paid, TAXONOMY) } });
      assert.equal(broken.status, 502);
      assert.equal((await errorOf(broken)).code, 'facilitator_unavailable');
      assert.deepEqual(await balances(), start);
    } finally {
      await paid.close();
      front.closeAllConnections();
      await new Promise((resolve) => front.close(resolve));
    }
  });

  test('a configured network the facilitator does not support stops the start with a clear message', async () => {
    const env = devPaymentEnv(rig.chain, rig.facilitator.url, { X402_NETWORKS: `${DEV_NETWORK},eip155:8453` });
    await assert.rejects(startPaidApp({ db: rig.db, routes, env }), /does not support exact x402 v2 payments on eip155:8453/);
  });
});

describe('browser clients (CORS) and caches', () => {
  test('the 402 is readable cross-origin (PAYMENT-REQUIRED exposed) and never stored by a cache; a preflight allows PAYMENT-SIGNATURE', async () => {
    const challenge = await app.request(TAXONOMY, { headers: { Origin: 'https://wallet.example' } });
    await challenge.arrayBuffer();
    assert.equal(challenge.status, 402);
    assert.equal(challenge.headers.get('access-control-allow-origin'), '*');
    const exposed = (challenge.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/,\s*/);
    assert.ok(exposed.includes('payment-required') && exposed.includes('payment-response'), exposed.join());
    assert.match(challenge.headers.get('cache-control') ?? '', /\bno-store\b/);
    const preflight = await app.request(TAXONOMY, {
      method: 'OPTIONS',
      headers: { Origin: 'https://wallet.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'payment-signature' },
    });
    assert.equal(preflight.status, 204);
    assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /PAYMENT-SIGNATURE/i);
  });

  test('a paid answer is private, no-store, and its PAYMENT-RESPONSE receipt is exposed', async () => {
    const header = await officialPaymentHeader(app, TAXONOMY);
    const paid = await app.request(TAXONOMY, { headers: { Origin: 'https://wallet.example', 'PAYMENT-SIGNATURE': header } });
    await paid.arrayBuffer();
    assert.equal(paid.status, 200);
    assert.ok(paid.headers.get('payment-response'));
    assert.equal(paid.headers.get('cache-control'), 'private, no-store');
    assert.equal(paid.headers.get('access-control-allow-origin'), '*');
    assert.match(paid.headers.get('access-control-expose-headers') ?? '', /PAYMENT-RESPONSE/i);
  });
});
