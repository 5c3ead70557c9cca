// The engine's Database: DuckDB value conversion to JSON, named parameters, prepared-statement
// reuse, the connection pool under concurrency, the query timeout, and lockDown().
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Database, QueryTimeoutError } from '../../engine/database.ts';
import { sqlStringLiteral } from '../../engine/parquet.ts';
import { threadsFromEnv } from '../../engine/settings.ts';

let db: Database;
before(async () => {
  db = await Database.open({ connections: 2 });
});
after(() => db.close());

async function one(sql: string, params?: Parameters<Database['all']>[1]) {
  const rows = await db.all(sql, params);
  assert.equal(rows.length, 1);
  return rows[0];
}

describe('value conversion', () => {
  test('integers: BIGINT and friends -> number; beyond 2^53 -> exact decimal text', async () => {
    const row = await one(`SELECT 42::BIGINT AS big, -7::BIGINT AS negative, 7::INTEGER AS int, 3::SMALLINT AS small,
      9007199254740991::BIGINT AS max_safe, 9007199254740993::BIGINT AS unsafe, 10::HUGEINT AS huge, count(*) AS counted
      FROM range(3)`);
    assert.deepEqual(row, {
      big: 42, negative: -7, int: 7, small: 3, max_safe: 9007199254740991, unsafe: '9007199254740993', huge: 10, counted: 3,
    });
    assert.equal(typeof row.counted, 'number');
  });

  test('DECIMAL(18,2) -> exact decimal string with two places (rounded half away from zero on cast)', async () => {
    const row = await one(`SELECT 12.345::DECIMAL(18,2) AS a, -12.345::DECIMAL(18,2) AS b, 123456789012.34::DECIMAL(18,2) AS c,
      -123456789012.34::DECIMAL(18,2) AS d, -0.05::DECIMAL(18,2) AS e, 0::DECIMAL(18,2) AS f, 7::DECIMAL(18,2) AS g,
      CAST('9999999999999999.99' AS DECIMAL(18,2)) AS h, CAST('12345678901234567890123456.78' AS DECIMAL(38,2)) AS i,
      0.1::DECIMAL(18,2) + 0.2::DECIMAL(18,2) AS j`);
    assert.deepEqual(row, {
      a: '12.35', b: '-12.35', c: '123456789012.34', d: '-123456789012.34', e: '-0.05', f: '0.00', g: '7.00',
      h: '9999999999999999.99', i: '12345678901234567890123456.78', j: '0.30',
    });
  });

  test('sum of DECIMAL money stays exact (no float drift)', async () => {
    // 0.10 ten times is exactly 1.00; in doubles it is 0.9999999999999999.
    const row = await one(`SELECT CAST(sum(0.10::DECIMAL(18,2)) AS DECIMAL(38,2)) AS total FROM range(10)`);
    assert.equal(row.total, '1.00');
  });

  test('DATE -> YYYY-MM-DD; NULL of any type -> null', async () => {
    const row = await one(`SELECT DATE '2024-02-29' AS leap, DATE '2026-01-05' AS d, DATE '0099-01-01' AS early,
      NULL AS n, NULL::DATE AS nd, NULL::DECIMAL(18,2) AS ndec, NULL::BIGINT AS nbig, NULL::VARCHAR AS ntext`);
    assert.deepEqual(row, { leap: '2024-02-29', d: '2026-01-05', early: '0099-01-01', n: null, nd: null, ndec: null, nbig: null, ntext: null });
  });

  test('LIST and STRUCT: nested values converted the same way', async () => {
    const row = await one(`SELECT [1::BIGINT, 2, NULL] AS ints, [1.25::DECIMAL(18,2), NULL] AS decimals,
      {'amount': 1.5::DECIMAL(18,2), 'day': DATE '2024-01-02', 'none': NULL::INTEGER, 'count': 5::BIGINT, 'name': 'Издръжка'} AS s,
      [{'day': DATE '2024-01-01', 'amount': -3.10::DECIMAL(18,2)}] AS list_of_structs, []::INTEGER[] AS empty,
      true AS yes, false AS no, 'Заплати' AS text, 1.5::DOUBLE AS dbl`);
    assert.deepEqual(row, {
      ints: [1, 2, null],
      decimals: ['1.25', null],
      s: { amount: '1.50', day: '2024-01-02', none: null, count: 5, name: 'Издръжка' },
      list_of_structs: [{ day: '2024-01-01', amount: '-3.10' }],
      empty: [],
      yes: true,
      no: false,
      text: 'Заплати',
      dbl: 1.5,
    });
  });
});

describe('parameters and prepared statements', () => {
  test('named parameters ($x) bind values of every supported kind', async () => {
    const row = await one(`SELECT $n::INTEGER + 1 AS next, $s || '!' AS shout, NOT $b AS flipped, $z IS NULL AS is_null,
      CAST($d AS DATE) + 1 AS tomorrow`, { n: 41, s: 'Ура', b: false, z: null, d: '2024-02-28' });
    assert.deepEqual(row, { next: 42, shout: 'Ура!', flipped: true, is_null: true, tomorrow: '2024-02-29' });
  });

  test('a bound value is data, never SQL', async () => {
    const row = await one(`SELECT $s AS s, length($s) AS n`, { s: "x'; DROP TABLE t; --" });
    assert.deepEqual(row, { s: "x'; DROP TABLE t; --", n: 20 });
  });

  test('the same SQL twice reuses one prepared statement; new parameters give new results', async () => {
    const single = await Database.open({ connections: 1 });
    try {
      const sql = 'SELECT $x::INTEGER * 2 AS doubled';
      assert.deepEqual(await single.all(sql, { x: 2 }), [{ doubled: 4 }]);
      assert.deepEqual(await single.all(sql, { x: 21 }), [{ doubled: 42 }]);
      assert.deepEqual(await single.all(sql, { x: 2 }), [{ doubled: 4 }]);
      // White-box: the pool's single connection holds exactly one cached statement for that SQL.
      const idle = (single as unknown as { idle: Array<{ statements: Map<string, unknown> }> }).idle;
      assert.equal(idle.length, 1);
      assert.deepEqual([...idle[0].statements.keys()], [sql]);
    } finally {
      await single.close();
    }
  });

  test('a statement that failed at run time can run again with good parameters', async () => {
    const sql = 'SELECT CAST($v AS INTEGER) AS v';
    await assert.rejects(db.all(sql, { v: 'not a number' }), (error: Error) => !(error instanceof QueryTimeoutError));
    assert.deepEqual(await db.all(sql, { v: '12' }), [{ v: 12 }]);
  });

  test('a SQL error is an ordinary error, not a timeout', async () => {
    await assert.rejects(db.all('SELECT * FROM no_such_table'), (error: Error) => {
      assert.ok(!(error instanceof QueryTimeoutError));
      assert.match(error.message, /no_such_table/);
      return true;
    });
  });

  test('run() executes DDL and DML; all() reads what it wrote', async () => {
    await db.run('CREATE TABLE t_run (id INTEGER, amount DECIMAL(18,2))');
    await db.run('INSERT INTO t_run VALUES ($id, CAST($amount AS DECIMAL(18,2)))', { id: 1, amount: '-5.5' });
    await db.appendRows('t_run', [[2, '10.25'], [3, null]]);
    assert.deepEqual(await db.all('SELECT * FROM t_run ORDER BY id'), [
      { id: 1, amount: '-5.50' }, { id: 2, amount: '10.25' }, { id: 3, amount: null },
    ]);
  });
});

describe('connection pool', () => {
  test('20 parallel all() calls on a 2-connection pool all resolve with their own results', async () => {
    const sql = 'SELECT $i::BIGINT AS i, sum(range)::BIGINT AS s FROM range($n::BIGINT)';
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => db.all(sql, { i, n: 100_000 + i })));
    // sum of 0 .. n-1 = n (n - 1) / 2
    results.forEach((rows, i) => {
      const n = 100_000 + i;
      assert.deepEqual(rows, [{ i, s: (n * (n - 1)) / 2 }]);
    });
    // every connection went back to the pool
    assert.equal((db as unknown as { idle: unknown[] }).idle.length, 2);
  });

  test('parallel calls that fail do not leak connections', async () => {
    const failing = Array.from({ length: 6 }, () => db.all('SELECT * FROM missing_table_for_pool'));
    const results = await Promise.allSettled(failing);
    assert.ok(results.every((r) => r.status === 'rejected'));
    assert.equal((db as unknown as { idle: unknown[] }).idle.length, 2);
    assert.deepEqual(await db.all('SELECT 1 AS ok'), [{ ok: 1 }]);
  });
});

describe('query timeout', () => {
  test('a slow query rejects with QueryTimeoutError and the database still answers', async () => {
    const slow = await Database.open({ queryTimeoutMs: 50, connections: 1 });
    try {
      const started = Date.now();
      await assert.rejects(slow.all('SELECT count(*) FROM range(10000000000) a'), (error: unknown) => {
        assert.ok(error instanceof QueryTimeoutError, String(error));
        assert.equal(error.timeoutMs, 50);
        assert.equal(error.name, 'QueryTimeoutError');
        return true;
      });
      assert.ok(Date.now() - started < 5_000, 'interrupted promptly');
      // the same (only) connection answers afterwards, a fast query is not hit by a stale interrupt
      assert.deepEqual(await slow.all('SELECT 1 AS ok'), [{ ok: 1 }]);
      assert.deepEqual(await slow.all('SELECT count(*) AS n FROM range(1000)'), [{ n: 1000 }]);
      // and the slow statement can be run again (and times out again)
      await assert.rejects(slow.all('SELECT count(*) FROM range(10000000000) a'), QueryTimeoutError);
    } finally {
      await slow.close();
    }
  });

  test('a timeout on one connection does not disturb a query on another', async () => {
    const pool = await Database.open({ queryTimeoutMs: 300, connections: 2 });
    try {
      const [timedOut, fast] = await Promise.allSettled([
        pool.all('SELECT count(*) FROM range(10000000000) a'),
        pool.all('SELECT 7 AS seven'),
      ]);
      assert.equal(timedOut.status, 'rejected');
      assert.ok((timedOut as PromiseRejectedResult).reason instanceof QueryTimeoutError);
      assert.deepEqual(fast, { status: 'fulfilled', value: [{ seven: 7 }] });
    } finally {
      await pool.close();
    }
  });
});

describe('lockDown', () => {
  let dir: string;
  let locked: Database;
  let parquetFile: string;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'engine-lock-'));
    parquetFile = path.join(dir, 'x.parquet');
    locked = await Database.open({ connections: 3 });
    await locked.run(`COPY (SELECT 1 AS a) TO ${sqlStringLiteral(parquetFile)} (FORMAT PARQUET)`);
    // before lockDown the file is readable
    assert.deepEqual(await locked.all(`SELECT a FROM read_parquet(${sqlStringLiteral(parquetFile)})`), [{ a: 1 }]);
    await locked.lockDown();
  });
  after(async () => {
    await locked.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('read_parquet on a file fails, on every pooled connection', async () => {
    const sql = `SELECT a FROM read_parquet(${sqlStringLiteral(parquetFile)})`;
    const attempts = await Promise.allSettled([locked.all(sql), locked.all(sql), locked.all(sql)]);
    for (const attempt of attempts) {
      assert.equal(attempt.status, 'rejected');
      assert.match(String((attempt as PromiseRejectedResult).reason), /disabled|Permission/i);
    }
  });

  test('read_csv and COPY ... TO a file fail', async () => {
    await assert.rejects(locked.all(`SELECT * FROM read_csv(${sqlStringLiteral(path.join(dir, 'none.csv'))})`), /disabled|Permission/i);
    await assert.rejects(locked.run(`COPY (SELECT 1 AS a) TO ${sqlStringLiteral(path.join(dir, 'out.csv'))}`), /disabled|Permission/i);
    await assert.rejects(locked.run(`COPY (SELECT 1 AS a) TO ${sqlStringLiteral(path.join(dir, 'out.parquet'))} (FORMAT PARQUET)`), /disabled|Permission/i);
  });

  test('ATTACH of a database file fails', async () => {
    await assert.rejects(locked.run(`ATTACH ${sqlStringLiteral(path.join(dir, 'other.duckdb'))} AS other`));
  });

  test('settings cannot be turned back on', async () => {
    await assert.rejects(locked.run('SET enable_external_access = true'), /lock/i);
    await assert.rejects(locked.run('SET lock_configuration = false'), /lock/i);
  });

  test('queries over in-memory data still answer', async () => {
    assert.deepEqual(await locked.all('SELECT 40 + $x::INTEGER AS answer', { x: 2 }), [{ answer: 42 }]);
  });
});

test('DUCKDB_THREADS: the threads of an engine opened without its own setting; a bad value names the variable', async () => {
  assert.equal(threadsFromEnv({}), undefined);
  assert.equal(threadsFromEnv({ DUCKDB_THREADS: ' 3 ' }), 3);
  for (const bad of ['0', '65', 'two', '1.5', '-1']) assert.throws(() => threadsFromEnv({ DUCKDB_THREADS: bad }), new RangeError(`DUCKDB_THREADS must be a whole number from 1 to 64 (got "${bad}")`));

  const saved = process.env.DUCKDB_THREADS;
  const threadsOf = async (options: { threads?: number } = {}) => {
    const db = await Database.open(options);
    try {
      return Number((await db.all("SELECT current_setting('threads') AS threads"))[0]!.threads);
    } finally {
      await db.close();
    }
  };
  try {
    process.env.DUCKDB_THREADS = '3';
    assert.equal(await threadsOf(), 3);
    assert.equal(await threadsOf({ threads: 2 }), 2, 'the caller\'s own setting first');
    process.env.DUCKDB_THREADS = 'many';
    await assert.rejects(Database.open(), /DUCKDB_THREADS must be a whole number/);
  } finally {
    if (saved === undefined) delete process.env.DUCKDB_THREADS;
    else process.env.DUCKDB_THREADS = saved;
  }
});
