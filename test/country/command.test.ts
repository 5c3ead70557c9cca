// The `oecd` ingest command: a folder of both layouts with a stated vintage, its usage errors, and a
// malformed file rejecting the batch.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { oecdIngestCommand } from '../../domains/country/ingest/oecdCommand.ts';
import { UsageError } from '../../ingest/command.ts';
import { IngestRejectedError } from '../../ingest/errors.ts';
import { loadImportLedger } from '../../ingest/commit.ts';
import { Database } from '../../engine/database.ts';
import { legacyCsv, removeDir, sdmxLabelsCsv, tempDir, writeText } from './files.ts';

let dir: string;
before(async () => {
  dir = await tempDir('command');
});
after(() => removeDir(dir));

test('oecd <folder> --vintage: every .csv of the folder, both layouts, one import record each', async () => {
  const folder = path.join(dir, 'files');
  await mkdir(folder);
  await writeText(folder, 'a-legacy.csv', legacyCsv([['USA', 'CLI', 'AMPLITUD', 'LTRENDIDX', 'M', '2019-01', '99.1']]));
  await writeText(folder, 'b-explorer.csv', sdmxLabelsCsv([['USA', 'United States', 'LI', 'AA', 'IX', '2026-03', '100.7803']]));
  await writeText(folder, 'notes.txt', 'not read');
  const lines: string[] = [];
  const dataDir = path.join(dir, 'parquet');
  const outcome = await oecdIngestCommand.run({ path: folder, dataDir, options: { vintage: '2026-04' }, log: (line) => lines.push(line) });
  assert.deepEqual(outcome, { imported: 2, rows: 2, skipped: 0 });
  assert.ok(lines.some((line) => /vintage 2026-04-01/.test(line)), lines.join('\n'));
  const again = await oecdIngestCommand.run({ path: folder, dataDir, options: {}, log: () => undefined });
  assert.deepEqual(again, { imported: 0, rows: 0, skipped: 2 });
  const db = await Database.open({ connections: 1 });
  try {
    const ledger = (await loadImportLedger(db, dataDir)).filter((r) => r.dataset === 'coop_observations');
    assert.deepEqual(ledger.map((r) => [r.sourceFile, r.source]), [['a-legacy.csv', 'oecd-legacy-csv'], ['b-explorer.csv', 'oecd-sdmx-csv']]);
  } finally {
    await db.close();
  }
});

test('usage errors: a bad --vintage, a folder without .csv files', async () => {
  const empty = path.join(dir, 'empty');
  await mkdir(empty);
  await assert.rejects(oecdIngestCommand.run({ path: empty, dataDir: dir, options: {}, log: () => undefined }), UsageError);
  for (const vintage of ['2026-13', '26-01', '2026-02-30', 'latest']) {
    await assert.rejects(oecdIngestCommand.run({ path: empty, dataDir: dir, options: { vintage }, log: () => undefined }), (error: unknown) => error instanceof UsageError && /--vintage/.test(error.message), vintage);
  }
});

test('a malformed file rejects the batch and writes nothing', async () => {
  const folder = path.join(dir, 'bad');
  await mkdir(folder);
  await writeText(folder, 'good.csv', legacyCsv([['DEU', 'CLI', 'AMPLITUD', 'LTRENDIDX', 'M', '2019-01', '99.1']]));
  await writeText(folder, 'bad.csv', legacyCsv([['DEU', 'CLI', 'AMPLITUD', 'LTRENDIDX', 'X', '2019-01', '99.1']]));
  const dataDir = path.join(dir, 'parquet-bad');
  await assert.rejects(oecdIngestCommand.run({ path: folder, dataDir, options: {}, log: () => undefined }), (error: unknown) => error instanceof IngestRejectedError && /bad\.csv, row 2: column FREQUENCY/.test(error.message));
  const db = await Database.open({ connections: 1 });
  try {
    assert.deepEqual(await loadImportLedger(db, dataDir), []);
  } finally {
    await db.close();
  }
});
