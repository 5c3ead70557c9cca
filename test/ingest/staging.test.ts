// The CSV staging helper (ingest/staging.ts): the records the SQL reads stay as it read them, the
// others go to the JavaScript reader in file order and are merged back into the one staged table (in
// place, or appended to the source's table), and the first problem in file order is thrown naming the
// file and the line (a record DuckDB cannot read, a record the reader refuses, a key given twice),
// leaving nothing in the database.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Database } from '../../engine/database.ts';
import { ColumnError } from '../../ingest/csvRecords.ts';
import { MalformedSourceError } from '../../ingest/errors.ts';
import { SKIPPED, stageCsv, type CsvStaging } from '../../ingest/staging.ts';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'staging-test-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function csvFile(name: string, text: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text);
  return file;
}

let tables = 0;

/** A source `id,amount`: the SQL reads a plain whole amount; the JavaScript reader any number (as its integer text), SKIPPED for "skip". */
function amounts(path: string, read: number[], more: Partial<CsvStaging> = {}): CsvStaging {
  return {
    file: 'amounts.csv', path, table: `amounts_${++tables}`,
    csv: { skipLines: 1, fields: 2 },
    query: (source) => String.raw`SELECT c0 AS id, c1 AS amount, regexp_full_match(c1, '\d+') AS ok FROM ${source}`,
    badRecord: (bad) => new MalformedSourceError('amounts.csv', bad.line, `unreadable record (${bad.kind})`),
    merge: { update: ['id', 'amount'] },
    reader: (fields, line) => {
      read.push(line);
      const [id, amount] = fields.map((field) => (field ?? '').trim());
      if (amount === 'skip') return SKIPPED;
      if (!Number.isFinite(Number(amount)) || amount === '') throw new ColumnError('amount', `${JSON.stringify(amount)} is not a number`);
      return [id!, String(Number(amount))];
    },
    uniqueKey: {
      columns: [['id', 'id']],
      problem: (repeated) => new MalformedSourceError('amounts.csv', repeated.line, `id ${repeated.key.id} again (also on line ${repeated.firstLine})`),
    },
    ...more,
  };
}

async function stagedRows(db: Database, lined: string): Promise<unknown[][]> {
  return (await db.all(`SELECT line, id, amount FROM ${lined} WHERE ok ORDER BY line`)).map((r) => [r.line, r.id, r.amount]);
}

/** Tables and views the test's database holds (none after a refused file). */
async function leftOver(db: Database): Promise<string[]> {
  const rows = await db.all(`SELECT table_name AS name FROM duckdb_tables() WHERE NOT internal UNION ALL SELECT view_name FROM duckdb_views() WHERE NOT internal`);
  return rows.map((r) => String(r.name));
}

async function refusal(staging: Promise<unknown>): Promise<MalformedSourceError> {
  try {
    await staging;
  } catch (error) {
    assert.ok(error instanceof MalformedSourceError, String(error));
    return error;
  }
  assert.fail('the file was staged');
}

describe('stageCsv', () => {
  let db: Database;
  before(async () => {
    db = await Database.open({ connections: 1 });
  });
  after(async () => {
    await db.close();
  });

  test('a file the SQL reads whole never reaches the JavaScript reader', async () => {
    const read: number[] = [];
    const path = await csvFile('sql.csv', 'id,amount\na,10\nb,20\n\nc,30\n');
    const staged = await stageCsv(db, amounts(path, read));
    assert.deepEqual(read, []);
    assert.deepEqual(await stagedRows(db, staged.read.lined), [[2, 'a', '10'], [3, 'b', '20'], [5, 'c', '30']]);
    assert.equal(staged.readInJavaScript, 0);
    await staged.read.drop();
  });

  test('a file only the JavaScript reader reads is merged back in place, line by line', async () => {
    const read: number[] = [];
    const path = await csvFile('js.csv', 'id,amount\na,1e3\nb, 7\nc,2.5e1\n');
    const staged = await stageCsv(db, amounts(path, read));
    assert.deepEqual(read, [2, 3, 4]);
    assert.deepEqual(await stagedRows(db, staged.read.lined), [[2, 'a', '1000'], [3, 'b', '7'], [4, 'c', '25']]);
    assert.equal(staged.readInJavaScript, 3);
    await staged.read.drop();
  });

  test('a mix keeps file order, counts the skipped, and numbers a record by the line it ends on', async () => {
    const read: number[] = [];
    // Lines: header 1, a 2, b 3, c 4, the quoted break of d 5-6, e 7.
    const path = await csvFile('mix.csv', 'id,amount\na,10\nb,1e3\nc,skip\n"d\n",7\ne, 20\n');
    const staged = await stageCsv(db, amounts(path, read));
    assert.deepEqual(read, [3, 4, 7]);
    assert.deepEqual(await stagedRows(db, staged.read.lined), [[2, 'a', '10'], [3, 'b', '1000'], [6, 'd\n', '7'], [7, 'e', '20']]);
    assert.equal(staged.readInJavaScript, 2);
    assert.equal(staged.skippedInJavaScript, 1);
    await staged.read.drop();
  });

  test('a row the reader refuses is named with its file and row, and the rows after it are not read', async () => {
    const read: number[] = [];
    const path = await csvFile('bad-row.csv', 'id,amount\na,1\nb,x\nc,y\n');
    const error = await refusal(stageCsv(db, amounts(path, read)));
    assert.equal(error.message, 'amounts.csv, row 3: column amount: "x" is not a number');
    assert.deepEqual(read, [3]);
    assert.deepEqual(await leftOver(db), []);
  });

  test('the first problem in file order wins: a refused row before an unreadable record, and the record before a row after it', async () => {
    const rowFirst = await csvFile('row-first.csv', 'id,amount\na,x\nb,1,2\n');
    assert.equal((await refusal(stageCsv(db, amounts(rowFirst, [])))).message, 'amounts.csv, row 2: column amount: "x" is not a number');
    const read: number[] = [];
    const recordFirst = await csvFile('record-first.csv', 'id,amount\na,1,2\nb,x\n');
    assert.equal((await refusal(stageCsv(db, amounts(recordFirst, read)))).message, 'amounts.csv, row 2: unreadable record (TOO MANY COLUMNS)');
    assert.deepEqual(read, []);
    // 'at once': the unreadable record refuses the file before any row is judged.
    const atOnce = await refusal(stageCsv(db, amounts(rowFirst, read, { badRecordRefuses: 'at once' })));
    assert.equal(atOnce.message, 'amounts.csv, row 3: unreadable record (TOO MANY COLUMNS)');
    assert.deepEqual(await leftOver(db), []);
  });

  test('a key given twice is named at its second line, over the SQL\'s rows and the reader\'s alike', async () => {
    const path = await csvFile('repeated.csv', 'id,amount\na,1\nb,2\na,3e0\n');
    const error = await refusal(stageCsv(db, amounts(path, [])));
    assert.equal(error.message, 'amounts.csv, row 4: id a again (also on line 2)');
    assert.deepEqual(await leftOver(db), []);
  });

  test('append mode: the reader\'s records join the rows the source\'s own step staged, and the read is dropped', async () => {
    const read: number[] = [];
    const path = await csvFile('append.csv', 'id,amount\na,10\nb,1e3\nc,30\n');
    await stageCsv(db, amounts(path, read, {
      query: undefined,
      afterRead: async ({ lined }) => {
        await db.run(String.raw`CREATE TABLE appended AS SELECT line, c0 AS id, c1 AS amount FROM ${lined} WHERE regexp_full_match(c1, '\d+')`);
      },
      merge: { append: 'appended' },
      uniqueKey: undefined,
    }));
    assert.deepEqual(read, [3]);
    const rows = await db.all('SELECT line, id, amount FROM appended ORDER BY line');
    assert.deepEqual(rows.map((r) => [r.line, r.id, r.amount]), [[2, 'a', '10'], [3, 'b', '1000'], [4, 'c', '30']]);
    assert.deepEqual(await leftOver(db), ['appended']);
    await db.run('DROP TABLE appended');
  });
});
