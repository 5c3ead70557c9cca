// The HTTP details a public JSON API owes its clients (issue 17, item 8), on the SEBRA fixture:
// Vary: Accept where the format is negotiated, CORS on the data routes (preflight included),
// Cache-Control on paid and free answers, JSON 405 with Allow for methods nobody implements,
// /healthz GET and HEAD only.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { routes } from '../../domains/index.ts';
import { DOCS_MAX_AGE } from '../../http/docs/index.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { writeSebraSnapshot } from '../helpers/snapshot.ts';
import { fixtureDays, fixturePayments } from '../queries/sebra-fixture.ts';

const TAXONOMY = '/api/sebra/getTaxonomyForYear/2024';

let app: TestApp;
let base: URL;
before(async () => {
  app = await startTestApp(await writeSebraSnapshot(fixturePayments, fixtureDays));
  base = new URL((await app.request('/healthz')).url);
});
after(() => app.close());

/** A raw request (fetch refuses TRACE and some other methods). */
function raw(method: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: base.hostname, port: base.port, method, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    request.on('error', reject);
    request.end();
  });
}

function assertJsonError(answer: { status: number; headers: http.IncomingHttpHeaders; text: string }, status: number, code: string): void {
  assert.equal(answer.status, status, answer.text);
  assert.match(String(answer.headers['content-type']), /^application\/json/);
  const body = JSON.parse(answer.text);
  assert.deepEqual(Object.keys(body), ['error']);
  assert.equal(body.error.status, status);
  assert.equal(body.error.code, code);
  assert.equal(body.error.param, null);
}

describe('Vary: Accept', () => {
  test('a list route (JSON, CSV or Arrow by Accept) varies on Accept, in every format and on errors', async () => {
    for (const accept of ['application/json', 'text/csv', 'application/vnd.apache.arrow.stream']) {
      const response = await app.get(TAXONOMY, { Accept: accept });
      assert.equal(response.status, 200);
      assert.match(response.headers.get('vary') ?? '', /\bAccept\b/, accept);
    }
    const invalid = await app.get('/api/sebra/getTaxonomyForYear/abc');
    assert.equal(invalid.status, 400);
    assert.match(invalid.headers.get('vary') ?? '', /\bAccept\b/);
  });

  test('a documentation page that is not there (HTML or JSON by Accept) varies on Accept', async () => {
    for (const accept of ['text/html', 'application/json']) {
      const response = await app.get('/docs/nosuchdomain/', { Accept: accept });
      assert.equal(response.status, 404);
      assert.match(response.headers.get('content-type') ?? '', accept === 'text/html' ? /^text\/html/ : /^application\/json/);
      assert.match(response.headers.get('vary') ?? '', /\bAccept\b/, accept);
    }
  });

  test('a route without a list (JSON only) does not vary on Accept', async () => {
    const route = routes.find((candidate) => !candidate.listRows && candidate.method === 'GET' && !candidate.paths.some((p) => p.includes('{')))!;
    assert.ok(route, 'a GET route without listRows');
    const response = await app.get(route.examples[0]!);
    assert.doesNotMatch(response.headers.get('vary') ?? '', /\bAccept\b(?!-)/i, `${route.id}: ${response.status}`);
  });
});

describe('CORS on the data routes', () => {
  test('any origin; PAYMENT-REQUIRED and PAYMENT-RESPONSE exposed, on answers and errors', async () => {
    for (const path of [TAXONOMY, '/api/sebra/getTaxonomyForYear/abc']) {
      const response = await app.get(path, { Origin: 'https://wallet.example' });
      assert.equal(response.headers.get('access-control-allow-origin'), '*', path);
      const exposed = (response.headers.get('access-control-expose-headers') ?? '').split(/,\s*/).map((h) => h.toLowerCase());
      assert.ok(exposed.includes('payment-required') && exposed.includes('payment-response') && exposed.includes('x-data-source'), `${path}: ${exposed}`);
    }
  });

  test('a preflight is answered 204 allowing the route\'s methods and PAYMENT-SIGNATURE, Content-Type', async () => {
    const answer = await raw('OPTIONS', TAXONOMY, {
      Origin: 'https://wallet.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'payment-signature',
    });
    assert.equal(answer.status, 204);
    assert.equal(answer.headers['access-control-allow-origin'], '*');
    assert.deepEqual(String(answer.headers['access-control-allow-methods']).split(/,\s*/).sort(), ['GET', 'HEAD', 'OPTIONS']);
    const allowed = String(answer.headers['access-control-allow-headers']).toLowerCase().split(/,\s*/);
    assert.ok(allowed.includes('payment-signature') && allowed.includes('content-type'), allowed.join());
    assert.ok(Number(answer.headers['access-control-max-age']) > 0);
    assert.equal(answer.text, '');
    const post = routes.find((route) => route.method === 'POST');
    if (post) {
      const preflight = await raw('OPTIONS', post.paths[0]!, { Origin: 'https://x.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type, payment-signature' });
      assert.equal(preflight.status, 204);
      assert.match(String(preflight.headers['access-control-allow-methods']), /\bPOST\b/);
    }
  });

  test('the free documents keep their own CORS; unknown paths get none', async () => {
    const unknown = await app.get('/api/nosuch/route', { Origin: 'https://x.example' });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.headers.get('access-control-allow-origin'), null);
    const openapi = await app.get('/openapi.json', { Origin: 'https://x.example' });
    assert.equal(openapi.headers.get('access-control-allow-origin'), '*');
  });
});

describe('Cache-Control', () => {
  test('every answer of a paid route is private, no-store (answers and errors)', async () => {
    for (const path of [TAXONOMY, `${TAXONOMY}?format=csv`, '/api/sebra/getTaxonomyForYear/abc', '/api/sebra/getTaxonomyForYear/1990']) {
      const response = await app.get(path);
      assert.equal(response.headers.get('cache-control'), 'private, no-store', `${path}: ${response.status}`);
    }
  });

  test(`free documents: public, max-age=${DOCS_MAX_AGE} (a few minutes); /healthz: no-store`, async () => {
    assert.ok(DOCS_MAX_AGE > 0 && DOCS_MAX_AGE <= 3600);
    for (const path of ['/openapi.json', '/llms.txt', '/api/docs', '/.well-known/x402']) {
      const response = await app.get(path);
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get('cache-control'), `public, max-age=${DOCS_MAX_AGE}`, path);
    }
    assert.equal((await app.get('/healthz')).headers.get('cache-control'), 'no-store');
  });
});

describe('methods', () => {
  for (const method of ['TRACE', 'PROPFIND', 'MKCOL', 'PATCH', 'PUT', 'DELETE']) {
    test(`${method} on a data route is a JSON 405 naming GET in Allow`, async () => {
      const answer = await raw(method, TAXONOMY);
      assertJsonError(answer, 405, 'method_not_allowed');
      assert.match(String(answer.headers.allow), /\bGET\b/);
    });
  }

  test('TRACE and PROPFIND on a free document are a JSON 405 too', async () => {
    for (const method of ['TRACE', 'PROPFIND']) {
      const answer = await raw(method, '/openapi.json');
      assertJsonError(answer, 405, 'method_not_allowed');
      assert.match(String(answer.headers.allow), /\bGET\b/);
    }
  });

  test('/healthz answers GET and HEAD only', async () => {
    assert.equal((await raw('GET', '/healthz')).status, 200);
    const head = await raw('HEAD', '/healthz');
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND']) {
      const answer = await raw(method, '/healthz');
      assertJsonError(answer, 405, 'method_not_allowed');
      assert.equal(answer.headers.allow, 'GET, HEAD', method);
    }
  });
});
