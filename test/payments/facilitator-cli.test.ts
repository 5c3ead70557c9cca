// `npm run facilitator` (bin/facilitator.ts): the commands it prints use the configured ports (the
// facilitator's FACILITATOR_PORT, the server's PORT / HOST / BASE_URL), and a port that cannot be
// used is one clear line, not a stack trace.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import { projectRoot, runCli, scriptArgs } from '../helpers/cli.ts';

const started: ChildProcess[] = [];
after(async () => {
  for (const child of started) {
    if (child.exitCode === null && child.signalCode === null) {
      const closed = new Promise((resolve) => child.once('close', resolve));
      child.kill('SIGTERM');
      await closed;
    }
  }
});

/** Starts the facilitator and resolves with everything it printed once it is ready. */
function startFacilitator(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, scriptArgs('bin/facilitator.ts'), {
      cwd: projectRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('stop it with Ctrl-C')) resolve({ child, stdout });
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => reject(new Error(`the facilitator ended (${code}) before it was ready:\n${stdout}\n${stderr}`)));
  });
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

test('the printed commands use FACILITATOR_PORT and the server\'s PORT', { timeout: 120_000 }, async () => {
  const facilitatorPort = await freePort();
  const { stdout } = await startFacilitator({ FACILITATOR_PORT: String(facilitatorPort), PORT: '3456', HOST: '', BASE_URL: '' });
  assert.match(stdout, new RegExp(`^local x402 facilitator on http://127\\.0\\.0\\.1:${facilitatorPort} `));
  assert.match(stdout, new RegExp(`^  X402_FACILITATOR_URL=http://127\\.0\\.0\\.1:${facilitatorPort} \\\\$`, 'm'));
  assert.match(stdout, /^ {2}PORT=3456 \\\n {2}npm start$/m);
  assert.match(stdout, /npm run pay -- 'http:\/\/127\.0\.0\.1:3456\/api\/sebra\/getTaxonomyForYear\?year=2025'$/m);
  // The facilitator answers where it says it is.
  const supported = await fetch(`http://127.0.0.1:${facilitatorPort}/supported`);
  assert.equal(supported.status, 200);
  assert.ok(((await supported.json()) as { kinds: unknown[] }).kinds.length > 0);
});

test('FACILITATOR_PORT=0 picks a free port and prints it; BASE_URL is the paid call\'s address', { timeout: 120_000 }, async () => {
  const { stdout } = await startFacilitator({ FACILITATOR_PORT: '0', PORT: '', HOST: '', BASE_URL: 'https://data.example.org/' });
  const url = /^local x402 facilitator on (http:\/\/127\.0\.0\.1:(\d+)) /.exec(stdout);
  assert.ok(url && Number(url[2]) > 0, stdout);
  assert.match(stdout, new RegExp(`X402_FACILITATOR_URL=${url![1]!.replace(/[.]/g, '\\.')} `));
  assert.match(stdout, /^ {2}BASE_URL=https:\/\/data\.example\.org\/ \\\n {2}npm start$/m);
  assert.match(stdout, /npm run pay -- 'https:\/\/data\.example\.org\/api\/sebra\/getTaxonomyForYear\?year=2025'$/m);
  assert.equal((await fetch(`${url![1]}/supported`)).status, 200);
});

test('a port in use or not a port: one clear line, exit 2', { timeout: 120_000 }, async () => {
  const busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', () => resolve()));
  const { port } = busy.address() as AddressInfo;
  try {
    const inUse = await runCli('bin/facilitator.ts', [], { FACILITATOR_PORT: String(port) });
    assert.equal(inUse.code, 2);
    assert.equal(inUse.stderr, `facilitator: port ${port} is already in use; choose another with FACILITATOR_PORT=<port> (0 picks a free one)\n`);
  } finally {
    await new Promise((resolve) => busy.close(resolve));
  }
  const notAPort = await runCli('bin/facilitator.ts', [], { FACILITATOR_PORT: 'http' });
  assert.equal(notAPort.code, 2);
  assert.equal(notAPort.stderr, 'facilitator: FACILITATOR_PORT must be a port number from 0 to 65535 (got http)\n');
  const badServerPort = await runCli('bin/facilitator.ts', [], { FACILITATOR_PORT: '0', PORT: '70000' });
  assert.equal(badServerPort.code, 2);
  assert.match(badServerPort.stderr, /^facilitator: PORT must be a port number/);
});
