// Logs, request ids and metrics (issue 34): the server as `npm start` runs it (startServer) over a small
// SEBRA snapshot, its logger writing to a stream the test reads, its metrics listener on a free port.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createApp } from '../../http/app.ts';
import { readConfig, ConfigError } from '../../http/config.ts';
import { createLogger, LogConfigError, redactUrlsIn } from '../../http/log.ts';
import { readPaymentSettings, PaymentConfigError } from '../../http/payments/config.ts';
import { createPayments } from '../../http/payments/index.ts';
import { openSnapshot } from '../../http/openSnapshot.ts';
import { startServer } from '../../http/server.ts';
import type { SnapshotHolder } from '../../http/snapshotHolder.ts';
import type { SnapshotReloader } from '../../http/reload.ts';
import { routes } from '../../domains/index.ts';
import { FIXED_NOW } from '../helpers/app.ts';
import { writeSebraSnapshot } from '../helpers/snapshot.ts';
import { fixtureDays, fixturePayments } from '../queries/sebra-fixture.ts';
import { eventually } from '../helpers/eventually.ts';

const TAXONOMY = '/api/sebra/getTaxonomyForYear?year=2024';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

type Line = Record<string, unknown>;

/** A pino destination that keeps every JSON line it is given. */
function lineCollector(): { lines: Line[]; write(text: string): void } {
  const lines: Line[] = [];
  return {
    lines,
    write(text: string) {
      for (const line of text.split('\n')) if (line.trim()) lines.push(JSON.parse(line) as Line);
    },
  };
}

/** Waits until `check` stops throwing (the log line and metrics are written once the response is done, after the client has it). */
/** The whole response as bytes, over a raw connection (Connection: close), and its X-Request-Id. */
function rawGet(port: number, path: string): Promise<{ bytes: number; requestId: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const all = Buffer.concat(chunks);
      const requestId = /\r\nx-request-id: ([^\r]+)\r\n/i.exec(all.toString('latin1'))?.[1] ?? '';
      resolve({ bytes: all.length, requestId });
    });
  });
}

/** The value of one sample in Prometheus text (undefined: no such sample). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const got = match[2] ? match[2].split(/,(?=[a-zA-Z_]\w*=")/) : [];
    if (got.length === wanted.length && wanted.every((label) => got.includes(label))) return Number(match[3]);
  }
  return undefined;
}

describe('a running server', () => {
  const log = lineCollector();
  let server: Server;
  let metricsServer: Server | null;
  let snapshots: SnapshotHolder;
  let reloader: SnapshotReloader;
  let base: string;
  let metricsBase: string;
  const linesOf = (id: string) => log.lines.filter((line) => line.request_id === id && line.msg === 'request');

  before(async () => {
    const dataDir = await writeSebraSnapshot(fixturePayments, fixtureDays);
    const config = readConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, METRICS_PORT: '0', LOG_LEVEL: 'info' });
    ({ server, snapshots, reloader, metricsServer } = await startServer(config, {
      logger: createLogger({ level: config.logLevel, destination: log }), now: () => FIXED_NOW, reloadPollMs: 0,
    }));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    assert.ok(metricsServer, 'METRICS_PORT set: a metrics listener');
    const address = metricsServer.address() as AddressInfo;
    assert.equal(address.address, '127.0.0.1', 'METRICS_HOST defaults to loopback');
    metricsBase = `http://127.0.0.1:${address.port}`;
    // The held state is read in the background after the start; the metrics test compares its size
    // in /healthz and /metrics, which would differ if the read ended between the two.
    await eventually(() => assert.ok(log.lines.some((line) => line.event === 'held_state_warm'), 'held state read'), 30_000);
  });
  after(async () => {
    reloader?.stop();
    metricsServer?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await snapshots?.close();
  });

  test('every answer carries its own X-Request-Id; its log line names it with the route, status, duration, bytes and cache hit', async () => {
    // Not compressed, so the bytes on the wire are more than the body's.
    const identity = { headers: { 'accept-encoding': 'identity' } };
    const first = await fetch(base + TAXONOMY, identity);
    const firstBody = await first.arrayBuffer();
    const second = await fetch(base + TAXONOMY, identity); // the fast path replays it, before Koa
    assert.deepEqual(Buffer.from(await second.arrayBuffer()), Buffer.from(firstBody));
    const ids = [first.headers.get('x-request-id')!, second.headers.get('x-request-id')!];
    for (const id of ids) assert.match(id, UUID);
    assert.notEqual(ids[0], ids[1]);
    const [computed, replayed] = await eventually(() => ids.map((id) => {
      const lines = linesOf(id);
      assert.equal(lines.length, 1, `one line for ${id}`);
      return lines[0]!;
    }));
    for (const line of [computed!, replayed!]) {
      assert.equal(line.route, 'getTaxonomyForYear');
      assert.equal(line.method, 'GET');
      assert.equal(line.status, 200);
      assert.equal(line.path, TAXONOMY);
      assert.equal(typeof line.duration_ms, 'number');
      assert.ok((line.duration_ms as number) >= 0 && (line.duration_ms as number) < 60_000);
      assert.equal(typeof line.time, 'number');
      assert.equal(line.level, 30);
      // Headers and body on the wire: more than the body alone.
      assert.ok((line.bytes as number) > firstBody.byteLength, `${String(line.bytes)} bytes sent for a ${firstBody.byteLength}-byte body`);
    }
    assert.equal(computed!.cache_hit, false);
    assert.equal(replayed!.cache_hit, true, 'the fast-answer replay is a cache hit');
  });

  test('the bytes of the log line are the bytes the client received', async () => {
    const port = (server.address() as AddressInfo).port;
    for (const path of ['/healthz', '/api/sebra/getTaxonomyForYear?year=2024&currency=BGN', '/no/such/path']) {
      const got = await rawGet(port, path);
      assert.match(got.requestId, UUID);
      const line = await eventually(() => {
        const [found] = linesOf(got.requestId);
        assert.ok(found);
        return found;
      });
      assert.equal(line.bytes, got.bytes, path);
    }
  });

  test('every JSON error body names the request id of its answer, and the log line names the route kind', async () => {
    const cases = [
      { path: '/api/sebra/getTaxonomyForYear?year=twenty', init: {}, status: 400, route: 'getTaxonomyForYear' },
      { path: '/no/such/path', init: {}, status: 404, route: 'unknown' },
      { path: '/healthz', init: { method: 'POST' }, status: 405, route: 'health' },
      { path: '/docs/no-such-document.json', init: { headers: { accept: 'application/json' } }, status: 404, route: 'docs' },
      { path: TAXONOMY, init: { method: 'DELETE' }, status: 405, route: 'getTaxonomyForYear' },
    ];
    for (const { path, init, status, route } of cases) {
      const response = await fetch(base + path, init);
      const body = await response.json();
      const id = response.headers.get('x-request-id')!;
      assert.equal(response.status, status, path);
      assert.match(id, UUID);
      assert.equal(body.error.request_id, id, path);
      assert.equal(body.error.status, status);
      const line = await eventually(() => {
        const [found] = linesOf(id);
        assert.ok(found);
        return found;
      });
      assert.equal(line.route, route, path);
      assert.equal(line.status, status);
    }
  });

  test('GET /metrics on its own listener: requests by route and status, latency, cache, held state, snapshot generation and age', async () => {
    const scrape = async () => (await fetch(`${metricsBase}/metrics`)).text();
    const before = await scrape();
    const count = (text: string, labels: Record<string, string>) => sample(text, 'http_requests_total', labels) ?? 0;
    const query = '/api/sebra/getTaxonomyForYear?year=2024&currency=EUR';
    for (let i = 0; i < 3; i++) assert.equal((await fetch(base + query)).status, 200);
    assert.equal((await fetch(`${base}/api/sebra/not-a-route-xyz123`)).status, 404);
    const health = await (await fetch(`${base}/healthz`)).json();
    const text = await eventually(async () => {
      const now = await scrape();
      assert.equal(count(now, { route: 'getTaxonomyForYear', status: '200' }) - count(before, { route: 'getTaxonomyForYear', status: '200' }), 3);
      assert.equal(count(now, { route: 'unknown', status: '404' }) - count(before, { route: 'unknown', status: '404' }), 1);
      return now;
    });
    const histogram = (t: string) => sample(t, 'http_request_duration_seconds_count', { route: 'getTaxonomyForYear' }) ?? 0;
    assert.equal(histogram(text) - histogram(before), 3);
    assert.ok(!text.includes('not-a-route-xyz123'), 'a client path is never a label');
    // The answer cache: the first of the three computed (a miss), the other two replayed (hits).
    assert.equal((sample(text, 'answer_cache_misses_total') ?? 0) - (sample(before, 'answer_cache_misses_total') ?? 0), 1);
    assert.equal((sample(text, 'answer_cache_hits_total') ?? 0) - (sample(before, 'answer_cache_hits_total') ?? 0), 2);
    assert.equal(sample(text, 'answer_cache_hits_total'), health.cache.hits);
    assert.ok((sample(text, 'answer_cache_bytes') ?? 0) >= health.cache.bytes && health.cache.bytes > 0);
    assert.equal(sample(text, 'held_state_bytes'), health.held.bytes);
    // A flat snapshot folder has no generation id; its age is counted from its import date.
    assert.equal(sample(text, 'snapshot_generation_info', { generation: 'flat' }), 1);
    assert.equal(sample(text, 'snapshot_age_seconds'), (FIXED_NOW.getTime() - Date.parse(health.import_date)) / 1000);
    for (const outcome of ['verified', 'settled', 'refused', 'unknown', 'replayed']) assert.equal(sample(text, 'payments_total', { outcome }), 0);
    // Only on the metrics listener.
    assert.equal((await fetch(`${base}/metrics`)).status, 404);
    assert.equal((await fetch(`${metricsBase}/other`)).status, 404);
  });

  test('the alert rules in deploy/prometheus-rules.yml name metrics the server exports', async () => {
    const rules = readFileSync(path.join(import.meta.dirname, '../../deploy/prometheus-rules.yml'), 'utf8');
    const named = [...new Set([...rules.matchAll(/^[ \t]*expr: (.+)$/gm)].flatMap((match) => [...match[1]!.matchAll(/\b([a-z_]+_(?:total|seconds|bytes|info)(?:_bucket)?)\b/g)].map((name) => name[1]!)))];
    assert.ok(named.length >= 3, named.join(', '));
    const text = await (await fetch(`${metricsBase}/metrics`)).text();
    for (const name of named) assert.match(text, new RegExp(`^${name}[{ ]`, 'm'), `${name} is exported`);
  });

  test('the server\'s own events are JSON lines too: the held-state warm-up', async () => {
    const warm = await eventually(() => {
      const found = log.lines.find((line) => line.event === 'held_state_warm');
      assert.ok(found, 'a held_state_warm line');
      return found;
    });
    assert.equal(typeof warm.holders, 'number');
    assert.match(String(warm.msg), /^held state: /);
  });
});

describe('request ids from a trusted proxy', () => {
  test('taken from X-Request-Id only with TRUST_PROXY, and only when short and plain; generated otherwise', async () => {
    const dataDir = await writeSebraSnapshot(fixturePayments, fixtureDays);
    const db = await openSnapshot(dataDir);
    const served: Server[] = [];
    try {
      const start = async (trustProxy: boolean) => {
        const app = await createApp({ db, routes, now: () => FIXED_NOW, logError: () => undefined, observe: { trustProxy } });
        const listening: Server = await new Promise((resolve) => {
          const s = app.listen(0, '127.0.0.1', () => resolve(s));
        });
        served.push(listening);
        return `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
      };
      const trusted = await start(true);
      const untrusted = await start(false);
      const idOf = async (url: string, id: string) => (await fetch(url, { headers: { 'X-Request-Id': id } })).headers.get('x-request-id');
      assert.equal(await idOf(`${trusted}/healthz`, 'edge-7f3a.2:1'), 'edge-7f3a.2:1');
      assert.equal(await idOf(`${trusted}/no/such/path`, 'edge-404'), 'edge-404');
      assert.match((await idOf(`${trusted}/healthz`, 'has spaces and "quotes"'))!, UUID);
      assert.match((await idOf(`${trusted}/healthz`, 'x'.repeat(129)))!, UUID);
      assert.equal(await idOf(`${trusted}/healthz`, 'x'.repeat(128)), 'x'.repeat(128));
      assert.match((await idOf(`${untrusted}/healthz`, 'edge-7f3a'))!, UUID);
      // The fast path answers with the request's own id, not the one of the answer it replays.
      await fetch(trusted + TAXONOMY, { headers: { 'X-Request-Id': 'first-one' } });
      assert.equal(await idOf(trusted + TAXONOMY, 'second-one'), 'second-one');
    } finally {
      for (const s of served) await new Promise((resolve) => s.close(resolve));
      await db.close();
    }
  });
});

describe('settings and secrets', () => {
  test('LOG_LEVEL: default info, a pino level, anything else refused naming the variable', () => {
    assert.equal(readConfig({}).logLevel, 'info');
    assert.equal(readConfig({ LOG_LEVEL: 'Debug' }).logLevel, 'debug');
    assert.throws(() => readConfig({ LOG_LEVEL: 'loud' }), (error: unknown) => error instanceof LogConfigError && error instanceof ConfigError && /^LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent \(got "loud"\)$/.test(error.message));
    assert.equal(readConfig({}).metrics, null, 'no METRICS_PORT: no metrics listener');
    assert.deepEqual(readConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' }).metrics, { port: 9464, host: '0.0.0.0' });
    assert.throws(() => readConfig({ METRICS_PORT: '99999' }), (error: unknown) => error instanceof ConfigError && /^METRICS_PORT must be a port number/.test(error.message));
  });

  test('pretty lines (a terminal) are one readable line per event, not JSON', async () => {
    const written: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        written.push(chunk.toString('utf8'));
        done();
      },
    });
    const logger = createLogger({ pretty: true, destination });
    logger.info({ event: 'start', base_url: 'http://127.0.0.1:3000' }, 'serving data/parquet');
    await eventually(() => assert.equal(written.length, 1));
    assert.match(written[0]!, /^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: serving data\/parquet \{"event":"start","base_url":"http:\/\/127\.0\.0\.1:3000"\}\n$/);
  });

  test('at LOG_LEVEL=warn a successful request writes no line', async () => {
    const log = lineCollector();
    const dataDir = await writeSebraSnapshot(fixturePayments, fixtureDays);
    const db = await openSnapshot(dataDir);
    const app = await createApp({ db, routes, now: () => FIXED_NOW, logError: () => undefined, observe: { logger: createLogger({ level: 'warn', destination: log }) } });
    const listening: Server = await new Promise((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    try {
      assert.equal((await fetch(`http://127.0.0.1:${(listening.address() as AddressInfo).port}/healthz`)).status, 200);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.deepEqual(log.lines, []);
    } finally {
      await new Promise((resolve) => listening.close(resolve));
      await db.close();
    }
  });

  test('no startup message quotes X402_FACILITATOR_HEADERS or a facilitator\'s password or token', async () => {
    const base = { X402_PAY_TO: '0x' + '1'.repeat(40) };
    const messageOf = (env: NodeJS.ProcessEnv) => {
      try {
        readPaymentSettings({ ...base, ...env });
      } catch (error) {
        assert.ok(error instanceof PaymentConfigError);
        return error.message;
      }
      assert.fail('the settings were accepted');
    };
    const headers = messageOf({ X402_FACILITATOR_URL: 'https://f.example', X402_FACILITATOR_HEADERS: '{"verify": {"Authorization": "Bearer sekret-123"' });
    assert.match(headers, /^X402_FACILITATOR_HEADERS must be JSON/);
    assert.ok(!headers.includes('sekret-123'), headers);
    const password = messageOf({ X402_FACILITATOR_URL: 'https://user:pa55word@f.example/x402' });
    assert.match(password, /must not carry a user or password/);
    assert.ok(!password.includes('pa55word') && !password.includes('user:'), password);
    const protocol = messageOf({ X402_FACILITATOR_URL: 'https://f.example, ftp://me:pa55word@g.example/x?token=tok123' });
    assert.match(protocol, /must be an http\(s\) URL \(got "ftp:\/\/g\.example\/x"\)/);
    const twice = messageOf({ X402_FACILITATOR_URL: 'https://f.example/x?token=tok123,https://f.example/x?token=tok123' });
    assert.ok(!twice.includes('tok123'), twice);
    const rpc = messageOf({ X402_FACILITATOR_URL: 'https://f.example', X402_NETWORKS: 'eip155:8453', X402_RPC_URLS: 'https://base.example/v2/api-key-456' });
    assert.ok(!rpc.includes('api-key-456'), rpc);

    // The facilitator cannot be asked: the refusal names it without its token.
    const settings = readPaymentSettings({ ...base, X402_FACILITATOR_URL: 'http://127.0.0.1:9/x402?token=tok123', X402_FACILITATOR_TIMEOUT_MS: '2000' });
    const log = lineCollector();
    const logger = createLogger({ destination: log });
    const payments = createPayments({ routes: [], settings, baseUrl: 'http://127.0.0.1', log: (message, error) => logger.error({ err: error }, message) });
    await assert.rejects(payments.start(), (error: unknown) => {
      assert.ok(error instanceof PaymentConfigError);
      assert.match(error.message, /the facilitator at http:\/\/127\.0\.0\.1:9\/x402 could not be asked/);
      assert.ok(!error.message.includes('tok123'), error.message);
      logger.error({ err: error }, 'refusing to start');
      return true;
    });
    await payments.close();
    assert.ok(log.lines.length > 0 && !JSON.stringify(log.lines).includes('tok123'));
  });

  test('logged errors lose the user, password and query of any address they quote', () => {
    const log = lineCollector();
    const logger = createLogger({ destination: log });
    const error = new Error('Request cannot be constructed from a URL that includes credentials: https://u:pa55@f.example/x402/settle?token=tok123', {
      cause: new Error('connect to postgres://app:dbpass@db.example:5432/pds failed'),
    });
    logger.error({ err: error, headers: { authorization: 'Bearer sekret-123' } }, 'facilitator failure');
    const text = JSON.stringify(log.lines);
    for (const secret of ['pa55', 'tok123', 'dbpass', 'sekret-123']) assert.ok(!text.includes(secret), `${secret} in ${text}`);
    assert.ok(text.includes('https://f.example/x402/settle') && text.includes('postgres://db.example:5432/pds'));
    assert.equal(redactUrlsIn('see http://a:b@h.example/p?q=1#f and more'), 'see http://h.example/p and more');
  });
});
