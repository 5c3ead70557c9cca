// Item 7 of issue 17: operator errors are not input errors. Disk full and read-only folders end with
// one clear line and exit code 4 (not 1, malformed input; not 2, usage), the previous generation
// still served. This suite may run as root, where chmod does not stop writes, so the failures are
// injected at a commit step as the errno the system would raise: the first as the child process
// (driver.ts), whose exit code is the process's, the others in this process; a real read-only folder
// is tried too when the process is not root.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chmod, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { GENERATIONS_DIR, readCurrentId } from '../../engine/generation.ts';
import { EXIT, storageErrorLine } from '../../ingest/exitCodes.ts';
import { runCli } from '../helpers/cli.ts';
import { DOMAINS } from '../../domains/index.ts';
import { ingestCommandsOf } from '../../domains/registry.ts';
import { runIngestCli } from '../../ingest/cli.ts';
import { answers, ingest, ingestWithFault, ingestWithFaultInProcess, ptpBatches, tempDir } from './helpers.ts';

test('disk full and a read-only or forbidden folder: one line, exit code 4, the previous generation served, no scratch left', async () => {
  const { first, second } = await ptpBatches();
  const dataDir = join(await tempDir('snapshot-operator-'), 'parquet');
  assert.equal((await ingest(['ptp', first, '--data-dir', dataDir])).code, 0);
  const served = readCurrentId(dataDir);
  const before = await answers(dataDir);
  for (const [errno, step, text] of [
    ['ENOSPC', 'tables-copied', 'disk full'],
    ['EROFS', 'scratch-created', 'read-only file system'],
    ['EACCES', 'pointer-written', 'permission denied'],
  ] as const) {
    const args = ['ptp', second, '--data-dir', dataDir];
    const run = errno === 'ENOSPC' ? await ingestWithFault(errno, step, args) : await ingestWithFaultInProcess(errno, step, args);
    assert.equal(run.code, EXIT.storage, `${errno}: ${run.stderr}`);
    const last = run.stderr.trim().split('\n').at(-1)!;
    assert.match(last, new RegExp(`^ingest: stopped: ${text}: ${errno} .*; the snapshot in ${dataDir} is unchanged`), errno);
    assert.doesNotMatch(run.stderr, /\n[^\S\n]+at /, `${errno}: no stack trace`);
    assert.equal(readCurrentId(dataDir), served, errno);
    assert.deepEqual((await readdir(join(dataDir, GENERATIONS_DIR))).filter((n) => n !== served), [], `${errno}: scratch removed`);
    assert.ok(!existsSync(join(dataDir, 'ingest.lock')), errno);
    assert.deepEqual(await answers(dataDir), before, errno);
  }
});

test('DuckDB reports a failed write as text: it is recognised as an operator error too', () => {
  assert.match(storageErrorLine(new Error('IO Error: Could not write file "/x/y.parquet": No space left on device'))!, /^disk full: IO Error/);
  assert.match(storageErrorLine(Object.assign(new Error('x'), { code: 'EROFS', syscall: 'open', path: '/data' }))!, /^read-only file system: EROFS \(open \/data\)/);
  assert.equal(storageErrorLine(new Error('a bug')), null);
});

test('a read-only DATA_DIR (chmod; skipped as root, where it does not stop writes)', { skip: process.getuid?.() === 0 ? 'running as root: chmod 0555 does not stop root (covered by the injected EROFS/EACCES above)' : false }, async () => {
  const { first, second } = await ptpBatches();
  const dataDir = join(await tempDir('snapshot-operator-'), 'parquet');
  assert.equal((await ingest(['ptp', first, '--data-dir', dataDir])).code, 0);
  await chmod(dataDir, 0o555);
  try {
    const run = await runCli('bin/ingest.ts', ['ptp', second, '--data-dir', dataDir]);
    assert.equal(run.code, EXIT.storage, run.stderr);
    assert.match(run.stderr, /ingest: stopped: permission denied: EACCES/);
  } finally {
    await chmod(dataDir, 0o755);
  }
});

test('npm run ingest -- --help lists every source, the options and the exit codes', async () => {
  // In this process: the help goes to the command's output, not its log (test/cli/scripts.test.ts
  // checks every script's help on stdout, as a process).
  const run = { stdout: '', stderr: '', code: -1 };
  run.code = await runIngestCli(['--help'], ingestCommandsOf(DOMAINS), { log: (line) => (run.stderr += `${line}\n`), out: (text) => (run.stdout += `${text}\n`) });
  assert.equal(run.code, 0);
  assert.equal(run.stderr, '');
  for (const source of ['sebra', 'ptp', 'cardgame', 'agrifood', 'trade', 'eurostat', 'worldbank', 'ets', 'oecd']) assert.match(run.stdout, new RegExp(`^  ${source} +<file-or-folder>`, 'm'), source);
  assert.match(run.stdout, /--allow-shrink/);
  assert.match(run.stdout, /--data-dir DIR/);
  for (const code of [0, 1, 2, 3, 4, 5]) assert.match(run.stdout, new RegExp(`^  ${code}  `, 'm'), String(code));
});
