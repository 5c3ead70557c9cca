// `npm run pay` (bin/pay.ts) against a paid server on the local chain: every way it ends is one
// clear line and an exit code, never a stack trace (a cap below the price, a reader that closes
// the output early, an unreachable server, usage), and `--id` retries without paying twice.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generatePaymentId } from '@x402/extensions/payment-identifier';
import { DEV_KEYS } from '../../devchain/chain.ts';
import { routes } from '../../domains/index.ts';
import { projectRoot, runCli, type CliResult } from '../helpers/cli.ts';
import { writeSebraSnapshot } from '../helpers/snapshot.ts';
import { fixtureDays, fixturePayments } from '../queries/sebra-fixture.ts';
import { devPaymentEnv, startPaidApp, startPaymentRig, type PaidApp, type PaymentRig } from '../helpers/payments.ts';

const PRICE = 10_000n;
const TAXONOMY = '/api/sebra/getTaxonomyForYear?year=2024';
const STACK_FRAME = /^\s+at /m;

let rig: PaymentRig;
let app: PaidApp;
before(async () => {
  rig = await startPaymentRig(await writeSebraSnapshot(fixturePayments, fixtureDays));
  app = await startPaidApp({ db: rig.db, routes, env: devPaymentEnv(rig.chain, rig.facilitator.url) });
});
after(async () => {
  await app?.close();
  if (app) await rm(path.dirname(app.ledgerPath), { recursive: true, force: true });
  await rig?.facilitator.stop();
  await rig?.db.close();
});

const balance = () => rig.chain.balanceOf(rig.chain.addresses.payer);
const pay = (args: string[], env: NodeJS.ProcessEnv = { X402_PAYER_KEY: DEV_KEYS.payer }) => runCli('bin/pay.ts', args, env);

function assertClean(result: CliResult): void {
  assert.doesNotMatch(result.stderr, STACK_FRAME, `no stack trace:\n${result.stderr}`);
  assert.doesNotMatch(result.stdout, STACK_FRAME, `no stack trace:\n${result.stdout}`);
}

/** bin/pay.ts with its output read by a reader that has already gone (like `| head` once it has its lines). */
function payIntoClosedOutput(args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(projectRoot, 'bin/pay.ts'), ...args], {
      cwd: projectRoot,
      env: { ...process.env, X402_PAYER_KEY: DEV_KEYS.payer },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: '', stderr }));
  });
}

describe('npm run pay', () => {
  test('a cap below the price: one clear line, exit 1, nothing paid', async () => {
    const start = await balance();
    const result = await pay([`${app.base}${TAXONOMY}`, '--max-usd', '0.005']);
    assertClean(result);
    assert.equal(result.code, 1);
    assert.equal(result.stderr.trim(), 'pay: the price is USD 0.01 (10000 units on eip155:31337), above --max-usd 0.005; nothing was paid (raise --max-usd to pay it)');
    assert.equal(result.stdout, '');
    assert.equal(await balance(), start);
  });

  test('piped into a reader that stops early: no stack trace, the answer paid once, exit 0', async () => {
    const start = await balance();
    const result = await payIntoClosedOutput([`${app.base}${TAXONOMY}`]);
    assertClean(result);
    assert.equal(result.code, 0);
    assert.match(result.stderr, /^pay: output closed early \(e\.g\. piped into head\); the request was answered with HTTP 200 and paid once \(transaction 0x[0-9a-f]{64}\)\n$/);
    assert.equal(start - (await balance()), PRICE);
  });

  test('piped into head through a shell: the first line, no stack trace', async () => {
    const result = await new Promise<CliResult>((resolve, reject) => {
      const script = `"${process.execPath}" --import tsx bin/pay.ts '${app.base}${TAXONOMY}' | head -n 1`;
      const child = spawn('sh', ['-c', script], { cwd: projectRoot, env: { ...process.env, X402_PAYER_KEY: DEV_KEYS.payer }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    assertClean(result);
    assert.equal(result.stdout, 'HTTP 200 OK\n');
  });

  test('an unreachable server, and usage mistakes: one clear line each', async () => {
    // A port nothing listens on: bound and released.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const closed = `http://127.0.0.1:${port}${TAXONOMY}`;
    const unreachable = await pay([closed]);
    assertClean(unreachable);
    assert.equal(unreachable.code, 1);
    assert.equal(unreachable.stderr, `pay: could not reach ${closed}: fetch failed: connect ECONNREFUSED 127.0.0.1:${port}; nothing was paid\n`);

    const noKey = await pay([`${app.base}${TAXONOMY}`], { X402_PAYER_KEY: '' });
    assert.equal(noKey.code, 2);
    assert.match(noKey.stderr, /^pay: set X402_PAYER_KEY/);
    const badCap = await pay([`${app.base}${TAXONOMY}`, '--max-usd', 'ten']);
    assert.equal(badCap.code, 2);
    assert.match(badCap.stderr, /^pay: --max-usd must be a decimal amount/);
    const badId = await pay([`${app.base}${TAXONOMY}`, '--id', 'short']);
    assert.equal(badId.code, 2);
    assert.match(badId.stderr, /^pay: --id must be 16 to 128 characters/);
    for (const result of [noKey, badCap, badId]) assertClean(result);
  });

  test('--id: the same command again is answered without a second charge', async () => {
    const id = generatePaymentId();
    const start = await balance();
    const first = await pay([`${app.base}${TAXONOMY}`, '--id', id]);
    assertClean(first);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, new RegExp(`^payment id: ${id} `, 'm'));
    const again = await pay([`${app.base}${TAXONOMY}`, '--id', id]);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(again.stdout, first.stdout, 'the same receipt and the same answer');
    assert.equal(start - (await balance()), PRICE);
  });
});
