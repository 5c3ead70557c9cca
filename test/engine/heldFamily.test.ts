// Keyed families of held views (engine/held.ts heldFamily): the list read once like a view, each member
// read on its first use (through the database given) and shared, a key that is no member never read nor
// kept, a member's bound in rows counted before reading it, the family's bounds over its list and held
// members, a refused member leaving the others held, a failed read retried, every member counted in the
// one budget and freed on release, and the stats. Expected sizes are computed here from the rows
// (estimatedRowBytes' formula, by hand).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Database } from '../../engine/database.ts';
import { heldFamily, heldStateStats, releaseHeldState, setHeldBudget, warmHeldState } from '../../engine/held.ts';

// A member's row { v: <text of n characters> }: 64 + 16 + 2n bytes; the list's row { member: 'a' }: 64 + 16 + 2.
const listRowBytes = 64 + 16 + 2;
const rowBytes = (text: string) => 64 + 16 + 2 * text.length;

let db: Database;
before(async () => {
  db = await Database.open({ connections: 1 });
  await db.run(`CREATE TABLE m AS SELECT * FROM (VALUES ('a', 'x'), ('a', 'yy'), ('b', 'zzz'), ('c', 'w1'), ('c', 'w2'), ('c', 'w3'), ('d', 'é'), ('e', 'long text')) t(k, v)`);
  await db.run(`CREATE TABLE ks AS SELECT DISTINCT k AS member FROM m ORDER BY member`);
});
after(async () => {
  setHeldBudget(1024 * 2 ** 20);
  await db.close();
});

let reads: string[] = [];
let failing = false;
const family = heldFamily<string[]>({
  name: 'test.family',
  members: 'SELECT member FROM ks ORDER BY member',
  sql: { values: 'SELECT v FROM m WHERE k = $member ORDER BY v' },
  count: 'SELECT count(*) AS n FROM m WHERE k = $member',
  key: ['k'],
  order: 'v',
  memberRowsMax: 2,
  rowsMax: 100,
  bytesMax: 5 * listRowBytes + rowBytes('x') + rowBytes('yy') + rowBytes('zzz') + 2,
  build: ({ values }, member) => {
    if (failing) throw new Error('no such table');
    reads.push(member);
    // The guard: a value that is not printable ASCII refuses the member.
    return values.every((row) => /^[\x20-\x7e]*$/.test(String(row.v))) ? values.map((row) => String(row.v)) : null;
  },
  parity: { exempt: 'a test family' },
});
const stats = (database: Database) => heldStateStats(database).views.find((view) => view.name === 'test.family')!;

test('the list is read like a view; members are read on first use, once, shared by concurrent callers', async () => {
  const held = (await family(db))!;
  assert.deepEqual([...held.members], ['a', 'b', 'c', 'd', 'e']);
  assert.deepEqual([stats(db).state, stats(db).rows, stats(db).bytes], ['held', 5, 5 * listRowBytes]);
  assert.deepEqual(reads, [], 'no member read with the list');
  const [first, second] = await Promise.all([held.member('a'), held.member('a')]);
  assert.equal(first, second);
  assert.deepEqual(first, ['x', 'yy']);
  // Read through the database given (a request's wrapper sharing the identity): its statements are the request's.
  const statements: string[] = [];
  const wrapped = new Proxy(db, {
    get(target, name) {
      if (name === 'all') return (sql: string, params?: Record<string, string>) => (statements.push(sql), target.all(sql, params));
      const value: unknown = Reflect.get(target, name);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  assert.deepEqual(await held.member('b', wrapped), ['zzz']);
  assert.deepEqual(statements, ['SELECT count(*) AS n FROM m WHERE k = $member', 'SELECT v FROM m WHERE k = $member ORDER BY v']);
  assert.deepEqual(await held.member('b', wrapped), ['zzz']);
  assert.equal(statements.length, 2, 'held: not read again');
  assert.deepEqual(reads, ['a', 'b']);
  assert.deepEqual([stats(db).rows, stats(db).bytes], [5 + 3, 5 * listRowBytes + rowBytes('x') + rowBytes('yy') + rowBytes('zzz')]);
  assert.equal(heldStateStats(db).bytes, stats(db).bytes, 'the members count in the database\'s total');
});

test('a key that is no member is never read nor kept; a member over its rows is counted, not read', async () => {
  const held = (await family(db))!;
  assert.equal(await held.member('zz'), null);
  assert.equal(await held.member('__proto__'), null);
  assert.equal(await held.member('c'), null, 'three rows, over memberRowsMax');
  assert.deepEqual(reads, ['a', 'b']);
  assert.deepEqual(stats(db).members, { listed: 5, member_rows_max: 2, read: { held: 2, 'over-bounds': 1 } });
});

test('a refused member leaves the others held; one past the family\'s bounds is not held', async () => {
  const held = (await family(db))!;
  assert.equal(await held.member('d'), null, 'é: refused by the guard');
  assert.equal(await held.member('e'), null, 'its 18 bytes of text would take the family past bytesMax');
  assert.deepEqual(stats(db).members!.read, { held: 2, 'over-bounds': 2, refused: 1 });
  assert.deepEqual(await held.member('a'), ['x', 'yy'], 'still held');
  assert.equal(stats(db).state, 'held');
});

test('one budget: a member that would take the database past it is not held; release frees it; a failed read is retried', async () => {
  const fresh = await Database.open({ connections: 1 });
  try {
    for (const sql of [`CREATE TABLE m AS SELECT * FROM (VALUES ('a', 'x'), ('a', 'yy'), ('b', 'zzz')) t(k, v)`, `CREATE TABLE ks AS SELECT DISTINCT k AS member FROM m`]) await fresh.run(sql);
    const list = 2 * listRowBytes;
    setHeldBudget(list + rowBytes('x') + rowBytes('yy') + rowBytes('zzz') - 1);
    let held = (await family(fresh))!;
    assert.ok(await held.member('a'));
    assert.equal(await held.member('b'), null, 'one byte over the budget');
    assert.deepEqual(stats(fresh).members!.read, { held: 1, 'over-budget': 1 });
    assert.equal(heldStateStats(fresh).bytes, list + rowBytes('x') + rowBytes('yy'));
    releaseHeldState(fresh);
    assert.equal(heldStateStats(fresh).bytes, 0);
    setHeldBudget(list + rowBytes('zzz'));
    held = (await family(fresh))!;
    failing = true;
    await assert.rejects(held.member('b'), /no such table/);
    failing = false;
    assert.deepEqual(await held.member('b'), ['zzz'], 'read again after the failure; fits once the rest is released');
    assert.equal(heldStateStats(fresh).bytes, list + rowBytes('zzz'));
  } finally {
    failing = false;
    setHeldBudget(1024 * 2 ** 20);
    await fresh.close();
  }
});

test('warm-up reads the list, not the members; a family over its bounds is not held', async () => {
  const fresh = await Database.open({ connections: 1 });
  try {
    await fresh.run(`CREATE TABLE m AS SELECT * FROM (VALUES ('a', 'x')) t(k, v)`);
    await fresh.run(`CREATE TABLE ks AS SELECT * FROM range(200) t(member)`);
    reads = [];
    await warmHeldState(fresh);
    assert.deepEqual(reads, []);
    assert.deepEqual([stats(fresh).state, stats(fresh).rows], ['over-bounds', 0], '200 keys: over rowsMax, counted before reading');
    assert.equal(await family(fresh), null);
  } finally {
    await fresh.close();
  }
});
