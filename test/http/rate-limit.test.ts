// RATE_LIMIT_PER_MINUTE: per client address (after the proxy-hop rule) on data routes, allowlisted
// clients exempt, 429 with Retry-After and the IETF RateLimit fields (draft-ietf-httpapi-ratelimit-headers-10
// form); counters in memory, or in PostgreSQL shared by two app instances (replicas).
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { createApp } from '../../http/app.ts';
import { LimitsConfigError, readLimitSettings } from '../../http/limitsConfig.ts';
import { openRateLimit, type ClientRateLimit, type RateLimitOptions } from '../../http/rateLimiter.ts';
import { openSnapshot } from '../../http/openSnapshot.ts';
import { routes } from '../../domains/index.ts';
import type { Database } from '../../engine/database.ts';
import { FIXED_NOW } from '../helpers/app.ts';
import { postgresSkipReason, scratchPostgres } from '../helpers/postgres.ts';
import { writeSebraSnapshot } from '../helpers/snapshot.ts';
import { fixtureDays, fixturePayments } from '../queries/sebra-fixture.ts';

let db: Database;
before(async () => {
  db = await openSnapshot(await writeSebraSnapshot(fixturePayments, fixtureDays));
});
after(() => db.close());

/** An app over the fixture with the rate limit; `get` of a path with optional headers. */
async function serve(options: RateLimitOptions) {
  const limit: ClientRateLimit = await openRateLimit(options);
  const app = await createApp({ db, routes, now: () => FIXED_NOW, logError: () => undefined, rateLimit: limit });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    get: async (path: string, headers: Record<string, string> = {}) => {
      const response = await fetch(base + path, { headers });
      return { status: response.status, headers: response.headers, body: (await response.json()) as any };
    },
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await limit.close();
    },
  };
}

const off = { allowlist: [], proxyHops: 0, databaseUrl: null };
/** A different data request each time (distinct URLs: a repeated one would be a fast answer, which is not counted). */
const dataPath = (index: number) => `/api/sebra/getTaxonomyForYear/${2000 + index}`;

test('RATE_LIMIT_PER_MINUTE: off in development unless set, 600 in production, 0 off, bad values named', () => {
  assert.equal(readLimitSettings({}, undefined).rateLimitPerMinute, 0);
  assert.equal(readLimitSettings({ NODE_ENV: 'production' }, undefined).rateLimitPerMinute, 600);
  assert.equal(readLimitSettings({ NODE_ENV: 'production', RATE_LIMIT_PER_MINUTE: '0' }, undefined).rateLimitPerMinute, 0);
  assert.equal(readLimitSettings({ RATE_LIMIT_PER_MINUTE: '120' }, undefined).rateLimitPerMinute, 120);
  for (const bad of ['-1', 'ten', '1.5', '2000000']) {
    assert.throws(() => readLimitSettings({ RATE_LIMIT_PER_MINUTE: bad }, undefined), (error: unknown) => error instanceof LimitsConfigError && error.message.startsWith('RATE_LIMIT_PER_MINUTE must be') && error.message.includes(bad));
  }
});

test('past the limit: 429 with Retry-After and RateLimit fields; health and unknown paths are not counted', async () => {
  const app = await serve({ perMinute: 3, ...off });
  try {
    for (let index = 0; index < 3; index += 1) {
      const answer = await app.get(dataPath(index));
      assert.notEqual(answer.status, 429);
      assert.equal(answer.headers.get('ratelimit-policy'), '"data";q=3;w=60');
      assert.match(answer.headers.get('ratelimit') ?? '', new RegExp(`^"data";r=${2 - index};t=([1-9]|[1-5][0-9]|60)$`));
      // Neither is counted: the limit is on data routes.
      assert.equal((await app.get('/healthz')).status, 200);
      assert.equal((await app.get('/no/such/path')).status, 404);
    }
    const refused = await app.get(dataPath(3));
    assert.equal(refused.status, 429);
    assert.deepEqual(Object.keys(refused.body.error), ['status', 'code', 'message', 'param', 'request_id']);
    assert.equal(refused.body.error.code, 'rate_limited');
    assert.equal(refused.body.error.status, 429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    assert.equal(refused.headers.get('ratelimit'), `"data";r=0;t=${retryAfter}`);
    // Refused before validation: an invalid request past the limit is a 429 too, not a 400.
    assert.equal((await app.get('/api/sebra/getTaxonomyForYear/notayear')).status, 429);
    assert.equal((await app.get('/healthz')).status, 200);
  } finally {
    await app.close();
  }
});

test('allowlisted clients are not counted; behind a trusted proxy each forwarded client has its own count', async () => {
  const allowlisted = await serve({ perMinute: 1, allowlist: ['127.0.0.0/8'], proxyHops: 0, databaseUrl: null });
  try {
    for (let index = 0; index < 4; index += 1) {
      const answer = await allowlisted.get(dataPath(index));
      assert.notEqual(answer.status, 429);
      assert.equal(answer.headers.get('ratelimit'), null);
    }
  } finally {
    await allowlisted.close();
  }
  const proxied = await serve({ perMinute: 1, allowlist: [], proxyHops: 1, databaseUrl: null });
  try {
    assert.notEqual((await proxied.get(dataPath(0), { 'X-Forwarded-For': '198.51.100.7' })).status, 429);
    assert.notEqual((await proxied.get(dataPath(1), { 'X-Forwarded-For': '198.51.100.8' })).status, 429);
    // The client's own left-hand entries are not read: the proxy's appended one is the client.
    assert.equal((await proxied.get(dataPath(2), { 'X-Forwarded-For': '203.0.113.1, 198.51.100.7' })).status, 429);
  } finally {
    await proxied.close();
  }
});

test('with DATABASE_URL, two app instances (replicas) share the count', async (t) => {
  const skip = await postgresSkipReason();
  if (skip) return t.skip(skip);
  const database = await scratchPostgres();
  const replicas: Array<Awaited<ReturnType<typeof serve>>> = [];
  try {
    replicas.push(await serve({ perMinute: 4, ...off, databaseUrl: database.url }));
    replicas.push(await serve({ perMinute: 4, ...off, databaseUrl: database.url }));
    const statuses: number[] = [];
    const remaining: Array<string | null> = [];
    for (let index = 0; index < 6; index += 1) {
      const answer = await replicas[index % 2]!.get(dataPath(index));
      statuses.push(answer.status === 429 ? 429 : 0);
      remaining.push(answer.headers.get('ratelimit')?.split(';')[1] ?? null);
    }
    // Four answers in all, alternating replicas; a memory count per replica would have allowed all six.
    assert.deepEqual(statuses, [0, 0, 0, 0, 429, 429]);
    assert.deepEqual(remaining, ['r=3', 'r=2', 'r=1', 'r=0', 'r=0', 'r=0']);
  } finally {
    for (const replica of replicas) await replica.close();
    await database.drop();
  }
});
