import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Database } from '../../engine/database.ts';
import { ensureSnapshot } from '../../ingest/bootstrap.ts';
import { sebraSampleSource } from '../../domains/sebra/ingest/sampleSource.ts';
import { generateSebraSample, SAMPLE_FIRST_DAY, SAMPLE_LAST_DAY, workingDays } from '../../domains/sebra/ingest/sample.ts';
import { readImportRecords, SNAPSHOT_FILES } from '../../domains/sebra/ingest/snapshot.ts';
import { sqlStringLiteral } from '../../engine/parquet.ts';
import { tempDir } from './fixtures.ts';

test('an existing sample folder is ingested as is; a second call does nothing', async () => {
  const root = await tempDir();
  const sampleDir = join(root, 'sample');
  const dataDir = join(root, 'parquet');
  await generateSebraSample(join(sampleDir, 'sebra'), { from: '2024-01-02', to: '2024-01-12' });
  const lines: string[] = [];
  assert.deepEqual(await ensureSnapshot({ dataDir, sampleDir, log: (line) => lines.push(line), sources: [sebraSampleSource] }), { built: true, generated: false });
  assert.equal((await readImportRecords(dataDir)).length, 9);
  assert.match(lines.at(-1)!, /^snapshot ready: sebra: 9 files, \d+ rows/);
  assert.deepEqual(await ensureSnapshot({ dataDir, sampleDir, log: (line) => lines.push(line), sources: [sebraSampleSource] }), { built: false, generated: false });
});

test('a fresh clone: the full sample is generated and every report passes the checks', async () => {
  const root = await tempDir();
  const sampleDir = join(root, 'sample');
  const dataDir = join(root, 'parquet');
  assert.deepEqual(await ensureSnapshot({ dataDir, sampleDir, log: () => {}, sources: [sebraSampleSource] }), { built: true, generated: true });
  const days = workingDays(SAMPLE_FIRST_DAY, SAMPLE_LAST_DAY);
  assert.equal((await readdir(join(sampleDir, 'sebra'))).length, days.length);

  const db = await Database.open({ connections: 1 });
  try {
    const dayRows = await db.all(
      `SELECT currency, status, count(*) AS n, min(payment_date) AS first, max(payment_date) AS last
         FROM read_parquet(${sqlStringLiteral(join(dataDir, SNAPSHOT_FILES.days))}) GROUP BY ALL ORDER BY 1, 2`,
    );
    assert.deepEqual(dayRows, [
      { currency: 'BGN', status: 'HAS_PAYMENTS', n: 505, first: '2024-01-02', last: '2025-12-31' },
      { currency: 'BGN', status: 'NO_PAYMENTS', n: 2, first: '2024-05-02', last: '2025-05-02' },
      { currency: 'EUR', status: 'HAS_PAYMENTS', n: 212, first: '2026-01-02', last: '2026-10-30' },
    ]);
    const [payments] = await db.all(
      `SELECT count(*) AS n, count(DISTINCT programme) AS programmes, count(*) FILTER (account_code = '') AS uncoded,
              count(*) FILTER (amount < 0) AS negative
         FROM read_parquet(${sqlStringLiteral(join(dataDir, SNAPSHOT_FILES.payments))})`,
    );
    assert.equal(payments.programmes, 42);
    assert.ok(Number(payments.n) > 30_000, `rows: ${payments.n}`);
    assert.ok(Number(payments.uncoded) > 0 && Number(payments.negative) > 0);
  } finally {
    await db.close();
  }
});
