// The request pipeline (issue 32): the route is matched once per request and travels as one typed
// RequestMatch (no ctx.state keys); the path forms' behaviour (HEAD, trailing slash, case, 405 with
// Allow, plain OPTIONS, unknown paths) and /healthz, built in one place, over the SEBRA fixture.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type Koa from 'koa';
import { createApp } from '../../http/app.ts';
import { Dispatcher, warmValidators } from '../../http/dispatch.ts';
import { matchOf, type RequestMatch } from '../../http/pipeline/index.ts';
import { openSnapshot } from '../../http/openSnapshot.ts';
import { routes } from '../../domains/index.ts';
import type { Database } from '../../engine/database.ts';
import { heldViews } from '../../engine/held.ts';
import type { Route } from '../../queries/catalog.ts';
import { FIXED_NOW } from '../helpers/app.ts';
import { writeSebraSnapshot } from '../helpers/snapshot.ts';
import { fixtureDays, fixturePayments } from '../queries/sebra-fixture.ts';

const TAXONOMY = '/api/sebra/getTaxonomyForYear/2024';
const POST_ROUTE = routes.find((route) => route.method === 'POST')!;

interface Seen {
  match: RequestMatch | undefined;
  stateKeys: string[];
  /** Whether the answer was there when the payment stage ran. */
  answered: boolean;
}

let db: Database;
let server: Server;
let base: string;
/** What the stand-in payment stage saw of the last request that reached it. */
let seen: Seen | undefined;
/** The last request the stand-in payment stage saw (read through a function: a test resets `seen`). */
function lastSeen(): Seen {
  assert.ok(seen, 'the payment stage saw the request');
  return seen;
}
/** The paths the catalog was matched against (the docs' example answers match theirs too: filtered by path). */
let findPathCalls: string[] = [];
const originalFindPath = Dispatcher.prototype.findPath;

function raw(method: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: url.hostname, port: url.port, method, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    request.on('error', reject);
    request.end();
  });
}

before(async () => {
  db = await openSnapshot(await writeSebraSnapshot(fixturePayments, fixtureDays));
  Dispatcher.prototype.findPath = function (this: Dispatcher, ...args: Parameters<Dispatcher['findPath']>) {
    findPathCalls.push(args[1]);
    return originalFindPath.apply(this, args);
  };
  const standInPayment: Koa.Middleware = async (ctx, next) => {
    seen = { match: matchOf(ctx), stateKeys: Object.keys(ctx.state), answered: matchOf(ctx)?.answer !== undefined };
    await next();
  };
  const app = await createApp({
    db, routes, now: () => FIXED_NOW, logError: () => undefined,
    beforeHandler: [standInPayment],
    needsPayment: (route: Route, request) => route.paid && request.headers['x-test-exempt'] !== 'yes',
  });
  server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  Dispatcher.prototype.findPath = originalFindPath;
  await new Promise((resolve) => server?.close(resolve));
  await db?.close();
});

describe('one match per request', () => {
  test('every request is matched against the catalog exactly once, whatever it asks for', async () => {
    for (const [method, path] of [['GET', TAXONOMY], ['HEAD', TAXONOMY], ['GET', '/api/sebra/getTaxonomyForYear/abc'], ['PUT', TAXONOMY], ['OPTIONS', TAXONOMY], ['GET', '/healthz'], ['GET', '/openapi.json'], ['GET', '/api/nosuch'], ['TRACE', '/nowhere']] as const) {
      findPathCalls = [];
      // Not exempt: a replay by the fast path would not reach the pipeline at all.
      await raw(method, path);
      assert.equal(findPathCalls.filter((matched) => matched === path).length, 1, `${method} ${path}`);
    }
  });

  test('the payment stage reads one typed match: route, path form, validated parameters, format, paid, needs payment; ctx.state stays empty', async () => {
    seen = undefined;
    const answer = await raw('GET', `${TAXONOMY}/?currency=EUR`, { Accept: 'text/csv' });
    assert.equal(answer.status, 200, answer.text);
    const first = lastSeen();
    const { match } = first;
    assert.ok(match);
    assert.equal(match.route.id, 'getTaxonomyForYear');
    assert.equal(match.pathForm, '/api/sebra/getTaxonomyForYear/{year}');
    assert.deepEqual(match.pathParams, { year: '2024' });
    assert.equal(match.methodTaken, true);
    assert.deepEqual(match.routeMethods, ['GET']);
    assert.equal(match.paid, true);
    assert.equal(match.needsPayment, true);
    assert.equal(match.validated?.params.year, 2024, 'typed: a number once validated');
    assert.equal(match.validated?.params.currency, 'EUR');
    assert.equal(match.validated?.format, 'csv');
    assert.equal(first.answered, false, 'the answer comes after the payment check');
    assert.equal(match.answer?.type, 'text/csv; charset=utf-8');
    assert.deepEqual(first.stateKeys, []);
    await raw('GET', TAXONOMY, { 'X-Test-Exempt': 'yes' });
    assert.equal(lastSeen().match?.needsPayment, false, 'an exempt client');
  });

  test('an invalid request stops at validation: the payment stage never sees it', async () => {
    seen = undefined;
    const answer = await raw('GET', '/api/sebra/getTaxonomyForYear/abc');
    assert.equal(answer.status, 400);
    assert.equal(seen as Seen | undefined, undefined);
  });
});

describe('path forms and methods', () => {
  test('HEAD, a trailing slash and another case reach the same route as GET', async () => {
    const get = await raw('GET', TAXONOMY);
    assert.equal(get.status, 200);
    for (const path of [`${TAXONOMY}/`, TAXONOMY.toUpperCase()]) {
      const other = await raw('GET', path);
      assert.equal(other.status, 200, path);
      assert.equal(other.text, get.text, path);
    }
    const head = await raw('HEAD', TAXONOMY);
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
    assert.equal(head.headers['content-length'], String(Buffer.byteLength(get.text)));
  });

  test('another method on a catalog path: JSON 405 with Allow; a plain OPTIONS: empty 200 with Allow', async () => {
    for (const method of ['PUT', 'DELETE', 'TRACE', 'POST']) {
      const answer = await raw(method, TAXONOMY);
      assert.equal(answer.status, 405, method);
      assert.equal(answer.headers.allow, 'HEAD, GET', method);
      assert.equal(JSON.parse(answer.text).error.message, `${method} is not allowed on ${TAXONOMY}; allowed: HEAD, GET`);
    }
    const get = await raw('GET', POST_ROUTE.paths[0]!);
    assert.equal(get.status, 405);
    assert.equal(get.headers.allow, 'POST');
    const options = await raw('OPTIONS', TAXONOMY);
    assert.equal(options.status, 200);
    assert.equal(options.headers.allow, 'HEAD, GET');
    assert.equal(options.text, '');
  });

  test('an unknown path is a JSON 404; an unknown method on it a JSON 405 allowing nothing', async () => {
    const unknown = await raw('GET', '/api/sebra/nosuch');
    assert.equal(unknown.status, 404);
    assert.deepEqual(JSON.parse(unknown.text).error, { status: 404, code: 'not_found', message: 'no such path: /api/sebra/nosuch', param: null, request_id: unknown.headers['x-request-id'] });
    const trace = await raw('TRACE', '/nowhere');
    assert.equal(trace.status, 405);
    assert.equal(JSON.parse(trace.text).error.message, 'TRACE is not allowed on /nowhere; allowed: none');
  });
});

test('/healthz: one answer with the snapshot, the cache, the held views and the data origin, no-store; GET and HEAD only', async () => {
  await raw('GET', TAXONOMY);
  const answer = await raw('GET', '/healthz');
  assert.equal(answer.status, 200);
  assert.equal(answer.headers['cache-control'], 'no-store');
  const body = JSON.parse(answer.text);
  assert.deepEqual(Object.keys(body), ['status', 'import_date', 'cache', 'held', 'data', 'sources']);
  assert.equal(body.status, 'ok');
  // Every declared view is named, each with its state; the held ones' bytes add up to the total.
  assert.deepEqual(body.held.views.map((view: { name: string }) => view.name), [...heldViews().keys()].sort());
  const heldBytes = body.held.views.filter((view: { state: string }) => view.state.startsWith('held')).reduce((sum: number, view: { bytes: number }) => sum + view.bytes, 0);
  assert.ok(heldBytes > 0, 'the taxonomy request held some view');
  assert.equal(body.held.bytes, heldBytes);
  assert.ok(body.held.budget_bytes >= body.held.bytes);
  const post = await raw('POST', '/healthz');
  assert.equal(post.status, 405);
  assert.equal(post.headers.allow, 'GET, HEAD');
  assert.equal(post.headers['cache-control'], undefined);
});

test('a catalog path in another case gets the same headers: CORS, Vary and, on a paid route, private, no-store', async () => {
  const lower = await raw('GET', TAXONOMY, { Origin: 'https://example.org' });
  const upper = await raw('GET', TAXONOMY.toUpperCase(), { Origin: 'https://example.org' });
  assert.equal(upper.status, lower.status);
  for (const name of ['cache-control', 'access-control-allow-origin', 'x-content-type-options']) {
    assert.equal(upper.headers[name], lower.headers[name], name);
  }
  assert.equal(upper.headers['cache-control'], 'private, no-store');
});

test('parameter validators compile on first use; warmValidators compiles every route\'s', async () => {
  // Copies of the routes: endpoints are kept per route object, and the catalog's are this process's app's.
  const own = routes.map((route) => ({ ...route }));
  const dispatcher = new Dispatcher({ db, routes: own, today: () => '2026-11-22' });
  assert.ok(dispatcher.endpoints.length > own.length / 2);
  assert.deepEqual(dispatcher.endpoints.filter((endpoint) => endpoint.validateParams.compiled), [], 'none compiled when built');

  const taxonomy = dispatcher.match('GET', TAXONOMY);
  assert.throws(() => taxonomy.endpoint.validateParams({ currency: 'XYZ' }, taxonomy.pathParams), (error: { param?: string }) => error.param === 'currency');
  assert.deepEqual(taxonomy.endpoint.validateParams({}, taxonomy.pathParams), { year: 2024 }, 'currency is optional, without a default');
  assert.deepEqual(dispatcher.endpoints.filter((endpoint) => endpoint.validateParams.compiled).map((endpoint) => endpoint.path), [taxonomy.endpoint.path], 'only the one used');

  const bodies = dispatcher.endpoints.filter((endpoint) => endpoint.validateBody !== null);
  assert.ok(bodies.length > 0 && bodies.every((endpoint) => !endpoint.validateBody!.compiled), 'no body validator compiled when built');
  await warmValidators(own);
  assert.deepEqual(dispatcher.endpoints.filter((endpoint) => !endpoint.validateParams.compiled), [], 'every one compiled');
  assert.ok(bodies.every((endpoint) => endpoint.validateBody!.compiled), 'and every body validator');
  assert.deepEqual(taxonomy.endpoint.validateParams({ currency: 'eur' }, taxonomy.pathParams), { year: 2024, currency: 'EUR' });
});
