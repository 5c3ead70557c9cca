import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Database } from '../../engine/database.ts';
import { ensureSnapshot, sampleRequested } from '../../ingest/bootstrap.ts';
import { originOfUrl } from '../../engine/dataOrigin.ts';
import { cardgameSampleSource } from '../../domains/cardgame/ingest/sampleSource.ts';
import { sebraSourceFiles } from '../../domains/sebra/ingest/sourceFiles.ts';
import { sebraSampleSource } from '../../domains/sebra/ingest/sampleSource.ts';
import { generateSebraSample, SAMPLE_FIRST_DAY, SAMPLE_LAST_DAY, workingDays } from '../../domains/sebra/ingest/sample.ts';
import { ingestSebraFiles, readImportRecords, SNAPSHOT_FILES } from '../../domains/sebra/ingest/snapshot.ts';
import { sqlStringLiteral } from '../../engine/parquet.ts';
import { sampleSnapshot } from '../helpers/app.ts';
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

// The full SEBRA sample as a fresh clone generates and ingests it: the run's shared sample snapshot
// (built by ensureSnapshot into empty folders, test/http/sample-app.ts), or one built here when this
// file runs alone. What ensureSnapshot answers is checked on small samples below.
test('a fresh clone: the full sample is generated and every report passes the checks', async () => {
  const shared = await sampleSnapshot('bootstrap-full-', [sebraSampleSource]);
  const dataDir = shared.dataDir;
  const sampleDir = join(dataDir, '..', 'sample');
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
    await shared.remove();
  }
});

// Issue 19: the samples are invented data, so they only go into a folder without real imports,
// unless asked; their import records carry `sample:<name>` instead of a real address.
describe('sample labelling and top-up (issue 19)', () => {
  const quiet = { log: () => {} };
  const smallSebra = (dir: string) => generateSebraSample(dir, { from: '2024-01-02', to: '2024-01-05' });

  test('sample import records say sample:<name>, never a real address', async () => {
    const root = await tempDir();
    const dataDir = join(root, 'parquet');
    await smallSebra(join(root, 'sample', 'sebra'));
    await ensureSnapshot({ ...quiet, dataDir, sampleDir: join(root, 'sample'), sources: [sebraSampleSource, cardgameSampleSource] });
    const records = await readImportRecords(dataDir);
    assert.ok(records.length > 3);
    assert.deepEqual([...new Set(records.map((record) => record.sourceUrl))].sort(), ['sample:cardgame', 'sample:sebra']);
    assert.ok(records.every((record) => originOfUrl(record.sourceUrl) === 'sample'));
  });

  test('a folder holding only samples is completed with the sources it misses', async () => {
    const root = await tempDir();
    const dataDir = join(root, 'parquet');
    const sampleDir = join(root, 'sample');
    await smallSebra(join(sampleDir, 'sebra'));
    await ensureSnapshot({ ...quiet, dataDir, sampleDir, sources: [sebraSampleSource] });
    const result = await ensureSnapshot({ ...quiet, dataDir, sampleDir, sources: [sebraSampleSource, cardgameSampleSource] });
    assert.deepEqual(result, { built: true, generated: true });
    assert.ok((await readImportRecords(dataDir)).some((record) => record.sourceUrl === 'sample:cardgame'));
  });

  test('a folder holding real imports is not topped up with samples; --sample adds them', async () => {
    const root = await tempDir();
    const dataDir = join(root, 'parquet');
    const sampleDir = join(root, 'sample');
    // "Real" reports: files outside data/sample ingested by the CLI's writer, with its real address.
    const realDir = join(root, 'real');
    await smallSebra(realDir);
    await ingestSebraFiles(await sebraSourceFiles(realDir), { dataDir });
    const before = await readImportRecords(dataDir);
    assert.ok(before.length > 0 && before.every((record) => originOfUrl(record.sourceUrl) === 'imported'));

    const lines: string[] = [];
    const refused = await ensureSnapshot({ dataDir, sampleDir, log: (line) => lines.push(line), sources: [sebraSampleSource, cardgameSampleSource] });
    assert.deepEqual(refused, { built: false, generated: false, skipped: ['cardgame'] });
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /not adding invented sample data for cardgame: .* holds real imports .*--sample/);
    assert.deepEqual(await readImportRecords(dataDir), before);
    assert.equal(existsSync(join(sampleDir, 'cardgame')), false, 'no sample generated');

    const asked = await ensureSnapshot({ ...quiet, dataDir, sampleDir, sample: true, sources: [sebraSampleSource, cardgameSampleSource] });
    assert.deepEqual(asked, { built: true, generated: true });
    const after = await readImportRecords(dataDir);
    assert.deepEqual(after.filter((record) => originOfUrl(record.sourceUrl) === 'imported'), before);
    assert.ok(after.some((record) => record.sourceUrl === 'sample:cardgame'));
  });

  test('a snapshot built from the samples before they were labelled is still completed, with a warning', async () => {
    const root = await tempDir();
    const dataDir = join(root, 'parquet');
    const sampleDir = join(root, 'sample');
    await smallSebra(join(sampleDir, 'sebra'));
    // The old sample ingest: the sample files recorded with the real address.
    await ingestSebraFiles(await sebraSourceFiles(join(sampleDir, 'sebra')), { dataDir });
    const lines: string[] = [];
    const result = await ensureSnapshot({ dataDir, sampleDir, log: (line) => lines.push(line), sources: [sebraSampleSource, cardgameSampleSource] });
    assert.deepEqual(result, { built: true, generated: true });
    assert.match(lines[0]!, /sample files recorded with a real source address/);
  });

  test('--sample and SAMPLE=1 ask for the samples', () => {
    assert.equal(sampleRequested([], {}), false);
    assert.equal(sampleRequested(['--sample'], {}), true);
    assert.equal(sampleRequested([], { SAMPLE: '1' }), true);
    assert.equal(sampleRequested([], { SAMPLE: 'true' }), true);
    assert.equal(sampleRequested([], { SAMPLE: '0' }), false);
    assert.equal(sampleRequested([], { SAMPLE: '' }), false);
  });
});
