// The macro snapshot writers: a re-ingest of the same bytes is a no-op, a malformed file leaves the
// snapshot as it was (naming file and row), and a newer file replaces the keys it carries.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { IngestRejectedError } from '../../ingest/errors.ts';
import { ingestEcbFiles, ingestEurofxrefFiles, ingestFredFiles } from '../../domains/macro/ingest/snapshot.ts';
import { readMacroData } from '../../domains/macro/queries/tables.ts';
import { openMacroDb, tempRoot } from './db.ts';

let root: string;
let cleanup: () => Promise<void>;
before(async () => {
  ({ root, cleanup } = await tempRoot('macro-ingest-'));
});
after(() => cleanup?.());

async function file(name: string, text: string): Promise<string> {
  const p = path.join(root, name);
  await writeFile(p, text);
  return p;
}

describe('macro ingest', () => {
  it('same bytes: no-op; a newer file replaces the (series, date) it carries and keeps the rest', async () => {
    const dataDir = path.join(root, 'fred');
    const first = await file('DGS2.csv', 'DATE,DGS2\n2025-01-02,4.25\n2025-01-03,4.30\n');
    assert.equal((await ingestFredFiles([first], { dataDir })).imported.length, 1);
    const again = await ingestFredFiles([first], { dataDir });
    assert.deepEqual([again.imported.length, again.skipped.length], [0, 1]);
    const revised = await file('DGS2-rev.csv', 'observation_date,DGS2\n2025-01-03,4.31\n2025-01-06,\n2025-01-07,4.2\n');
    await ingestFredFiles([revised], { dataDir });
    const db = await openMacroDb(dataDir);
    try {
      assert.deepEqual((await readMacroData(db)).fred.get('DGS2'), [
        { date: '2025-01-02', value: 4.25 }, { date: '2025-01-03', value: 4.31 }, { date: '2025-01-07', value: 4.2 },
      ]);
      const [{ n }] = await db.all(`SELECT count(*)::INTEGER AS n FROM macro_fred_observations WHERE value IS NULL`);
      assert.equal(n, 1); // 2025-01-06 is held as missing, never 0
    } finally {
      await db.close();
    }
  });

  it('a malformed file in a batch: nothing written, the error names file and row', async () => {
    const dataDir = path.join(root, 'ecb');
    const good = await file('estr.csv', 'KEY,TIME_PERIOD,OBS_VALUE\nEST.B.EU000A2X2A25.WT,2025-01-02,2.9\n');
    await ingestEcbFiles([good], { dataDir });
    const before = await readFile(path.join(dataDir, 'macro_ecb_observations.parquet'));
    const good2 = await file('estr2.csv', 'KEY,TIME_PERIOD,OBS_VALUE\nEST.B.EU000A2X2A25.WT,2025-01-03,2.91\n');
    const bad = await file('bad.csv', 'KEY,TIME_PERIOD,OBS_VALUE\nEST.B.EU000A2X2A25.WT,2025-01-03,2.91\nEST.B.EU000A2X2A25.WT,03/01/2025,2.9\n');
    await assert.rejects(ingestEcbFiles([good2, bad], { dataDir }), (e: IngestRejectedError) => /bad\.csv, row 3/.test(e.message));
    assert.deepEqual(await readFile(path.join(dataDir, 'macro_ecb_observations.parquet')), before);
  });

  it('the reference-rate file: later file wins on common dates', async () => {
    const dataDir = path.join(root, 'fx');
    await ingestEurofxrefFiles([await file('a.csv', 'Date,USD,\n2025-01-03,1.03,\n2025-01-02,1.02,\n')], { dataDir });
    await ingestEurofxrefFiles([await file('b.csv', 'Date,USD,\n2025-01-06,1.04,\n2025-01-03,1.035,\n')], { dataDir });
    const db = await openMacroDb(dataDir);
    try {
      assert.deepEqual((await readMacroData(db)).eurusd.map((p) => [p.date, p.value]), [['2025-01-02', 1.02], ['2025-01-03', 1.035], ['2025-01-06', 1.04]]);
    } finally {
      await db.close();
    }
  });
});
