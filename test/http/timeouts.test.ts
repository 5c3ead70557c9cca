// The server's timeouts (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS, HTTP_KEEP_ALIVE_TIMEOUT_MS)
// and `100 Continue` only after the body checks, with raw sockets on loopback. Without them Node
// waits 60 s for a head and 5 minutes for a body (checking every 30 s), and sends 100 Continue to
// any Expect: 100-continue at once, even for a body it then refuses.
import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { createApp } from '../../http/app.ts';
import { createHttpServer } from '../../http/httpServer.ts';
import { DEFAULT_HEADERS_TIMEOUT_MS, DEFAULT_KEEP_ALIVE_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS, LimitsConfigError, readLimitSettings } from '../../http/limitsConfig.ts';
import { openSnapshot } from '../../http/openSnapshot.ts';
import { routes } from '../../domains/index.ts';
import type { Database } from '../../engine/database.ts';
import { DEFAULT_BODY_MAX_BYTES } from '../../queries/catalog.ts';
import { FIXED_NOW } from '../helpers/app.ts';
import { writeSebraSnapshot } from '../helpers/snapshot.ts';
import { fixtureDays, fixturePayments } from '../queries/sebra-fixture.ts';

const HEADERS_TIMEOUT_MS = 600;
const REQUEST_TIMEOUT_MS = 1500;

let db: Database;
let server: Server;
let port: number;
before(async () => {
  db = await openSnapshot(await writeSebraSnapshot(fixturePayments, fixtureDays));
  const app = await createApp({ db, routes, now: () => FIXED_NOW, logError: () => undefined });
  server = createHttpServer(app.callback(), { headersTimeoutMs: HEADERS_TIMEOUT_MS, requestTimeoutMs: REQUEST_TIMEOUT_MS, keepAliveTimeoutMs: 1000 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await db.close();
});

interface Exchange {
  socket: net.Socket;
  /** Everything the server sent so far. */
  received: () => string;
  /** Resolves with the milliseconds from connecting to the server closing the connection. */
  closed: Promise<number>;
}

function connect(): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    const closed = new Promise<number>((done) => socket.on('close', () => done(performance.now() - started)));
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve({ socket, received: () => text, closed }));
    socket.once('error', reject);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('the timeouts: stated defaults, set from the environment, the head within the whole request', () => {
  assert.deepEqual(readLimitSettings({}, undefined).timeouts, { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000 });
  assert.deepEqual([DEFAULT_HEADERS_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS, DEFAULT_KEEP_ALIVE_TIMEOUT_MS], [10_000, 30_000, 5_000]);
  assert.deepEqual(readLimitSettings({ HTTP_HEADERS_TIMEOUT_MS: '2000', HTTP_REQUEST_TIMEOUT_MS: '4000', HTTP_KEEP_ALIVE_TIMEOUT_MS: '65000' }, undefined).timeouts, { headersTimeoutMs: 2000, requestTimeoutMs: 4000, keepAliveTimeoutMs: 65_000 });
  assert.throws(() => readLimitSettings({ HTTP_HEADERS_TIMEOUT_MS: '40000' }, undefined), (error: unknown) => error instanceof LimitsConfigError && /HTTP_HEADERS_TIMEOUT_MS \(40000\) must not exceed HTTP_REQUEST_TIMEOUT_MS/.test(error.message));
  assert.throws(() => readLimitSettings({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '5s' }, undefined), (error: unknown) => error instanceof LimitsConfigError && error.message.startsWith('HTTP_KEEP_ALIVE_TIMEOUT_MS must be'));
  assert.equal(server.headersTimeout, HEADERS_TIMEOUT_MS);
  assert.equal(server.requestTimeout, REQUEST_TIMEOUT_MS);
  assert.equal(server.keepAliveTimeout, 1000);
});

test('a client sending its head slowly is cut off near the head timeout, with a 408', async () => {
  const client = await connect();
  client.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
  // One header line every 150 ms, never ending the head.
  const dripping = setInterval(() => client.socket.write(`X-Slow-${Math.random().toString(36).slice(2, 6)}: 1\r\n`), 150);
  const ms = await Promise.race([client.closed, sleep(8000).then(() => Infinity)]);
  clearInterval(dripping);
  client.socket.destroy();
  assert.ok(ms >= HEADERS_TIMEOUT_MS - 50 && ms < HEADERS_TIMEOUT_MS + 1500, `closed after ${ms.toFixed(0)} ms (bound ${HEADERS_TIMEOUT_MS} ms)`);
  assert.match(client.received(), /^HTTP\/1\.1 408 /);
});

test('a slow body (the POST analyzer) is dropped near the request timeout', async () => {
  const client = await connect();
  client.socket.write(`POST /api/v1/product/analyze HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"title": "`);
  const dripping = setInterval(() => client.socket.write('a'), 100);
  const ms = await Promise.race([client.closed, sleep(8000).then(() => Infinity)]);
  clearInterval(dripping);
  client.socket.destroy();
  assert.ok(ms >= REQUEST_TIMEOUT_MS - 50 && ms < REQUEST_TIMEOUT_MS + 1500, `closed after ${ms.toFixed(0)} ms (bound ${REQUEST_TIMEOUT_MS} ms)`);
});

test('Expect: 100-continue with a body past the limit: 413 at once, no 100 Continue, nothing read', async () => {
  const client = await connect();
  client.socket.write(`POST /api/v1/product/analyze HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${DEFAULT_BODY_MAX_BYTES + 1}\r\nExpect: 100-continue\r\n\r\n`);
  await Promise.race([client.closed, sleep(3000)]);
  client.socket.destroy();
  const text = client.received();
  assert.match(text, /^HTTP\/1\.1 413 /);
  assert.doesNotMatch(text, /100 Continue/);
  assert.match(text, /"code":"payload_too_large"/);
});

test('Expect: 100-continue with the wrong content type: 415 without 100; a valid one gets 100, then its answer', async () => {
  const refused = await connect();
  refused.socket.write('POST /api/v1/product/analyze HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 20\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n');
  await Promise.race([refused.closed, sleep(3000)]);
  refused.socket.destroy();
  assert.match(refused.received(), /^HTTP\/1\.1 415 /);
  assert.doesNotMatch(refused.received(), /100 Continue/);

  const body = JSON.stringify({ title: 'Cotton T-shirt', description: 'A plain white cotton T-shirt.' });
  const accepted = await connect();
  accepted.socket.write(`POST /api/v1/product/analyze HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`);
  const deadline = performance.now() + 3000;
  while (!accepted.received().includes('\r\n\r\n') && performance.now() < deadline) await sleep(10);
  assert.match(accepted.received(), /^HTTP\/1\.1 100 Continue\r\n\r\n$/);
  accepted.socket.write(body);
  await Promise.race([accepted.closed, sleep(5000)]);
  accepted.socket.destroy();
  assert.match(accepted.received(), /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
});
