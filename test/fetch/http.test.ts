// The fetch's HTTP client against loopback servers: the mirror address, retries (their count, the
// backoff, Retry-After in seconds and as a date), what is not retried, the timeout and the size bound.
import assert from 'node:assert/strict';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FetchFailedError, HttpClient, httpSettingsFromEnv, mirrored, retryAfterMs, type HttpSettings } from '../../ingest/fetch/http.ts';
import { tempDirUntilExit } from '../helpers/tmp.ts';

async function serve(handler: RequestListener): Promise<{ server: Server; mirror: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, mirror: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const settings = (mirror: string, overrides: Partial<HttpSettings> = {}): HttpSettings => ({
  timeoutMs: 5_000, retries: 3, backoffMs: 100, maxBackoffMs: 10_000, maxBytes: 1_000, mirror, ...overrides,
});

describe('the fetch HTTP client', () => {
  let folder: string;
  const servers: Server[] = [];
  before(async () => {
    folder = await tempDirUntilExit('fetch-http-');
  });
  after(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
  const start = async (handler: RequestListener) => {
    const started = await serve(handler);
    servers.push(started.server);
    return started.mirror;
  };

  it('maps https://<host>/<path>?<query> to <FETCH_MIRROR>/<host>/<path>?<query>', () => {
    assert.equal(mirrored('https://fred.stlouisfed.org/graph/fredgraph.csv?id=DGS10', 'http://127.0.0.1:9/m'), 'http://127.0.0.1:9/m/fred.stlouisfed.org/graph/fredgraph.csv?id=DGS10');
    assert.equal(mirrored('https://a.example/x', null), 'https://a.example/x');
    assert.equal(httpSettingsFromEnv({ FETCH_MIRROR: 'http://127.0.0.1:8080/cache/' }).mirror, 'http://127.0.0.1:8080/cache');
    assert.throws(() => httpSettingsFromEnv({ FETCH_MIRROR: 'ftp://x' }), /FETCH_MIRROR/);
    assert.throws(() => httpSettingsFromEnv({ FETCH_TIMEOUT_MS: '0' }), /FETCH_TIMEOUT_MS/);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-22T12:00:00Z');
    assert.equal(retryAfterMs('120', now), 120_000);
    assert.equal(retryAfterMs('Sun, 22 Nov 2026 12:00:30 GMT', now), 30_000);
    assert.equal(retryAfterMs('soon', now), null);
    assert.equal(retryAfterMs(null, now), null);
  });

  it('retries 503 and 429 with exponential backoff, honours Retry-After, and sends the key only to the publisher', async () => {
    const seen: string[] = [];
    let calls = 0;
    const mirror = await start((request, response) => {
      seen.push(request.url!);
      calls++;
      if (calls === 1) response.writeHead(503).end();
      else if (calls === 2) response.writeHead(429, { 'retry-after': '3' }).end();
      else if (calls === 3) response.writeHead(502).end();
      else response.writeHead(200, { etag: '"v1"', 'last-modified': 'Fri, 20 Nov 2026 10:00:00 GMT' }).end('a,b\n1,2\n');
    });
    const waits: number[] = [];
    const client = new HttpClient({ settings: settings(mirror), sleep: async (ms) => { waits.push(ms); } });
    const file = path.join(folder, 'ok.csv');
    const result = await client.get({ url: 'https://api.example.org/series?id=X', secret: { api_key: 'k123' }, file });
    assert.equal(result.status, 'downloaded');
    assert.equal(result.requests, 4);
    // backoff 100, then max(200, Retry-After 3 s), then 400
    assert.deepEqual(waits, [100, 3000, 400]);
    assert.equal(await readFile(file, 'utf8'), 'a,b\n1,2\n');
    assert.ok(seen.every((url) => url === '/api.example.org/series?id=X&api_key=k123'), seen.join(' '));
    if (result.status === 'downloaded') {
      assert.deepEqual(result.validators, { etag: '"v1"', lastModified: 'Fri, 20 Nov 2026 10:00:00 GMT' });
      assert.equal(result.url, 'https://api.example.org/series?id=X');
    }
  });

  it('gives up after the retries, naming the address (without the key) and the last problem', async () => {
    let calls = 0;
    const mirror = await start((_request, response) => {
      calls++;
      response.writeHead(503).end();
    });
    const client = new HttpClient({ settings: settings(mirror, { retries: 2 }), sleep: async () => {} });
    await assert.rejects(client.get({ url: 'https://api.example.org/x', secret: { api_key: 'k123' }, file: path.join(folder, 'never.csv') }), (error: unknown) => {
      assert.ok(error instanceof FetchFailedError);
      assert.equal(error.url, 'https://api.example.org/x');
      assert.match(error.reason, /HTTP 503 \(after 3 attempts\)/);
      assert.ok(!error.message.includes('k123'));
      return true;
    });
    assert.equal(calls, 3);
    assert.equal(existsSync(path.join(folder, 'never.csv')), false);
  });

  it('does not retry a 404', async () => {
    let calls = 0;
    const mirror = await start((_request, response) => {
      calls++;
      response.writeHead(404).end('no');
    });
    const client = new HttpClient({ settings: settings(mirror), sleep: async () => {} });
    await assert.rejects(client.get({ url: 'https://api.example.org/gone', file: path.join(folder, 'gone') }), /HTTP 404/);
    assert.equal(calls, 1);
  });

  it('retries a connection refused and an answer that does not come within the timeout', async () => {
    const refused = new HttpClient({ settings: settings('http://127.0.0.1:1', { retries: 1 }), sleep: async () => {} });
    await assert.rejects(refused.get({ url: 'https://x.example/a', file: path.join(folder, 'a') }), /connection failed.*\(after 2 attempts\)/);
    let calls = 0;
    const mirror = await start((_request, response) => {
      calls++;
      if (calls === 1) return; // never answers
      response.writeHead(200).end('late but fine');
    });
    const client = new HttpClient({ settings: settings(mirror, { timeoutMs: 300 }), sleep: async () => {} });
    const result = await client.get({ url: 'https://x.example/b', file: path.join(folder, 'b') });
    assert.equal(result.requests, 2);
    assert.equal(await readFile(path.join(folder, 'b'), 'utf8'), 'late but fine');
  });

  it('refuses an answer over FETCH_MAX_BYTES, declared or streamed, without retrying', async () => {
    let calls = 0;
    const mirror = await start((request, response) => {
      calls++;
      if (request.url!.endsWith('declared')) response.writeHead(200, { 'content-length': '5000' }).end('x'.repeat(5000));
      else {
        response.writeHead(200); // chunked: no length declared
        response.write('y'.repeat(800));
        setTimeout(() => response.end('y'.repeat(800)), 20);
      }
    });
    const client = new HttpClient({ settings: settings(mirror), sleep: async () => {} });
    await assert.rejects(client.get({ url: 'https://x.example/declared', file: path.join(folder, 'd') }), /declares 5000 bytes, over the bound of 1000 \(FETCH_MAX_BYTES\)/);
    await assert.rejects(client.get({ url: 'https://x.example/streamed', file: path.join(folder, 's') }), /passed the bound of 1000 bytes \(FETCH_MAX_BYTES\)/);
    assert.equal(calls, 2);
    assert.equal(existsSync(path.join(folder, 's')), false, 'a partial download is removed');
  });

  it('sends the stored validators and reads a 304 as unchanged', async () => {
    const mirror = await start((request, response) => {
      if (request.headers['if-none-match'] === '"v1"' && request.headers['if-modified-since'] === 'Fri, 20 Nov 2026 10:00:00 GMT') response.writeHead(304).end();
      else response.writeHead(200).end('full');
    });
    const client = new HttpClient({ settings: settings(mirror), sleep: async () => {} });
    const result = await client.get({ url: 'https://x.example/c', file: path.join(folder, 'c'), validators: { etag: '"v1"', lastModified: 'Fri, 20 Nov 2026 10:00:00 GMT' } });
    assert.deepEqual(result, { status: 'not-modified', url: 'https://x.example/c', requests: 1 });
  });

  it('keeps the publisher\'s interval between two requests to one host', async () => {
    const mirror = await start((_request, response) => response.writeHead(200).end('ok'));
    let clock = 1_000_000;
    const waits: number[] = [];
    const client = new HttpClient({
      settings: settings(mirror), now: () => clock, hostIntervals: new Map([['sdmx.oecd.org', 4_000]]),
      sleep: async (ms) => { waits.push(ms); clock += ms; },
    });
    await client.get({ url: 'https://sdmx.oecd.org/a', file: path.join(folder, 'o1') });
    clock += 1_000;
    await client.get({ url: 'https://sdmx.oecd.org/b', file: path.join(folder, 'o2') });
    await client.get({ url: 'https://other.example/c', file: path.join(folder, 'o3') });
    assert.deepEqual(waits, [3_000]);
  });
});
