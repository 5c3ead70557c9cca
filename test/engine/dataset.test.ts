// The dataset descriptor: its checks, the SQL it produces, and a round trip through a Parquet file
// (writer's COPY, then the loader's typed table) that keeps the declared columns, types and order.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Database } from '../../engine/database.ts';
import {
  columnNames, copyToParquetSql, createTableSql, defineDataset, insertDataset, loadDataset, omitColumns, orderBySql,
  stagedSelectSql, stagingTableSql,
} from '../../engine/dataset.ts';
import { sqlStringLiteral } from '../../engine/parquet.ts';
import { sourceFiles } from '../../ingest/sourceFiles.ts';

const PAYMENTS = defineDataset({
  name: 'test_payments',
  columns: [
    { name: 'day', type: 'DATE', notNull: true },
    { name: 'code', type: 'VARCHAR', notNull: true },
    { name: 'amount', type: 'DECIMAL(18,2)' },
    { name: 'tags', type: 'VARCHAR[]' },
    { name: 'source_file', type: 'VARCHAR' },
  ],
  orderBy: ['day DESC', 'code NULLS FIRST'],
  primaryKey: ['day', 'code'],
});

let dir: string;
let db: Database;
before(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'dataset-test-'));
  db = await Database.open({ connections: 1 });
});
after(async () => {
  await db.close();
  await rm(dir, { recursive: true, force: true });
});

describe('defineDataset', () => {
  test('refuses repeated columns, unknown order or key columns, odd names and an empty order', () => {
    const base = { name: 'd', columns: [{ name: 'a', type: 'INTEGER' }], orderBy: ['a'] };
    assert.doesNotThrow(() => defineDataset(base));
    assert.throws(() => defineDataset({ ...base, name: 'Bad-Name' }), /dataset Bad-Name: the name/);
    assert.throws(() => defineDataset({ ...base, columns: [{ name: 'a', type: 'INTEGER' }, { name: 'a', type: 'DATE' }] }), /a is declared twice/);
    assert.throws(() => defineDataset({ ...base, orderBy: ['b'] }), /orderBy "b"/);
    assert.throws(() => defineDataset({ ...base, orderBy: ['a; DROP TABLE x'] }), /orderBy/);
    assert.throws(() => defineDataset({ ...base, orderBy: [] }), /orderBy is empty/);
    assert.throws(() => defineDataset({ ...base, primaryKey: ['z'] }), /primary key column z/);
    assert.throws(() => defineDataset({ ...base, columns: [{ name: 'a', type: "INTEGER'" }] }), /no usable type/);
    assert.throws(() => defineDataset({ ...base, columns: [] }), /no columns/);
  });
});

describe('SQL from the descriptor', () => {
  test('CREATE TABLE with types, NOT NULL and the primary key; another table name on request', () => {
    assert.equal(
      createTableSql(PAYMENTS),
      'CREATE TABLE test_payments (day DATE NOT NULL, code VARCHAR NOT NULL, amount DECIMAL(18,2), tags VARCHAR[], ' +
        'source_file VARCHAR, PRIMARY KEY (day, code))',
    );
    assert.match(createTableSql(PAYMENTS, 'scratch'), /^CREATE TABLE scratch \(/);
  });

  test('the order and the COPY of the declared columns', () => {
    assert.equal(orderBySql(PAYMENTS), 'day DESC, code NULLS FIRST');
    assert.equal(
      copyToParquetSql(PAYMENTS, "/tmp/it's.parquet"),
      "COPY (SELECT day, code, amount, tags, source_file FROM test_payments ORDER BY day DESC, code NULLS FIRST) TO '/tmp/it''s.parquet' (FORMAT PARQUET)",
    );
  });

  test('omitColumns drops columns (and their order terms), refuses unknown and key columns', () => {
    const kept = omitColumns(PAYMENTS, ['source_file', 'amount']);
    assert.deepEqual(columnNames(kept), ['day', 'code', 'tags']);
    assert.equal(kept.name, 'test_payments');
    assert.throws(() => omitColumns(PAYMENTS, ['nope']), /cannot omit nope/);
    assert.throws(() => omitColumns(PAYMENTS, ['code']), /part of the primary key/);
    const ordered = omitColumns(defineDataset({ ...PAYMENTS, primaryKey: undefined }), ['code']);
    assert.deepEqual(ordered.orderBy, ['day DESC']);
  });
});

describe('staging for the appender', () => {
  test('INTEGER stays INTEGER, everything else is text; omitted columns are not staged and insert as NULL', () => {
    assert.equal(
      stagingTableSql(PAYMENTS, 'stage', { omit: ['tags'], extra: [{ name: 'file_order', type: 'INTEGER' }] }),
      'CREATE TABLE stage (day VARCHAR, code VARCHAR, amount VARCHAR, source_file VARCHAR, file_order INTEGER)',
    );
    assert.equal(stagedSelectSql(PAYMENTS, { omit: ['tags'] }), 'CAST(day AS DATE), code, CAST(amount AS DECIMAL(18,2)), NULL, source_file');
    assert.equal(stagedSelectSql(PAYMENTS), `CAST(day AS DATE), code, CAST(amount AS DECIMAL(18,2)), from_json(tags, '["VARCHAR"]'), source_file`);
  });

  test('staged text casts into the declared types', async () => {
    const counts = defineDataset({
      name: 'test_counts',
      columns: [{ name: 'day', type: 'DATE' }, { name: 'n', type: 'INTEGER' }, { name: 'ok', type: 'BOOLEAN' }, { name: 'tags', type: 'VARCHAR[]' }],
      orderBy: ['day'],
    });
    await db.run(createTableSql(counts));
    await db.run(stagingTableSql(counts, 'stage_counts'));
    await db.appendRows('stage_counts', [['2024-02-29', 3, 'true', JSON.stringify(['a "b"', 'c,d'])], ['2024-03-01', null, 'false', '[]']]);
    await db.run(`INSERT INTO test_counts SELECT ${stagedSelectSql(counts)} FROM stage_counts`);
    assert.deepEqual(await db.all(`SELECT strftime(day, '%d.%m.%Y') AS day, n, ok, tags FROM test_counts ORDER BY test_counts.day`), [
      { day: '29.02.2024', n: 3, ok: true, tags: ['a "b"', 'c,d'] },
      { day: '01.03.2024', n: null, ok: false, tags: [] },
    ]);
  });
});

describe('loadDataset', () => {
  test('no file: an empty table with the declared types', async () => {
    assert.equal(await loadDataset(db, PAYMENTS, dir, { table: 'empty_payments' }), false);
    const columns = await db.all(`SELECT column_name, data_type, is_nullable FROM information_schema.columns
      WHERE table_name = 'empty_payments' ORDER BY ordinal_position`);
    assert.deepEqual(columns, [
      { column_name: 'day', data_type: 'DATE', is_nullable: 'NO' },
      { column_name: 'code', data_type: 'VARCHAR', is_nullable: 'NO' },
      { column_name: 'amount', data_type: 'DECIMAL(18,2)', is_nullable: 'YES' },
      { column_name: 'tags', data_type: 'VARCHAR[]', is_nullable: 'YES' },
      { column_name: 'source_file', data_type: 'VARCHAR', is_nullable: 'YES' },
    ]);
  });

  test('round trip: the written file has the declared columns in order and sorted rows; the loader reads them by name', async () => {
    await db.run(createTableSql(PAYMENTS));
    await db.run(`INSERT INTO test_payments VALUES
      ('2024-01-01', 'b', 1.5, ['x'], 'f1'), ('2024-01-02', 'a', NULL, [], NULL), ('2024-01-01', 'a', 2.25, NULL, 'f2')`);
    const file = path.join(dir, 'test_payments.parquet');
    await db.run(copyToParquetSql(PAYMENTS, file));
    const schema = await db.all(`SELECT name, type, converted_type FROM parquet_schema(${sqlStringLiteral(file)}) WHERE name IN ('day', 'code', 'amount', 'source_file')`);
    assert.deepEqual(schema, [
      { name: 'day', type: 'INT32', converted_type: 'DATE' },
      { name: 'code', type: 'BYTE_ARRAY', converted_type: 'UTF8' },
      { name: 'amount', type: 'INT64', converted_type: 'DECIMAL' },
      { name: 'source_file', type: 'BYTE_ARRAY', converted_type: 'UTF8' },
    ]);
    const order = await db.all(`SELECT strftime(day, '%Y-%m-%d') AS day, code FROM read_parquet(${sqlStringLiteral(file)})`);
    assert.deepEqual(order, [{ day: '2024-01-02', code: 'a' }, { day: '2024-01-01', code: 'a' }, { day: '2024-01-01', code: 'b' }]);

    assert.equal(await loadDataset(db, PAYMENTS, dir, { table: 'loaded', omit: ['source_file'] }), true);
    const rows = await db.all(`SELECT strftime(day, '%Y-%m-%d') AS day, code, amount, tags FROM loaded ORDER BY day, code`);
    assert.deepEqual(rows, [
      { day: '2024-01-01', code: 'a', amount: '2.25', tags: null },
      { day: '2024-01-01', code: 'b', amount: '1.50', tags: ['x'] },
      { day: '2024-01-02', code: 'a', amount: null, tags: [] },
    ]);
    const [{ n }] = await db.all(`SELECT count(*)::INTEGER AS n FROM information_schema.columns WHERE table_name = 'loaded'`);
    assert.equal(n, 4);

    // insertDataset appends to an existing table: several files may fill one table.
    const noKey = defineDataset({ ...PAYMENTS, primaryKey: undefined });
    await db.run(createTableSql(noKey, 'doubled'));
    assert.equal(await insertDataset(db, noKey, dir, 'doubled'), true);
    assert.equal(await insertDataset(db, noKey, dir, 'doubled'), true);
    const [{ total }] = await db.all('SELECT count(*)::INTEGER AS total FROM doubled');
    assert.equal(total, 6);
  });
});

describe('sourceFiles', () => {
  test('a file as is; a folder: its files of the given extensions (any case), sorted by name, not recursive', async () => {
    const folder = path.join(dir, 'source');
    await mkdir(path.join(folder, 'sub'), { recursive: true });
    for (const name of ['b.json', 'a.CSV', 'c.txt', 'sub/d.json', 'A.json']) await writeFile(path.join(folder, name), '');
    assert.deepEqual(await sourceFiles(folder, ['.json', '.csv']), ['A.json', 'a.CSV', 'b.json'].map((n) => path.join(folder, n)));
    assert.deepEqual(await sourceFiles(path.join(folder, 'c.txt'), ['.json']), [path.join(folder, 'c.txt')]);
    assert.deepEqual(await sourceFiles(folder, ['.xlsx']), []);
    // A double extension; a name that is only the extension (a hidden file) is not one.
    for (const name of ['x.tsv.gz', 'y.tsv', '.gz']) await writeFile(path.join(folder, name), '');
    assert.deepEqual(await sourceFiles(folder, ['.tsv.gz']), [path.join(folder, 'x.tsv.gz')]);
    assert.deepEqual(await sourceFiles(folder, ['.gz']), [path.join(folder, 'x.tsv.gz')]);
    await assert.rejects(sourceFiles(path.join(folder, 'missing'), ['.json']), /ENOENT/);
  });
});
