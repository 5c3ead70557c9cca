// The guards under which JavaScript answers instead of DuckDB (engine/heldGuards.ts), each checked
// against DuckDB itself: text order and lower() of printable ASCII, byte order beyond it, -0, NULL
// placement and the HUGEINT -> DOUBLE cast.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Database } from '../../engine/database.ts';
import {
  asciiLower, compareNullsLast, compareTextBytes, hugeintAsDouble, integerAsJson, ordersAlike, ordersAlikeNumber,
} from '../../engine/heldGuards.ts';

let db: Database;
before(async () => {
  db = await Database.open({ connections: 1 });
});
after(() => db?.close());

const TEXTS = ['a', 'B', 'b', ' ', '~', 'Z9', 'é', 'e', '\u{1F600}', '\uFF21', 'a b', ''];

test('ordersAlike: printable ASCII only', () => {
  assert.deepEqual(TEXTS.map(ordersAlike), [true, true, true, true, true, true, false, true, false, false, true, true]);
  assert.equal(ordersAlike(1), false);
  assert.equal(ordersAlike('\t'), false);
});

test('compareTextBytes orders as DuckDB orders VARCHAR, ASCII or not', async () => {
  const sql = `SELECT t FROM (VALUES ${TEXTS.map((text) => `('${text.replace(/'/g, "''")}')`).join(', ')}) v(t) ORDER BY t`;
  const expected = (await db.all(sql)).map((row) => row.t);
  assert.deepEqual([...TEXTS].sort(compareTextBytes), expected);
});

test('asciiLower is DuckDB lower() on printable ASCII, null elsewhere', async () => {
  for (const text of TEXTS) {
    const [{ lowered }] = await db.all('SELECT lower($text) AS lowered', { text });
    const held = asciiLower(text);
    if (ordersAlike(text)) assert.equal(held, lowered);
    else assert.equal(held, null);
  }
});

test('ordersAlikeNumber refuses -0, NaN and infinities; NULLS LAST both ways as DuckDB', async () => {
  assert.deepEqual([0, -0, 1.5, NaN, Infinity, null].map(ordersAlikeNumber), [true, false, true, false, false, true]);
  const values = [3, null, -1, 2.5, null, 0];
  for (const descending of [false, true]) {
    const rows = await db.all(`SELECT v FROM (VALUES (3::DOUBLE), (NULL), (-1), (2.5), (NULL), (0)) t(v) ORDER BY v ${descending ? 'DESC' : 'ASC'}`);
    assert.deepEqual([...values].sort((a, b) => compareNullsLast(a, b, descending)), rows.map((row) => row.v));
  }
});

test('hugeintAsDouble is CAST(HUGEINT AS DOUBLE), where Number() differs', async () => {
  const values = [0n, 1n, -1n, -5n, 2n ** 53n + 1n, 27670116110564332545n, 27670116110564340737n, 2n ** 100n + 12345678901n, -(2n ** 70n) - 3n, 123456789012345678901234567n];
  let differs = 0;
  for (const value of values) {
    const [{ d }] = await db.all(`SELECT CAST(CAST('${value}' AS HUGEINT) AS DOUBLE) AS d`);
    assert.equal(hugeintAsDouble(value), d, String(value));
    if (Number(value) !== d) differs++;
  }
  assert.ok(differs > 0, 'at least one value where the plain conversion is wrong');
});

test('integerAsJson: a number while safe, else its text, as db.all gives BIGINT and HUGEINT', async () => {
  for (const value of [5n, 2n ** 53n - 1n, 2n ** 53n, -(2n ** 60n)]) {
    const [{ n }] = await db.all(`SELECT CAST('${value}' AS HUGEINT) AS n`);
    assert.equal(integerAsJson(value), n);
  }
});
