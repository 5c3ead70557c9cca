// The query string is bounded (MAX_QUERY_BYTES, MAX_QUERY_PARAMETERS) and refused before anything
// parses it: Koa's ctx.query calls getAll() per key, so 8,000 keys (16 KB, unpaid) held the event
// loop. Measured with this file on the code before the bound (2 shared cores, other work running):
// the 8,000-key request took 1.8 s, and /healthz's median was 1.86 s while two connections sent it
// (the whole file ran 92 s). Bounded: the refusal takes ~5-70 ms, /healthz's median a few ms.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MAX_QUERY_BYTES, MAX_QUERY_PARAMETERS, parseQuery, queryBoundsError } from '../../http/query.ts';
import { startTestApp, withoutRequestId, type TestApp } from '../helpers/app.ts';
import { writeSebraSnapshot } from '../helpers/snapshot.ts';
import { fixtureDays, fixturePayments } from '../queries/sebra-fixture.ts';

let app: TestApp;
before(async () => {
  app = await startTestApp(await writeSebraSnapshot(fixturePayments, fixtureDays));
});
after(() => app.close());

const ROUTE = '/api/sebra/getTaxonomyForYear/2024';
/** 8,000 keys, 16 KB: the request of the issue (one key repeated, the worst case for getAll). */
const HOSTILE = `${ROUTE}?${Array.from({ length: 8000 }, () => 'k').join('&')}`;

test('the bounds are the stated numbers', () => {
  assert.equal(MAX_QUERY_BYTES, 4096);
  assert.equal(MAX_QUERY_PARAMETERS, 100);
});

test('8,000 query keys (16 KB): 414 with the JSON error, in well under the old time', async () => {
  // A warm-up request, so the timing below is the refusal's, not the first connection's.
  await app.get(`${ROUTE}?a=1`);
  const started = performance.now();
  const { status, body } = await app.get(HOSTILE);
  const ms = performance.now() - started;
  assert.equal(status, 414);
  assert.deepEqual(withoutRequestId(body).error, { status: 414, code: 'uri_too_long', message: 'the query string is longer than 4096 bytes', param: null });
  assert.ok(ms < 200, `refused in ${ms.toFixed(0)} ms (the quadratic parse took over 1 s)`);
});

test('101 parameters within 4 KB: 400 naming the first parameter past the bound', async () => {
  const keys = Array.from({ length: 150 }, (_, index) => `k${index}`);
  const { status, body } = await app.get(`${ROUTE}?${keys.join('&')}`);
  assert.equal(status, 400);
  assert.deepEqual(withoutRequestId(body).error, {
    status: 400,
    code: 'invalid_parameter',
    message: 'a request takes at most 100 query parameters; k100 is past them',
    param: 'k100',
  });
});

test('a query longer than 4 KB: 414 with the JSON error, whatever its parameter count', async () => {
  const { status, body } = await app.get(`${ROUTE}?q=${'x'.repeat(MAX_QUERY_BYTES)}`);
  assert.equal(status, 414);
  assert.deepEqual(withoutRequestId(body).error, { status: 414, code: 'uri_too_long', message: 'the query string is longer than 4096 bytes', param: null });
  // Non-ASCII text is counted in bytes: 1,400 copies of a 3-byte character (percent-encoded, 9 bytes each) is past it too.
  const encoded = encodeURIComponent('€'.repeat(1400));
  assert.equal((await app.get(`${ROUTE}?q=${encoded}`)).status, 414);
});

test('exactly 100 parameters and 4096 bytes pass the bound (the validator then names the unknown key)', async () => {
  const hundred = Array.from({ length: 100 }, (_, index) => `p${index}=1`).join('&');
  const { status, body } = await app.get(`${ROUTE}?${hundred}`);
  assert.equal(status, 400);
  assert.equal(body.error.param, 'p0');
  assert.match(body.error.message, /unknown parameter p0/);
  const exact = `${ROUTE}?format=json&pad=${'x'.repeat(MAX_QUERY_BYTES - 'format=json&pad='.length)}`;
  const answer = await app.get(exact);
  assert.equal(answer.status, 400);
  assert.equal(answer.body.error.param, 'pad');
});

test('/healthz stays fast while two connections send 8,000-key queries', async () => {
  let sending = true;
  const hostile = async () => {
    while (sending) await app.get(HOSTILE);
  };
  const senders = [hostile(), hostile()];
  const latencies: number[] = [];
  try {
    for (let index = 0; index < 30; index += 1) {
      const started = performance.now();
      const { status } = await app.get('/healthz');
      latencies.push(performance.now() - started);
      assert.equal(status, 200);
    }
  } finally {
    sending = false;
    await Promise.all(senders);
  }
  latencies.sort((a, b) => a - b);
  const median = latencies[Math.floor(latencies.length / 2)]!;
  // Generous for a loaded 2-core machine (135 ms seen under a full parallel test run); the quadratic parse gave 1-2 s.
  assert.ok(median < 500, `/healthz median ${median.toFixed(1)} ms under the hostile queries (over 1 s before the bound)`);
});

test('repeated keys are arrays in order, so a repeated parameter is still named as such', async () => {
  const query = parseQuery('year=2024&year=2025&a=1&year=2026');
  assert.deepEqual({ ...query }, { year: ['2024', '2025', '2026'], a: '1' });
  assert.equal(Object.getPrototypeOf(query), null);
  const { status, body } = await app.get(`${ROUTE.replace('/2024', '')}?year=2024&year=2025`);
  assert.equal(status, 400);
  assert.equal(body.error.param, 'year');
  assert.match(body.error.message, /given more than once/);
});

test('an inherited name as a key is an unknown parameter, never an object member', async () => {
  const query = parseQuery('__proto__=1&constructor=2');
  assert.equal(query.__proto__, '1');
  assert.equal(query.constructor, '2');
  const { status, body } = await app.get(`${ROUTE}?__proto__=x`);
  assert.equal(status, 400);
  assert.equal(body.error.param, '__proto__');
});

test('the parameter count skips empty pieces, as the parser does', () => {
  const empties = `a=1${'&'.repeat(500)}b=2`;
  assert.equal(queryBoundsError(empties), null);
  assert.deepEqual({ ...parseQuery(empties) }, { a: '1', b: '2' });
});
