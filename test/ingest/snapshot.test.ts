import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Database } from '../../engine/database.ts';
import { IngestRejectedError, ingestSebraFiles, readImportRecords, SNAPSHOT_FILES } from '../../domains/sebra/ingest/snapshot.ts';
import { sqlStringLiteral } from '../../engine/parquet.ts';
import { countLayoutRows, currentLayoutRows, noPaymentsRows, tempDir, writeJson, writeXlsx } from './fixtures.ts';

const fixedNow = () => new Date('2026-03-01T10:20:30.456Z');

async function query(sql: string): Promise<Array<Record<string, unknown>>> {
  const db = await Database.open({ connections: 1 });
  try {
    return await db.all(sql);
  } finally {
    await db.close();
  }
}

async function snapshotState(dataDir: string): Promise<Record<string, { bytes: Buffer; mtimeMs: number }>> {
  const state: Record<string, { bytes: Buffer; mtimeMs: number }> = {};
  for (const name of Object.values(SNAPSHOT_FILES)) {
    const file = join(dataDir, name);
    state[name] = { bytes: await readFile(file), mtimeMs: (await stat(file)).mtimeMs };
  }
  return state;
}

async function twoDays() {
  const sources = await tempDir();
  const dataDir = join(await tempDir(), 'parquet');
  const march = await writeXlsx(join(sources, 'SEBRA-15032024.xlsx'), currentLayoutRows());
  const february = await writeXlsx(join(sources, 'SEBRA-03022026.xlsx'), countLayoutRows());
  return { sources, dataDir, march, february };
}

test('two days become Parquet rows, days and import records', async () => {
  const { dataDir, march, february } = await twoDays();
  const progress: string[] = [];
  const result = await ingestSebraFiles([march, february], { dataDir, now: fixedNow, onProgress: (done, total) => progress.push(`${done}/${total}`) });
  assert.deepEqual(progress, ['1/2', '2/2']);
  assert.deepEqual(result.skipped, []);
  assert.equal(result.imported.length, 2);

  const payments = await query(`SELECT * FROM read_parquet(${sqlStringLiteral(join(dataDir, SNAPSHOT_FILES.payments))})`);
  assert.equal(payments.length, 7);
  assert.deepEqual(payments[0], {
    payment_date: '2024-03-15',
    currency: 'BGN',
    programme: 'Министерство на регионалното развитие и благоустройството',
    programme_code: '021*******',
    account_code: '10',
    account_description: 'Издръжка',
    amount: '1111.11',
    payment_count: null,
    source_file: 'SEBRA-15032024.xlsx',
  });
  assert.deepEqual(payments.at(-1), {
    payment_date: '2026-02-03',
    currency: 'EUR',
    programme: 'СТОЛИЧНА ОБЩИНА',
    programme_code: '422*******',
    account_code: '50',
    account_description: 'Плащания за дълготрайни активи, основен ремонт и капиталови трансфери',
    amount: '1234.56',
    payment_count: 3,
    source_file: 'SEBRA-03022026.xlsx',
  });
  const types = await query(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet(${sqlStringLiteral(join(dataDir, SNAPSHOT_FILES.payments))}))`);
  assert.deepEqual(
    types.map((row) => `${row.column_name} ${row.column_type}`),
    ['payment_date DATE', 'currency VARCHAR', 'programme VARCHAR', 'programme_code VARCHAR', 'account_code VARCHAR', 'account_description VARCHAR', 'amount DECIMAL(18,2)', 'payment_count INTEGER', 'source_file VARCHAR'],
  );
  const totals = await query(
    `SELECT payment_date, currency, sum(amount) AS total FROM read_parquet(${sqlStringLiteral(join(dataDir, SNAPSHOT_FILES.payments))}) GROUP BY ALL ORDER BY 1`,
  );
  assert.deepEqual(totals, [
    { payment_date: '2024-03-15', currency: 'BGN', total: '103795.92' },
    { payment_date: '2026-02-03', currency: 'EUR', total: '5001234.56' },
  ]);
  const days = await query(`SELECT * FROM read_parquet(${sqlStringLiteral(join(dataDir, SNAPSHOT_FILES.days))})`);
  assert.deepEqual(days, [
    { payment_date: '2024-03-15', currency: 'BGN', status: 'HAS_PAYMENTS', source_file: 'SEBRA-15032024.xlsx' },
    { payment_date: '2026-02-03', currency: 'EUR', status: 'HAS_PAYMENTS', source_file: 'SEBRA-03022026.xlsx' },
  ]);

  const records = await readImportRecords(dataDir);
  assert.equal(records.length, 2);
  const marchHash = (await import('node:crypto')).createHash('sha256').update(await readFile(march)).digest('hex');
  assert.deepEqual(records.find((record) => record.sourceFile === 'SEBRA-15032024.xlsx'), {
    dataset: 'sebra_payments',
    source: 'mof-xlsx',
    sourceFile: 'SEBRA-15032024.xlsx',
    sourceUrl: 'https://www.minfin.bg/bg/transparency/2024-03-15',
    fileHash: marchHash,
    importDate: '2026-03-01T10:20:30.456Z',
    rowCount: 5,
  });
  assert.deepEqual((await readdir(dataDir)).sort(), Object.values(SNAPSHOT_FILES).sort(), 'no temp folder is left behind');
});

test('the same file again is a no-op: skipped, snapshot untouched', async () => {
  const { dataDir, march, february } = await twoDays();
  await ingestSebraFiles([march, february], { dataDir, now: fixedNow });
  const before = await snapshotState(dataDir);
  const again = await ingestSebraFiles([march], { dataDir });
  assert.deepEqual(again, { imported: [], skipped: [march] });
  assert.deepEqual(await snapshotState(dataDir), before);
});

test('a batch with one malformed file throws, names every bad file, and writes nothing', async () => {
  const { sources, dataDir, march } = await twoDays();
  await ingestSebraFiles([march], { dataDir, now: fixedNow });
  const before = await snapshotState(dataDir);
  const good = await writeXlsx(join(sources, 'SEBRA-03022026.xlsx'), countLayoutRows());
  const badSum = await writeXlsx(join(sources, 'SEBRA-16032024.xlsx'), currentLayoutRows({ period: 'Период: 16.03.2024 - 16.03.2024', org1Total: 1 }));
  const noDate = await writeJson(join(sources, 'tree.json'), { name: 'x', children: [] });
  await assert.rejects(ingestSebraFiles([good, badSum, noDate], { dataDir }), (error: unknown) => {
    assert.ok(error instanceof IngestRejectedError);
    assert.equal(error.problems.length, 2);
    assert.match(error.message, /2 file\(s\) rejected, snapshot unchanged/);
    assert.ok(error.message.includes(`${badSum}, row 14: sum of the section's rows`), error.message);
    assert.ok(error.message.includes(`${noDate}: no payment date: pass --date`), error.message);
    return true;
  });
  assert.deepEqual(await snapshotState(dataDir), before);
  assert.deepEqual((await readdir(dataDir)).sort(), Object.values(SNAPSHOT_FILES).sort());
});

test('two reports for the same date in one batch are rejected', async () => {
  const { sources, dataDir, march } = await twoDays();
  const copy = await writeXlsx(join(sources, 'SEBRA-15032024-v2.xlsx'), currentLayoutRows({ delegated: 5 }));
  await assert.rejects(ingestSebraFiles([march, copy], { dataDir }), /SEBRA-15032024-v2\.xlsx: duplicate report for 2024-03-15, also in SEBRA-15032024\.xlsx/);
  await assert.rejects(stat(join(dataDir, SNAPSHOT_FILES.payments)), { code: 'ENOENT' });
});

test('a re-published day replaces that day instead of doubling it', async () => {
  const { sources, dataDir, march, february } = await twoDays();
  await ingestSebraFiles([march, february], { dataDir, now: fixedNow });
  const republished = await writeXlsx(join(sources, 'SEBRA-15032024-corrected.xlsx'), currentLayoutRows({ delegated: 250000 }));
  const result = await ingestSebraFiles([republished], { dataDir, now: () => new Date('2026-03-02T00:00:00Z') });
  assert.equal(result.imported.length, 1);
  const rows = await query(
    `SELECT payment_date, count(*) AS n, sum(amount) AS total, min(source_file) AS source_file
       FROM read_parquet(${sqlStringLiteral(join(dataDir, SNAPSHOT_FILES.payments))}) GROUP BY ALL ORDER BY 1`,
  );
  assert.deepEqual(rows, [
    { payment_date: '2024-03-15', n: 5, total: '253795.92', source_file: 'SEBRA-15032024-corrected.xlsx' },
    { payment_date: '2026-02-03', n: 2, total: '5001234.56', source_file: 'SEBRA-03022026.xlsx' },
  ]);
  const days = await query(`SELECT count(*) AS n FROM read_parquet(${sqlStringLiteral(join(dataDir, SNAPSHOT_FILES.days))})`);
  assert.deepEqual(days, [{ n: 2 }]);
  const records = await readImportRecords(dataDir);
  assert.deepEqual(records.map((record) => record.sourceFile), ['SEBRA-03022026.xlsx', 'SEBRA-15032024.xlsx', 'SEBRA-15032024-corrected.xlsx']);
});

test('a day without payments is recorded in sebra_days only; portal and tree imports carry their URLs', async () => {
  const sources = await tempDir();
  const dataDir = join(await tempDir(), 'quote\'s dir');
  const zero = await writeJson(join(sources, 'zero.json'), { success: true, data: noPaymentsRows() });
  const tree = await writeJson(join(sources, 'tree.json'), { name: 'x', children: [{ name: 'НЗОК', children: [{ name: 'Издръжка', count: 3, amount: 7 }] }] });
  const result = await ingestSebraFiles([zero, tree], { dataDir, date: '2012-07-10', now: fixedNow });
  assert.deepEqual(result.imported.map((record) => [record.source, record.sourceUrl, record.rowCount]), [
    ['portal-json', 'https://data.egov.bg/data/view/01293990-7330-49c6-92a2-cc73db73ec24', 0],
    ['report-tree', null, 1],
  ]);
  const days = await query(`SELECT payment_date, currency, status FROM read_parquet(${sqlStringLiteral(join(dataDir, SNAPSHOT_FILES.days))})`);
  assert.deepEqual(days, [
    { payment_date: '2012-07-10', currency: 'BGN', status: 'HAS_PAYMENTS' },
    { payment_date: '2025-05-02', currency: 'BGN', status: 'NO_PAYMENTS' },
  ]);
  const payments = await query(`SELECT payment_date FROM read_parquet(${sqlStringLiteral(join(dataDir, SNAPSHOT_FILES.payments))})`);
  assert.deepEqual(payments, [{ payment_date: '2012-07-10' }]);
});
