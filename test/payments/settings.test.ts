// Payment settings, the ledger and the start refusals, without a chain.
import assert from 'node:assert/strict';
import { appendFile, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { inspect } from 'node:util';
import { DEFAULT_NETWORKS, PaymentConfigError, readPaymentSettings, USDC } from '../../http/payments/config.ts';
import { runCli } from '../helpers/cli.ts';
import { formatUsdc, readRevenue, revenueTotals, type RevenueRecord } from '../../http/payments/ledger.ts';
import { AppendFile, appendLinesDurably, DurableLineWriter } from '../../http/payments/jsonLines.ts';
import { tempDirUntilExit } from '../helpers/tmp.ts';

const PAY_TO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

test('development without settings: payments not configured, loopback exempt, the three networks', () => {
  const settings = readPaymentSettings({});
  assert.equal(settings.payTo, null);
  assert.equal(settings.facilitator, null);
  assert.equal(settings.exemptLoopback, true);
  assert.deepEqual(settings.networks, DEFAULT_NETWORKS);
  assert.deepEqual(DEFAULT_NETWORKS, ['eip155:8453', 'eip155:137', 'eip155:42161']);
  assert.equal(settings.amount, '10000');
  assert.equal(settings.trustProxy, false);
});

test('production requires the pay-to address and the facilitator, and exempts no loopback', () => {
  assert.throws(() => readPaymentSettings({ NODE_ENV: 'production' }), /requires X402_PAY_TO and X402_FACILITATOR_URL/);
  assert.throws(() => readPaymentSettings({ NODE_ENV: 'production', X402_PAY_TO: PAY_TO }), /requires X402_FACILITATOR_URL/);
  const settings = readPaymentSettings({ NODE_ENV: 'production', X402_PAY_TO: PAY_TO, X402_FACILITATOR_URL: 'https://facilitator.example/x402/' });
  assert.equal(settings.exemptLoopback, false);
  assert.deepEqual(settings.facilitator!.urls, ['https://facilitator.example/x402']);
});

test('malformed settings are refused naming the variable', () => {
  const cases: Array<[NodeJS.ProcessEnv, RegExp]> = [
    [{ X402_PAY_TO: '0x123', X402_FACILITATOR_URL: 'http://f' }, /X402_PAY_TO must be a 0x-prefixed 20-byte hex address/],
    [{ X402_PAY_TO: PAY_TO, X402_FACILITATOR_URL: 'ftp://f' }, /X402_FACILITATOR_URL must be an http\(s\) URL/],
    [{ X402_PAY_TO: PAY_TO }, /set both X402_PAY_TO and X402_FACILITATOR_URL/],
    [{ X402_NETWORKS: 'base' }, /X402_NETWORKS: "base" is not a CAIP-2/],
    [{ X402_NETWORKS: 'eip155:1' }, /no USDC asset known for eip155:1; add it with X402_ASSETS/],
    [{ X402_ASSETS: '{"eip155:1":{"address":"nope"}}' }, /X402_ASSETS\["eip155:1"\].address/],
    [{ X402_ASSETS: 'not json' }, /X402_ASSETS must be JSON/],
    [{ X402_ALLOWLIST: '10.0.0.0/33' }, /X402_ALLOWLIST: "10.0.0.0\/33" is not an IP address or CIDR/],
    [{ X402_ALLOWLIST: 'localhost' }, /X402_ALLOWLIST/],
    [{ X402_EXEMPT_LOOPBACK: 'maybe' }, /X402_EXEMPT_LOOPBACK must be true or false/],
    [{ TRUST_PROXY: 'sure' }, /TRUST_PROXY must be true or false/],
    [{ X402_FACILITATOR_HEADERS: '{"Authorization":"Bearer x"}', X402_PAY_TO: PAY_TO, X402_FACILITATOR_URL: 'http://f' }, /keyed by path/],
  ];
  for (const [env, message] of cases) {
    assert.throws(() => readPaymentSettings(env), (error: unknown) => error instanceof PaymentConfigError && message.test(error.message), JSON.stringify(env));
  }
});

test('X402_FACILITATOR_URL takes a comma-separated list, in order of preference, each an http(s) URL, none twice', () => {
  const env = { X402_PAY_TO: PAY_TO, X402_FACILITATOR_URL: ' https://primary.example/x402/ , http://127.0.0.1:4020,' };
  const settings = readPaymentSettings(env);
  assert.deepEqual(settings.facilitator!.urls, ['https://primary.example/x402', 'http://127.0.0.1:4020']);
  assert.equal(settings.facilitator!.cdp, null);
  const refused: Array<[string, RegExp]> = [
    ['https://a.example, ftp://b.example', /X402_FACILITATOR_URL must be an http\(s\) URL \(got "ftp:\/\/b\.example"\)/],
    ['https://a.example,not a url', /X402_FACILITATOR_URL must be an http\(s\) URL \(got "not a url"\)/],
    ['https://a.example/x402, https://b.example, https://a.example/x402/', /X402_FACILITATOR_URL lists https:\/\/a\.example\/x402 twice/],
    [' , ', /X402_FACILITATOR_URL must be an http\(s\) URL or a comma-separated list/],
  ];
  for (const [value, message] of refused) {
    assert.throws(() => readPaymentSettings({ X402_PAY_TO: PAY_TO, X402_FACILITATOR_URL: value }), (error: unknown) => error instanceof PaymentConfigError && message.test(error.message), value);
  }
});

test('CDP_API_KEY_ID and CDP_API_KEY_SECRET: both or neither; the secret is kept out of JSON, inspection and messages', () => {
  const secret = 'cdp-secret-value-that-must-not-leak';
  const base = { X402_PAY_TO: PAY_TO, X402_FACILITATOR_URL: 'https://api.cdp.coinbase.com/platform/v2/x402' };
  const settings = readPaymentSettings({ ...base, CDP_API_KEY_ID: 'organizations/o/apiKeys/k', CDP_API_KEY_SECRET: secret });
  assert.equal(settings.facilitator!.cdp!.id, 'organizations/o/apiKeys/k');
  assert.equal(settings.facilitator!.cdp!.secret, secret);
  assert.doesNotMatch(JSON.stringify(settings), /cdp-secret/);
  assert.doesNotMatch(inspect(settings, { depth: null }), /cdp-secret/);
  for (const env of [{ CDP_API_KEY_ID: 'organizations/o/apiKeys/k' }, { CDP_API_KEY_SECRET: secret }]) {
    // Refused also where payments are not configured: a half-set key is a mistake either way.
    for (const withFacilitator of [base, {}]) {
      assert.throws(
        () => readPaymentSettings({ ...withFacilitator, ...env }),
        (error: unknown) => error instanceof PaymentConfigError && /set both CDP_API_KEY_ID and CDP_API_KEY_SECRET, or neither/.test(error.message) && !error.message.includes(secret),
      );
    }
  }
  assert.equal(readPaymentSettings({ ...base, CDP_API_KEY_ID: ' ', CDP_API_KEY_SECRET: '' }).facilitator!.cdp, null);
});

test('X402_ASSETS adds a network and overrides a built-in one', () => {
  const settings = readPaymentSettings({
    X402_NETWORKS: 'eip155:31337, eip155:8453',
    X402_ASSETS: JSON.stringify({ 'eip155:31337': { address: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512', name: 'USD Coin', version: '2' } }),
  });
  assert.deepEqual(settings.networks, ['eip155:31337', 'eip155:8453']);
  assert.equal(settings.assets['eip155:31337']!.address, '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512');
  assert.deepEqual(settings.assets['eip155:8453'], USDC['eip155:8453']);
});

/** bin/start.ts with only PATH and TMPDIR from this environment, so no payment setting leaks in. */
const runStart = (env: NodeJS.ProcessEnv) =>
  runCli('bin/start.ts', [], { ...Object.fromEntries(Object.keys(process.env).map((k) => [k, undefined])), PATH: process.env.PATH, TMPDIR: process.env.TMPDIR, ...env });

test('npm start in production refuses to start, with one clear line, when the payment settings are missing or malformed', async () => {
  const dataDir = await tempDirUntilExit('refuse-');
  const missing = await runStart({ NODE_ENV: 'production', DATA_DIR: dataDir, PORT: '0' });
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /^refusing to start: NODE_ENV=production requires X402_PAY_TO and X402_FACILITATOR_URL/m);
  const malformed = await runStart({ NODE_ENV: 'production', DATA_DIR: dataDir, PORT: '0', X402_PAY_TO: 'me', X402_FACILITATOR_URL: 'http://127.0.0.1:9' });
  assert.equal(malformed.code, 1);
  assert.match(malformed.stderr, /refusing to start: X402_PAY_TO must be a 0x-prefixed/);
});

test('npm start refuses a bad engine or cache setting the same way: one line, exit code 1', async () => {
  const dataDir = await tempDirUntilExit('refuse-settings-');
  const threads = await runStart({ DATA_DIR: dataDir, PORT: '0', DUCKDB_THREADS: '0' });
  assert.equal(threads.code, 1);
  assert.match(threads.stderr, /^refusing to start: DUCKDB_THREADS must be a whole number from 1 to 64 \(got "0"\)$/m);
  const cache = await runStart({ DATA_DIR: dataDir, PORT: '0', ANSWER_CACHE_MB: 'lots' });
  assert.equal(cache.code, 1);
  assert.match(cache.stderr, /^refusing to start: ANSWER_CACHE_MB must be a whole number of MiB/m);
});

const record = (overrides: Partial<RevenueRecord>): RevenueRecord => ({
  time: '2026-11-22T10:00:00.000Z', route: 'getTaxonomyForYear', resource: '/api/x', network: 'eip155:8453',
  payer: '0xabc', amount: '10000', asset: '0xusdc', transaction: '0x1', requestId: null, ...overrides,
});

test('the ledger survives a torn last line: it is skipped and the next record starts on its own line', async () => {
  const file = path.join(await tempDirUntilExit('ledger-'), 'nested', 'ledger.jsonl');
  const ledger = new DurableLineWriter(file);
  const append = (overrides: Partial<RevenueRecord>) => ledger.append(`${JSON.stringify(record(overrides))}\n`);
  await append({ transaction: '0x1' });
  await appendFile(file, '{"time":"2026-11-22T10:00:01.000Z","route":"getTa'); // a crash mid-write
  await Promise.all([append({ transaction: '0x2' }), append({ transaction: '0x3' })]);
  const records = await readRevenue(file);
  assert.deepEqual(records.map((r) => r.transaction), ['0x1', '0x2', '0x3']);
  assert.equal((await readFile(file, 'utf8')).split('\n').length, 5); // 3 records, the torn line, the final newline
  assert.deepEqual(await readRevenue(path.join(path.dirname(file), 'absent.jsonl')), []);
});

test('ledger appends that arrive while a write is on disk share the next write, in call order; a failed write fails only its own group', async () => {
  const file = path.join(await tempDirUntilExit('ledger-group-'), 'ledger.jsonl');
  const groups: number[] = [];
  let failNext = false;
  const writer = new DurableLineWriter(file, async (target, lines) => {
    groups.push(lines.length);
    if (failNext) {
      failNext = false;
      throw new Error('disk full');
    }
    return appendLinesDurably(target, lines);
  });
  const lines = Array.from({ length: 40 }, (_, i) => `{"n":${i}}\n`);
  const appended = await Promise.all(lines.map((line) => writer.append(line)));
  // The first line is written alone; the 39 queued behind it go together.
  assert.deepEqual(groups, [1, 39]);
  assert.deepEqual((await readFile(file, 'utf8')).split('\n').slice(0, -1).map((l) => JSON.parse(l).n), lines.map((_, i) => i));
  for (const [i, line] of lines.entries()) {
    assert.equal(appended[i].written, Buffer.byteLength(line));
    assert.equal(appended[i].sizeBefore, i === 0 ? 0 : appended[i - 1].sizeBefore + appended[i - 1].written);
  }
  failNext = true;
  const [lost, kept] = await Promise.allSettled([writer.append('{"n":"a"}\n'), writer.append('{"n":"b"}\n')]);
  assert.equal(lost.status, 'rejected');
  assert.equal(kept.status, 'fulfilled');
  assert.match(await readFile(file, 'utf8'), /\{"n":39\}\n\{"n":"b"\}\n$/);
});

test('a file kept open between appends follows the path: replaced by a rename, removed, or written by another process', async () => {
  const dir = await tempDirUntilExit('append-file-');
  const file = path.join(dir, 'journal.jsonl');
  const journal = new AppendFile(file);
  try {
    await journal.appendLines(['{"n":1}\n']);
    await writeFile(path.join(dir, 'rewritten'), '{"n":"r"}\n');
    await rename(path.join(dir, 'rewritten'), file); // a rewrite by rename
    await journal.appendLines(['{"n":2}\n']);
    assert.equal(await readFile(file, 'utf8'), '{"n":"r"}\n{"n":2}\n');
    await rm(file);
    const [appended] = await journal.appendLines(['{"n":3}\n']);
    assert.equal(await readFile(file, 'utf8'), '{"n":3}\n');
    assert.deepEqual(appended, { sizeBefore: 0, written: 8 });
    await appendFile(file, '{"n":"to'); // another writer's torn line
    await journal.appendLines(['{"n":4}\n']);
    assert.equal(await readFile(file, 'utf8'), '{"n":3}\n{"n":"to\n{"n":4}\n');
  } finally {
    await journal.close();
  }
});

test('revenue totals per key, and USDC formatting', () => {
  const records = [
    record({ time: '2026-11-21T23:59:59.000Z', network: 'eip155:137' }),
    record({ time: '2026-11-22T00:00:00.000Z' }),
    record({ time: '2026-11-22T08:00:00.000Z', route: 'getCard' }),
  ];
  assert.deepEqual(
    revenueTotals(records, (r) => r.time.slice(0, 10)).map((t) => [t.key, t.payments, formatUsdc(t.amount)]),
    [['2026-11-21', 1, '0.010000'], ['2026-11-22', 2, '0.020000']],
  );
  assert.deepEqual(revenueTotals(records, (r) => r.route).map((t) => [t.key, t.payments]), [['getCard', 1], ['getTaxonomyForYear', 2]]);
  assert.equal(formatUsdc(1_234_567_890n), '1234.567890');
  assert.equal(formatUsdc(0n), '0.000000');
});

test('npm run revenue prints the totals of the ledger', async () => {
  const file = path.join(await tempDirUntilExit('revenue-'), 'ledger.jsonl');
  await writeFile(file, [record({}), record({ network: 'eip155:137', amount: '20000' })].map((r) => JSON.stringify(r)).join('\n') + '\n');
  const { stdout: output } = await runCli('bin/revenue.ts', [], { REVENUE_LEDGER: file, DATABASE_URL: '' });
  assert.match(output, /2 settled payment\(s\), 0\.030000 USDC/);
  assert.match(output, /2026-11-22\s+2\s+0\.030000/);
  assert.match(output, /eip155:137\s+1\s+0\.020000/);
  assert.match(output, /eip155:8453\s+1\s+0\.010000/);
});
