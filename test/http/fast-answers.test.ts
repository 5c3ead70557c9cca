// The fast path (http/fastAnswers.ts): a repeated answer that needs no payment is replayed with the
// same bytes and headers as the full pipeline's, without running the handler; a request that needs a
// payment always goes through the payment check; no cache, no fast path.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type Koa from 'koa';
import { createApp, type FastAnswersApp } from '../../http/app.ts';
import type { ClientRequest } from '../../http/payments/exemption.ts';
import { ResponseCache } from '../../http/cache.ts';
import { openSnapshot } from '../../http/openSnapshot.ts';
import { routes } from '../../domains/index.ts';
import type { Database } from '../../engine/database.ts';
import type { Route } from '../../queries/catalog.ts';
import { FIXED_NOW } from '../helpers/app.ts';
import { writeSebraSnapshot } from '../helpers/snapshot.ts';
import { fixtureDays, fixturePayments } from '../queries/sebra-fixture.ts';

const SEBRA_EXAMPLES = routes.filter((r) => r.tag === 'sebra').flatMap((r) => r.examples);

interface Served {
  base: string;
  app: FastAnswersApp;
  calls: Map<string, number>;
  cache: ResponseCache;
  close(): Promise<void>;
}

/** The SEBRA routes with their handlers counted, served over db; payment: a stand-in check (402 unless X-Test-Paid). */
async function serve(db: Database, cache: ResponseCache, payment: boolean): Promise<Served> {
  const calls = new Map<string, number>();
  const counted: Route[] = routes.filter((r) => r.tag === 'sebra').map((route) => ({
    ...route,
    handle: (params, context) => {
      calls.set(route.id, (calls.get(route.id) ?? 0) + 1);
      return route.handle(params, context);
    },
  }));
  const paymentCheck: Koa.Middleware = async (ctx, next) => {
    if (ctx.get('X-Test-Paid') !== 'yes') {
      ctx.status = 402;
      ctx.body = { error: 'payment required' };
      return;
    }
    await next();
  };
  const app = await createApp({
    db, routes: counted, cache, now: () => FIXED_NOW, logError: () => undefined,
    ...(payment ? { beforeHandler: [paymentCheck], needsPayment: (route: Route, request: ClientRequest) => route.paid && request.headers['x-test-exempt'] !== 'yes' } : {}),
  });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    app,
    calls,
    cache,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const total = (calls: Map<string, number>) => [...calls.values()].reduce((a, b) => a + b, 0);

/** Status, body bytes and every header but Date, Connection and the request's own X-Request-Id (each answer has its own: `requestId`). */
async function snapshotOf(response: Response) {
  const headers = [...response.headers].filter(([name]) => name !== 'date' && name !== 'connection' && name !== 'keep-alive' && name !== 'x-request-id').sort();
  return { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()), requestId: response.headers.get('x-request-id') };
}

describe('fast answers', () => {
  let db: Database;
  before(async () => {
    db = await openSnapshot(await writeSebraSnapshot(fixturePayments, fixtureDays));
  });
  after(() => db?.close());

  test('every SEBRA example, as JSON and CSV and with an Origin: the replay equals the first answer and runs no handler', async () => {
    const served = await serve(db, new ResponseCache({ maxBytes: 8 * 1024 * 1024 }), false);
    try {
      const variants: Array<Record<string, string>> = [{}, { Accept: 'text/csv' }, { Origin: 'https://agent.example' }];
      let replayed = 0;
      for (const url of SEBRA_EXAMPLES) {
        for (const headers of variants) {
          const first = await snapshotOf(await fetch(served.base + url, { headers }));
          // The fixture covers 2024 only: examples of other years answer 404, which is never replayed.
          if (first.status !== 200) {
            assert.equal(first.status, 404, url);
            continue;
          }
          replayed++;
          const handled = total(served.calls);
          const hitsBefore = served.cache.stats().hits;
          const second = await snapshotOf(await fetch(served.base + url, { headers }));
          assert.ok(first.requestId && second.requestId && first.requestId !== second.requestId, 'the replay carries its own request id');
          assert.deepEqual({ ...second, requestId: null }, { ...first, requestId: null }, `${url} ${JSON.stringify(headers)}`);
          assert.equal(total(served.calls), handled, `${url}: the replay ran no handler`);
          assert.equal(served.cache.stats().hits, hitsBefore + 1, 'the replay counts as a hit');
        }
      }
      assert.ok(replayed >= 6, `${replayed} answers replayed`);
      // Replays keep the CORS headers (any origin is allowed).
      const cors = await fetch(served.base + SEBRA_EXAMPLES[0], { headers: { Origin: 'https://agent.example' } });
      assert.equal(cors.headers.get('access-control-allow-origin'), '*');
      assert.match(cors.headers.get('access-control-expose-headers') ?? '', /X-Data-Source/);
    } finally {
      await served.close();
    }
  });

  test('a request that needs a payment never takes the fast path; an exempt one does', async () => {
    const served = await serve(db, new ResponseCache({ maxBytes: 8 * 1024 * 1024 }), true);
    try {
      const url = SEBRA_EXAMPLES[0];
      const paid = await fetch(served.base + url, { headers: { 'X-Test-Paid': 'yes' } });
      assert.equal(paid.status, 200);
      await paid.arrayBuffer();
      // The paid answer is not recorded for replay, and an unpaid repeat is asked to pay.
      assert.equal((await fetch(served.base + url)).status, 402);
      const exempt1 = await fetch(served.base + url, { headers: { 'X-Test-Exempt': 'yes', 'X-Test-Paid': 'yes' } });
      assert.equal(exempt1.status, 200);
      await exempt1.arrayBuffer();
      const handled = total(served.calls);
      const exempt2 = await fetch(served.base + url, { headers: { 'X-Test-Exempt': 'yes' } });
      assert.equal(exempt2.status, 200, 'an exempt client is served from the fast path without the payment check');
      await exempt2.arrayBuffer();
      assert.equal(total(served.calls), handled);
      assert.equal((await fetch(served.base + url)).status, 402, 'still 402 for a client that is not exempt');
    } finally {
      await served.close();
    }
  });

  test('the fast answers and the answer cache share one byte bound: together they hold at most ANSWER_CACHE_MB', async () => {
    const maxBytes = 32 * 1024;
    const cache = new ResponseCache({ maxBytes });
    const served = await serve(db, cache, false);
    try {
      // Each distinct answer is kept twice: encoded in the cache, and with its headers for the fast path.
      for (let limit = 1; limit <= 80; limit++) {
        const response = await fetch(`${served.base}/api/sebra/getMostSponsoredProgramme/2024?limit=${limit}`);
        assert.equal(response.status, 200);
        await response.arrayBuffer();
      }
      const cached = cache.stats().bytes;
      const fast = served.app.fastAnswers.bytes;
      assert.ok(cached > 0 && fast > 0, `cache ${cached} B, fast answers ${fast} B`);
      assert.ok(cached + fast <= maxBytes, `cache ${cached} B + fast answers ${fast} B within ${maxBytes} B`);
      assert.equal(cache.bound.bytes, cached + fast);
      // The newest answers stay in both: the repeat is replayed without a handler.
      const handled = total(served.calls);
      assert.equal((await fetch(`${served.base}/api/sebra/getMostSponsoredProgramme/2024?limit=80`)).status, 200);
      assert.equal(total(served.calls), handled);
    } finally {
      await served.close();
    }
  });

  test('with the answer cache off every request runs its handler', async () => {
    const served = await serve(db, new ResponseCache(0), false);
    try {
      for (let i = 0; i < 3; i++) assert.equal((await fetch(served.base + SEBRA_EXAMPLES[0])).status, 200);
      assert.equal(total(served.calls), 3);
    } finally {
      await served.close();
    }
  });
});
