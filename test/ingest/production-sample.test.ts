// NODE_ENV=production never serves invented figures without the operator's word: `npm start`
// (bin/start.ts, spawned) on a DATA_DIR holding the generated sample refuses with one line and exit
// code 1; on an empty DATA_DIR it builds no sample (DATA_DIR and SAMPLE_DIR stay empty) and refuses;
// with ALLOW_SAMPLE_DATA=true it serves the sample (payments on the local chain through the local
// facilitator) and every answer still says sample: /healthz, the 402 challenge and discovery.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, rename } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { startDevChain, type DevChain } from '../../devchain/chain.ts';
import { startLocalFacilitator, type LocalFacilitator } from '../../devchain/facilitator.ts';
import { hasServingDatabase, SERVING_FILE, SERVING_MANIFEST } from '../../domains/servingDatabase.ts';
import { currentGeneration } from '../../engine/generation.ts';
import { ConfigError, readConfig } from '../../http/config.ts';
import { recoverAtStart } from '../../ingest/generations.ts';
import { projectRoot, runCli, scriptArgs } from '../helpers/cli.ts';
import { devPaymentEnv } from '../helpers/payments.ts';
import { tempDirUntilExit } from '../helpers/tmp.ts';
import { buildSampleSnapshot, copySampleSnapshot } from '../http/sample-app.ts';

let sampleDataDir: string;
let chain: DevChain;
let facilitator: LocalFacilitator;
const children: ChildProcess[] = [];
before(async () => {
  // The run's shared sample (read only), copied into a DATA_DIR of this file's own.
  const shared = process.env.SAMPLE_SNAPSHOT_DIR ? path.resolve(process.env.SAMPLE_SNAPSHOT_DIR) : await tempDirUntilExit('production-sample-build-');
  const built = await buildSampleSnapshot(shared);
  sampleDataDir = path.join(await tempDirUntilExit('production-sample-'), 'parquet');
  await copySampleSnapshot(built, sampleDataDir);
  // Into a first generation, as a start leaves it, with that serving database (the generation's files
  // are links to the same ones): the start that serves opens it instead of building its own (20-30 s).
  await recoverAtStart(sampleDataDir, () => {});
  const generation = currentGeneration(sampleDataDir).dir;
  for (const name of [SERVING_FILE, SERVING_MANIFEST]) await rename(path.join(sampleDataDir, name), path.join(generation, name));
  assert.equal(await hasServingDatabase(generation), true);
  chain = await startDevChain();
  facilitator = await startLocalFacilitator({ chain });
});
after(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await facilitator?.stop();
});

/** Only PATH and TMPDIR from this environment, so no setting leaks in; payments are configured (production requires them). */
function productionEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    ...Object.fromEntries(Object.keys(process.env).map((key) => [key, undefined])),
    PATH: process.env.PATH, TMPDIR: process.env.TMPDIR,
    ...devPaymentEnv(chain, facilitator.url),
    NODE_ENV: 'production',
    ...env,
  };
}

/** bin/start.ts expected to refuse: killed if it is still running after a minute (it started serving). */
const runStart = (env: NodeJS.ProcessEnv) => runCli('bin/start.ts', [], env, { timeoutMs: 60_000 });

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test('a DATA_DIR holding the sample: one line, exit code 1, nothing served', async () => {
  const result = await runStart(productionEnv({ DATA_DIR: sampleDataDir, PORT: '0', SAMPLE_DIR: await tempDirUntilExit('production-samples-') }));
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, /^refusing to start: NODE_ENV=production: .+ holds generated sample data \(invented figures, not published data\); ingest the real files \(npm run ingest\), or set ALLOW_SAMPLE_DATA=true to serve it labelled sample in every answer\n$/);
  assert.doesNotMatch(result.stdout, /serving/);
  // ALLOW_SAMPLE_DATA=false reads as unset (the refusal above); a value that is no yes or no is a
  // configuration error naming the variable, which the start prints as the line above and exits 1.
  // Read by the start's own readConfig (bin/start.ts), in this process: no start per value.
  const env = (allow?: string) => productionEnv({ DATA_DIR: sampleDataDir, PORT: '0', ALLOW_SAMPLE_DATA: allow });
  assert.equal(readConfig(env()).allowSampleData, false);
  assert.equal(readConfig(env('false')).allowSampleData, false);
  assert.equal(readConfig(env('true')).allowSampleData, true);
  assert.throws(() => readConfig(env('maybe')), (error: Error) => error instanceof ConfigError && error.message === 'ALLOW_SAMPLE_DATA must be true or false (got "maybe")');
});

test('an empty DATA_DIR: no sample is built, one line, exit code 1', async () => {
  const dataDir = await tempDirUntilExit('production-empty-');
  const sampleDir = await tempDirUntilExit('production-empty-samples-');
  const result = await runStart(productionEnv({ DATA_DIR: dataDir, SAMPLE_DIR: sampleDir, PORT: '0' }));
  assert.equal(result.code, 1, result.stderr);
  assert.match(result.stderr, /^refusing to start: NODE_ENV=production: .+ holds no data, and the invented sample is not built in production; .*ALLOW_SAMPLE_DATA=true/);
  assert.doesNotMatch(result.stdout, /generating its sample|building /);
  assert.deepEqual(await readdir(sampleDir), []);
  assert.deepEqual((await readdir(dataDir)).filter((name) => name !== '.lock'), []);
});

test('ALLOW_SAMPLE_DATA=true: served, and every answer says sample', { timeout: 180_000 }, async () => {
  const port = await freePort();
  const child = spawn(process.execPath, scriptArgs('bin/start.ts'), {
    cwd: projectRoot,
    env: productionEnv({ DATA_DIR: sampleDataDir, PORT: String(port), ALLOW_SAMPLE_DATA: 'true', SAMPLE_DIR: await tempDirUntilExit('production-allowed-samples-') }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      // The start's log lines are JSON (pino; stdout is no terminal): the start event's message.
      if (/"msg":"serving /.test(stdout)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`start exited ${code}: ${stderr}`)));
  });
  assert.match(stdout, /"msg":"ALLOW_SAMPLE_DATA=true: serving generated sample data in production; every answer says sample/);
  const base = `http://127.0.0.1:${port}`;
  const health = await (await fetch(`${base}/healthz`)).json() as { data: string };
  assert.equal(health.data, 'sample');
  const unpaid = await fetch(`${base}/api/sebra/getTaxonomyForYear/2024`);
  assert.equal(unpaid.status, 402);
  assert.match(decodePaymentRequiredHeader(unpaid.headers.get('payment-required')!).resource.description!, /\(sample data: invented by the project's sample generator, not published figures\)$/);
  const discovery = await (await fetch(`${base}/.well-known/x402`)).json() as { items: Array<{ description: string }> };
  assert.ok(discovery.items.every((item) => item.description.includes('(sample data: ')));
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
});
