// /readyz: ready (200) with a snapshot loaded and, with payments configured, the payment store and the
// facilitator reachable; otherwise 503 naming what is not. /healthz stays the liveness route.
// The facilitator is a stand-in on loopback answering /supported; the stores are a file store in a
// temporary folder and a PostgreSQL store in a scratch database.
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { routes } from '../../domains/index.ts';
import type { Database } from '../../engine/database.ts';
import { createApp } from '../../http/app.ts';
import { readPaymentSettings } from '../../http/payments/config.ts';
import { createPayments, type Payments } from '../../http/payments/index.ts';
import { PostgresPaymentStore } from '../../http/payments/store/postgres.ts';
import { PaymentStoreUnavailableError } from '../../http/payments/store/types.ts';
import type { ReadinessCheck } from '../../http/readiness.ts';
import { openSnapshot } from '../../http/openSnapshot.ts';
import { FIXED_NOW } from '../helpers/app.ts';
import { postgresSkipReason, scratchPostgres } from '../helpers/postgres.ts';
import { writeSebraSnapshot } from '../helpers/snapshot.ts';
import { tempDirUntilExit } from '../helpers/tmp.ts';
import { fixtureDays, fixturePayments } from '../queries/sebra-fixture.ts';

const NETWORK = 'eip155:8453';

let db: Database;
let facilitator: Server;
let facilitatorUrl: string;
let payments: Payments;
let ledgerDir: string;
const servers: Server[] = [];

async function listen(target: Server): Promise<string> {
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', () => resolve()));
  return `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
}

/** An app over the fixture with these readiness checks; its base address. */
async function serve(readiness?: readonly ReadinessCheck[]): Promise<string> {
  const app = await createApp({ db, routes, now: () => FIXED_NOW, readiness, log: () => undefined, logError: () => undefined });
  const handle = app.callback();
  // Koa's handler answers its own errors: its promise never rejects.
  const server = createServer((request, response) => void handle(request, response));
  servers.push(server);
  return listen(server);
}

before(async () => {
  db = await openSnapshot(await writeSebraSnapshot(fixturePayments, fixtureDays));
  facilitator = createServer((request, response) => {
    response.setHeader('Content-Type', 'application/json');
    if (request.url?.endsWith('/supported')) {
      response.end(JSON.stringify({ kinds: [{ x402Version: 2, scheme: 'exact', network: NETWORK }], extensions: [], signers: {} }));
    } else {
      response.statusCode = 500;
      response.end('{}');
    }
  });
  facilitatorUrl = await listen(facilitator);
  ledgerDir = await tempDirUntilExit('readyz-ledger-');
  const settings = readPaymentSettings({
    X402_PAY_TO: '0x1111111111111111111111111111111111111111', X402_FACILITATOR_URL: facilitatorUrl, X402_NETWORKS: NETWORK,
    X402_FACILITATOR_TIMEOUT_MS: '1000', REVENUE_LEDGER: path.join(ledgerDir, 'revenue.jsonl'),
  });
  payments = createPayments({ routes, settings, baseUrl: 'http://127.0.0.1', now: () => FIXED_NOW, log: () => undefined });
  await payments.start();
});

after(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  if (facilitator?.listening) await new Promise((resolve) => facilitator.close(resolve));
  await payments?.close();
  await db?.close();
});

async function readyz(base: string, method = 'GET'): Promise<{ status: number; cacheControl: string | null; body: any }> {
  const response = await fetch(`${base}/readyz`, { method });
  const text = await response.text();
  return { status: response.status, cacheControl: response.headers.get('cache-control'), body: text ? JSON.parse(text) : null };
}

describe('/readyz', () => {
  test('without payments: ready once the snapshot is loaded; free and no-store; /healthz unchanged', async () => {
    const base = await serve();
    const answer = await readyz(base);
    assert.equal(answer.status, 200);
    assert.equal(answer.cacheControl, 'no-store');
    assert.deepEqual(answer.body, { status: 'ready', generation: null, checks: { snapshot: 'ok' } });
    assert.equal((await fetch(`${base}/healthz`)).status, 200);
    const head = await fetch(`${base}/readyz`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal((await readyz(base, 'POST')).status, 405);
  });

  test('with payments: ready with the store and the facilitator reachable; 503 naming the facilitator once it is not', async () => {
    const checks = payments.readinessChecks();
    assert.deepEqual(checks.map((check) => check.name), ['payment_store', 'facilitator']);
    const base = await serve(checks);
    const ready = await readyz(base);
    assert.equal(ready.status, 200, JSON.stringify(ready.body));
    assert.deepEqual(ready.body.checks, { snapshot: 'ok', payment_store: 'ok', facilitator: 'ok' });

    facilitator.closeAllConnections();
    await new Promise((resolve) => facilitator.close(resolve));
    // The first app's facilitator check is cached (15 s after a success): still ready.
    assert.equal((await readyz(base)).status, 200);
    // Fresh checks ask the facilitator, which is gone.
    const fresh = await serve(payments.readinessChecks());
    const notReady = await readyz(fresh);
    assert.equal(notReady.status, 503);
    assert.equal(notReady.cacheControl, 'no-store');
    assert.equal(notReady.body.status, 'not_ready');
    assert.deepEqual(notReady.body.not_ready, ['facilitator']);
    assert.equal(notReady.body.checks.payment_store, 'ok');
    assert.doesNotMatch(JSON.stringify(notReady.body), /127\.0\.0\.1/, 'no facilitator address in the public body');
  });

  test('a file store whose folder is gone is not ready: 503 naming payment_store', async () => {
    const base = await serve(payments.readinessChecks());
    await rm(ledgerDir, { recursive: true, force: true });
    const answer = await readyz(base);
    assert.equal(answer.status, 503);
    assert.ok(answer.body.not_ready.includes('payment_store'), JSON.stringify(answer.body));
  });
});

describe('PostgresPaymentStore.ping', () => {
  test('resolves on an open store; rejects as unavailable once closed or unreachable', async (t) => {
    const skip = await postgresSkipReason();
    if (skip) return t.skip(skip);
    const scratch = await scratchPostgres();
    const store = new PostgresPaymentStore({ connectionString: scratch.url, maxAnswerBytes: 1024 * 1024, maxAnswerAgeSeconds: 3600 });
    try {
      await store.open();
      await store.ping();
      await store.close();
      await assert.rejects(store.ping(), PaymentStoreUnavailableError);
    } finally {
      await store.close();
      await scratch.drop();
    }
  });
});
