// POST /api/v1/product/analyze over HTTP (no payments configured on this app: the route is served
// as to an exempt client): the answer against its schema, determinism on the wire, and every 400,
// 413 and 415 of the body contract, each naming what is wrong.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import { Database } from '../../engine/database.ts';
import { createApp } from '../../http/app.ts';
import { loadImports } from '../../queries/imports.ts';
import { exampleRequests } from '../../queries/catalog.ts';
import { PRODUCT_ANALYSIS_SCHEMA, PRODUCT_EXAMPLE_BODIES, analyzeProductRoute } from '../../domains/product/queries/analyze.ts';
const FIXED_NOW = new Date('2026-11-22T12:00:00Z');

const PATH = '/api/v1/product/analyze';
const VALID = PRODUCT_EXAMPLE_BODIES[0] as Record<string, unknown>;

let server: Server;
let db: Database;
let base: string;
let dataDir: string;

before(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'product-http-'));
  db = await Database.open();
  await loadImports(db, dataDir);
  const app = await createApp({ db, routes: [analyzeProductRoute], now: () => FIXED_NOW, logError: () => undefined });
  server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await db.close();
  await rm(dataDir, { recursive: true, force: true });
});

export function post(body: string | Buffer, contentType: string | null = 'application/json', extra: Record<string, string> = {}): Promise<Response> {
  const headers: Record<string, string> = { ...extra };
  if (contentType !== null) headers['Content-Type'] = contentType;
  return fetch(base + PATH, { method: 'POST', headers, body: typeof body === 'string' ? body : new Uint8Array(body) });
}

async function expectBodyError(response: Response, status: number, code: string, param: string | null): Promise<string> {
  const text = await response.text();
  assert.equal(response.status, status, text);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  const body = JSON.parse(text);
  assert.deepEqual(Object.keys(body), ['error']);
  assert.equal(body.error.status, status);
  assert.equal(body.error.code, code, text);
  assert.equal(body.error.param, param, text);
  assert.ok(body.error.message.length > 0);
  return body.error.message;
}

describe('answers', () => {
  test('every sample request answers 200 and matches the response schema', async () => {
    const validate = new Ajv({ strict: false, allowUnionTypes: true }).compile(PRODUCT_ANALYSIS_SCHEMA);
    const samples = exampleRequests(analyzeProductRoute);
    assert.equal(samples.length, PRODUCT_EXAMPLE_BODIES.length);
    for (const sample of samples) {
      const response = await post(JSON.stringify(sample.body));
      const body = await response.json();
      assert.equal(response.status, 200, JSON.stringify(body));
      assert.ok(validate(body), JSON.stringify(validate.errors));
      assert.equal(body.endpoint, 'product_analyze');
      assert.equal(body.api_version, 'v1');
    }
  });

  test('the Bulgarian sample: language, category, attributes, issues', async () => {
    const body = await (await post(JSON.stringify(PRODUCT_EXAMPLE_BODIES[1]))).json();
    assert.equal(body.language.code, 'bg');
    assert.equal(body.product.category.id, '3.1.1');
    assert.equal(body.product.category.path_local, 'Електроника > Комуникации > Мобилни телефони');
    assert.equal(body.attributes.color, 'black');
    assert.equal(body.attributes.storage, '128 GB');
    assert.deepEqual(body.issues.map((issue: { code: string }) => issue.code), [
      'TITLE_ALL_CAPS', 'TITLE_EXCESSIVE_PUNCTUATION', 'TITLE_PROMOTIONAL', 'SKU_MISSING', 'DESCRIPTION_SHORT', 'DESCRIPTION_HAS_HTML',
    ]);
    assert.equal(body.product.normalized_title, 'Смартфон Samsung Galaxy A55 128GB черен промоция');
    assert.equal(body.seo.suggested_title, 'Смартфон Samsung Galaxy A55 128GB черен');
  });

  test('byte-identical answers for the same body; a charset parameter and key order of the body do not matter', async () => {
    const first = Buffer.from(await (await post(JSON.stringify(VALID))).arrayBuffer());
    const second = Buffer.from(await (await post(JSON.stringify(VALID), 'application/json; charset=utf-8')).arrayBuffer());
    const reordered = Object.fromEntries(Object.entries(VALID).reverse());
    const third = Buffer.from(await (await post(JSON.stringify(reordered), 'Application/JSON')).arrayBuffer());
    assert.ok(first.equals(second));
    assert.ok(first.equals(third));
  });

  test('price as a decimal string and a lower-case currency are accepted', async () => {
    const response = await post(JSON.stringify({ ...VALID, price: '129.90', currency: 'eur' }));
    assert.equal(response.status, 200);
  });

  test('GET is not allowed', async () => {
    const response = await fetch(base + PATH);
    assert.equal(response.status, 405);
    assert.equal((await response.json()).error.code, 'method_not_allowed');
  });
});

/** Every refused body: [name, body, content type, status, code, param]. */
export const REFUSED: ReadonlyArray<[string, string | Buffer, string | null, number, string, string | null]> = [
  ['no content type', JSON.stringify(VALID), null, 415, 'unsupported_media_type', 'Content-Type'],
  ['text/plain', JSON.stringify(VALID), 'text/plain', 415, 'unsupported_media_type', 'Content-Type'],
  ['form encoded', 'title=a&description=b', 'application/x-www-form-urlencoded', 415, 'unsupported_media_type', 'Content-Type'],
  ['json in latin-1', JSON.stringify(VALID), 'application/json; charset=iso-8859-1', 415, 'unsupported_media_type', 'Content-Type'],
  ['larger than 64 KiB', JSON.stringify({ ...VALID, description: 'x'.repeat(70_000) }), 'application/json', 413, 'payload_too_large', 'body'],
  ['malformed JSON', '{"title": "a", ', 'application/json', 400, 'invalid_parameter', 'body'],
  ['empty body', '', 'application/json', 400, 'invalid_parameter', 'body'],
  ['not UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), 'application/json', 400, 'invalid_parameter', 'body'],
  ['an array', JSON.stringify([VALID]), 'application/json', 400, 'invalid_parameter', 'body'],
  ['null', 'null', 'application/json', 400, 'invalid_parameter', 'body'],
  ['a string', '"Nike shoes"', 'application/json', 400, 'invalid_parameter', 'body'],
  ['missing title', JSON.stringify({ description: 'd' }), 'application/json', 400, 'invalid_parameter', 'title'],
  ['missing description', JSON.stringify({ title: 't' }), 'application/json', 400, 'invalid_parameter', 'description'],
  ['blank title', JSON.stringify({ ...VALID, title: '   ' }), 'application/json', 400, 'invalid_parameter', 'title'],
  ['empty description', JSON.stringify({ ...VALID, description: '' }), 'application/json', 400, 'invalid_parameter', 'description'],
  ['title a number', JSON.stringify({ ...VALID, title: 42 }), 'application/json', 400, 'invalid_parameter', 'title'],
  ['negative price', JSON.stringify({ ...VALID, price: -1 }), 'application/json', 400, 'invalid_parameter', 'price'],
  ['price with a comma', JSON.stringify({ ...VALID, price: '12,50' }), 'application/json', 400, 'invalid_parameter', 'price'],
  ['price with a currency sign', JSON.stringify({ ...VALID, price: '€12' }), 'application/json', 400, 'invalid_parameter', 'price'],
  ['price a boolean', JSON.stringify({ ...VALID, price: true }), 'application/json', 400, 'invalid_parameter', 'price'],
  ['currency not ISO 4217', JSON.stringify({ ...VALID, currency: 'XYZ' }), 'application/json', 400, 'invalid_parameter', 'currency'],
  ['currency a word', JSON.stringify({ ...VALID, currency: 'euro' }), 'application/json', 400, 'invalid_parameter', 'currency'],
  ['sku a number', JSON.stringify({ ...VALID, sku: 123 }), 'application/json', 400, 'invalid_parameter', 'sku'],
  ['brand an object', JSON.stringify({ ...VALID, brand: { name: 'Nike' } }), 'application/json', 400, 'invalid_parameter', 'brand'],
  ['category a list', JSON.stringify({ ...VALID, category: ['Shoes'] }), 'application/json', 400, 'invalid_parameter', 'category'],
  ['unknown field', JSON.stringify({ ...VALID, colour: 'black' }), 'application/json', 400, 'invalid_parameter', 'colour'],
  ['__proto__ field', '{"title":"t","description":"d","__proto__":{"x":1}}', 'application/json', 400, 'invalid_parameter', '__proto__'],
];

describe('refused bodies', () => {
  for (const [name, body, contentType, status, code, param] of REFUSED) {
    test(`${name}: ${status} ${code} naming ${param}`, async () => {
      await expectBodyError(await post(body, contentType), status, code, param);
    });
  }

  test('messages say what is wrong', async () => {
    assert.match(await expectBodyError(await post(JSON.stringify({ ...VALID, colour: 'x' })), 400, 'invalid_parameter', 'colour'), /unknown field colour; the body takes: title, description/);
    assert.match(await expectBodyError(await post(JSON.stringify({ ...VALID, title: ' ' })), 400, 'invalid_parameter', 'title'), /must not be blank/);
    assert.match(await expectBodyError(await post(JSON.stringify({ ...VALID, currency: 'XYZ' })), 400, 'invalid_parameter', 'currency'), /ISO 4217/);
    assert.match(await expectBodyError(await post('{'), 400, 'invalid_parameter', 'body'), /not valid JSON/);
  });

  test('a Content-Length over the limit is refused before the body is read', async () => {
    // Declares 1 MB but sends only a few bytes: the answer must come without waiting for the rest.
    const { status, body } = await rawRequest({ 'Content-Type': 'application/json', 'Content-Length': String(1024 * 1024) }, ['{"title":']);
    assert.equal(status, 413);
    assert.equal(JSON.parse(body).error.code, 'payload_too_large');
  });

  test('a chunked body is cut at the limit while it streams (no Content-Length)', async () => {
    const chunk = 'x'.repeat(16 * 1024);
    const { status, body } = await rawRequest({ 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }, ['{"title":"t","description":"', chunk, chunk, chunk, chunk, chunk, '"}']);
    assert.equal(status, 413);
    assert.equal(JSON.parse(body).error.code, 'payload_too_large');
  });

  test('exactly 64 KiB is accepted', async () => {
    const skeleton = JSON.stringify({ ...VALID, description: '' });
    const body = JSON.stringify({ ...VALID, description: 'x'.repeat(65536 - Buffer.byteLength(skeleton)) });
    assert.equal(Buffer.byteLength(body), 65536);
    assert.equal((await post(body)).status, 200);
  });
});

/** A request written by hand: headers and body chunks as given (fetch would set its own Content-Length). */
function rawRequest(headers: Record<string, string>, chunks: string[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(base + PATH);
    const request = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (data: string) => (text += data));
      response.on('end', () => resolve({ status: response.statusCode!, body: text }));
    });
    request.on('error', (error: NodeJS.ErrnoException) => {
      // The server may close the connection after answering while we still write: not a failure here.
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error);
    });
    for (const chunk of chunks) request.write(chunk);
    if (!headers['Content-Length']) request.end();
  });
}

describe('documents', () => {
  test('OpenAPI declares the request body with its schema and example, and the 413 and 415 answers', async () => {
    const doc = await (await fetch(base + '/openapi.json')).json();
    const operation = doc.paths[PATH].post;
    assert.equal(operation.requestBody.required, true);
    assert.deepEqual(operation.requestBody.content['application/json'].example, VALID);
    assert.deepEqual(operation.requestBody.content['application/json'].schema.required, ['title', 'description']);
    assert.ok(operation.responses['413'] && operation.responses['415'], Object.keys(operation.responses).join(','));
  });

  test('the x402 discovery document describes the JSON body', async () => {
    const doc = await (await fetch(base + '/.well-known/x402')).json();
    const item = doc.items.find((candidate: { resource: string }) => candidate.resource.endsWith(PATH));
    assert.ok(item, 'the product route is listed');
    assert.equal(item.extensions.bazaar.info.input.method, 'POST');
    assert.equal(item.extensions.bazaar.info.input.bodyType, 'json');
    assert.deepEqual(item.extensions.bazaar.info.input.body, VALID);
  });

  test('the Markdown and HTML docs show a JSON body curl and the body fields', async () => {
    const markdown = await (await fetch(base + '/api/docs.md')).text();
    assert.ok(markdown.includes(`curl -sS -X POST -H 'Content-Type: application/json' -d '`), 'curl with a JSON body');
    assert.ok(markdown.includes('| `currency` | no |'), 'body field table');
    const html = await (await fetch(base + '/api')).text();
    assert.ok(html.includes('Request body'), 'HTML body table');
  });
});
