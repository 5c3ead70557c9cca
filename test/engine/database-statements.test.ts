// The engine's prepared statements per connection are bounded: the least recently used beyond the
// bound is destroyed, a hit refreshes a statement's place, and answers are the same after an eviction.
// DuckDB's own prepare and destroySync are counted by wrapping them for the test's length.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DuckDBConnection, DuckDBPreparedStatement } from '@duckdb/node-api';
import { Database, PREPARED_STATEMENTS_KEPT } from '../../engine/database.ts';

const prepared: string[] = [];
/** Distinct statements destroyed (closing a connection destroys every statement it prepared, again if already destroyed). */
const destroyed = new Set<DuckDBPreparedStatement>();
const originalPrepare = DuckDBConnection.prototype.prepare;
const originalDestroy = DuckDBPreparedStatement.prototype.destroySync;
before(() => {
  DuckDBConnection.prototype.prepare = function (this: DuckDBConnection, sql: string) {
    prepared.push(sql);
    return originalPrepare.call(this, sql);
  };
  DuckDBPreparedStatement.prototype.destroySync = function (this: DuckDBPreparedStatement) {
    destroyed.add(this);
    return originalDestroy.call(this);
  };
});
after(() => {
  DuckDBConnection.prototype.prepare = originalPrepare;
  DuckDBPreparedStatement.prototype.destroySync = originalDestroy;
});

const A = 'SELECT $x::INTEGER + 1 AS a';
const B = 'SELECT $x::INTEGER + 2 AS b';
const C = 'SELECT $x::INTEGER + 3 AS c';

test('with room for two statements on one connection, the least recently used is destroyed and prepared again when asked', async () => {
  const db = await Database.open({ connections: 1, preparedStatements: 2 });
  prepared.length = 0;
  destroyed.clear();
  try {
    assert.deepEqual(await db.all(A, { x: 1 }), [{ a: 2 }]); // prepare A          held: A
    assert.deepEqual(await db.all(B, { x: 1 }), [{ b: 3 }]); // prepare B          held: A B
    assert.deepEqual(await db.all(A, { x: 5 }), [{ a: 6 }]); // hit, A is newest   held: B A
    assert.deepEqual(await db.all(C, { x: 1 }), [{ c: 4 }]); // prepare C, drop B  held: A C
    assert.deepEqual(await db.all(A, { x: 7 }), [{ a: 8 }]); // hit                held: C A
    assert.deepEqual(await db.all(B, { x: 9 }), [{ b: 11 }]); // prepare B, drop C held: A B
    assert.deepEqual(prepared, [A, B, C, B]);
    assert.equal(destroyed.size, 2);
  } finally {
    await db.close();
  }
  // Closing destroys the two still held.
  assert.equal(destroyed.size, 4);
});

test('the default keeps every statement of a few hundred distinct ones until the bound, then no more than the bound', async () => {
  const db = await Database.open({ connections: 1 });
  prepared.length = 0;
  destroyed.clear();
  try {
    const texts = Array.from({ length: PREPARED_STATEMENTS_KEPT + 10 }, (_, i) => `SELECT ${i}::INTEGER AS n`);
    for (const [i, sql] of texts.entries()) assert.deepEqual(await db.all(sql), [{ n: i }]);
    assert.equal(prepared.length, texts.length);
    assert.equal(destroyed.size, 10);
    // The newest bound's worth are held: asking for them again prepares nothing.
    for (const sql of texts.slice(10)) await db.all(sql);
    assert.equal(prepared.length, texts.length);
  } finally {
    await db.close();
  }
});

test('a bound that is not a positive integer is refused before DuckDB is opened', async () => {
  await assert.rejects(Database.open({ preparedStatements: 0 }), /preparedStatements must be a positive integer/);
  await assert.rejects(Database.open({ preparedStatements: 1.5 }), /preparedStatements must be a positive integer/);
});
