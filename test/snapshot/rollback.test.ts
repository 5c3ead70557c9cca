// Rollback and retention (item 4 of issue 17): npm run snapshot -- list | rollback [<id>]; the
// newest SNAPSHOT_KEEP generations are kept (the served one always).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { readCurrentId } from '../../engine/generation.ts';
import { EXIT } from '../../ingest/exitCodes.ts';
import { generationIds, pruneGenerations, rollback, RollbackError } from '../../ingest/generations.ts';
import { runCli } from '../helpers/cli.ts';
import { ingestInProcess } from '../helpers/ingestCli.ts';
import { answers, ingest, ptpBatches, tempDir } from './helpers.ts';

test('rollback to the previous generation answers as it did; rollback <id> goes forward again; list marks the served one', async () => {
  const { first, second } = await ptpBatches();
  const dataDir = join(await tempDir('snapshot-rollback-'), 'parquet');
  assert.equal((await ingest(['ptp', first, '--data-dir', dataDir])).code, 0);
  const g1 = readCurrentId(dataDir)!;
  const old = await answers(dataDir);
  assert.equal((await ingest(['ptp', second, '--data-dir', dataDir])).code, 0);
  const g2 = readCurrentId(dataDir)!;
  const current = await answers(dataDir);

  const listed = await runCli('bin/snapshot.ts', ['list', '--data-dir', dataDir]);
  assert.equal(listed.code, 0, listed.stderr);
  const lines = listed.stdout.trimEnd().split('\n');
  assert.equal(lines.length, 2);
  assert.match(lines[0]!, new RegExp(`^  ${g1} +3 files .* parent -  ingest ptp$`));
  assert.match(lines[1]!, new RegExp(`^\\* ${g2} +3 files .* parent ${g1}  ingest ptp$`));

  const back = await runCli('bin/snapshot.ts', ['rollback', '--data-dir', dataDir]);
  assert.equal(back.code, 0, back.stderr);
  assert.match(back.stderr, new RegExp(`rolled back from ${g2} to ${g1}`));
  assert.equal(readCurrentId(dataDir), g1);
  assert.deepEqual(await answers(dataDir), old);
  await assert.rejects(rollback(dataDir), RollbackError); // nothing older than the first

  assert.deepEqual(await rollback(dataDir, g2), { from: g1, to: g2 });
  assert.deepEqual(await answers(dataDir), current);
  const unknown = await runCli('bin/snapshot.ts', ['rollback', '000042-20260101T000000Z', '--data-dir', dataDir]);
  assert.equal(unknown.code, EXIT.usage);
  assert.match(unknown.stderr, /no published generation 000042-20260101T000000Z/);
  assert.equal(readCurrentId(dataDir), g2);
});

test('retention: only the newest SNAPSHOT_KEEP generations stay, never removing the served one', async () => {
  const { first, second } = await ptpBatches();
  const dataDir = join(await tempDir('snapshot-keep-'), 'parquet');
  assert.equal((await ingest(['ptp', first, '--data-dir', dataDir])).code, 0);
  const g1 = readCurrentId(dataDir)!;
  assert.equal((await ingest(['ptp', second, '--data-dir', dataDir])).code, 0);
  const g2 = readCurrentId(dataDir)!;
  await rollback(dataDir, g1);
  assert.deepEqual(await pruneGenerations(dataDir, 1), []); // g1 is served, g2 is the newest
  assert.deepEqual(await generationIds(dataDir), [g1, g2]);
  await rollback(dataDir, g2);
  assert.deepEqual(await pruneGenerations(dataDir, 1), [g1]);
  assert.deepEqual(await generationIds(dataDir), [g2]);
  const bad = await ingestInProcess(['ptp', first, '--data-dir', dataDir], { SNAPSHOT_KEEP: 'zero' });
  assert.equal(bad.code, EXIT.usage);
  assert.match(bad.stderr, /SNAPSHOT_KEEP must be an integer >= 1/);
});
