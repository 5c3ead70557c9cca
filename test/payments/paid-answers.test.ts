// The store of settled answers (http/payments/paidAnswers.ts): its bounds in bytes and in age, its
// file surviving a restart, a torn last line skipped, compaction, and the settings that size it.
import assert from 'node:assert/strict';
import { appendFile, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { PaymentConfigError, readPaymentSettings } from '../../http/payments/config.ts';
import { PaidAnswerStore, type PaidAnswer } from '../../http/payments/paidAnswers.ts';

let dir: string;
before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'paid-answers-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

const T0 = Date.parse('2026-11-22T12:00:00.000Z');

function answer(id: string, savedMs: number, body = `{"id":"${id}"}`): PaidAnswer {
  return {
    id,
    savedAt: new Date(savedMs).toISOString(),
    request: `fingerprint-of-${id}`,
    payment: { payer: '0xpayer', network: 'eip155:31337', asset: '0xasset', payTo: '0xpayto', amount: '10000' },
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8', 'payment-response': `receipt-${id}` },
    body: Buffer.from(body),
  };
}

/** Bytes of one answer's line as the store writes it (JSON, body in base64, newline). */
function lineBytes(a: PaidAnswer): number {
  return Buffer.byteLength(`${JSON.stringify({ ...a, body: a.body.toString('base64') })}\n`);
}

let fileCounter = 0;
const freshPath = () => path.join(dir, `store-${++fileCounter}`, 'paid-answers.jsonl');

test('an answer is kept with its bytes and read back identical; a binary body survives', async () => {
  const file = freshPath();
  const store = new PaidAnswerStore({ path: file, maxBytes: 1_000_000, maxAgeSeconds: 3600, now: () => new Date(T0) });
  const binary = { ...answer('pay_binary_body_0001', T0), body: Buffer.from([0, 255, 10, 13, 0x41]) };
  assert.equal(await store.put(binary), true);
  assert.deepEqual(await store.get('pay_binary_body_0001'), binary);
  assert.equal(await store.get('pay_unknown_identifier'), undefined);
  const reopened = new PaidAnswerStore({ path: file, maxBytes: 1_000_000, maxAgeSeconds: 3600, now: () => new Date(T0) });
  assert.deepEqual(await reopened.get('pay_binary_body_0001'), binary);
});

test('the byte bound: the oldest answers go first, and an answer heavier than the bound is not kept', async () => {
  const file = freshPath();
  const answers = ['pay_bound_a_000000001', 'pay_bound_b_000000001', 'pay_bound_c_000000001'].map((id, i) => answer(id, T0 + i));
  const one = lineBytes(answers[0]!);
  assert.equal(lineBytes(answers[1]!), one);
  // Room for two answers, not three.
  const store = new PaidAnswerStore({ path: file, maxBytes: 2 * one + 10, maxAgeSeconds: 3600, now: () => new Date(T0 + 10) });
  for (const a of answers) assert.equal(await store.put(a), true);
  assert.equal(await store.get(answers[0]!.id), undefined, 'the oldest was evicted');
  assert.deepEqual(await store.get(answers[1]!.id), answers[1]);
  assert.deepEqual(await store.get(answers[2]!.id), answers[2]);
  assert.deepEqual((await store.stats()).answers, 2);
  assert.equal((await store.stats()).bytes, 2 * one);

  const heavy = answer('pay_heavy_answer_0001', T0 + 20, 'x'.repeat(3 * one));
  assert.equal(await store.put(heavy), false);
  assert.equal(await store.get(heavy.id), undefined);
  assert.equal((await store.stats()).answers, 2, 'the others stay');

  // Reopened: the same two, and the file was rewritten without the evicted one.
  const reopened = new PaidAnswerStore({ path: file, maxBytes: 2 * one + 10, maxAgeSeconds: 3600, now: () => new Date(T0 + 10) });
  assert.equal(await reopened.get(answers[0]!.id), undefined);
  assert.deepEqual(await reopened.get(answers[2]!.id), answers[2]);
  assert.equal((await stat(file)).size, 2 * one);
});

test('the file stays under twice the bound: it is compacted when it grows past it', async () => {
  const file = freshPath();
  const one = lineBytes(answer('pay_compact_00000000', T0));
  const store = new PaidAnswerStore({ path: file, maxBytes: 3 * one, maxAgeSeconds: 3600, now: () => new Date(T0 + 100) });
  for (let i = 0; i < 20; i++) {
    await store.put(answer(`pay_compact_${String(i).padStart(8, '0')}`, T0 + i));
    assert.ok((await stat(file)).size <= 2 * 3 * one + one, `after ${i + 1} answers: ${(await stat(file)).size} bytes`);
  }
  const lines = (await readFile(file, 'utf8')).split('\n').filter(Boolean).length;
  assert.ok(lines <= 7, `${lines} lines`);
  assert.deepEqual((await store.stats()).answers, 3);
  assert.ok(await store.get('pay_compact_00000019'));
  assert.equal(await store.get('pay_compact_00000016'), undefined);
});

test('the age bound: an answer older than maxAgeSeconds is gone, in memory and after a restart', async () => {
  const file = freshPath();
  let now = T0;
  const store = new PaidAnswerStore({ path: file, maxBytes: 1_000_000, maxAgeSeconds: 60, now: () => new Date(now) });
  await store.put(answer('pay_age_old_000000001', T0));
  await store.put(answer('pay_age_new_000000001', T0 + 30_000));
  now = T0 + 59_000;
  assert.ok(await store.get('pay_age_old_000000001'), '59 s old: kept');
  now = T0 + 60_000;
  assert.equal(await store.get('pay_age_old_000000001'), undefined, '60 s old: gone');
  assert.ok(await store.get('pay_age_new_000000001'));
  const reopened = new PaidAnswerStore({ path: file, maxBytes: 1_000_000, maxAgeSeconds: 60, now: () => new Date(T0 + 60_000) });
  assert.equal(await reopened.get('pay_age_old_000000001'), undefined);
  assert.ok(await reopened.get('pay_age_new_000000001'));
});

test('a torn last line (a crash mid-write) is skipped on reading, and the next answer starts on a fresh line', async () => {
  const file = freshPath();
  const first = answer('pay_torn_first_000001', T0);
  const store = new PaidAnswerStore({ path: file, maxBytes: 1_000_000, maxAgeSeconds: 3600, now: () => new Date(T0) });
  await store.put(first);
  await appendFile(file, '{"id":"pay_torn_half_00000","savedAt":"2026-11-2');
  const reopened = new PaidAnswerStore({ path: file, maxBytes: 1_000_000, maxAgeSeconds: 3600, now: () => new Date(T0) });
  assert.deepEqual(await reopened.get(first.id), first);
  assert.equal((await reopened.stats()).answers, 1);
  const second = answer('pay_torn_second_00001', T0);
  await reopened.put(second);
  const lines = (await readFile(file, 'utf8')).split('\n').filter(Boolean);
  assert.equal(lines.length, 2, 'the torn line was dropped when the file was rewritten');
  for (const line of lines) JSON.parse(line);

  // A torn line left by a process that is not rewriting: an append isolates it.
  const other = freshPath();
  const writer = new PaidAnswerStore({ path: other, maxBytes: 1_000_000, maxAgeSeconds: 3600, now: () => new Date(T0) });
  await writer.put(first);
  await appendFile(other, '{"id":"pay_torn');
  await writer.put(second);
  const reread = new PaidAnswerStore({ path: other, maxBytes: 1_000_000, maxAgeSeconds: 3600, now: () => new Date(T0) });
  assert.deepEqual(await reread.get(first.id), first);
  assert.deepEqual(await reread.get(second.id), second);
});

test('a file of foreign lines does not stop the service: they are skipped', async () => {
  const file = freshPath();
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, 'not json\n{"id":42}\n');
  const store = new PaidAnswerStore({ path: file, maxBytes: 1_000_000, maxAgeSeconds: 3600, now: () => new Date(T0) });
  assert.equal((await store.stats()).answers, 0);
  assert.equal(await store.put(answer('pay_after_foreign_001', T0)), true);
  assert.ok(await store.get('pay_after_foreign_001'));
});

test('settings: beside the revenue ledger by default, 64 MiB and 24 hours; each configurable, bad values refused', () => {
  const defaults = readPaymentSettings({ REVENUE_LEDGER: '/srv/revenue/ledger.jsonl' });
  assert.deepEqual(defaults.paidAnswers, { path: '/srv/revenue/paid-answers.jsonl', maxBytes: 67_108_864, maxAgeSeconds: 86_400 });
  assert.equal(readPaymentSettings({}).paidAnswers.path, path.join('data', 'revenue', 'paid-answers.jsonl'));
  const custom = readPaymentSettings({ PAID_ANSWERS_PATH: '/tmp/x.jsonl', PAID_ANSWERS_MAX_BYTES: '1048576', PAID_ANSWERS_MAX_AGE_SECONDS: '600' });
  assert.deepEqual(custom.paidAnswers, { path: '/tmp/x.jsonl', maxBytes: 1_048_576, maxAgeSeconds: 600 });
  assert.throws(() => readPaymentSettings({ PAID_ANSWERS_MAX_BYTES: '64MB' }), (error: unknown) => error instanceof PaymentConfigError && /PAID_ANSWERS_MAX_BYTES/.test(error.message));
  assert.throws(() => readPaymentSettings({ PAID_ANSWERS_MAX_AGE_SECONDS: '0' }), /PAID_ANSWERS_MAX_AGE_SECONDS/);
});
