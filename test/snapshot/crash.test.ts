// Item 4 of issue 17: an ingest killed at each step of its commit (a fault hook that SIGKILLs the
// child at that step: no timing), then a start (recoverAtStart, as bin/start.ts runs it): before the
// pointer switch the previous generation is served with byte-identical answers and the scratch is
// gone; after it, the new generation is served whole. Also: a flat DATA_DIR migrates intact.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile, link } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { readCurrentId, GENERATIONS_DIR } from '../../engine/generation.ts';
import { generationIds, recoverAtStart } from '../../ingest/generations.ts';
import { LOCK_FILE } from '../../ingest/lock.ts';
import { ingestPtpFiles } from '../../domains/ptp/ingest/snapshot.ts';
import { answers, ingest, ingestWithFault, ptpBatches, tempDir } from './helpers.ts';

/** Steps before the pointer switch, in commit order (commitTables' own renames included). */
const BEFORE_SWITCH = [
  'scratch-created',
  'tables-copied',
  'table-renamed:ptp_crashes',
  'table-renamed:ptp_locations',
  'table-renamed:imports',
  'tables-written',
  'files-synced',
  'generation-renamed',
  'pointer-written',
];
const AFTER_SWITCH = ['pointer-renamed', 'published'];

async function entries(dir: string): Promise<string[]> {
  return (await readdir(dir).catch(() => [] as string[])).sort();
}

test('a crash at each commit step before the pointer switch: the previous generation is served byte for byte, the next start removes the scratch', async () => {
  const { first, second } = await ptpBatches();
  const dataDir = join(await tempDir('snapshot-crash-'), 'parquet');
  assert.equal((await ingest(['ptp', first, '--data-dir', dataDir])).code, 0);
  const served = readCurrentId(dataDir);
  assert.ok(served);
  const before = await answers(dataDir);
  const generations = await entries(join(dataDir, GENERATIONS_DIR));

  for (const step of BEFORE_SWITCH) {
    const killed = await ingestWithFault('crash', step, ['ptp', second, '--data-dir', dataDir]);
    assert.equal(killed.signal, 'SIGKILL', `${step}: ${killed.stderr}`);
    assert.equal(readCurrentId(dataDir), served, step);
    assert.ok(existsSync(join(dataDir, LOCK_FILE)), `${step}: the killed ingest leaves its lock`);
    const lines: string[] = [];
    assert.equal(await recoverAtStart(dataDir, (line) => lines.push(line)), true);
    assert.ok(lines.some((line) => /took over a stale lock/.test(line)), `${step}: ${lines.join('\n')}`);
    assert.ok(lines.some((line) => /removed (the scratch folder|generation .* never published)/.test(line)), `${step}: ${lines.join('\n')}`);
    assert.deepEqual(await entries(join(dataDir, GENERATIONS_DIR)), generations, step);
    assert.ok(!existsSync(join(dataDir, LOCK_FILE)), step);
    assert.deepEqual(await answers(dataDir), before, `${step}: answers changed`);
  }
  // The same ingest, uninterrupted, then publishes the 2025 accidents.
  assert.equal((await ingest(['ptp', second, '--data-dir', dataDir])).code, 0);
  assert.notEqual(readCurrentId(dataDir), served);
  assert.notDeepEqual(await answers(dataDir), before);
});

test('a crash after the pointer switch: the new generation is served whole, and marked published at the next start', async () => {
  const { first, second } = await ptpBatches();
  const clean = join(await tempDir('snapshot-crash-'), 'parquet');
  assert.equal((await ingest(['ptp', first, '--data-dir', clean])).code, 0);
  assert.equal((await ingest(['ptp', second, '--data-dir', clean])).code, 0);
  const expected = await answers(clean);
  for (const step of AFTER_SWITCH) {
    const dataDir = join(await tempDir('snapshot-crash-'), 'parquet');
    assert.equal((await ingest(['ptp', first, '--data-dir', dataDir])).code, 0);
    const previous = readCurrentId(dataDir);
    const killed = await ingestWithFault('crash', step, ['ptp', second, '--data-dir', dataDir]);
    assert.equal(killed.signal, 'SIGKILL', `${step}: ${killed.stderr}`);
    assert.equal(await recoverAtStart(dataDir, () => {}), true);
    const now = readCurrentId(dataDir);
    assert.notEqual(now, previous, step);
    assert.ok(existsSync(join(dataDir, GENERATIONS_DIR, now!, 'PUBLISHED')), step);
    assert.deepEqual(await generationIds(dataDir), [previous, now], step);
    assert.deepEqual(await answers(dataDir), expected, step);
  }
});

test('a flat DATA_DIR (the legacy layout) is served as is, then migrated into a first generation at the next start without losing a file', async () => {
  const { first, second } = await ptpBatches();
  const dataDir = join(await tempDir('snapshot-flat-'), 'parquet');
  await ingestPtpFiles([first], { dataDir }); // the writer alone: the flat layout of before
  const flat = await entries(dataDir);
  assert.deepEqual(flat, ['imports.parquet', 'ptp_crashes.parquet', 'ptp_locations.parquet']);
  const bytes = new Map(await Promise.all(flat.map(async (name) => [name, await readFile(join(dataDir, name))] as const)));
  const before = await answers(dataDir);
  assert.equal(readCurrentId(dataDir), null);

  const lines: string[] = [];
  await recoverAtStart(dataDir, (line) => lines.push(line));
  assert.match(lines.join('\n'), /migrated the flat snapshot \(3 Parquet files\) into generation 000001-/);
  const id = readCurrentId(dataDir)!;
  assert.deepEqual(await entries(dataDir), ['CURRENT', GENERATIONS_DIR]);
  for (const [name, content] of bytes) assert.deepEqual(await readFile(join(dataDir, GENERATIONS_DIR, id, name)), content, name);
  assert.deepEqual(await answers(dataDir), before);
  // An ingest builds on it.
  assert.equal((await ingest(['ptp', second, '--data-dir', dataDir])).code, 0);
  assert.equal((await generationIds(dataDir)).length, 2);

  // A migration interrupted after its publication (flat files still there, same inodes) is finished at the next start.
  const other = join(await tempDir('snapshot-flat-'), 'parquet');
  await ingestPtpFiles([first], { dataDir: other });
  await recoverAtStart(other, () => {});
  const gen = readCurrentId(other)!;
  for (const name of flat) await link(join(other, GENERATIONS_DIR, gen, name), join(other, name));
  await writeFile(join(other, 'notes.txt'), 'kept');
  await recoverAtStart(other, () => {});
  assert.deepEqual(await entries(other), ['CURRENT', GENERATIONS_DIR, 'notes.txt']);
});
