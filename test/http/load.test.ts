// The bound on answers computed at once (CONCURRENT_ANSWERS, ANSWER_QUEUE; http/pipeline/concurrency.ts)
// and a bounded load test. The expensive route reads 40,000 rows from DuckDB and answers them as JSON:
// the engine's part runs off the event loop, but turning the rows into objects and encoding them does
// not. Unbounded, eight such requests finish their engine part together and then hold the event loop
// back to back, so a cheap request (a repeated answer, served before Koa) waits for all eight encodings;
// bounded to one at a time, it waits for at most one. Measured here (2 shared cores, other work running,
// 8,000 rows): cheap p99 alone 11-53 ms; with eight expensive requests, bounded (1) 12-33 ms, unbounded
// 87-182 ms (20,000 rows: bounded 190-260 ms, unbounded 200-440 ms: one answer's encoding is then itself long).
// The timing bound is generous; the count of answers computed at once is exact.
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { createApp } from '../../http/app.ts';
import { AnswerSlots } from '../../http/pipeline/concurrency.ts';
import { openSnapshot } from '../../http/openSnapshot.ts';
import { routes } from '../../domains/index.ts';
import type { Database } from '../../engine/database.ts';
import type { Route } from '../../queries/catalog.ts';
import { FIXED_NOW } from '../helpers/app.ts';
import { writeSebraSnapshot } from '../helpers/snapshot.ts';
import { fixtureDays, fixturePayments } from '../queries/sebra-fixture.ts';

let db: Database;
before(async () => {
  db = await openSnapshot(await writeSebraSnapshot(fixturePayments, fixtureDays));
});
after(() => db.close());

const EXPENSIVE_ROWS = 8_000;
/** Expensive handlers running now, and the most seen at once. */
const expensiveRunning = { now: 0, most: 0 };
/** Many rows read from the engine, turned into objects and (by the answer stage) into JSON: mostly event-loop work. */
async function expensiveAnswer(params: Record<string, unknown>, context: { db: Database }): Promise<never> {
  const rows = await context.db.all(`SELECT i, i * 7 AS n, md5(i::VARCHAR) AS h, 'row ' || i AS label FROM range(${EXPENSIVE_ROWS}) t(i)`);
  return { year: params.year, rows } as never;
}

/** When set, the held route's handler waits for it (to fill the slots on purpose). */
let hold: Promise<void> | null = null;

/** The SEBRA routes; getTaxonomyForYear made expensive (many rows through JSON), getTaxonomyForPeriod a small answer held by `hold`. */
const testRoutes: Route[] = routes.filter((route) => route.tag === 'sebra').map((route) => {
  if (route.id.toLowerCase().includes('taxonomyforyear')) {
    return {
      ...route,
      handle: async (params, context) => {
        expensiveRunning.now += 1;
        expensiveRunning.most = Math.max(expensiveRunning.most, expensiveRunning.now);
        try {
          return await expensiveAnswer(params, context);
        } finally {
          expensiveRunning.now -= 1;
        }
      },
    };
  }
  if (route.id.toLowerCase().includes('taxonomyforperiod')) {
    return {
      ...route,
      handle: async (params) => {
        if (hold) await hold;
        return { from: params.from, to: params.to } as never;
      },
    };
  }
  return route;
});

async function serve(slots?: AnswerSlots) {
  const app = await createApp({ db, routes: testRoutes, now: () => FIXED_NOW, logError: () => undefined, answerSlots: slots });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    get: (path: string) => fetch(base + path),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const CHEAP = '/api/sebra/getPeriodsWithMostPayments?days&limit=3';
const expensive = (index: number) => `/api/sebra/getTaxonomyForYear/${2000 + index}`;

/** Waits until `done()` (5 s at most: then the test fails rather than hangs). */
async function until(done: () => boolean): Promise<void> {
  const deadline = performance.now() + 5000;
  while (!done()) {
    assert.ok(performance.now() < deadline, 'timed out waiting for the slots');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function p99(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)]!;
}

/** The cheap route's latencies, one request at a time, while `during` runs (at least `minimum` samples). */
async function cheapLatencies(app: Awaited<ReturnType<typeof serve>>, during: Promise<unknown>, minimum: number): Promise<number[]> {
  let done = false;
  void during.finally(() => (done = true));
  const samples: number[] = [];
  while (!done || samples.length < minimum) {
    const started = performance.now();
    const response = await app.get(CHEAP);
    await response.arrayBuffer();
    samples.push(performance.now() - started);
    assert.equal(response.status, 200);
    if (!done) await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return samples;
}

/** The cheap route's p99 alone and while eight expensive requests run. */
async function measure(slots?: AnswerSlots): Promise<{ unloaded: number; loaded: number; mostAtOnce: number }> {
  const app = await serve(slots);
  expensiveRunning.most = 0;
  try {
    // Warm: the cheap answer is recorded (then replayed), the engine has read its tables.
    await (await app.get(CHEAP)).arrayBuffer();
    await (await app.get(expensive(99))).arrayBuffer();
    const unloaded = p99(await cheapLatencies(app, Promise.resolve(), 40));
    const eight = Promise.all(Array.from({ length: 8 }, async (_, index) => {
      const response = await app.get(expensive(index));
      await response.arrayBuffer();
      assert.equal(response.status, 200);
    }));
    const loaded = p99(await cheapLatencies(app, eight, 20));
    await eight;
    return { unloaded, loaded, mostAtOnce: expensiveRunning.most };
  } finally {
    await app.close();
  }
}

test('load: a cheap route keeps its p99 while eight expensive answers queue for one computing slot', async (t) => {
  const unbounded = await measure();
  const bounded = await measure(new AnswerSlots(1, 16));
  t.diagnostic(`cheap p99: unloaded ${bounded.unloaded.toFixed(1)} ms; loaded, bounded (1) ${bounded.loaded.toFixed(1)} ms; loaded, unbounded ${unbounded.loaded.toFixed(1)} ms`);
  // The bound holds: one expensive answer computed at a time (unbounded, the engine's three connections ran three).
  assert.equal(bounded.mostAtOnce, 1);
  assert.ok(unbounded.mostAtOnce > 1, `unbounded, ${unbounded.mostAtOnce} computed at once`);
  assert.ok(bounded.loaded < bounded.unloaded + 250, `bounded: p99 ${bounded.loaded.toFixed(0)} ms under load against ${bounded.unloaded.toFixed(0)} ms alone`);
});

test('past the queue: 503 with Retry-After and the JSON error; cache hits and /healthz do not wait; a client that leaves leaves the queue', async () => {
  const slots = new AnswerSlots(1, 1);
  const app = await serve(slots);
  let release!: () => void;
  hold = new Promise((resolve) => (release = resolve));
  try {
    // A cached answer before the slots fill.
    await (await app.get(CHEAP)).arrayBuffer();
    const computing = app.get('/api/sebra/getTaxonomyForPeriod?from=01-2026&to=06-2026');
    await until(() => slots.load.running >= 1);
    const waiting = app.get('/api/sebra/getTaxonomyForPeriod?from=02-2026&to=06-2026');
    await until(() => slots.load.waiting >= 1);
    const refused = await app.get('/api/sebra/getTaxonomyForPeriod?from=03-2026&to=06-2026');
    assert.equal(refused.status, 503);
    assert.equal(refused.headers.get('retry-after'), '1');
    const body = (await refused.json()) as { error: Record<string, unknown> };
    assert.deepEqual(Object.keys(body.error), ['status', 'code', 'message', 'param', 'request_id']);
    assert.equal(body.error.code, 'overloaded');
    // Not computed: answered at once while both slots are taken.
    assert.equal((await app.get(CHEAP)).status, 200);
    assert.equal((await app.get('/healthz')).status, 200);

    release();
    hold = null;
    assert.equal((await computing).status, 200);
    assert.equal((await waiting).status, 200);
    assert.deepEqual(slots.load, { running: 0, waiting: 0 });

    // A waiting client that disconnects is taken out of the queue.
    let releaseAgain!: () => void;
    hold = new Promise((resolve) => (releaseAgain = resolve));
    const first = app.get('/api/sebra/getTaxonomyForPeriod?from=04-2026&to=06-2026');
    await until(() => slots.load.running >= 1);
    const leaving = net.connect(Number(new URL(app.base).port), '127.0.0.1');
    leaving.on('error', () => undefined);
    leaving.write('GET /api/sebra/getTaxonomyForPeriod?from=05-2026&to=06-2026 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await until(() => slots.load.waiting >= 1);
    leaving.destroy();
    const deadline = performance.now() + 3000;
    while (slots.load.waiting > 0 && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal(slots.load.waiting, 0, 'the disconnected request left the queue');
    releaseAgain();
    hold = null;
    assert.equal((await first).status, 200);
    assert.deepEqual(slots.load, { running: 0, waiting: 0 });
  } finally {
    hold = null;
    release();
    await app.close();
  }
});
