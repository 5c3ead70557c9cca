// The PTP snapshot writer and its command: import records, re-ingest as a no-op, all-or-nothing
// rejection, a newer file replacing the days it covers, and `npm run ingest -- ptp`.
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { Database } from '../../engine/database.ts';
import { sqlStringLiteral } from '../../engine/parquet.ts';
import { ingestPtpFiles, PTP_DATASET_URL } from '../../domains/ptp/ingest/snapshot.ts';
import { IngestRejectedError, readImportRecords } from '../../domains/sebra/ingest/snapshot.ts';
import { tempDir } from '../ingest/fixtures.ts';
import { FIXTURE_ROWS, HEADERS, portalJson } from './fixture.ts';
import { runCli } from '../helpers/cli.ts';
import { ingestInProcess } from '../helpers/ingestCli.ts';

const NOW = () => new Date('2026-11-01T10:00:00Z');

async function query(dataDir: string, sql: (file: (table: string) => string) => string) {
  const db = await Database.open({ connections: 1 });
  try {
    return await db.all(sql((table) => `read_parquet(${sqlStringLiteral(join(dataDir, `${table}.parquet`))})`));
  } finally {
    await db.close();
  }
}

async function snapshotBytes(dataDir: string): Promise<Map<string, Buffer>> {
  const files = (await readdir(dataDir)).sort();
  return new Map(await Promise.all(files.map(async (name) => [name, await readFile(join(dataDir, name))] as const)));
}

/** A snapshot holding the fixture's accidents (from `<dir>/<name>`), and its bytes. */
async function fixtureImported(name: string) {
  const dir = await tempDir('ptp-ingest-');
  const dataDir = join(dir, 'parquet');
  const file = join(dir, name);
  await writeFile(file, portalJson());
  await ingestPtpFiles([file], { dataDir, now: NOW });
  return { dir, dataDir, file, before: await snapshotBytes(dataDir) };
}

test('a file is imported with its record, then skipped; clusters and crashes are written', async () => {
  const dir = await tempDir('ptp-ingest-');
  const file = join(dir, 'ptp-fixture.json');
  await writeFile(file, portalJson());
  const dataDir = join(dir, 'parquet');
  const first = await ingestPtpFiles([file], { dataDir, now: NOW });
  assert.deepEqual(first.imported.map((r) => [r.dataset, r.source, r.sourceFile, r.sourceUrl, r.rowCount, r.importDate]), [
    ['ptp_crashes', 'mvr-json', 'ptp-fixture.json', PTP_DATASET_URL, 11, '2026-11-01T10:00:00.000Z'],
  ]);
  assert.match(first.imported[0].fileHash, /^[0-9a-f]{64}$/);
  // 11 rows: d1 swapped; c1, b4, e1 without coordinates; clusters A, B, C (fixture.ts).
  assert.deepEqual(first.coordinates, { as_given: 7, swapped: 1, missing: 3, out_of_area: 0 });
  assert.deepEqual([first.crashes, first.clusters], [11, 3]);
  assert.deepEqual((await readdir(dataDir)).sort(), ['imports.parquet', 'ptp_crashes.parquet', 'ptp_locations.parquet']);
  const records = await readImportRecords(dataDir);
  assert.equal(records.length, 1);

  const before = await snapshotBytes(dataDir);
  const again = await ingestPtpFiles([file], { dataDir, now: NOW });
  assert.deepEqual(again.imported, []);
  assert.deepEqual(again.skipped, [file]);
  assert.deepEqual(await snapshotBytes(dataDir), before);

  const unclustered = await query(dataDir, (f) => `SELECT count(*)::INTEGER AS n FROM ${f('ptp_crashes')} WHERE location_id IS NULL`);
  assert.equal(unclustered[0].n, 3);
});

test('one malformed file rejects the batch, names every bad file and row, and leaves the snapshot as it was', async () => {
  const { dir, dataDir, before } = await fixtureImported('a-good.json');

  const newer = join(dir, 'b-newer.json');
  await writeFile(newer, JSON.stringify([HEADERS, ['01.01.2026 10:00', 'ВАРНА', 'Варна', 'гр. Варна', 'Самокатастрофа', 'В населено място', '0', '1', '1', '1', '43,2', '27,9']]));
  const bad = join(dir, 'c-bad.json');
  await writeFile(bad, JSON.stringify([HEADERS, ['01.02.2026 10:00', 'МОРДОР', 'Варна', 'гр. Варна', 'x', 'y', '0', '1', '1', '1', '', '']]));
  const badCsv = join(dir, 'd-bad.csv');
  await writeFile(badCsv, `${HEADERS.join(';')}\n01.03.2026 10:00;ВАРНА;Варна;гр. Варна;x;y;0;1;1;1;north;27\n`);
  await assert.rejects(ingestPtpFiles([newer, bad, badCsv], { dataDir, now: NOW }), (error: unknown) => {
    assert.ok(error instanceof IngestRejectedError);
    assert.deepEqual(error.problems.map((p) => [p.file, p.row]), [[bad, 2], [badCsv, 2]]);
    assert.match(error.message, /2 file\(s\) rejected, snapshot unchanged/);
    assert.match(error.message, /c-bad\.json, row 2: region "МОРДОР" is not a Bulgarian oblast/);
    assert.match(error.message, /d-bad\.csv, row 2: latitude "north" is not a decimal number/);
    return true;
  });
  assert.deepEqual(await snapshotBytes(dataDir), before);
});

test('JSON files parsed while DuckDB reads a CSV file: every problem named in file order, each file counted once in the progress', async () => {
  const { dir, dataDir, file: known, before } = await fixtureImported('a-known.json');

  const row = (day: string, region = 'ВАРНА', latitude = '43,2') => [`${day} 10:00`, region, 'Варна', 'гр. Варна', 'Самокатастрофа', 'В населено място', '0', '1', '1', '1', latitude, '27,9'];
  const csv = (rows: string[][]) => `${[HEADERS, ...rows].map((r) => r.join(';')).join('\n')}\n`;
  const march = join(dir, 'b-march.csv');
  await writeFile(march, csv([row('01.03.2026'), row('02.03.2026')]));
  const bad = join(dir, 'c-bad.json');
  await writeFile(bad, JSON.stringify([HEADERS, row('01.02.2026', 'МОРДОР')]));
  const overlapping = join(dir, 'd-overlapping.json');
  await writeFile(overlapping, JSON.stringify([HEADERS, row('02.03.2026')]));
  const badCsv = join(dir, 'e-bad.csv');
  await writeFile(badCsv, csv([row('01.05.2026'), row('02.05.2026', 'ВАРНА', 'north')]));
  const april = join(dir, 'f-april.json');
  await writeFile(april, JSON.stringify([HEADERS, row('01.04.2026')]));
  const progress: string[] = [];
  await assert.rejects(
    ingestPtpFiles([known, march, bad, overlapping, badCsv, april], { dataDir, now: NOW, onProgress: (done, total) => progress.push(`${done}/${total}`) }),
    (error: unknown) => {
      assert.ok(error instanceof IngestRejectedError);
      assert.deepEqual(error.problems.map((p) => [p.file, p.row]), [[bad, 2], [overlapping, null], [badCsv, 3]]);
      assert.match(error.message, /c-bad\.json, row 2: region "МОРДОР" is not a Bulgarian oblast/);
      assert.match(error.message, /d-overlapping\.json: covers 2026-03-02\.\.2026-03-02, overlapping b-march\.csv \(2026-03-01\.\.2026-03-02\) in the same batch/);
      assert.match(error.message, /e-bad\.csv, row 3: latitude "north" is not a decimal number/);
      return true;
    },
  );
  assert.deepEqual(await snapshotBytes(dataDir), before);
  // Every file counted once, in increasing order, up to all of them.
  assert.equal(progress.length, 6);
  assert.deepEqual(progress.map((p) => Number(p.split('/')[0])), [...progress.map((p) => Number(p.split('/')[0]))].sort((a, b) => a - b));
  assert.equal(progress.at(-1), '6/6');

  // Without the bad files the batch imports, the JSON file (before the CSV file) parsed while DuckDB reads the CSV file.
  const result = await ingestPtpFiles([known, april, march], { dataDir, now: NOW });
  assert.deepEqual(result.skipped, [known]);
  assert.deepEqual(result.imported.map((r) => [r.sourceFile, r.rowCount]), [['f-april.json', 1], ['b-march.csv', 2]]);
  const days = await query(dataDir, (file) => `SELECT strftime(crash_datetime, '%Y-%m-%d') AS day, source_file FROM ${file('ptp_crashes')}
    WHERE crash_datetime >= TIMESTAMP '2026-01-01' ORDER BY day`);
  assert.deepEqual(days.map((r) => [r.day, r.source_file]), [['2026-03-01', 'b-march.csv'], ['2026-03-02', 'b-march.csv'], ['2026-04-01', 'f-april.json']]);
  assert.equal(result.crashes, FIXTURE_ROWS.length + 3);
});

test('a file without any coordinates: its accidents kept, no cluster and no location', async () => {
  const dir = await tempDir('ptp-ingest-');
  const dataDir = join(dir, 'parquet');
  const file = join(dir, 'no-coordinates.json');
  await writeFile(file, JSON.stringify([HEADERS, ...['01.02.2026', '02.02.2026'].map((day) => [`${day} 10:00`, 'ВАРНА', 'Варна', 'гр. Варна', 'Самокатастрофа', 'В населено място', '0', '1', '1', '1', '', ''])]));
  const result = await ingestPtpFiles([file], { dataDir, now: NOW });
  assert.deepEqual([result.crashes, result.clusters, result.coordinates.missing], [2, 0, 2]);
  const [counts] = await query(dataDir, (table) => `SELECT (SELECT count(*) FROM ${table('ptp_crashes')} WHERE location_id IS NULL)::INTEGER AS unplaced,
    (SELECT count(*) FROM ${table('ptp_locations')})::INTEGER AS locations`);
  assert.deepEqual(counts, { unplaced: 2, locations: 0 });
});

test('a newer file replaces the accidents of the days it covers and keeps the others; clusters are redone', async () => {
  const dir = await tempDir('ptp-ingest-');
  const dataDir = join(dir, 'parquet');
  const old = join(dir, 'old.json');
  await writeFile(old, portalJson());
  await ingestPtpFiles([old], { dataDir, now: NOW });
  // The republished resource covers 01.01.2025..10.10.2025: a3, a4, b3, c1, d1, e1 are replaced by
  // its two rows; a1, a2, b1, b4, b2 (2024) stay. a4 moves 2 km east and a3 is gone.
  const republished = [
    ['01.01.2025 00:30', 'ВАРНА', 'Варна', 'гр. Варна', 'Блъскане в неподвижно МПС', 'В населено място', '0', '0', '2', '0', '43,20000', '27,90000'],
    ['10.10.2025 06:10', 'ПЛОВДИВ', 'Пловдив', 'гр. Пловдив', 'Челен удар', 'Извън населено място', '2', '1', '3', '1', '42,12500', '24,80000'],
  ];
  const file = join(dir, 'new.json');
  await writeFile(file, JSON.stringify({ success: true, data: [HEADERS, ...republished] }));
  const result = await ingestPtpFiles([file], { dataDir, now: NOW });
  assert.equal(result.crashes, 5 + 2);
  const days = await query(dataDir, (f) => `SELECT strftime(crash_datetime, '%Y-%m-%d %H:%M') AS t FROM ${f('ptp_crashes')} ORDER BY ALL`);
  assert.deepEqual(days.map((r) => r.t), ['2024-03-15 08:00', '2024-05-05 12:00', '2024-05-05 12:00', '2024-05-06 12:00', '2024-06-20 17:30', '2025-01-01 00:30', '2025-10-10 06:10']);
  // Sites now: S1 (a1, a2), S4 (b1, b2, b3), and the moved a4 at 42.125, 24.80 (about 4975 m from S1): three single-seed clusters.
  const locations = await query(dataDir, (f) => `SELECT location_id, crash_count FROM ${f('ptp_locations')} ORDER BY location_id`);
  assert.deepEqual(locations.map((r) => [r.location_id, r.crash_count]), [[421000247500, 2], [421250248000, 1], [432000279000, 3]]);
  assert.equal((await readImportRecords(dataDir)).length, 2);
});

test('two new files covering overlapping days in one batch are rejected', async () => {
  const dir = await tempDir('ptp-ingest-');
  const one = join(dir, 'one.json');
  const two = join(dir, 'two.json');
  await writeFile(one, portalJson(FIXTURE_ROWS.slice(0, 3)));
  await writeFile(two, portalJson(FIXTURE_ROWS.slice(4, 6)));
  await assert.rejects(ingestPtpFiles([one, two], { dataDir: join(dir, 'parquet') }), (error: unknown) => {
    assert.ok(error instanceof IngestRejectedError);
    assert.match(error.message, /two\.json: covers 2024-05-05\.\.2024-05-05, overlapping one\.json \(2024-03-15\.\.2025-02-01\) in the same batch/);
    return true;
  });
});

// The first run as the child process npm starts; the others in this process (test/helpers/ingestCli.ts).
const ingestCli = (args: string[]) => runCli('bin/ingest.ts', args);

test('npm run ingest -- ptp <folder>: imports, reports coordinates, skips on a re-run; exit 1 on a bad file, 2 on an empty folder', async () => {
  const sources = await tempDir('ptp-cli-');
  const dataDir = join(await tempDir('ptp-cli-'), 'parquet');
  await writeFile(join(sources, 'ptp.json'), portalJson());
  await writeFile(join(sources, 'notes.txt'), 'not a source');
  const first = await ingestCli(['ptp', sources, '--data-dir', dataDir]);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stderr, /coordinates: 7 as given, 1 swapped, 3 missing, 0 outside Bulgaria/);
  assert.match(first.stderr, /snapshot holds 11 accident\(s\) in 3 location cluster\(s\)/);
  assert.match(first.stderr, /imported 1 file\(s\), 11 row\(s\); skipped 0 already imported/);
  const second = await ingestInProcess(['ptp', sources, '--data-dir', dataDir]);
  assert.match(second.stderr, /imported 0 file\(s\), 0 row\(s\); skipped 1 already imported/);

  const bad = join(await tempDir('ptp-cli-'), 'bad.csv');
  await writeFile(bad, `${HEADERS.join(',')}\n31.02.2025 10:00,ВАРНА,Варна,гр. Варна,x,y,0,1,1,1,,\n`);
  const rejected = await ingestInProcess(['ptp', bad, '--data-dir', dataDir]);
  assert.equal(rejected.code, 1);
  assert.ok(rejected.stderr.includes(`${bad}, row 2: not a valid date and time`), rejected.stderr);

  const empty = await tempDir('ptp-cli-');
  const usage = await ingestInProcess(['ptp', empty, '--data-dir', dataDir]);
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /no \.json or \.csv files/);
});
