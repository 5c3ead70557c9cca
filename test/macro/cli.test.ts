// The ingest commands of the macro sources through the project's ingest CLI (bin/ingest.ts).
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { readMacroData } from '../../domains/macro/queries/tables.ts';
import { ingestInProcess } from '../helpers/ingestCli.ts';
import { writeFixtureFiles } from './fixture.ts';
import { openMacroDb, tempRoot } from './helpers.ts';

let root: string;
let cleanup: () => Promise<void>;
before(async () => {
  ({ root, cleanup } = await tempRoot('macro-cli-'));
});
after(() => cleanup?.());

test('npm run ingest -- ecb / eurofxref / fred --license, and a bad --license is a usage error', async () => {
  const files = await writeFixtureFiles(path.join(root, 'files'));
  const dataDir = path.join(root, 'parquet');
  // In this process (test/helpers/ingestCli.ts); the exit code as a process is test/ingest/cli.test.ts's.
  const bad = await ingestInProcess(['fred', files.fred, '--license', 'MAYBE', '--data-dir', dataDir]);
  assert.equal(bad.code, 2, bad.stderr);
  assert.match(bad.stderr, /--license must be one of APPROVED, PENDING, DENIED/);
  for (const args of [['ecb', files.ecb], ['eurofxref', files.fx], ['fred', files.fred, '--license', 'denied']]) {
    const run = await ingestInProcess([...args, '--data-dir', dataDir]);
    assert.equal(run.code, 0, run.stderr);
  }
  const db = await openMacroDb(dataDir);
  try {
    const data = (await readMacroData(db));
    assert.deepEqual([...data.licenses.values()].map((l) => l.status), Array(6).fill('DENIED'));
    assert.equal(data.keyRates.DFR.length, 2);
    assert.equal(data.eurusd.length, 7);
  } finally {
    await db.close();
  }
});
