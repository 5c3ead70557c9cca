// The least possible ingest (bench/data.ts leastIngest): it reads every file the floor reads, streams
// every workbook, writes what it read to Parquet and leaves nothing behind. Its time is not asserted.
import assert from 'node:assert/strict';
import { access, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import { extname, join } from 'node:path';
import { test } from 'node:test';
import { leastIngest, xlsxTableAsCsv } from '../../bench/data.ts';
import { etsSampleSource } from '../../domains/energy/ingest/sampleSource.ts';
import { Database } from '../../engine/database.ts';
import { sqlStringLiteral } from '../../engine/parquet.ts';

test('the least ingest of the ETS sample reads its CSV files and the workbook\'s copy, streams the workbook, and removes its folder', { timeout: 60_000 }, async () => {
  const dir = await mkdtemp(join(os.tmpdir(), 'least-ingest-'));
  try {
    const sampleDir = join(dir, 'sample');
    await etsSampleSource.generate(sampleDir);
    const files = (await readdir(sampleDir)).sort().map((name) => join(sampleDir, name));
    const workbook = files.find((f) => extname(f) === '.xlsx');
    assert.ok(workbook && files.some((f) => extname(f) === '.csv'), 'the sample has CSV files and a workbook');
    await mkdir(join(dir, 'copy'));
    const readFiles = await Promise.all(files.map(async (f) => (f === workbook ? xlsxTableAsCsv(f, join(dir, 'copy')) : f)));

    // Expected, read independently: the rows DuckDB's reader finds in each file, and the copy's records
    // (its header and data rows: the workbook has at least those rows).
    const db = await Database.open({ connections: 1 });
    let expectedRows = 0;
    let copyRecords = 0;
    try {
      for (const file of readFiles) {
        const [{ n }] = await db.all(`SELECT count(*)::INTEGER AS n FROM read_csv(${sqlStringLiteral(file)})`);
        expectedRows += Number(n);
      }
      const copy = readFiles[files.indexOf(workbook)]!;
      const [{ n }] = await db.all(`SELECT count(*)::INTEGER AS n FROM read_csv(${sqlStringLiteral(copy)}, header = false, columns = {'line': 'VARCHAR'}, delim = '\u0001', quote = '')`);
      copyRecords = Number(n);
    } finally {
      await db.close();
    }

    const leastDir = join(dir, 'least');
    const least = await leastIngest(files, readFiles, leastDir);
    assert.ok(least.ms > 0);
    assert.equal(least.parquetRows, expectedRows, 'every row the floor reads is written to Parquet');
    assert.ok(least.workbookRows >= copyRecords && copyRecords > 1, `the workbook's ${least.workbookRows} rows streamed (its table: ${copyRecords} records)`);
    await assert.rejects(access(leastDir), 'its folder is removed');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
