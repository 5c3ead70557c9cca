// Two replicas on one PostgreSQL payment store, each its own process with its own local files,
// paid through the local facilitator on the in-process chain; then an nginx in front of both
// (TRUST_PROXY=1), so the proxy-hop rule is proven with a real proxy.
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generatePaymentId } from '@x402/extensions/payment-identifier';
import { DEV_KEYS } from '../../devchain/chain.ts';
import { PostgresPaymentStore } from '../../http/payments/store/postgres.ts';
import { projectRoot, scriptArgs } from '../helpers/cli.ts';
import { postgresSkipReason, scratchPostgres, type ScratchPostgres } from '../helpers/postgres.ts';
import { devPaymentEnv, fetchWithId, officialPaymentHeader, startPaymentRig, type PaidApp, type PaymentRig } from '../helpers/payments.ts';
import { writeSebraSnapshot } from '../helpers/snapshot.ts';
import { tempDirUntilExit } from '../helpers/tmp.ts';
import { fixtureDays, fixturePayments } from '../queries/sebra-fixture.ts';

const PRICE = 10_000n;
const TAXONOMY = '/api/sebra/getTaxonomyForYear?year=2024';
/** The one client address the replicas serve without payment: reachable only as the proxy's real peer. */
const ALLOWLISTED = '127.0.0.2';
const POSTGRES_SKIP = await postgresSkipReason();
/** nginx on PATH, or where Debian puts it (outside a non-root PATH). */
const NGINX = ['nginx', '/usr/sbin/nginx'].find((command) => !spawnSync(command, ['-v']).error) ?? null;
/** Without nginx the proxy tests skip, except in CI (.ci/run installs it), where they fail. */
const NGINX_SKIP = NGINX || process.env.CI ? undefined : 'nginx is not installed (apt-get install nginx-light); CI installs it';

interface Replica {
  base: string;
  child: ChildProcess;
  /** The shape the payment helpers take (challenge reading). */
  app: PaidApp;
}

async function startReplica(env: NodeJS.ProcessEnv): Promise<Replica> {
  const child = spawn(process.execPath, scriptArgs('test/helpers/paidServer.ts'), {
    cwd: projectRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((candidate) => candidate.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { base: string }).base);
    });
    child.once('exit', (code) => reject(new Error(`replica exited with ${code}: ${errors}`)));
  });
  const app = { base, request: (path: string, init?: RequestInit) => fetch(base + path, init) } as PaidApp;
  return { base, child, app };
}

async function stopReplica(replica: Replica | undefined): Promise<void> {
  if (!replica || replica.child.exitCode !== null) return;
  const exited = new Promise((resolve) => replica.child.once('exit', resolve));
  replica.child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
  if (replica.child.exitCode === null) replica.child.kill('SIGKILL');
}

describe('two replicas on one PostgreSQL store', { skip: POSTGRES_SKIP }, () => {
  let rig: PaymentRig;
  let database: ScratchPostgres;
  let store: PostgresPaymentStore;
  const replicas: Replica[] = [];
  const settles = () => rig.facilitator.requests.filter((r) => r.path === '/settle').length;
  const payer = () => rig.chain.balanceOf(rig.chain.addresses.payer);
  const payTo = () => rig.chain.balanceOf(rig.chain.addresses.payTo);

  before(async () => {
    const snapshot = await writeSebraSnapshot(fixturePayments, fixtureDays);
    rig = await startPaymentRig(snapshot);
    database = await scratchPostgres();
    for (const name of ['a', 'b']) {
      const files = await tempDirUntilExit(`replica-${name}-`);
      replicas.push(await startReplica(devPaymentEnv(rig.chain, rig.facilitator.url, {
        PAID_SNAPSHOT_DIR: snapshot,
        DATABASE_URL: database.url,
        REVENUE_LEDGER: join(files, 'ledger.jsonl'),
        TRUST_PROXY: '1',
        X402_ALLOWLIST: ALLOWLISTED,
      })));
    }
    store = new PostgresPaymentStore({ connectionString: database.url, maxAnswerBytes: 1 << 20, maxAnswerAgeSeconds: 3600 });
    await store.open();
  });
  after(async () => {
    await Promise.all(replicas.map(stopReplica));
    await store?.close();
    await database?.drop();
    await rig?.facilitator.stop();
    await rig?.db.close();
  });

  test('a payment id paid at one replica and retried at the other: the same answer, no second charge', async () => {
    const [a, b] = replicas as [Replica, Replica];
    const id = generatePaymentId();
    const start = await payer();
    const first = await fetchWithId(DEV_KEYS.payer, id)(`${a.base}${TAXONOMY}`);
    assert.equal(first.status, 200);
    const body = await first.text();
    const count = settles();
    const retry = await fetchWithId(DEV_KEYS.payer, id)(`${b.base}${TAXONOMY}`);
    assert.equal(retry.status, 200);
    assert.equal(await retry.text(), body);
    assert.equal(retry.headers.get('payment-response'), first.headers.get('payment-response'));
    assert.equal(settles(), count, 'no second settle');
    assert.equal(start - (await payer()), PRICE);
  });

  test('one signature sent to both at once, to a facilitator that repeats a duplicate settle\'s first result: exactly one answer bought', async () => {
    const [a, b] = replicas as [Replica, Replica];
    rig.facilitator.faults.repeatFirstSettleResult = true;
    try {
      for (let round = 0; round < 3; round += 1) {
        const header = await officialPaymentHeader(a.app, TAXONOMY);
        const start = await payer();
        const before = settles();
        const answers = await Promise.all([a, b].map((replica) => fetch(`${replica.base}${TAXONOMY}`, { headers: { 'PAYMENT-SIGNATURE': header } })));
        const statuses = answers.map((answer) => answer.status).sort();
        assert.ok(statuses.includes(200), `statuses ${statuses}`);
        for (const answer of answers) assert.ok([200, 409].includes(answer.status), `status ${answer.status}`);
        const bodies = new Set(await Promise.all(answers.filter((answer) => answer.status === 200).map((answer) => answer.text())));
        assert.equal(bodies.size, 1, 'one answer, whichever replica gave it');
        assert.equal(settles() - before, 1, 'one settle');
        assert.equal(start - (await payer()), PRICE, 'charged once');
      }
    } finally {
      rig.facilitator.faults.repeatFirstSettleResult = false;
    }
  });

  test('the shared ledger holds every payment of both replicas, each transaction once, and matches the chain', async () => {
    const [a, b] = replicas as [Replica, Replica];
    const before = await store.ledger();
    const received = await payTo();
    for (const replica of [a, b, a, b, b]) {
      const answer = await fetch(`${replica.base}${TAXONOMY}`, { headers: { 'PAYMENT-SIGNATURE': await officialPaymentHeader(replica.app, TAXONOMY) } });
      assert.equal(answer.status, 200);
      await answer.arrayBuffer();
    }
    const ledger = await store.ledger();
    const added = ledger.slice(before.length);
    assert.equal(added.length, 5);
    assert.ok(added.every((record) => record.state === 'settled' && /^0x[0-9a-f]{64}$/.test(record.transaction ?? '')));
    const settled = ledger.filter((record) => record.state === 'settled');
    assert.equal(new Set(settled.map((record) => record.transaction)).size, settled.length, 'no transaction twice');
    assert.equal(await payTo() - received, 5n * PRICE);
  });

  describe('behind nginx (TRUST_PROXY=1)', { skip: NGINX_SKIP }, () => {
    let proxyBase: string;
    let nginx: ChildProcess | undefined;
    before(async () => {
      if (!NGINX) throw new Error('nginx is required in CI for the proxy tests (.ci/run installs nginx-light)');
      const dir = await tempDirUntilExit('nginx-');
      const port = await freePort();
      const upstreams = replicas.map((replica) => `    server ${new URL(replica.base).host};`).join('\n');
      await writeFile(join(dir, 'nginx.conf'), `
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
daemon off;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream replicas {
${upstreams}
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://replicas;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    }
  }
}
`);
      nginx = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
      proxyBase = `http://127.0.0.1:${port}`;
      await waitFor(async () => (await fetch(`${proxyBase}/healthz`)).ok);
    });
    after(async () => {
      if (nginx && nginx.exitCode === null) {
        const exited = new Promise((resolve) => nginx!.once('exit', resolve));
        nginx.kill('SIGQUIT');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
        if (nginx.exitCode === null) nginx.kill('SIGKILL');
      }
    });

    test('the allowlisted client, as nginx saw it, is served free by either replica; the same address written by the client is not trusted', async () => {
      for (let i = 0; i < 4; i += 1) {
        const served = await get(`${proxyBase}${TAXONOMY}`, { localAddress: ALLOWLISTED });
        assert.equal(served.status, 200, 'nginx appended 127.0.0.2: exempt');
        const spoofed = await get(`${proxyBase}${TAXONOMY}`, { headers: { 'X-Forwarded-For': ALLOWLISTED } });
        assert.equal(spoofed.status, 402, 'the client wrote 127.0.0.2 itself; nginx appended 127.0.0.1');
      }
      const direct = await get(`${replicas[0]!.base}${TAXONOMY}`, { localAddress: ALLOWLISTED });
      assert.equal(direct.status, 200, 'without a proxy hop the socket address is the client');
      const directSpoof = await get(`${replicas[0]!.base}${TAXONOMY}`, { headers: { 'X-Forwarded-For': ALLOWLISTED } });
      assert.equal(directSpoof.status, 200, 'one entry, one trusted hop: the replica reads the entry (why only the proxy may reach replicas)');
    });

    test('a payment id paid through nginx is answered again through nginx whichever replica gets the retry', async () => {
      const id = generatePaymentId();
      const start = await payer();
      const bodies = new Set<string>();
      for (let i = 0; i < 4; i += 1) {
        const answer = await fetchWithId(DEV_KEYS.payer, id)(`${proxyBase}${TAXONOMY}`);
        assert.equal(answer.status, 200);
        bodies.add(await answer.text());
      }
      assert.equal(bodies.size, 1);
      assert.equal(start - (await payer()), PRICE);
    });
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function waitFor(ready: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await ready()) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error('nginx did not start');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A GET with node:http, which can choose the local address (fetch cannot). */
function get(url: string, options: { localAddress?: string; headers?: Record<string, string> }): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { localAddress: options.localAddress, headers: options.headers }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode! }));
    });
    request.on('error', reject);
    request.end();
  });
}
