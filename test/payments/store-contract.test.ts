// The payment store contract (http/payments/store/types.ts), one set of cases run against both
// stores: the embedded file store and PostgreSQL (a scratch database, dropped afterwards; skipped
// without a server, except in CI). Then what only one of them has: PostgreSQL's migrations and its
// refusal to work without a server, the file store's journal across restarts and its old ledgers.
import assert from 'node:assert/strict';
import { appendFile, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import pg from 'pg';
import { FilePaymentStore, readLedgerFile, type FilePaymentStoreOptions } from '../../http/payments/store/file.ts';
import { MIGRATIONS } from '../../http/payments/store/migrations.ts';
import { PostgresPaymentStore } from '../../http/payments/store/postgres.ts';
import {
  PaymentStoreUnavailableError,
  SettlementExistsError,
  type KeptAnswer,
  type PaymentStore,
  type Settlement,
} from '../../http/payments/store/types.ts';
import { postgresSkipReason, scratchPostgres, type ScratchPostgres } from '../helpers/postgres.ts';
import { tempDirUntilExit } from '../helpers/tmp.ts';

const T0 = Date.parse('2026-11-22T12:00:00.000Z');
/** The stores' clock (eviction by age); tests move it. */
let clockMs = T0;
const now = () => new Date(clockMs);
const iso = (ms: number) => new Date(ms).toISOString();

interface Bounds {
  maxAnswerBytes?: number;
  maxAnswerAgeSeconds?: number;
}
const DEFAULT_BOUNDS = { maxAnswerBytes: 1_000_000, maxAnswerAgeSeconds: 3600 };

const PAYER = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';

/** A pending settlement named `name`, created at the clock's time. */
function settlement(name: string, overrides: Partial<Settlement> = {}): Settlement {
  const time = iso(clockMs);
  return {
    key: `${PAYER}:0x${name}`,
    paymentId: null,
    state: 'pending',
    validBefore: T0 / 1000 + 3600,
    route: 'getTaxonomyForYear',
    resource: `/api/sebra/getTaxonomyForYear?year=2024&n=${name}`,
    terms: { payer: PAYER, network: 'eip155:31337', asset: '0xasset', payTo: '0xpayto', amount: '10000' },
    payload: { x402Version: 2, payload: { signature: '0xsig', authorization: { from: PAYER, value: '10000', nonce: `0x${name}` } } },
    requirements: { scheme: 'exact', network: 'eip155:31337', amount: '10000', extra: { name: 'USD Coin', version: '2' } },
    request: `fingerprint-of-${name}`,
    requestId: `request-${name}`,
    answer: null,
    transaction: null,
    createdAt: time,
    updatedAt: time,
    ...overrides,
  };
}

function answer(body: string | Buffer, headers: Record<string, string> = {}): KeptAnswer {
  return { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: Buffer.from(body) };
}

const settledAt = (ms: number, extra: { transaction?: string; addHeaders?: Record<string, string> } = {}) => ({ state: 'settled' as const, updatedAt: iso(ms), ...extra });

async function rejectsExisting(attempt: Promise<unknown>, field: 'key' | 'paymentId'): Promise<void> {
  await assert.rejects(attempt, (error: unknown) => error instanceof SettlementExistsError && error.field === field);
}

/** The cases every store must pass; `fresh` opens an empty store with these bounds. */
function contract(fresh: (bounds?: Bounds) => Promise<PaymentStore>): void {
  test('begin, then byKey and byPaymentId give the settlement back, its binary body byte for byte', async () => {
    const store = await fresh();
    const body = Buffer.from([0, 255, 10, 13, 0x41, 0xc3, 0x28, 0]);
    const a = settlement('a', { paymentId: 'pay_round_trip_000001', answer: answer(body, { 'x-request': 'a' }) });
    await store.begin(a);
    assert.deepEqual(await store.byKey(a.key), a);
    assert.deepEqual(await store.byPaymentId('pay_round_trip_000001'), a);
    assert.ok((await store.byKey(a.key))!.answer!.body.equals(body));
    const b = settlement('b'); // no payment id, no answer
    await store.begin(b);
    assert.deepEqual(await store.byKey(b.key), b);
    assert.equal(await store.byKey(`${PAYER}:0xabsent`), undefined);
    assert.equal(await store.byPaymentId('pay_absent_0000000001'), undefined);
    assert.deepEqual(await store.stats(), { settlements: 2, unresolved: 2, answers: 1, answerBytes: body.length });
  });

  test('a taken key or payment id: SettlementExistsError naming the field, and the first settlement unchanged', async () => {
    const store = await fresh();
    const a = settlement('a', { paymentId: 'pay_taken_00000000001' });
    await store.begin(a);
    await rejectsExisting(store.begin(settlement('a', { paymentId: 'pay_other_00000000001' })), 'key');
    await rejectsExisting(store.begin(settlement('b', { paymentId: 'pay_taken_00000000001' })), 'paymentId');
    assert.deepEqual(await store.byKey(a.key), a);
    assert.equal(await store.byKey(settlement('b').key), undefined);
    assert.equal(await store.byPaymentId('pay_other_00000000001'), undefined);
    // Settlements without a payment id do not collide on it.
    await store.begin(settlement('c'));
    await store.begin(settlement('d'));
  });

  test('finish: settled takes the transaction and the receipt headers (the body unchanged), unknown keeps the answer, unpaid drops it and frees the id', async () => {
    const store = await fresh();
    const [a, b, c] = [
      settlement('a', { paymentId: 'pay_finish_a_00000001', answer: answer('{"a":1}') }),
      settlement('b', { paymentId: 'pay_finish_b_00000001', answer: answer('{"b":1}') }),
      settlement('c', { paymentId: 'pay_finish_c_00000001', answer: answer('{"c":1}') }),
    ];
    for (const s of [a, b, c]) await store.begin(s);

    const receipt = answer('{"a":1}', { 'payment-response': 'receipt-a' });
    await store.finish(a.key, settledAt(T0 + 1000, { transaction: '0xtx-a', addHeaders: { 'payment-response': 'receipt-a' } }));
    assert.deepEqual(await store.byKey(a.key), { ...a, state: 'settled', transaction: '0xtx-a', answer: receipt, updatedAt: iso(T0 + 1000) });
    assert.deepEqual((await store.byPaymentId('pay_finish_a_00000001'))?.answer, receipt);

    await store.finish(b.key, { state: 'unknown', updatedAt: iso(T0 + 2000) });
    assert.deepEqual(await store.byKey(b.key), { ...b, state: 'unknown', updatedAt: iso(T0 + 2000) });
    await store.finish(b.key, settledAt(T0 + 3000, { transaction: '0xtx-b' }));
    assert.deepEqual(await store.byKey(b.key), { ...b, state: 'settled', transaction: '0xtx-b', updatedAt: iso(T0 + 3000) });

    await store.finish(c.key, { state: 'unpaid', updatedAt: iso(T0 + 4000) });
    assert.deepEqual(await store.byKey(c.key), { ...c, state: 'unpaid', paymentId: null, answer: null, updatedAt: iso(T0 + 4000) });
    assert.equal(await store.byPaymentId('pay_finish_c_00000001'), undefined);
    await store.begin(settlement('c2', { paymentId: 'pay_finish_c_00000001' }));
    assert.equal((await store.byPaymentId('pay_finish_c_00000001'))?.key, settlement('c2').key);
    await rejectsExisting(store.begin(settlement('c')), 'key'); // the authorization itself stays taken

    await assert.rejects(store.finish(`${PAYER}:0xabsent`, settledAt(T0)), /no settlement/);
    await assert.rejects(store.finish(a.key, { state: 'unknown', updatedAt: iso(T0) }), /already settled/);
    await assert.rejects(store.finish(c.key, settledAt(T0)), /already unpaid/);
    assert.equal((await store.byKey(a.key))?.state, 'settled');
  });

  test('unresolved: the pending and unknown settlements, oldest first, ties by key', async () => {
    const store = await fresh();
    const at = (name: string, ms: number) => settlement(name, { createdAt: iso(ms), updatedAt: iso(ms) });
    for (const s of [at('c', T0 + 2000), at('a', T0), at('d', T0 + 1000), at('b', T0 + 1000), at('e', T0 + 500)]) await store.begin(s);
    await store.finish(settlement('a').key, settledAt(T0 + 3000));
    await store.finish(settlement('d').key, { state: 'unknown', updatedAt: iso(T0 + 3000) });
    await store.finish(settlement('e').key, { state: 'unpaid', updatedAt: iso(T0 + 3000) });
    const unresolved = await store.unresolved();
    assert.deepEqual(unresolved.map((s) => [s.key.slice(-1), s.state]), [['b', 'pending'], ['d', 'unknown'], ['c', 'pending']]);
    assert.deepEqual(unresolved[1], { ...at('d', T0 + 1000), state: 'unknown', updatedAt: iso(T0 + 3000) });
  });

  test('ledger: settled, unknown and pending settlements, oldest first; unpaid ones left out, also once unknown', async () => {
    const store = await fresh();
    const names = ['a', 'b', 'c', 'd', 'e', 'f'];
    for (const [i, name] of names.entries()) await store.begin(settlement(name, { createdAt: iso(T0 + i * 1000) }));
    const key = (name: string) => settlement(name).key;
    await store.finish(key('a'), settledAt(T0 + 10_000, { transaction: '0xtx-a' }));
    await store.finish(key('b'), { state: 'unknown', updatedAt: iso(T0 + 10_000) });
    await store.finish(key('d'), { state: 'unpaid', updatedAt: iso(T0 + 10_000) });
    await store.finish(key('e'), { state: 'unknown', updatedAt: iso(T0 + 10_000) });
    await store.finish(key('e'), { state: 'unpaid', updatedAt: iso(T0 + 11_000) });
    await store.finish(key('f'), { state: 'unknown', updatedAt: iso(T0 + 10_000) });
    await store.finish(key('f'), settledAt(T0 + 11_000, { transaction: '0xtx-f' }));
    const record = (name: string, i: number, state: 'settled' | 'unknown' | 'pending', transaction: string | null) => ({
      time: iso(T0 + i * 1000), key: key(name), state, route: 'getTaxonomyForYear', resource: `/api/sebra/getTaxonomyForYear?year=2024&n=${name}`,
      network: 'eip155:31337', payer: PAYER, amount: '10000', asset: '0xasset', transaction, requestId: `request-${name}`,
    });
    assert.deepEqual(await store.ledger(), [
      record('a', 0, 'settled', '0xtx-a'),
      record('b', 1, 'unknown', null),
      record('c', 2, 'pending', null),
      record('f', 5, 'settled', '0xtx-f'),
    ]);
  });

  test('tryLock: exclusive until the lease lapses; unlock frees it at once', async () => {
    const store = await fresh();
    assert.equal(await store.tryLock('reconcile', 1000, T0), true);
    assert.equal(await store.tryLock('reconcile', 1000, T0 + 999), false);
    assert.equal(await store.tryLock('another', 1000, T0 + 999), true);
    assert.equal(await store.tryLock('reconcile', 5000, T0 + 1000), true, 'the lease lapsed');
    assert.equal(await store.tryLock('reconcile', 1000, T0 + 5999), false, 'the new lease holds');
    await store.unlock('reconcile');
    assert.equal(await store.tryLock('reconcile', 1000, T0 + 5999), true);
    await store.unlock('never-taken');
  });

  test('refusals: remembered with their reason until validBefore', async () => {
    const store = await fresh();
    const validBefore = T0 / 1000 + 60;
    await store.rememberRefusal('sha256-a', 'insufficient_funds', validBefore);
    assert.equal(await store.refusal('sha256-a', validBefore - 1), 'insufficient_funds');
    assert.equal(await store.refusal('sha256-b', validBefore - 1), undefined);
    await store.rememberRefusal('sha256-a', 'invalid_signature', validBefore + 10);
    assert.equal(await store.refusal('sha256-a', validBefore), 'invalid_signature');
    assert.equal(await store.refusal('sha256-a', validBefore + 10), undefined, 'forgotten at validBefore');
  });

  test('counters: one count per name and fixed window', async () => {
    const store = await fresh();
    const counts = [];
    for (let i = 0; i < 3; i += 1) counts.push(await store.hit('ip:203.0.113.7', 60, T0 + i * 1000));
    assert.deepEqual(counts, [1, 2, 3]);
    assert.equal(await store.hit('ip:203.0.113.8', 60, T0 + 59_999), 1);
    assert.equal(await store.hit('ip:203.0.113.7', 60, T0 + 59_999), 4);
    assert.equal(await store.hit('ip:203.0.113.7', 60, T0 + 60_000), 1, 'a new window');
    assert.equal(await store.hit('ip:203.0.113.7', 60, T0 + 61_000), 2);
  });

  test('the byte bound: the oldest settled answers go first and free their ids; the ledger keeps them; unresolved answers stay', async () => {
    const store = await fresh({ maxAnswerBytes: 100 });
    const body = (name: string) => `${name}:`.padEnd(40, 'x');
    assert.equal(Buffer.byteLength(body('s1')), 40);
    // Unresolved answers weigh nothing against the bound and are never evicted.
    await store.begin(settlement('u1', { paymentId: 'pay_bytes_u1_0000001', answer: answer(body('u1')) }));
    await store.begin(settlement('u2', { paymentId: 'pay_bytes_u2_0000001', answer: answer(body('u2')) }));
    await store.finish(settlement('u2').key, { state: 'unknown', updatedAt: iso(T0) });
    for (const [i, name] of ['s1', 's2', 's3'].entries()) {
      await store.begin(settlement(name, { paymentId: `pay_bytes_${name}_0000001`, answer: answer(body(name)) }));
      await store.finish(settlement(name).key, settledAt(T0 + (i + 1) * 1000, { transaction: `0xtx-${name}` }));
    }
    // PostgreSQL evicts on a schedule and in stats(): ask it first.
    assert.deepEqual(await store.stats(), { settlements: 5, unresolved: 2, answers: 4, answerBytes: 160 });
    const s1 = await store.byKey(settlement('s1').key);
    assert.equal(s1?.state, 'settled');
    assert.equal(s1?.answer, null);
    assert.equal(s1?.paymentId, null, 'the id is free');
    assert.equal(await store.byPaymentId('pay_bytes_s1_0000001'), undefined);
    for (const name of ['s2', 's3', 'u1', 'u2']) assert.equal((await store.byPaymentId(`pay_bytes_${name}_0000001`))?.answer?.body.toString(), body(name));
    await store.begin(settlement('s1-again', { paymentId: 'pay_bytes_s1_0000001' }));
    assert.deepEqual((await store.ledger()).filter((r) => r.state === 'settled').map((r) => r.transaction), ['0xtx-s1', '0xtx-s2', '0xtx-s3']);

    // An answer heavier than the whole bound is not kept once settled, and evicts no other.
    await store.begin(settlement('big', { paymentId: 'pay_bytes_big_000001', answer: answer('x'.repeat(101)) }));
    await store.finish(settlement('big').key, settledAt(T0 + 5000));
    assert.deepEqual(await store.stats(), { settlements: 7, unresolved: 3, answers: 4, answerBytes: 160 });
    assert.deepEqual((await store.byKey(settlement('big').key))?.answer, null);
    assert.equal(await store.byPaymentId('pay_bytes_big_000001'), undefined);
  });

  test('the age bound: a settled answer of maxAnswerAgeSeconds is dropped and its id freed; the ledger keeps it; unresolved answers stay', async () => {
    const store = await fresh({ maxAnswerAgeSeconds: 60 });
    for (const name of ['s1', 's2', 'u']) await store.begin(settlement(name, { paymentId: `pay_age_${name}_00000001`, answer: answer(`{"n":"${name}"}`) }));
    await store.finish(settlement('s1').key, settledAt(T0, { transaction: '0xtx-s1' }));
    await store.finish(settlement('s2').key, settledAt(T0, { transaction: '0xtx-s2' }));
    await store.finish(settlement('u').key, { state: 'unknown', updatedAt: iso(T0) });

    clockMs = T0 + 59_999;
    assert.equal((await store.byPaymentId('pay_age_s1_00000001'))?.answer?.body.toString(), '{"n":"s1"}');
    clockMs = T0 + 60_000;
    // A begin with the expired answer's id finds it free, with no read before.
    await store.begin(settlement('s2-again', { paymentId: 'pay_age_s2_00000001' }));
    assert.equal(await store.byPaymentId('pay_age_s1_00000001'), undefined);
    const s1 = await store.byKey(settlement('s1').key);
    assert.deepEqual([s1?.state, s1?.answer, s1?.paymentId, s1?.transaction], ['settled', null, null, '0xtx-s1']);
    assert.equal((await store.byPaymentId('pay_age_u_00000001'))?.answer?.body.toString(), '{"n":"u"}', 'unknown outcome: kept');
    assert.deepEqual((await store.ledger()).map((r) => [r.key, r.state]), [
      [settlement('s1').key, 'settled'], [settlement('s2').key, 'settled'], [settlement('u').key, 'unknown'], [settlement('s2-again').key, 'pending'],
    ]);
    assert.deepEqual(await store.stats(), { settlements: 4, unresolved: 2, answers: 1, answerBytes: Buffer.byteLength('{"n":"u"}') });
  });

  test('20 concurrent begins of one key, or of one payment id: exactly one succeeds', async () => {
    const store = await fresh();
    const sameKey = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => store.begin(settlement('same', { paymentId: `pay_concurrent_${String(i).padStart(6, '0')}` }))));
    assert.equal(sameKey.filter((r) => r.status === 'fulfilled').length, 1);
    for (const r of sameKey) if (r.status === 'rejected') assert.ok(r.reason instanceof SettlementExistsError && r.reason.field === 'key', String(r.reason));

    const sameId = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => store.begin(settlement(`id${i}`, { paymentId: 'pay_concurrent_shared1' }))));
    assert.equal(sameId.filter((r) => r.status === 'fulfilled').length, 1);
    for (const r of sameId) if (r.status === 'rejected') assert.ok(r.reason instanceof SettlementExistsError && r.reason.field === 'paymentId', String(r.reason));
    assert.equal((await store.stats()).settlements, 2);
  });

  test('20 concurrent tryLock of one name: exactly one true', async () => {
    const store = await fresh();
    const taken = await Promise.all(Array.from({ length: 20 }, () => store.tryLock('reconcile', 30_000, T0)));
    assert.equal(taken.filter(Boolean).length, 1);
  });
}

describe('file store', () => {
  let dir: string;
  let made = 0;
  const opened: PaymentStore[] = [];
  before(async () => {
    dir = await tempDirUntilExit('payment-store-');
  });
  beforeEach(() => {
    clockMs = T0;
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });

  /** Options for a store in a new folder (or in `folder`, to reopen one). */
  const optionsIn = (folder: string, bounds: Bounds = {}): FilePaymentStoreOptions => ({
    settlementsPath: path.join(folder, 'settlements.jsonl'),
    ledgerPath: path.join(folder, 'ledger.jsonl'),
    ...DEFAULT_BOUNDS,
    ...bounds,
    now,
  });
  const openIn = async (folder: string, bounds: Bounds = {}) => {
    const store = new FilePaymentStore(optionsIn(folder, bounds));
    await store.open();
    opened.push(store);
    return store;
  };
  const newFolder = () => path.join(dir, `store-${++made}`);

  contract((bounds) => openIn(newFolder(), bounds));

  test('reopened after writes, the store is as it was', async () => {
    const folder = newFolder();
    const store = await openIn(folder);
    await store.begin(settlement('a', { paymentId: 'pay_reopen_a_0000001', answer: answer(Buffer.from([1, 2, 3, 0, 255])) }));
    await store.begin(settlement('b', { paymentId: 'pay_reopen_b_0000001' }));
    await store.begin(settlement('c', { paymentId: 'pay_reopen_c_0000001' }));
    await store.begin(settlement('d'));
    await store.finish(settlement('a').key, settledAt(T0 + 1000, { transaction: '0xtx-a', addHeaders: { 'payment-response': 'receipt-a' } }));
    await store.finish(settlement('b').key, { state: 'unknown', updatedAt: iso(T0 + 1000) });
    await store.finish(settlement('c').key, { state: 'unpaid', updatedAt: iso(T0 + 1000) });
    await store.rememberRefusal('sha256-a', 'insufficient_funds', T0 / 1000 + 60); // in memory only: not kept
    const before = await Promise.all(['a', 'b', 'c', 'd'].map((name) => store.byKey(settlement(name).key)));
    const [ledger, unresolved, stats] = [await store.ledger(), await store.unresolved(), await store.stats()];
    await store.close();

    const reopened = await openIn(folder);
    assert.deepEqual(await Promise.all(['a', 'b', 'c', 'd'].map((name) => reopened.byKey(settlement(name).key))), before);
    assert.deepEqual(await reopened.byPaymentId('pay_reopen_a_0000001'), before[0]);
    assert.equal(await reopened.byPaymentId('pay_reopen_c_0000001'), undefined);
    assert.deepEqual(await reopened.ledger(), ledger);
    assert.deepEqual(await reopened.unresolved(), unresolved);
    assert.deepEqual(await reopened.stats(), stats);
    assert.equal(await reopened.refusal('sha256-a', T0 / 1000), undefined);
    // Opening rewrote the journal: one line per settlement.
    assert.equal((await readFile(path.join(folder, 'settlements.jsonl'), 'utf8')).trim().split('\n').length, 4);
  });

  test('a torn last journal line is skipped, and the next line starts on its own', async () => {
    const folder = newFolder();
    const journal = path.join(folder, 'settlements.jsonl');
    const store = await openIn(folder);
    await store.begin(settlement('a', { paymentId: 'pay_torn_a_000000001' }));
    await store.close();
    await appendFile(journal, '{"settlement":{"key":"0xpayer:0xtorn","paymentId":"pay_torn_b_0'); // a crash mid-write
    const reopened = await openIn(folder);
    assert.equal((await reopened.byKey(settlement('a').key))?.paymentId, 'pay_torn_a_000000001');
    assert.equal((await reopened.stats()).settlements, 1);
    await reopened.begin(settlement('b'));
    await reopened.close();
    const again = await openIn(folder);
    assert.equal((await again.stats()).settlements, 2);
  });

  test('an answer evicted before a restart stays evicted, and its id stays with its new holder', async () => {
    const folder = newFolder();
    const store = await openIn(folder, { maxAnswerAgeSeconds: 60 });
    await store.begin(settlement('a', { paymentId: 'pay_replay_000000001', answer: answer('{"a":1}') }));
    await store.finish(settlement('a').key, settledAt(T0));
    clockMs = T0 + 60_000;
    await store.begin(settlement('b', { paymentId: 'pay_replay_000000001' }));
    await store.close();
    clockMs = T0 + 1000; // even with a clock that would keep the old answer
    const reopened = await openIn(folder, { maxAnswerAgeSeconds: 60 });
    assert.equal((await reopened.byPaymentId('pay_replay_000000001'))?.key, settlement('b').key);
    assert.equal((await reopened.byKey(settlement('a').key))?.answer, null);
  });

  test('settled settlements without an answer or id are forgotten once their authorization lapsed; the ledger keeps them', async () => {
    const store = await openIn(newFolder());
    await store.begin(settlement('a', { validBefore: T0 / 1000 + 10 }));
    await store.begin(settlement('b', { validBefore: T0 / 1000 + 10 }));
    await store.finish(settlement('a').key, settledAt(T0, { transaction: '0xtx-a' }));
    clockMs = T0 + 60_000; // lapsed 50 s ago; settlements are looked over at most once a minute
    assert.equal(await store.byKey(settlement('a').key), undefined);
    assert.equal((await store.byKey(settlement('b').key))?.state, 'pending', 'an unresolved one stays');
    assert.deepEqual((await store.ledger()).map((r) => [r.state, r.transaction]), [['settled', '0xtx-a'], ['pending', null]]);
  });

  test('the journal stays within about twice its live size', async () => {
    const folder = newFolder();
    const store = await openIn(folder, { maxAnswerBytes: 300_000 });
    const body = Buffer.alloc(100_000, 7);
    for (let i = 0; i < 40; i += 1) {
      const name = `big${i}`;
      await store.begin(settlement(name, { paymentId: `pay_journal_${String(i).padStart(8, '0')}`, answer: answer(body) }));
      await store.finish(settlement(name).key, settledAt(T0 + i, { addHeaders: { 'payment-response': 'r' } }));
    }
    // 40 lines of ~133 kB were appended (~5.3 MB; a finish line has no body); 3 answers are live (~400 kB).
    const { size } = await stat(path.join(folder, 'settlements.jsonl'));
    assert.ok(size < 2.5 * 1024 * 1024, `journal of ${size} bytes`);
    assert.equal((await store.stats()).answers, 3);
  });

  test('the revenue ledger file: lines from before the store (no state, no key) read as settled payments, each its own', async () => {
    const folder = newFolder();
    const ledgerPath = path.join(folder, 'ledger.jsonl');
    const old = (transaction: string) => ({ time: '2026-11-21T10:00:00.000Z', route: 'getTaxonomyForYear', resource: '/api/x', network: 'eip155:8453', payer: PAYER, amount: '10000', asset: '0xusdc', transaction });
    await mkdir(folder, { recursive: true });
    await writeFile(ledgerPath, `${JSON.stringify(old('0x1'))}\n${JSON.stringify(old('0x1'))}\n{"time":"2026-11-21T1`);
    const store = await openIn(folder);
    await store.begin(settlement('a'));
    await store.finish(settlement('a').key, settledAt(T0, { transaction: '0xtx-a' }));
    const ledger = await store.ledger();
    assert.deepEqual(ledger.map((r) => [r.key, r.state, r.transaction]), [['line:1', 'settled', '0x1'], ['line:2', 'settled', '0x1'], [settlement('a').key, 'settled', '0xtx-a']]);
    assert.deepEqual(await readLedgerFile(ledgerPath), ledger);
  });
});

// Resolved before the describe: a suite is skipped when it is defined, not later.
const postgresSkip = await postgresSkipReason();

describe('postgres store', { skip: postgresSkip }, () => {
  let db: ScratchPostgres | undefined;
  let admin: pg.Client | undefined;
  const databases: ScratchPostgres[] = [];
  const opened: PaymentStore[] = [];
  before(async () => {
    db = await scratchPostgres();
    databases.push(db);
    admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
  });
  beforeEach(() => {
    clockMs = T0;
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });
  after(async () => {
    await admin?.end();
    for (const database of databases) await database.drop();
  });

  const storeOn = (url: string, bounds: Bounds = {}) => {
    const store = new PostgresPaymentStore({ connectionString: url, ...DEFAULT_BOUNDS, ...bounds, now });
    opened.push(store);
    return store;
  };

  contract(async (bounds) => {
    const store = storeOn(db!.url, bounds);
    await store.open();
    await admin!.query('TRUNCATE settlements, locks, refusals, counters');
    return store;
  });

  test('reopening runs no migration twice', async () => {
    await storeOn(db!.url).open();
    await storeOn(db!.url).open();
    const { rows } = await admin!.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    assert.deepEqual(rows.map((row) => row.version), MIGRATIONS.map((migration) => migration.version));
  });

  test('two stores opening a fresh database at once both succeed, the migrations applied once', async () => {
    const fresh = await scratchPostgres();
    databases.push(fresh);
    const stores = Array.from({ length: 2 }, () => storeOn(fresh.url));
    await Promise.all(stores.map((store) => store.open()));
    await stores[0]!.begin(settlement('a'));
    assert.equal((await stores[1]!.byKey(settlement('a').key))?.state, 'pending');
    const client = new pg.Client({ connectionString: fresh.url });
    await client.connect();
    try {
      assert.equal((await client.query('SELECT version FROM schema_migrations')).rowCount, MIGRATIONS.length);
    } finally {
      await client.end();
    }
  });

  test('a transaction recorded for two settlements is refused as such: neither SettlementExistsError nor unavailable', async () => {
    const store = storeOn(db!.url);
    await store.open();
    await admin!.query('TRUNCATE settlements');
    for (const name of ['a', 'b']) await store.begin(settlement(name));
    await store.finish(settlement('a').key, settledAt(T0, { transaction: '0xsame' }));
    await assert.rejects(store.finish(settlement('b').key, settledAt(T0, { transaction: '0xsame' })), (error: unknown) =>
      error instanceof Error && !(error instanceof SettlementExistsError) && !(error instanceof PaymentStoreUnavailableError) && /0xsame is already recorded/.test(error.message));
    await assert.rejects(store.begin(settlement('c', { transaction: '0xsame' })), /already recorded \(settlements_transaction_unique\)/);
    assert.equal((await store.byKey(settlement('b').key))?.state, 'pending');
  });

  test('an unreachable server: PaymentStoreUnavailableError naming the host, never the password', async () => {
    // A port that was free a moment ago: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));

    const store = storeOn(`postgres://postgres:secret-password-1@127.0.0.1:${port}/payments`);
    await assert.rejects(store.open(), (error: unknown) => {
      assert.ok(error instanceof PaymentStoreUnavailableError, String(error));
      assert.match(error.message, new RegExp(`127\\.0\\.0\\.1:${port}`));
      assert.doesNotMatch(error.message, /secret-password-1/);
      return true;
    });
    await assert.rejects(store.byKey('any'), PaymentStoreUnavailableError, 'a store that never opened fails closed');
  });

  test('a store whose server goes away fails closed', async () => {
    const gone = await scratchPostgres();
    databases.push(gone);
    const store = storeOn(gone.url);
    await store.open();
    await gone.drop(); // terminates the store's connections too
    await assert.rejects(store.begin(settlement('a')), PaymentStoreUnavailableError);
    await assert.rejects(store.tryLock('reconcile', 1000, T0), PaymentStoreUnavailableError);
  });
});
