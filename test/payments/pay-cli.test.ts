// `npm run pay` (bin/pay.ts) against a paid server on the local chain: every way it ends is one
// clear line and an exit code, never a stack trace (a cap below the price, a reader that closes
// the output early, an unreachable server, usage), and `--id` retries without paying twice.
// --max-usd is compared in the asset's own units: USDC where it is known, else only an asset named
// with --allow-asset <address>[:decimals] (or X402_TEST_TOKEN, the local chain's test token, which
// the tests above pay with); the decimals are checked against a hostile loopback server that asks
// for an 18-decimal token and collects the signatures it gets.
// The command runs in this process (runPay, bin/pay.ts) where a test is about what it decides; as a
// child process (npm's way) where only a process shows it: its exit code and lines when it refuses,
// and a reader of its output that goes away.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generatePaymentId } from '@x402/extensions/payment-identifier';
import { DEV_KEYS } from '../../devchain/chain.ts';
import { formatUsd, parseAllowedAsset, parseUsd, usdOfRequirement, usdOfUnits } from '../../http/payments/assets.ts';
import { USDC } from '../../http/payments/config.ts';
import { routes } from '../../domains/index.ts';
import { runPay } from '../../bin/pay.ts';
import { projectRoot, runCli, scriptArgs, type CliResult } from '../helpers/cli.ts';
import { writeSebraSnapshot } from '../helpers/snapshot.ts';
import { fixtureDays, fixturePayments } from '../queries/sebra-fixture.ts';
import { devPaymentEnv, startPaidApp, startPaymentRig, type PaidApp, type PaymentRig } from '../helpers/payments.ts';
import { BASE_SEPOLIA, startHostileServer, type HostileServer } from '../helpers/hostileServer.ts';

const PRICE = 10_000n;
const TAXONOMY = '/api/sebra/getTaxonomyForYear?year=2024';
const STACK_FRAME = /^[^\S\n\r\u2028\u2029]+at /m;

let rig: PaymentRig;
let app: PaidApp;
const hostiles: HostileServer[] = [];
before(async () => {
  rig = await startPaymentRig(await writeSebraSnapshot(fixturePayments, fixtureDays));
  app = await startPaidApp({ db: rig.db, routes, env: devPaymentEnv(rig.chain, rig.facilitator.url) });
});
after(async () => {
  for (const hostile of hostiles) await hostile.close();
  await app?.close();
  if (app) await rm(path.dirname(app.ledgerPath), { recursive: true, force: true });
  await rig?.facilitator.stop();
  await rig?.db.close();
});

const balance = () => rig.chain.balanceOf(rig.chain.addresses.payer);
/** The local chain's test token is allowed (X402_TEST_TOKEN) unless `env` says otherwise. */
const testTokenEnv = (): NodeJS.ProcessEnv => ({ X402_PAYER_KEY: DEV_KEYS.payer, X402_TEST_TOKEN: rig.chain.token });

/** The command in this process, with this process's environment and `env` over it: its exit code, stdout and stderr. */
async function pay(args: string[], env: NodeJS.ProcessEnv = testTokenEnv()): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runPay(args, {
    env: { ...process.env, ...env },
    out: (line) => (stdout += `${line}\n`),
    err: (line) => (stderr += `${line}\n`),
    answered: () => undefined,
  });
  return { code, stdout, stderr };
}

function assertClean(result: CliResult): void {
  assert.doesNotMatch(result.stderr, STACK_FRAME, `no stack trace:\n${result.stderr}`);
  assert.doesNotMatch(result.stdout, STACK_FRAME, `no stack trace:\n${result.stdout}`);
}

/** bin/pay.ts with its output read by a reader that has already gone (like `| head` once it has its lines). */
function payIntoClosedOutput(args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...scriptArgs('bin/pay.ts'), ...args], {
      cwd: projectRoot,
      env: { ...process.env, ...testTokenEnv() },
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
  test('a cap below the price (as a command): one clear line, exit 1, nothing paid', async () => {
    const start = await balance();
    const result = await runCli('bin/pay.ts', [`${app.base}${TAXONOMY}`, '--max-usd', '0.005'], testTokenEnv());
    assertClean(result);
    assert.equal(result.code, 1);
    assert.equal(result.stderr.trim(), `pay: the price is USD 0.01 (10000 units of ${rig.chain.token} on eip155:31337), above --max-usd 0.005; nothing was paid (raise --max-usd to pay it)`);
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
      const child = spawn('sh', ['-c', script], { cwd: projectRoot, env: { ...process.env, ...testTokenEnv() }, stdio: ['ignore', 'pipe', 'pipe'] });
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

describe('--max-usd in the asset\'s own units', () => {
  const verifies = () => rig.facilitator.requests.filter((r) => r.path === '/verify').length;

  test('an asset it does not know is refused, nothing signed; --allow-asset names it and it is paid', async () => {
    const start = await balance();
    const verified = verifies();
    const refused = await pay([`${app.base}${TAXONOMY}`], { X402_PAYER_KEY: DEV_KEYS.payer, X402_TEST_TOKEN: '' });
    assertClean(refused);
    assert.equal(refused.code, 1);
    assert.equal(refused.stdout, '');
    assert.match(refused.stderr, new RegExp(`^pay: the server asks for no asset this command knows \\(offered: 10000 units of ${rig.chain.token} on eip155:31337; known: USDC \\(6 decimals\\) on Base \\(eip155:8453\\), .*\\); nothing was paid \\(to pay another USD stablecoin you trust, name it: --allow-asset <address>\\[:decimals\\]\\)\n$`));
    assert.equal(verifies(), verified, 'no payment reached the server');
    assert.equal(await balance(), start);

    const allowed = await pay([`${app.base}${TAXONOMY}`, '--allow-asset', rig.chain.token], { X402_PAYER_KEY: DEV_KEYS.payer, X402_TEST_TOKEN: '' });
    assertClean(allowed);
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.match(allowed.stdout, /^receipt: paid on eip155:31337 /m);
    assert.equal(start - (await balance()), PRICE);
  });

  test('an 18-decimal token with --allow-asset <address>:18: 10^16 units (USD 0.01) fit --max-usd 0.01, 2*10^16 do not', async () => {
    const token = `0x${'ab'.repeat(20)}`;
    const hostile = (amount: string) => startHostileServer({ answer: 'no-receipt', amount, asset: token, extra: { name: 'Eighteen', version: '1' } }).then((server) => {
      hostiles.push(server);
      return server;
    });
    const env = { X402_PAYER_KEY: DEV_KEYS.payer, X402_TEST_TOKEN: '' };

    const cent = await hostile('10000000000000000');
    const paid = await pay([`${cent.base}${TAXONOMY}`, '--max-usd', '0.01', '--allow-asset', `${token}:18`], env);
    assertClean(paid);
    assert.equal(paid.code, 0, paid.stderr);
    assert.equal(cent.payments.length, 1);
    assert.equal((cent.payments[0]!.payload as { authorization: { value: string } }).authorization.value, '10000000000000000');
    // The server sent no receipt: the signed authorization is not called "nothing charged".
    assert.match(paid.stdout, new RegExp(`^receipt: none, but an authorization for USD 0\\.01 \\(10000000000000000 units of ${token} on ${BASE_SEPOLIA}\\) was signed and sent`, 'm'));

    const twoCents = await hostile('20000000000000000');
    const above = await pay([`${twoCents.base}${TAXONOMY}`, '--max-usd', '0.01', '--allow-asset', `${token}:18`], env);
    assertClean(above);
    assert.equal(above.code, 1);
    assert.equal(above.stderr, `pay: the price is USD 0.02 (20000000000000000 units of ${token} on ${BASE_SEPOLIA}), above --max-usd 0.01; nothing was paid (raise --max-usd to pay it)\n`);
    // Read as 6 decimals (no :18), 10^16 units would be USD 10^10: refused as well.
    const sixDecimals = await pay([`${cent.base}${TAXONOMY}`, '--max-usd', '0.01', '--allow-asset', token], env);
    assert.equal(sixDecimals.code, 1);
    assert.match(sixDecimals.stderr, /^pay: the price is USD 10000000000 /);
    // Not named at all, even a price of a few units is not paid: the token is unknown.
    const dust = await hostile('10000');
    const unknown = await pay([`${dust.base}${TAXONOMY}`, '--max-usd', '0.01'], env);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /^pay: the server asks for no asset this command knows/);
    assert.deepEqual([twoCents.payments.length, cent.payments.length, dust.payments.length], [0, 1, 0], 'nothing more signed');
  });

  test('--allow-asset usage mistakes: exit 2', async () => {
    for (const value of ['0x12', `0x${'ab'.repeat(20)}:19`, `0x${'ab'.repeat(20)}:six`]) {
      const result = await pay([`${app.base}${TAXONOMY}`, '--allow-asset', value]);
      assertClean(result);
      assert.equal(result.code, 2);
      assert.match(result.stderr, /^pay: --allow-asset /);
    }
  });

  test('the conversion: USDC is known on its own network only, any asset is priced with its decimals', () => {
    const base = USDC['eip155:8453']!.address;
    const known = usdOfRequirement({ network: 'eip155:8453', asset: base, amount: '10000' }, []);
    assert.deepEqual(known && { name: known.asset.name, decimals: known.asset.decimals, usd: formatUsd(known.usd) }, { name: 'USDC', decimals: 6, usd: '0.01' });
    assert.equal(usdOfRequirement({ network: 'eip155:8453', asset: base.toLowerCase(), amount: '10000' }, [])?.usd, parseUsd('0.01'));
    assert.equal(formatUsd(usdOfRequirement({ network: 'eip155:137', asset: USDC['eip155:137']!.address, amount: '2500000' }, [])!.usd), '2.5');
    // Base's USDC address on Polygon, or any other token: not known without being named.
    assert.equal(usdOfRequirement({ network: 'eip155:137', asset: base, amount: '10000' }, []), null);
    assert.equal(usdOfRequirement({ network: 'eip155:31337', asset: `0x${'ab'.repeat(20)}`, amount: '1' }, []), null);
    // A token named with its decimals, on any network; the known table wins on its own network.
    const eighteen = parseAllowedAsset(`0x${'ab'.repeat(20)}:18`);
    assert.equal(usdOfRequirement({ network: 'eip155:1', asset: eighteen.address, amount: '10000000000000000' }, [eighteen])?.usd, parseUsd('0.01'));
    assert.ok(usdOfRequirement({ network: 'eip155:1', asset: eighteen.address, amount: '20000000000000000' }, [eighteen])!.usd > parseUsd('0.01')!);
    assert.equal(formatUsd(usdOfRequirement({ network: 'eip155:8453', asset: base, amount: '10000' }, [{ address: base, decimals: 18 }])!.usd), '0.01');
    assert.deepEqual(parseAllowedAsset(base), { address: base, decimals: 6 });
    assert.throws(() => parseAllowedAsset(`${base}:19`), /decimals must be a whole number from 0 to 18/);
    assert.throws(() => parseAllowedAsset('USDC'), /--allow-asset must be a token address/);
    // Amounts that are no whole number of units are not priced (nor paid).
    for (const amount of ['1.5', '-1', '', '1e6', 10000]) assert.equal(usdOfUnits(amount, 6), null, String(amount));
    assert.equal(formatUsd(usdOfUnits('1', 18)!), '0.000000000000000001');
    assert.equal(formatUsd(parseUsd('1.5')!), '1.5');
    assert.equal(parseUsd('0.0000001'), null);
  });
});
