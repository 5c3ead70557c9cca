// heldGroups (queries/shared/heldGroups.ts) holds a table's rows grouped by key in the order given, as
// keyed statements with ORDER BY read them: by hand on a small table (NULL keys left out, text and
// integer keys, the order within a group), and the bounds in rows and bytes.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Database } from '../../engine/database.ts';
import { estimatedRowBytes, groupKey, groupRows, heldGroups } from '../../queries/shared/heldGroups.ts';

let db: Database;
before(async () => {
  db = await Database.open({ connections: 1 });
  await db.run(`CREATE TABLE t AS SELECT * FROM (VALUES
    ('DE', 2021, 'b', 2.0::DOUBLE), ('DE', 2021, 'a', 2.0), ('DE', 2021, 'c', 5.5), ('DE', 2020, 'a', 1.0),
    ('FR', 2021, 'a', NULL), (NULL, 2021, 'z', 9.0), ('FR', NULL, 'y', 3.0), ('ÉI', 2021, 'x', 4.0)) v(geo, year, code, value)`);
});
after(() => db?.close());

test('groups by key, ordered within each group, NULL keys left out', async () => {
  const groups = await heldGroups({ name: 'test.groups1', table: 't', columns: 'code, value', key: ['geo', 'year'], orderBy: 'value DESC, code' })(db);
  assert.ok(groups);
  assert.deepEqual(groups.get(groupKey(['DE', 2021])), [{ code: 'c', value: 5.5 }, { code: 'a', value: 2 }, { code: 'b', value: 2 }]);
  assert.deepEqual(groups.get(groupKey(['DE', 2020])), [{ code: 'a', value: 1 }]);
  assert.deepEqual(groups.get(groupKey(['FR', 2021])), [{ code: 'a', value: null }]);
  assert.deepEqual(groups.get(groupKey(['ÉI', 2021])), [{ code: 'x', value: 4 }], 'text keys beyond ASCII match as bytes do');
  assert.equal(groups.get(groupKey(['DE', '2021'])), undefined, 'an integer key is not its text');
  assert.deepEqual([...groups.keys()].sort(), [groupKey(['DE', 2020]), groupKey(['DE', 2021]), groupKey(['FR', 2021]), groupKey(['ÉI', 2021])].sort(), 'no group with a NULL key');
});

test('a key column may also be a held column', async () => {
  const groups = await heldGroups({ name: 'test.groups2', table: 't', columns: '*', key: ['geo'], orderBy: 'year DESC NULLS LAST, code' })(db);
  assert.deepEqual(groups!.get(groupKey(['FR'])), [{ geo: 'FR', year: 2021, code: 'a', value: null }, { geo: 'FR', year: null, code: 'y', value: 3 }]);
});

test('over its bounds a table is not held', async () => {
  assert.equal(await heldGroups({ name: 'test.groups3', table: 't', columns: 'code', key: ['geo'], orderBy: 'code', rowsMax: 7 })(db), null);
  assert.ok(await heldGroups({ name: 'test.groups4', table: 't', columns: 'code', key: ['geo'], orderBy: 'code', rowsMax: 8 })(db));
  // Seven held rows of two values each: 7 x (64 + 2 x (16 + 8 or 2)) = at least 7 x 100 bytes.
  assert.equal(await heldGroups({ name: 'test.groups5', table: 't', columns: 'code', key: ['geo'], orderBy: 'code', bytesMax: 600 })(db), null);
  assert.ok(await heldGroups({ name: 'test.groups6', table: 't', columns: 'code', key: ['geo'], orderBy: 'code', bytesMax: 2000 })(db));
});

test('the row estimate and the grouping helper', () => {
  // 64 per row; 16 per value; text 2 per character, a list 16 per item, anything else 8.
  assert.equal(estimatedRowBytes({ a: 'xy', b: 1, c: null, d: [1, 2] }), 64 + (16 + 4) + (16 + 8) + (16 + 8) + (16 + 32));
  assert.deepEqual([...groupRows([3, 1, 4, 1, 5], (n) => n % 2, (n) => n * 10)], [[1, [30, 10, 10, 50]], [0, [40]]]);
});
