// Item 6 of issue 17: a republished day, series or period that shrinks is reported per key (rows
// before and after) and refused (exit code 5, nothing written) unless --allow-shrink is given; the
// import record keeps the counts. PTP days, SEBRA days, agri-food weeks and card sets, through the CLI.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { Database } from '../../engine/database.ts';
import { loadDataset } from '../../engine/dataset.ts';
import { readCurrentId } from '../../engine/generation.ts';
import { IMPORTS_DATASET } from '../../engine/importLedger.ts';
import { readImportRecords } from '../../ingest/commit.ts';
import { EXIT } from '../../ingest/exitCodes.ts';
import { currentLayoutExpected, currentLayoutRows, noPaymentsRows, writeXlsx } from '../ingest/fixtures.ts';
import { pigmeatFixture, writeAgrifoodFixtureSnapshot, writeJson } from '../agrifood/fixtures.ts';
import { FIXTURE_ROWS, portalJson } from '../ptp/fixture.ts';
import { EN_CARDS, writeCards } from '../cardgame/fixture.ts';
import { answers, ingest, tempDir } from './helpers.ts';

test('PTP: a republished day cut short (2 accidents -> 1) is refused with exit 5 and the counts; --allow-shrink takes it and records them', async () => {
  const dir = await tempDir('snapshot-shrink-');
  const dataDir = join(dir, 'parquet');
  await writeFile(join(dir, 'all.json'), portalJson());
  assert.equal((await ingest(['ptp', join(dir, 'all.json'), '--data-dir', dataDir])).code, 0);
  const served = readCurrentId(dataDir);
  const before = await answers(dataDir);
  // The fixture holds b1 and b4 on 2024-05-05 and b2 on 2024-05-06; the cut file keeps b1 and b2 (b4 lost at a line boundary).
  const cut = FIXTURE_ROWS.filter((row) => ['b1', 'b2'].includes(row[0]!));
  await writeFile(join(dir, 'cut.json'), portalJson(cut));
  const refused = await ingest(['ptp', join(dir, 'cut.json'), '--data-dir', dataDir]);
  assert.equal(refused.code, EXIT.shrink, refused.log);
  assert.match(refused.log, /1 republished key\(s\) would lose rows, snapshot unchanged \(rerun with --allow-shrink to accept\):\n {2}ptp_crashes 2024-05-05 \(cut\.json\): 2 row\(s\) held, 1 in the new file/);
  assert.equal(readCurrentId(dataDir), served);
  assert.deepEqual(await answers(dataDir), before);

  const allowed = await ingest(['ptp', join(dir, 'cut.json'), '--data-dir', dataDir, '--allow-shrink']);
  assert.equal(allowed.code, EXIT.ok, allowed.log);
  assert.match(allowed.log, /--allow-shrink: ptp_crashes 2024-05-05 \(cut\.json\) shrinks from 2 to 1 row\(s\)/);
  const records = await readImportRecords(dataDir);
  assert.equal(records.length, 2);
  assert.equal(records[0]!.replacedRows, undefined); // the first import replaced nothing
  assert.equal(records[1]!.replacedRows, 3); // 2024-05-05 held 2, 2024-05-06 held 1
  assert.deepEqual(records[1]!.shrunkKeys, [{ key: '2024-05-05', before: 2, after: 1 }]);
});

test('SEBRA: a day republished as "no payments" (5 rows -> 0) is refused; the same day republished whole is not', async () => {
  const dir = await tempDir('snapshot-shrink-');
  const dataDir = join(dir, 'parquet');
  const march = await writeXlsx(join(dir, 'SEBRA-15032024.xlsx'), currentLayoutRows());
  assert.equal((await ingest(['sebra', march, '--data-dir', dataDir])).code, 0);
  const held = currentLayoutExpected().length;
  const empty = await writeXlsx(join(dir, 'SEBRA-15032024-empty.xlsx'), noPaymentsRows('15.03.2024'));
  const refused = await ingest(['sebra', empty, '--data-dir', dataDir]);
  assert.equal(refused.code, EXIT.shrink, refused.log);
  assert.ok(refused.log.includes(`sebra_payments 2024-03-15 (SEBRA-15032024-empty.xlsx): ${held} row(s) held, 0 in the new file`), refused.log);
  const corrected = await writeXlsx(join(dir, 'SEBRA-15032024-corrected.xlsx'), currentLayoutRows({ delegated: 250000 }));
  const fine = await ingest(['sebra', corrected, '--data-dir', dataDir]);
  assert.equal(fine.code, EXIT.ok, fine.log);
  const records = await readImportRecords(dataDir);
  assert.deepEqual(records.map((r) => [r.sourceFile, r.replacedRows, r.shrunkKeys]), [
    ['SEBRA-15032024.xlsx', undefined, undefined],
    ['SEBRA-15032024-corrected.xlsx', held, undefined],
  ]);
});

test('agri-food: a new pigmeat file missing two weeks is refused per week; old import ledgers without the new columns still load', async () => {
  const { dataDir, sourceDir } = await writeAgrifoodFixtureSnapshot(); // written by the writers alone: a flat folder
  const file = await writeJson(sourceDir, 'pigmeat-new.json', pigmeatFixture().slice(2)); // only Portugal's week
  const refused = await ingest(['agrifood', file, '--dataset', 'pigmeat_prices', '--data-dir', dataDir]);
  assert.equal(refused.code, EXIT.shrink, refused.log);
  // The two German weeks (Mondays 2026-01-05 and 2026-01-12) go from 1 row to 0; Portugal's stays at 1.
  assert.match(refused.log, /2 republished key\(s\) would lose rows/);
  assert.match(refused.log, /pigmeat_prices 2026-01-05 \(pigmeat-new\.json\): 1 row\(s\) held, 0 in the new file/);
  assert.match(refused.log, /pigmeat_prices 2026-01-12 \(pigmeat-new\.json\): 1 row\(s\) held, 0 in the new file/);
  // The refused run still migrated the flat folder into a first generation (nothing lost).
  const first = readCurrentId(dataDir);
  assert.ok(first);
  const allowed = await ingest(['agrifood', file, '--dataset', 'pigmeat_prices', '--data-dir', dataDir, '--allow-shrink']);
  assert.equal(allowed.code, EXIT.ok, allowed.log);
  const last = (await readImportRecords(dataDir)).at(-1)!;
  assert.deepEqual([last.sourceFile, last.replacedRows, last.shrunkKeys?.length], ['pigmeat-new.json', 3, 2]);

  // An imports.parquet written before replaced_rows / shrunk_keys existed loads with them null.
  const db = await Database.open({ connections: 1 });
  try {
    const legacy = join(await tempDir('snapshot-legacy-'), 'legacy');
    await db.run(`CREATE TABLE i AS SELECT 'x' AS dataset, 'src' AS source, 'f.csv' AS source_file, NULL::VARCHAR AS source_url, 'h' AS file_hash,
      TIMESTAMP '2026-01-01 00:00:00' AS import_date, 1::INTEGER AS row_count`);
    await mkdir(legacy, { recursive: true });
    await db.run(`COPY i TO '${join(legacy, 'imports.parquet')}' (FORMAT PARQUET)`);
    assert.equal(await loadDataset(db, IMPORTS_DATASET, legacy), true);
    assert.deepEqual(await db.all('SELECT source_file, row_count, replaced_rows, shrunk_keys FROM imports'), [
      { source_file: 'f.csv', row_count: 1, replaced_rows: null, shrunk_keys: null },
    ]);
    assert.deepEqual((await readImportRecords(legacy)).map((r) => Object.keys(r).sort()), [
      ['dataset', 'fileHash', 'importDate', 'rowCount', 'source', 'sourceFile', 'sourceUrl'],
    ]);
  } finally {
    await db.close();
  }
});

test('cardgame: a new English set with fewer cards than held is refused for that language only', async () => {
  const dir = await tempDir('snapshot-shrink-');
  const dataDir = join(dir, 'parquet');
  const en = await writeCards(dir, 'cards.enUS.json', EN_CARDS.slice(0, 9));
  assert.equal((await ingest(['cardgame', en, '--data-dir', dataDir])).code, 0);
  const smaller = await writeCards(dir, 'cards-newer.enUS.json', EN_CARDS.slice(0, 4));
  const refused = await ingest(['cardgame', smaller, '--lang', 'en', '--data-dir', dataDir]);
  assert.equal(refused.code, EXIT.shrink, refused.log);
  assert.match(refused.log, /cardgame_cards en \(cards-newer\.enUS\.json\): 9 row\(s\) held, 4 in the new file/);
  const larger = await writeCards(dir, 'cards-larger.enUS.json', EN_CARDS.slice(0, 10));
  assert.equal((await ingest(['cardgame', larger, '--lang', 'en', '--data-dir', dataDir])).code, EXIT.ok);
  assert.deepEqual((await readImportRecords(dataDir)).map((r) => r.replacedRows), [undefined, 9]);
});
