// Item 5 of issue 17: one ingest at a time per data folder. A second ingest is refused with exit
// code 3 and the holder named; a stale lock (its pid dead) is taken over with a message.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readCurrentId } from '../../engine/generation.ts';
import { EXIT } from '../../ingest/exitCodes.ts';
import { acquireLock, LOCK_FILE, LockedError } from '../../ingest/lock.ts';
import { readImportRecords } from '../../ingest/commit.ts';
import { ingest, ptpBatches, tempDir } from './helpers.ts';

/** A pid that is certainly not running: a child that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

test('a second ingest while one holds the lock is refused with exit code 3, names the holder and writes nothing', async () => {
  const { first } = await ptpBatches();
  const dataDir = join(await tempDir('snapshot-lock-'), 'parquet');
  const held = await acquireLock(dataDir, 'ingest sebra (test holder)');
  try {
    const refused = await ingest(['ptp', first, '--data-dir', dataDir]);
    assert.equal(refused.code, EXIT.locked);
    assert.match(refused.log, new RegExp(`refused: another ingest holds .*ingest\\.lock: pid ${process.pid} on .*ingest sebra \\(test holder\\)`));
    assert.equal(readCurrentId(dataDir), null);
    await assert.rejects(acquireLock(dataDir, 'a third one'), LockedError);
  } finally {
    await held.release();
  }
  assert.ok(!existsSync(join(dataDir, LOCK_FILE)));
  const after = await ingest(['ptp', first, '--data-dir', dataDir]);
  assert.equal(after.code, EXIT.ok, after.log);
  assert.equal((await readImportRecords(dataDir)).length, 1);
  assert.ok(!existsSync(join(dataDir, LOCK_FILE)), 'released after the ingest');
});

test('a stale lock (its pid is not running) is taken over with a message; an unreadable fresh one is respected', async () => {
  const { first } = await ptpBatches();
  const dataDir = join(await tempDir('snapshot-lock-'), 'parquet');
  const pid = deadPid();
  await ingest(['ptp', first, '--data-dir', dataDir]); // creates the folder
  await writeFile(join(dataDir, LOCK_FILE), JSON.stringify({ pid, started: '2026-11-01T00:00:00.000Z', host: hostname(), command: 'ingest ptp' }));
  const lines: string[] = [];
  const lock = await acquireLock(dataDir, 'test', (line) => lines.push(line));
  assert.match(lines.join('\n'), new RegExp(`took over a stale lock .*: pid ${pid} \\(since 2026-11-01T00:00:00.000Z, ingest ptp\\) is not running`));
  await lock.release();

  // Through the CLI: the second batch goes in despite the stale lock.
  await writeFile(join(dataDir, LOCK_FILE), JSON.stringify({ pid, started: '2026-11-01T00:00:00.000Z', host: hostname(), command: 'ingest ptp' }));
  const { second } = await ptpBatches();
  const run = await ingest(['ptp', second, '--data-dir', dataDir]);
  assert.equal(run.code, EXIT.ok, run.log);
  assert.match(run.log, /took over a stale lock/);
  assert.equal((await readImportRecords(dataDir)).length, 2);

  // A lock file being written (no holder record yet, fresh) counts as held.
  await writeFile(join(dataDir, LOCK_FILE), '');
  await assert.rejects(acquireLock(dataDir, 'test'), LockedError);
});

test('two ingests started at once into one folder: exactly one runs, the other exits 3, no import record is lost', async () => {
  const { first, second } = await ptpBatches();
  const dataDir = join(await tempDir('snapshot-lock-'), 'parquet');
  const results = await Promise.all([ingest(['ptp', first, '--data-dir', dataDir]), ingest(['ptp', second, '--data-dir', dataDir])]);
  const codes = results.map((r) => r.code).sort();
  assert.deepEqual(codes, [EXIT.ok, EXIT.locked], results.map((r) => r.log).join('\n'));
  const loser = results.find((r) => r.code === EXIT.locked)!;
  const retry = await ingest(['ptp', loser === results[0] ? first : second, '--data-dir', dataDir]);
  assert.equal(retry.code, EXIT.ok);
  assert.equal((await readImportRecords(dataDir)).length, 2);
});
