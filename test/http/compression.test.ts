// Compression (br, gzip above 1 KiB; Arrow only when smaller), the one ETag rule (free documents and
// answers served without payment; If-None-Match: 304) and the fast-answer replay keyed by
// Accept-Encoding, over HTTP on a SEBRA fixture. Requests go through node:http so that the test sets
// Accept-Encoding itself and reads the bytes as sent (fetch would decode them).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { routes } from '../../domains/index.ts';
import type { Database } from '../../engine/database.ts';
import { createApp, type FastAnswersApp } from '../../http/app.ts';
import { entityTagOf } from '../../http/pipeline/entityTags.ts';
import { openSnapshot } from '../../http/openSnapshot.ts';
import { FIXED_NOW } from '../helpers/app.ts';
import { writeSebraSnapshot } from '../helpers/snapshot.ts';
import { fixtureDays, fixturePayments } from '../queries/sebra-fixture.ts';

/** A JSON answer of 1.4 KB and an Arrow one of 2.1 KB on the fixture. */
const TAXONOMY = '/api/sebra/getTaxonomyForYear/2026?currency=EUR';
/** A JSON answer of about 400 bytes: under the threshold. */
const SMALL = '/api/sebra/getMostSponsoredProgramme?from=01-2026&to=10-2026&limit=10';
const ARROW = 'application/vnd.apache.arrow.stream';

let db: Database;
let app: FastAnswersApp;
let server: Server;
let port: number;

before(async () => {
  db = await openSnapshot(await writeSebraSnapshot(fixturePayments, fixtureDays));
  app = await createApp({ db, routes, now: () => FIXED_NOW, log: () => undefined, logError: () => undefined });
  server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  port = (server.address() as AddressInfo).port;
});

after(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await db?.close();
});

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function raw(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    httpRequest({ host: '127.0.0.1', port, path, method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject).end();
  });
}

const varyOf = (answer: Raw) => String(answer.headers.vary ?? '').split(/,\s*/).map((name) => name.toLowerCase());

describe('compression', () => {
  test('/openapi.json: br and gzip as asked, identity without Accept-Encoding; the same bytes decoded', async () => {
    const plain = await raw('/openapi.json');
    assert.equal(plain.status, 200);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(Number(plain.headers['content-length']), plain.body.length);
    assert.ok(plain.body.length > 500_000, `openapi.json is ${plain.body.length} bytes`);
    assert.ok(varyOf(plain).includes('accept-encoding'));

    const br = await raw('/openapi.json', { 'Accept-Encoding': 'gzip, deflate, br' });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.ok(varyOf(br).includes('accept-encoding'));
    assert.equal(Number(br.headers['content-length']), br.body.length);
    assert.ok(brotliDecompressSync(br.body).equals(plain.body));
    assert.ok(br.body.length * 10 < plain.body.length, `br ${br.body.length} of ${plain.body.length}`);

    const gzip = await raw('/openapi.json', { 'Accept-Encoding': 'gzip' });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.ok(gunzipSync(gzip.body).equals(plain.body));
    assert.ok(gzip.body.length * 10 < plain.body.length, `gzip ${gzip.body.length} of ${plain.body.length}`);
  });

  test('a JSON answer above 1 KiB is coded; one below is sent as it is', async () => {
    const plain = await raw(TAXONOMY);
    assert.ok(plain.body.length >= 1024, `${plain.body.length} bytes`);
    const gzip = await raw(TAXONOMY, { 'Accept-Encoding': 'gzip' });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.ok(gunzipSync(gzip.body).equals(plain.body));

    const small = await raw(SMALL, { 'Accept-Encoding': 'gzip, br' });
    assert.equal(small.status, 200);
    assert.ok(small.body.length < 1024, `${small.body.length} bytes`);
    assert.equal(small.headers['content-encoding'], undefined);
    JSON.parse(small.body.toString('utf8'));
  });

  test('an Arrow stream is coded only when the coded bytes are smaller', async () => {
    const plain = await raw(TAXONOMY, { Accept: ARROW });
    assert.equal(plain.headers['content-type'], ARROW);
    const coded = await raw(TAXONOMY, { Accept: ARROW, 'Accept-Encoding': 'gzip' });
    const smaller = gzipSync(plain.body).length < plain.body.length;
    assert.equal(coded.headers['content-encoding'], smaller ? 'gzip' : undefined);
    assert.ok((smaller ? gunzipSync(coded.body) : coded.body).equals(plain.body));
  });

  test('HEAD is not coded and has no body', async () => {
    const head = await raw('/openapi.json', { 'Accept-Encoding': 'br' }, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.headers['content-encoding'], undefined);
    assert.equal(head.body.length, 0);
  });
});

describe('the fast answers replay only the coding the client asked for', () => {
  test('recorded coded, asked without Accept-Encoding: identity bytes, no Content-Encoding', async () => {
    const url = TAXONOMY;
    const first = await raw(url, { 'Accept-Encoding': 'br' });
    assert.equal(first.headers['content-encoding'], 'br');
    assert.ok(app.fastAnswers.bytes > 0, 'the coded answer was recorded');
    const again = await raw(url, { 'Accept-Encoding': 'br' });
    assert.equal(again.headers['content-encoding'], 'br');
    assert.ok(again.body.equals(first.body));
    const identity = await raw(url);
    assert.equal(identity.headers['content-encoding'], undefined);
    assert.ok(identity.body.equals(brotliDecompressSync(first.body)));
    const gzip = await raw(url, { 'Accept-Encoding': 'gzip' });
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.ok(gunzipSync(gzip.body).equals(identity.body));
  });

  test('recorded plain, asked with Accept-Encoding: coded', async () => {
    const url = '/api/sebra/getTaxonomyForPeriod?from=01-2026&to=06-2026';
    const plain = await raw(url);
    const plainAgain = await raw(url);
    assert.equal(plainAgain.headers['content-encoding'], undefined);
    assert.ok(plainAgain.body.equals(plain.body));
    const coded = await raw(url, { 'Accept-Encoding': 'gzip' });
    assert.equal(coded.headers['content-encoding'], 'gzip');
    assert.ok(gunzipSync(coded.body).equals(plain.body));
  });
});

describe('ETag', () => {
  test('a free answer: a weak tag over the generation and the bytes; If-None-Match gives 304 without a body', async () => {
    const url = '/api/sebra/getPeriodsWithMostPayments?days&limit=10';
    const plain = await raw(url);
    const tag = String(plain.headers.etag);
    // No generation (a single snapshot folder): the empty generation.
    const expected = `W/"${createHash('sha256').update('\n').update(plain.body).digest('base64url').slice(0, 27)}"`;
    assert.equal(tag, expected);
    assert.equal(entityTagOf('', plain.body), expected);
    assert.notEqual(entityTagOf('20261201T000000Z', plain.body), expected, 'another generation, another tag');
    // The same weak tag for the coded form; a match is a 304 whatever the coding.
    const coded = await raw(url, { 'Accept-Encoding': 'br' });
    assert.equal(coded.headers.etag, tag);
    const asks: Array<Record<string, string>> = [{ 'If-None-Match': tag }, { 'If-None-Match': tag, 'Accept-Encoding': 'br' }, { 'If-None-Match': `"other", ${tag}` }];
    for (const headers of asks) {
      const revalidated = await raw(url, headers);
      assert.equal(revalidated.status, 304, JSON.stringify(headers));
      assert.equal(revalidated.body.length, 0);
      assert.equal(revalidated.headers.etag, tag);
    }
    const stale = await raw(url, { 'If-None-Match': 'W/"not-this-one"' });
    assert.equal(stale.status, 200);
    assert.ok(stale.body.equals(plain.body));
    const head = await raw(url, {}, 'HEAD');
    assert.equal(head.headers.etag, tag);
  });

  test('a free document has the same kind of tag, and 304 on a match', async () => {
    const plain = await raw('/llms.txt');
    const tag = String(plain.headers.etag);
    assert.equal(tag, `W/"${createHash('sha256').update('\n').update(plain.body).digest('base64url').slice(0, 27)}"`);
    const revalidated = await raw('/llms.txt', { 'If-None-Match': tag });
    assert.equal(revalidated.status, 304);
    assert.equal(revalidated.body.length, 0);
  });

  test('errors and /healthz carry no tag', async () => {
    assert.equal((await raw('/api/sebra/getTaxonomyForYear/abc')).headers.etag, undefined);
    assert.equal((await raw('/healthz')).headers.etag, undefined);
  });
});
