// The free paths over HTTP on a server whose payments are live and whose loopback exemption is
// off (so the test client must pay for data): no free path ever answers 402, every document has
// its content type with charset, public caching with an ETag, 304 on If-None-Match, HEAD without
// a body; /.well-known/x402 lists exactly what the paid routes' real 402 challenges ask for.
// The facilitator is a stand-in that only answers /supported (nothing here is ever paid).
import assert from 'node:assert/strict';
import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import type { Database } from '../../engine/database.ts';
import { createApp } from '../../http/app.ts';
import { buildOpenApi } from '../../http/docs/openapi.ts';
import { computeExampleAnswers } from '../../http/docs/exampleAnswers.ts';
import { isoToday } from '../../queries/shared/window.ts';
import { buildLlmsTxt } from '../../http/docs/llms.ts';
import { paymentInfoFromSettings } from '../../http/docs/paymentInfo.ts';
import { readPaymentSettings } from '../../http/payments/config.ts';
import { createPayments } from '../../http/payments/index.ts';
import { openSnapshot } from '../../http/openSnapshot.ts';
import { routes } from '../../domains/index.ts';
import { FIXED_NOW } from '../helpers/app.ts';
import { tempDirUntilExit } from '../helpers/tmp.ts';

const PAY_TO = '0x1111111111111111111111111111111111111111';
const NETWORKS = ['eip155:8453', 'eip155:137', 'eip155:42161'];
const tags = [...new Set(routes.map((route) => route.tag))];

/** Every free path, with the content type it must have. */
const FREE: Array<[string, string]> = [
  ['/api', 'text/html; charset=utf-8'],
  ['/api/', 'text/html; charset=utf-8'],
  ['/api/docs', 'text/html; charset=utf-8'],
  ['/api/docs.md', 'text/markdown; charset=utf-8'],
  ['/docs', 'text/html; charset=utf-8'],
  ...tags.map((tag): [string, string] => [`/docs/${tag}/`, 'text/html; charset=utf-8']),
  ['/openapi.json', 'application/json; charset=utf-8'],
  ['/llms.txt', 'text/plain; charset=utf-8'],
  ['/.well-known/x402', 'application/json; charset=utf-8'],
  ['/robots.txt', 'text/plain; charset=utf-8'],
  ['/sitemap.xml', 'application/xml; charset=utf-8'],
];

let base: string;
let server: Server;
let facilitator: Server;
let db: Database;
const settings = () => readPaymentSettings({ X402_PAY_TO: PAY_TO, X402_FACILITATOR_URL: facilitatorUrl, X402_EXEMPT_LOOPBACK: 'false', X402_NETWORKS: NETWORKS.join(',') });
let facilitatorUrl: string;

async function listen(target: Server): Promise<string> {
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', () => resolve()));
  return `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
}

before(async () => {
  facilitator = createServer((request, response) => {
    if (request.url?.endsWith('/supported')) {
      response.setHeader('Content-Type', 'application/json');
      response.end(JSON.stringify({ kinds: NETWORKS.map((network) => ({ x402Version: 2, scheme: 'exact', network })), extensions: [], signers: {} }));
    } else {
      response.statusCode = 500;
      response.end('{}');
    }
  });
  facilitatorUrl = await listen(facilitator);
  db = await openSnapshot(await tempDirUntilExit('docs-http-'));
  server = createServer();
  base = await listen(server);
  const payments = createPayments({ routes, settings: settings(), baseUrl: base, now: () => FIXED_NOW, log: () => undefined });
  await payments.start();
  const app = await createApp({
    db,
    routes,
    now: () => FIXED_NOW,
    beforeHandler: [payments.middleware],
    logError: () => undefined,
    log: () => undefined,
    docs: { baseUrl: base, payment: paymentInfoFromSettings(settings()) },
  });
  // Koa's handler answers its own errors: its promise never rejects.
  const handle = app.callback();
  server.on('request', (request, response) => void handle(request, response));
});

after(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await new Promise((resolve) => facilitator?.close(resolve));
  await db?.close();
});

/** A GET through node:http: fetch turns If-None-Match into an end-to-end reload (no-cache). */
function rawGet(pathname: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    get(base + pathname, { headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    }).on('error', reject);
  });
}

test('control: a paid route answers the unpaying loopback client 402 with a challenge', async () => {
  const response = await fetch(base + routes[0]!.examples[0]!);
  assert.equal(response.status, 402);
  assert.ok(response.headers.get('PAYMENT-REQUIRED'));
});

describe('every free path', () => {
  for (const [pathname, type] of FREE) {
    test(`${pathname}: 200 ${type}, cacheable with an ETag, never 402`, async () => {
      const response = await fetch(base + pathname);
      const body = await response.text();
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('PAYMENT-REQUIRED'), null);
      assert.equal(response.headers.get('content-type'), type);
      assert.equal(response.headers.get('cache-control'), 'public, max-age=300');
      assert.match(response.headers.get('etag') ?? '', /^W\/"[A-Za-z0-9_-]{20,}"$/);
      assert.ok(body.length > 0);
      if (type.startsWith('text/html')) assert.match(response.headers.get('content-security-policy') ?? '', /default-src 'none'/);

      const head = await fetch(base + pathname, { method: 'HEAD' });
      assert.equal(head.status, 200);
      assert.equal(await head.text(), '');
      assert.equal(head.headers.get('etag'), response.headers.get('etag'));
      assert.equal(head.headers.get('content-type'), type);
      assert.equal(Number(head.headers.get('content-length')), Buffer.byteLength(body));

      const revalidated = await rawGet(pathname, { 'If-None-Match': response.headers.get('etag')! });
      assert.equal(revalidated.status, 304);
      assert.equal(revalidated.body, '');
      const stale = await rawGet(pathname, { 'If-None-Match': '"not-the-current-etag"' });
      assert.equal(stale.status, 200);
      assert.equal(stale.body, body);
    });
  }
});

test('the documents served are the generators\' output for this server\'s base address', async () => {
  // With the example answers the server computed on this (empty) snapshot (issue 19).
  const examples = await computeExampleAnswers({ db, routes, today: () => isoToday(FIXED_NOW, 'Europe/Sofia') });
  const input = { routes, baseUrl: base, payment: paymentInfoFromSettings(settings()), examples };
  const openapi = await (await fetch(`${base}/openapi.json`)).json();
  assert.deepEqual(openapi, JSON.parse(JSON.stringify(buildOpenApi(input))));
  assert.deepEqual(openapi.servers, [{ url: base }]);
  assert.equal(await (await fetch(`${base}/llms.txt`)).text(), buildLlmsTxt(input));
});

test('/.well-known/x402 asks for exactly what each paid route\'s 402 challenge asks for', async () => {
  const discovery = await (await fetch(`${base}/.well-known/x402`)).json();
  const paidForms = routes.filter((route) => route.paid).reduce((sum, route) => sum + route.paths.length, 0);
  assert.equal(discovery.resources.length, paidForms);
  for (const item of discovery.items) {
    // The MCP tools' items: test/mcp/httpPaid.test.ts.
    if (item.type === 'mcp') continue;
    // A body route is called as its discovery extension says: POST with the example JSON body.
    const input = item.extensions.bazaar.info.input;
    const response = await fetch(item.resource, input.bodyType === 'json' ? { method: input.method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(input.body) } : {});
    // The snapshot here is empty, so a route gated on licensed series refuses before any challenge.
    const gated = routes.find((route) => route.gate && route.paths.some((template) => new RegExp(`${template.replace(/\{[^{}]+\}/g, '[^/?]+')}(\\?|$)`).test(item.resource)));
    if (gated) {
      assert.equal(response.status, 451, item.resource);
      assert.equal((await response.json()).error.code, gated.gate!.code);
      continue;
    }
    assert.equal(response.status, 402, item.resource);
    const challenge = decodePaymentRequiredHeader(response.headers.get('PAYMENT-REQUIRED')!);
    assert.equal(challenge.resource.url, item.resource);
    assert.deepEqual(item.accepts, JSON.parse(JSON.stringify(challenge.accepts)), item.resource);
    assert.deepEqual(item.accepts.map((accept: any) => accept.payTo), NETWORKS.map(() => PAY_TO));
    assert.deepEqual(item.extensions.bazaar.info, (challenge.extensions as any).bazaar.info, item.resource);
  }
});

test('unknown domain: 404 JSON for API clients, an HTML page for browsers; a domain without its slash redirects', async () => {
  const json = await fetch(`${base}/docs/no-such-domain/`, { headers: { Accept: 'application/json' } });
  assert.equal(json.status, 404);
  const body = await json.json();
  assert.equal(body.error.code, 'not_found');
  assert.equal(body.error.status, 404);
  const html = await fetch(`${base}/docs/no-such-domain/`, { headers: { Accept: 'text/html' } });
  assert.equal(html.status, 404);
  assert.equal(html.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.match(await html.text(), /Not found/);
  const redirect = await fetch(`${base}/docs/${tags[0]}`, { redirect: 'manual' });
  assert.equal(redirect.status, 301);
  assert.equal(redirect.headers.get('location'), `/docs/${tags[0]}/`);
  const unknown = await fetch(`${base}/docs/no-such-domain`, { redirect: 'manual' });
  assert.equal(unknown.status, 404);
});

test('other methods on a free path are a 405 JSON naming the allowed ones', async () => {
  const response = await fetch(`${base}/openapi.json`, { method: 'POST' });
  assert.equal(response.status, 405);
  assert.match(response.headers.get('allow') ?? '', /GET/);
  assert.equal((await response.json()).error.code, 'method_not_allowed');
});
