// The held-state facility (engine/held.ts): a declared view is read once per database and shared, a
// failed read is retried, bounds in rows (checked before reading with `count`) and bytes, one budget
// shared by all views, guard refusal, required views, release, stats, warm-up and slots. Expected
// sizes are computed here from the rows' shapes (estimatedRowBytes' own formula, by hand).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Database } from '../../engine/database.ts';
import {
  estimatedRowBytes, heldSlot, heldStateStats, heldView, heldViews, releaseHeldState, requiredHeldView, setHeldBudget, warmHeldState,
} from '../../engine/held.ts';
import { ordersAlike } from '../../engine/heldGuards.ts';

let db: Database;
let other: Database;
before(async () => {
  db = await Database.open({ connections: 1 });
  other = await Database.open({ connections: 1 });
  for (const database of [db, other]) {
    await database.run(`CREATE TABLE t AS SELECT * FROM (VALUES ('a', 1), ('b', 2), ('c', 3)) v(code, n)`);
  }
  await other.run(`INSERT INTO t VALUES ('é', 4)`);
});
after(async () => {
  setHeldBudget(1024 * 2 ** 20);
  await db.close();
  await other.close();
});

const NO_PARITY = { exempt: 'a test view' };
let reads = 0;
const codes = heldView({
  name: 'test.codes',
  sql: { rows: 'SELECT code, n FROM t ORDER BY code' },
  key: ['code'],
  order: 'code',
  rowsMax: 10,
  bytesMax: 10_000,
  build: ({ rows }) => {
    reads++;
    // The guard: a code JavaScript would order unlike DuckDB refuses the whole view.
    return rows.every((row) => ordersAlike(row.code)) ? new Map(rows.map((row) => [row.code, row.n])) : null;
  },
  parity: NO_PARITY,
});
const fewRows = heldView({
  name: 'test.fewRows', sql: { rows: 'SELECT * FROM t' }, count: 'SELECT count(*) AS n FROM t', key: [], order: '',
  rowsMax: 2, bytesMax: 10_000, build: ({ rows }) => rows, parity: NO_PARITY,
});
const fewBytes = heldView({
  name: 'test.fewBytes', sql: { rows: 'SELECT code FROM t' }, key: [], order: '',
  rowsMax: 10, bytesMax: 3 * (64 + 16 + 2) - 1, build: ({ rows }) => rows, parity: NO_PARITY,
});
const required = requiredHeldView({
  name: 'test.required', sql: { rows: 'SELECT n FROM t ORDER BY n' }, key: [], order: 'n',
  rowsMax: 1, bytesMax: 1, build: ({ rows }) => rows.map((row) => Number(row.n)), parity: NO_PARITY,
});
let failing = true;
const flaky = heldView({
  name: 'test.flaky', sql: { rows: 'SELECT 1 AS x' }, key: [], order: '', rowsMax: 1, bytesMax: 1000,
  read: async () => {
    if (failing) throw new Error('no such table');
    return { rows: [{ x: 1 }] };
  },
  build: ({ rows }) => rows.length, bytesOf: () => 123, parity: NO_PARITY,
});

test('estimatedRowBytes: 64 per row, 16 per value, 2 per UTF-16 unit of text, 8 per number, 16 per list item', () => {
  assert.equal(estimatedRowBytes({ a: 'xyz', b: 1, c: [1, 2], d: null }), 64 + 16 * 4 + 6 + 8 + 32 + 8);
});

test('a view is read once per database, shared by concurrent callers; each database has its own', async () => {
  reads = 0;
  const [first, second] = await Promise.all([codes(db), codes(db)]);
  assert.equal(first, second);
  assert.deepEqual([...first!.entries()], [['a', 1], ['b', 2], ['c', 3]]);
  assert.equal(reads, 1);
  // other's rows hold 'é': the printable-ASCII guard refuses, the view is not held there.
  assert.equal(await codes(other), null);
  assert.equal(reads, 2);
  const stats = heldStateStats(other).views.find((view) => view.name === 'test.codes')!;
  assert.equal(stats.state, 'refused');
});

test('bounds: over rowsMax (counted before reading) or bytesMax the view is not held', async () => {
  assert.equal(await fewRows(db), null);
  assert.equal(heldStateStats(db).views.find((view) => view.name === 'test.fewRows')!.state, 'over-bounds');
  assert.equal(heldStateStats(db).views.find((view) => view.name === 'test.fewRows')!.rows, 0, 'not read at all');
  assert.equal(await fewBytes(db), null);
  const stats = heldStateStats(db).views.find((view) => view.name === 'test.fewBytes')!;
  assert.deepEqual([stats.state, stats.rows, stats.bytes], ['over-bounds', 3, 3 * (64 + 16 + 2)]);
});

test('a required view is held over its bounds, and says so', async () => {
  assert.deepEqual(await required(db), [1, 2, 3]);
  const stats = heldStateStats(db).views.find((view) => view.name === 'test.required')!;
  assert.deepEqual([stats.state, stats.falls_back_to_sql], ['held-over-bounds', false]);
});

test('a failed read is retried on the next call; bytesOf sizes a bespoke shape', async () => {
  await assert.rejects(flaky(db), /no such table/);
  failing = false;
  assert.equal(await flaky(db), 1);
  assert.equal(heldStateStats(db).views.find((view) => view.name === 'test.flaky')!.bytes, 123);
});

test('one budget: a view that would take the total past it is not held; release frees it', async () => {
  const fresh = await Database.open({ connections: 1 });
  try {
    await fresh.run(`CREATE TABLE t AS SELECT * FROM (VALUES ('a', 1), ('b', 2), ('c', 3)) v(code, n)`);
    const codesBytes = 3 * (64 + 2 * 16 + 2 + 8);
    setHeldBudget(codesBytes + 122);
    assert.ok(await codes(fresh));
    failing = false;
    assert.equal(await flaky(fresh), null, '123 more bytes would pass the budget');
    let stats = heldStateStats(fresh);
    assert.equal(stats.bytes, codesBytes);
    assert.equal(stats.budget_bytes, codesBytes + 122);
    assert.equal(stats.views.find((view) => view.name === 'test.flaky')!.state, 'over-budget');
    releaseHeldState(fresh);
    stats = heldStateStats(fresh);
    assert.equal(stats.bytes, 0);
    assert.ok(stats.views.every((view) => view.state === 'not-read'));
    setHeldBudget(codesBytes + 123);
    assert.equal(await flaky(fresh), 1, 'after release the budget is free again');
  } finally {
    setHeldBudget(1024 * 2 ** 20);
    await fresh.close();
  }
});

test('warmHeldState reads every declared view once, counting failures; stats list views by name', async () => {
  const fresh = await Database.open({ connections: 1 });
  try {
    failing = true;
    const warm = await warmHeldState(fresh);
    assert.equal(warm.holders, heldViews().size);
    // No table t: every view reading it fails, and flaky too.
    assert.ok(warm.failed >= 5);
    const names = heldStateStats(fresh).views.map((view) => view.name);
    assert.deepEqual(names, [...names].sort());
    assert.ok(names.includes('test.codes'));
    // Warmed where it can be read: the request path then gets the held value without reading again.
    await fresh.run(`CREATE TABLE t AS SELECT * FROM (VALUES ('a', 1)) v(code, n)`);
    await warmHeldState(fresh);
    reads = 0;
    assert.deepEqual([...(await codes(fresh))!.entries()], [['a', 1]]);
    assert.equal(reads, 0, 'read by the warm-up, not by the request');
  } finally {
    failing = false;
    await fresh.close();
  }
});

test('a view name is declared once', () => {
  assert.throws(() => heldView({ name: 'test.codes', sql: {}, key: [], order: '', rowsMax: 1, bytesMax: 1, build: () => 1, parity: NO_PARITY }), /twice/);
});

test('a slot is one value per database, released with the views', () => {
  const slot = heldSlot('test.slot', () => ({ made: Symbol('made') }));
  const first = slot(db);
  assert.equal(slot(db), first);
  assert.notEqual(slot(other), first);
  releaseHeldState(db);
  assert.notEqual(slot(db), first);
});

test('a bespoke index (load) is bounded by its own count and size; peek does not wait', async () => {
  let loads = 0;
  const index = heldView({
    name: 'test.index', sql: { list: 'SELECT string_agg(code, \',\' ORDER BY code) FROM t' }, key: [], order: 'code',
    count: 'SELECT count(*) AS n FROM t', rowsMax: 3, bytesMax: 100,
    load: async (database) => {
      loads++;
      const [{ list }] = await database.all(`SELECT string_agg(code, ',' ORDER BY code) AS list FROM t`);
      return String(list).split(',');
    },
    rowsOf: (codes) => codes.length,
    bytesOf: (codes) => 10 * codes.length,
    parity: NO_PARITY,
  });
  const fresh = await Database.open({ connections: 1 });
  try {
    await fresh.run(`CREATE TABLE t AS SELECT * FROM (VALUES ('b'), ('a'), ('c')) v(code)`);
    assert.equal(index.peek(fresh), null, 'not read yet: no waiting');
    assert.deepEqual(await index(fresh), ['a', 'b', 'c']);
    assert.deepEqual(index.peek(fresh), ['a', 'b', 'c']);
    assert.equal(loads, 1);
    const stats = heldStateStats(fresh).views.find((view) => view.name === 'test.index')!;
    assert.deepEqual([stats.state, stats.rows, stats.bytes], ['held', 3, 30]);
    await fresh.run(`INSERT INTO t VALUES ('d')`);
    releaseHeldState(fresh);
    assert.equal(await index(fresh), null, 'four rows: over rowsMax, counted before loading');
    assert.equal(loads, 1);
  } finally {
    await fresh.close();
  }
});

test('a snapshot swap releases the retired database\'s held views before closing it', async () => {
  const { SnapshotHolder } = await import('../../http/snapshotHolder.ts');
  const first = await Database.open({ connections: 1 });
  const second = await Database.open({ connections: 1 });
  try {
    for (const target of [first, second]) await target.run(`CREATE TABLE t AS SELECT * FROM (VALUES ('a', 1), ('b', 2), ('c', 3)) v(code, n)`);
    assert.ok(await codes(first));
    assert.ok(heldStateStats(first).bytes > 0);
    const holder = new SnapshotHolder({ db: first, generation: 'g1', importDate: null });
    await holder.swap({ db: second, generation: 'g2', importDate: null });
    assert.equal(heldStateStats(first).bytes, 0, 'released');
    assert.ok(heldStateStats(first).views.every((view) => view.state === 'not-read'));
  } finally {
    await second.close();
  }
});
