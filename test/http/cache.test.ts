// The answer cache: bounded by bytes, one representation (the encoded bytes), no answer above the
// per-answer limit, its figures on /healthz; ANSWER_CACHE_MB read and refused naming the variable.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createApp } from '../../http/app.ts';
import { ByteBound } from '../../http/byteBound.ts';
import { CacheConfigError, cacheBytesFromEnv, DEFAULT_CACHE_BYTES, ResponseCache, type CachedAnswer } from '../../http/cache.ts';
import { ConfigError, EngineConfigError, readConfig } from '../../http/config.ts';
import { PaymentConfigError } from '../../http/payments/config.ts';
import { routes } from '../../domains/index.ts';
import { FIXED_NOW, startTestApp, type TestApp } from '../helpers/app.ts';
import { writeSebraSnapshot } from '../helpers/snapshot.ts';
import { fixtureDays, fixturePayments } from '../queries/sebra-fixture.ts';

const MiB = 1024 * 1024;
const answerOf = (bytes: number, fill = 'x'): CachedAnswer => ({ type: 'application/json; charset=utf-8', body: Buffer.alloc(bytes, fill) });

describe('ByteBound', () => {
  /** A store of sized entries drawing on the bound, oldest first. */
  function storeOn(bound: ByteBound) {
    const entries: Array<{ name: string; size: number; used: number }> = [];
    const store = {
      entries,
      put(name: string, size: number) {
        entries.push({ name, size, used: bound.use() });
        bound.add(size);
        bound.trim();
      },
      touch(name: string) {
        const index = entries.findIndex((entry) => entry.name === name);
        const [entry] = entries.splice(index, 1);
        entries.push({ ...entry!, used: bound.use() });
      },
      oldestUse: () => entries[0]?.used,
      evictOldest() {
        const entry = entries.shift()!;
        bound.release(entry.size);
      },
    };
    bound.join(store);
    return store;
  }

  test('two stores on one bound hold at most its bytes together; the least recently used entry of either goes first', () => {
    const bound = new ByteBound(100);
    const cache = storeOn(bound);
    const fast = storeOn(bound);
    cache.put('a', 40);
    fast.put('b', 40);
    cache.put('c', 10);
    cache.touch('a');
    fast.put('d', 30); // 120 > 100: b is the least recently used (a was touched)
    assert.deepEqual(cache.entries.map((e) => e.name), ['c', 'a']);
    assert.deepEqual(fast.entries.map((e) => e.name), ['d']);
    assert.equal(bound.bytes, 80);
    fast.put('e', 60); // 140: c, then a go
    assert.deepEqual(cache.entries.map((e) => e.name), []);
    assert.deepEqual(fast.entries.map((e) => e.name), ['d', 'e']);
    assert.equal(bound.bytes, 90);
  });

  test('the answer cache draws on its bound and gives its bytes back when emptied', async () => {
    const cache = new ResponseCache({ maxBytes: 4 * MiB });
    await cache.getOrCompute('one', async () => answerOf(1000));
    assert.equal(cache.bound.bytes, cache.stats().bytes);
    assert.ok(cache.bound.bytes > 1000);
    cache.clear();
    assert.equal(cache.bound.bytes, 0);
  });
});

describe('ResponseCache', () => {
  test('1,000 distinct large answers stay under the bound; the most recent are kept', async () => {
    const cache = new ResponseCache({ maxBytes: 8 * MiB });
    assert.equal(cache.maxAnswerBytes, 512 * 1024, 'a sixteenth of 8 MiB');
    let computed = 0;
    for (let i = 0; i < 1000; i++) {
      // 200 to 500 KB each: 350 MB in all, about 44 times the bound.
      const size = 200_000 + ((i * 7919) % 300_000);
      await cache.getOrCompute(`answer-${i}`, async () => {
        computed++;
        return answerOf(size);
      });
      const { bytes } = cache.stats();
      assert.ok(bytes <= 8 * MiB, `after ${i + 1} answers the cache holds ${bytes} bytes`);
    }
    const stats = cache.stats();
    assert.equal(computed, 1000);
    assert.equal(stats.misses, 1000);
    assert.equal(stats.hits, 0);
    assert.equal(stats.hit_rate, 0);
    // Entries hold 200-500 KB: between 8 MiB / 500 KB and 8 MiB / 200 KB of them.
    assert.ok(stats.entries >= 16 && stats.entries <= 41, `${stats.entries} entries`);
    assert.ok(stats.bytes > 8 * MiB - 600_000, `${stats.bytes}: filled up to the bound`);
    // The last answer is a hit; the first was evicted long ago.
    await cache.getOrCompute('answer-999', async () => assert.fail('answer-999 should be cached'));
    let recomputed = false;
    await cache.getOrCompute('answer-0', async () => {
      recomputed = true;
      return answerOf(10);
    });
    assert.equal(recomputed, true);
    assert.deepEqual({ hits: cache.stats().hits, misses: cache.stats().misses }, { hits: 1, misses: 1001 });
  });

  test('least recently used goes first: a hit moves an answer to the back', async () => {
    const cache = new ResponseCache({ maxBytes: 10_000, maxAnswerBytes: 5_000 });
    // Each entry costs its bytes + twice its key's length + 200 of overhead: 3,000 + 6 + 200.
    for (const key of ['a-1', 'a-2', 'a-3']) await cache.getOrCompute(key, async () => answerOf(3_000));
    assert.equal(cache.stats().entries, 3);
    assert.equal(cache.stats().bytes, 3 * 3_206);
    await cache.getOrCompute('a-1', async () => assert.fail('cached'));
    await cache.getOrCompute('a-4', async () => answerOf(3_000)); // over 10,000: evicts a-2 (least recent), not a-1
    const keys: string[] = [];
    for (const key of ['a-1', 'a-3', 'a-4', 'a-2']) {
      await cache.getOrCompute(key, async () => {
        keys.push(key);
        return answerOf(1);
      });
    }
    assert.deepEqual(keys, ['a-2']);
  });

  test('an answer above the per-answer limit is served but never kept; a failure is not kept; 0 turns the cache off', async () => {
    const cache = new ResponseCache({ maxBytes: 1 * MiB, maxAnswerBytes: 1000 });
    let calls = 0;
    for (let i = 0; i < 3; i++) {
      const answer = await cache.getOrCompute('big', async () => {
        calls++;
        return answerOf(1001);
      });
      assert.equal(answer.body.length, 1001);
    }
    assert.equal(calls, 3);
    assert.equal(cache.stats().entries, 0);
    assert.equal(cache.stats().bytes, 0);
    await assert.rejects(cache.getOrCompute('fails', async () => {
      throw new Error('no');
    }));
    assert.equal(cache.stats().entries, 0);
    const off = new ResponseCache(0);
    let offCalls = 0;
    for (let i = 0; i < 2; i++) await off.getOrCompute('k', async () => answerOf(++offCalls));
    assert.equal(offCalls, 2);
    assert.equal(off.stats().entries, 0);
  });

  test('concurrent requests for one answer share one computation', async () => {
    const cache = new ResponseCache({ maxBytes: MiB });
    let calls = 0;
    const answers = await Promise.all(Array.from({ length: 5 }, () => cache.getOrCompute('same', async () => {
      calls++;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return answerOf(100);
    })));
    assert.equal(calls, 1);
    assert.ok(answers.every((answer) => answer === answers[0]));
    assert.deepEqual({ hits: cache.stats().hits, misses: cache.stats().misses }, { hits: 4, misses: 1 });
  });

  test('ANSWER_CACHE_MB: default 64 MiB, whole MiB, 0 off; anything else refused naming the variable', () => {
    assert.equal(DEFAULT_CACHE_BYTES, 64 * MiB);
    assert.equal(cacheBytesFromEnv({}), 64 * MiB);
    assert.equal(cacheBytesFromEnv({ ANSWER_CACHE_MB: '256' }), 256 * MiB);
    assert.equal(cacheBytesFromEnv({ ANSWER_CACHE_MB: '0' }), 0);
    assert.equal(readConfig({ ANSWER_CACHE_MB: '16' }).answerCacheBytes, 16 * MiB);
    for (const bad of ['-1', '1.5', '64MB', 'lots', '1e3']) {
      // A setting error of its own kind (not a payment one), under the ConfigError that npm start refuses with.
      assert.throws(() => readConfig({ ANSWER_CACHE_MB: bad }), (error: unknown) => error instanceof CacheConfigError && error instanceof ConfigError && !(error instanceof PaymentConfigError) && error.name === 'CacheConfigError' && /^ANSWER_CACHE_MB must be/.test(error.message) && error.message.includes(bad), bad);
    }
  });
});

test('DUCKDB_THREADS and DUCKDB_MEMORY_LIMIT: absent means DuckDB\'s own; anything malformed refused naming the variable', () => {
  assert.deepEqual(readConfig({}).engine, {});
  assert.deepEqual(readConfig({ DUCKDB_THREADS: '2', DUCKDB_MEMORY_LIMIT: '2GB' }).engine, { threads: 2, memoryLimit: '2GB' });
  assert.deepEqual(readConfig({ DUCKDB_MEMORY_LIMIT: '1.5GiB' }).engine, { memoryLimit: '1.5GiB' });
  for (const [name, bad] of [['DUCKDB_THREADS', '0'], ['DUCKDB_THREADS', 'two'], ['DUCKDB_THREADS', '65'], ['DUCKDB_MEMORY_LIMIT', '2'], ['DUCKDB_MEMORY_LIMIT', "2GB'; SET x"], ['DUCKDB_MEMORY_LIMIT', 'lots']]) {
    assert.throws(() => readConfig({ [name]: bad }), (error: unknown) => error instanceof EngineConfigError && error instanceof ConfigError && !(error instanceof PaymentConfigError) && error.name === 'EngineConfigError' && error.message.startsWith(`${name} must be`) && error.message.includes(bad), `${name}=${bad}`);
  }
});

describe('the cache in the app', () => {
  let app: TestApp;
  before(async () => {
    app = await startTestApp(await writeSebraSnapshot(fixturePayments, fixtureDays));
  });
  after(() => app?.close());

  test('a repeated request is a hit with the same bytes; each format is its own entry; /healthz reports it', async () => {
    const health = async () => (await app.get('/healthz')).body.cache;
    const before = await health();
    assert.equal(before.max_bytes, 64 * MiB);
    const first = await app.get('/api/sebra/getTaxonomyForYear/2024');
    const second = await app.get('/api/sebra/getTaxonomyForYear/2024');
    assert.equal(first.status, 200);
    assert.deepEqual(Buffer.from(second.raw), Buffer.from(first.raw));
    assert.match(second.headers.get('content-type') ?? '', /^application\/json; charset=utf-8/);
    const csv1 = await app.get('/api/sebra/getTaxonomyForYear/2024', { Accept: 'text/csv' });
    const csv2 = await app.get('/api/sebra/getTaxonomyForYear/2024?format=csv');
    assert.match(csv2.headers.get('content-type') ?? '', /^text\/csv/);
    assert.match(csv2.headers.get('content-disposition') ?? '', /getTaxonomyForYear\.csv/);
    assert.deepEqual(Buffer.from(csv2.raw), Buffer.from(csv1.raw));
    const after = await health();
    assert.equal(after.misses - before.misses, 2, 'JSON once, CSV once');
    assert.equal(after.hits - before.hits, 2);
    assert.equal(after.entries - before.entries, 2);
    const jsonBytes = first.raw.byteLength;
    const csvBytes = csv1.raw.byteLength;
    assert.ok(after.bytes - before.bytes >= jsonBytes + csvBytes, 'the cache counts the encoded bytes');
    assert.ok(after.bytes - before.bytes <= jsonBytes + csvBytes + 2 * 600, 'and little else');
    assert.equal(after.hit_rate, Math.round((after.hits / (after.hits + after.misses)) * 10_000) / 10_000);
  });

  test('an app given a small cache keeps answers under its bound and skips answers over the per-answer limit', async () => {
    const cache = new ResponseCache({ maxBytes: 4096, maxAnswerBytes: 1024 });
    const small = await createApp({ db: app.db, routes, now: () => FIXED_NOW, logError: () => undefined, cache });
    const server = small.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      for (const year of [2023, 2024, 2025, 2026]) {
        for (const format of ['json', 'csv']) await (await fetch(`${base}/api/sebra/getTaxonomyForYear/${year}?format=${format}`)).arrayBuffer();
      }
      const stats = (await (await fetch(`${base}/healthz`)).json()).cache;
      assert.ok(stats.bytes <= 4096, JSON.stringify(stats));
      assert.equal(stats.max_bytes, 4096);
      assert.equal(stats.misses, 8);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
