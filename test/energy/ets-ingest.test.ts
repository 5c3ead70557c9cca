// The EU ETS reader: the registry workbook's quirks (header not on row 1, wide per-year columns,
// ALLOCATED_ spelling, markers and blanks as null, EL = GR), the relational CSVs, the merge rules of the
// snapshot writer, re-ingest as a no-op, rejections naming file and row, and the command line.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import ExcelJS from 'exceljs';
import { Database } from '../../engine/database.ts';
import { sqlStringLiteral } from '../../engine/parquet.ts';
import { IngestRejectedError } from '../../ingest/errors.ts';
import { parseEtsFile } from '../../domains/energy/ingest/etsParse.ts';
import { ingestEtsFiles } from '../../domains/energy/ingest/etsSnapshot.ts';

const dirs: string[] = [];
after(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'ets-test-'));
  dirs.push(dir);
  return dir;
}

async function writeXlsx(file: string, rows: unknown[][]): Promise<string> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('data');
  for (const row of rows) sheet.addRow(row);
  await workbook.xlsx.writeFile(file);
  return file;
}

async function readParquet(file: string, sql = 'SELECT * FROM t ORDER BY ALL') {
  const db = await Database.open({ connections: 1 });
  try {
    await db.run(`CREATE TABLE t AS SELECT * FROM read_parquet(${sqlStringLiteral(file)})`);
    return await db.all(sql);
  } finally {
    await db.close();
  }
}

const TITLE_ROWS = [['Verified emissions for 2024'], ['Source: Union Registry'], []];
const HEADER = ['REGISTRY_CODE', 'INSTALLATION_NAME', 'INSTALLATION_IDENTIFIER', 'PERMIT_IDENTIFIER', 'MAIN_ACTIVITY_TYPE_CODE',
  'VERIFIED_EMISSIONS_2023', 'VERIFIED_EMISSIONS_2024', 'ALLOCATION_2023', 'ALLOCATION_2024', 'ALLOCATION_RESERVE_2024'];

describe('registry workbook (verified_emissions_<YYYY>_en.xlsx)', () => {
  test('header found below the title rows; markers and blanks are null; EL and GR are one registry; XI kept', async () => {
    const dir = await tempDir();
    const file = await writeXlsx(path.join(dir, 'verified_emissions_2024_en.xlsx'), [
      ...TITLE_ROWS,
      HEADER,
      ['AT', 'Plant A', 201018, 'AT-1', 20, 16656, 15000.4, 7802, 7000, 5],
      ['el', 'Lignite B', '206', 'GR-9', 20, 'Excluded', '', 'Not Reported', 12, null],
      ['XI', 'Belfast C', 3, null, 21, null, '  1234 ', null, null, null],
      [],
    ]);
    const parsed = await parseEtsFile(file);
    assert.equal(parsed.kind, 'registry-xlsx');
    assert.deepEqual(parsed.installations.map(({ sourceRow, ...i }) => [sourceRow, i]), [
      [5, { registry: 'AT', identifier: '201018', name: 'Plant A', permitIdentifier: 'AT-1', activityCode: 20, city: null }],
      [6, { registry: 'GR', identifier: '206', name: 'Lignite B', permitIdentifier: 'GR-9', activityCode: 20, city: null }],
      [7, { registry: 'XI', identifier: '3', name: 'Belfast C', permitIdentifier: null, activityCode: 21, city: null }],
    ]);
    // GR 206: 2023 has neither figure (Excluded, Not Reported): no row; 2024 has only the allocation.
    assert.deepEqual(parsed.years.map(({ sourceRow, ...y }) => y), [
      { registry: 'AT', identifier: '201018', year: 2023, verified: 16656, allocation: 7802 },
      { registry: 'AT', identifier: '201018', year: 2024, verified: 15000, allocation: 7000 },
      { registry: 'GR', identifier: '206', year: 2024, verified: null, allocation: 12 },
      { registry: 'XI', identifier: '3', year: 2024, verified: 1234, allocation: null },
    ]);
  });

  test('files up to 2016 spell the allocation ALLOCATED_<YYYY>', async () => {
    const dir = await tempDir();
    const file = await writeXlsx(path.join(dir, 'verified_emissions_2015_en.xlsx'), [
      ['title'],
      ['REGISTRY_CODE', 'INSTALLATION_NAME', 'INSTALLATION_IDENTIFIER', 'VERIFIED_EMISSIONS_2015', 'ALLOCATED_2015'],
      ['GB', 'Drax', 99, 20000000, 100],
    ]);
    const parsed = await parseEtsFile(file);
    assert.deepEqual(parsed.years.map(({ sourceRow, ...y }) => y), [{ registry: 'GB', identifier: '99', year: 2015, verified: 20000000, allocation: 100 }]);
  });

  test('no REGISTRY_CODE header row, a bad registry code, a duplicate installation: rejected with file and row', async () => {
    const dir = await tempDir();
    const noHeader = await writeXlsx(path.join(dir, 'a.xlsx'), [['title'], ['CODE', 'X']]);
    await assert.rejects(parseEtsFile(noHeader), /a\.xlsx: no header row starting with REGISTRY_CODE/);
    const badCode = await writeXlsx(path.join(dir, 'b.xlsx'), [HEADER, ['Austria', 'x', 1, null, 20, 1, 1, 1, 1, 1]]);
    await assert.rejects(parseEtsFile(badCode), /b\.xlsx, row 2: registry code "Austria"/);
    const twice = await writeXlsx(path.join(dir, 'c.xlsx'), [HEADER, ['AT', 'x', 1, null, 20, 1, 1, 1, 1, 1], ['AT', 'y', 1, null, 20, 1, 1, 1, 1, 1]]);
    await assert.rejects(parseEtsFile(twice), /c\.xlsx, row 3: installation AT 1 appears twice/);
    const notXlsx = path.join(dir, 'd.xlsx');
    await writeFile(notXlsx, 'not a zip');
    await assert.rejects(parseEtsFile(notXlsx), /d\.xlsx: not a readable XLSX workbook/);
  });
});

describe('relational CSVs (installation.csv, compliance.csv)', () => {
  test('CRLF, BOM, ids split at the first underscore, GR kept, EL mapped to GR', async () => {
    const dir = await tempDir();
    const compliance = path.join(dir, 'compliance.csv');
    await writeFile(compliance, '\uFEFFinstallation_id,year,free,emission\r\nAT_214400,2020,0,17731\r\nEL_5,2019,10,\r\nXI_A_1,2020,,0\r\n');
    const parsed = await parseEtsFile(compliance);
    assert.equal(parsed.kind, 'eutl-compliance-csv');
    assert.deepEqual(parsed.years, [
      { registry: 'AT', identifier: '214400', year: 2020, verified: 17731, allocation: 0, sourceRow: 2 },
      { registry: 'GR', identifier: '5', year: 2019, verified: null, allocation: 10, sourceRow: 3 },
      { registry: 'XI', identifier: 'A_1', year: 2020, verified: 0, allocation: null, sourceRow: 4 },
    ]);
    const installation = path.join(dir, 'installation.csv');
    await writeFile(installation, 'id,name,addressmain,postalcode,city,country_id,latitudegoogle,longitudegoogle\nAT_214400,Boehringer Ingelheim Wien,Dr Boehringer-Gasse 5-11,1120,Wien,AT,48.170815,16.318575\nAT_201018,,-,-,-,AT,,\n');
    const inst = await parseEtsFile(installation);
    assert.deepEqual(inst.installations.map(({ sourceRow, ...i }) => i), [
      { registry: 'AT', identifier: '214400', name: 'Boehringer Ingelheim Wien', permitIdentifier: null, activityCode: null, city: 'Wien' },
      { registry: 'AT', identifier: '201018', name: null, permitIdentifier: null, activityCode: null, city: null },
    ]);
  });

  test('an unknown header, a bad id, a bad year, a duplicate year: rejected with the line', async () => {
    const dir = await tempDir();
    const cases: Array<[string, string, RegExp]> = [
      ['x.csv', 'a,b\n1,2\n', /x\.csv, row 1: header is neither/],
      ['compliance.csv', 'installation_id,year,free,emission\nAT214400,2020,0,1\n', /row 2: installation id "AT214400"/],
      ['compliance.csv', 'installation_id,year,free,emission\nAT_1,20,0,1\n', /row 2: year "20"/],
      ['compliance.csv', 'installation_id,year,free,emission\nAT_1,2020,0,1\nAT_1,2020,0,2\n', /row 3: installation AT 1 has year 2020 twice/],
      ['compliance.csv', 'installation_id,year,free,emission\nAT_1,2020,0,-5\n', /row 2: emission: negative amount/],
    ];
    for (const [name, text, message] of cases) {
      const sub = await mkdtemp(path.join(dir, 'c-'));
      const file = path.join(sub, name);
      await writeFile(file, text);
      await assert.rejects(parseEtsFile(file), message);
    }
  });
});

describe('snapshot writer', () => {
  test('workbook + CSVs merge on (registry, identifier[, year]); the later file wins; fields kept; re-ingest is a no-op; malformed rejects all', async () => {
    const dir = await tempDir();
    const dataDir = path.join(dir, 'parquet');
    const installation = path.join(dir, 'installation.csv');
    await writeFile(installation, 'id,name,addressmain,postalcode,city,country_id,latitudegoogle,longitudegoogle\nAT_1,Old name,-,-,Linz,AT,,\nGR_7,Ptolemaida,-,-,Kozani,GR,,\n');
    const compliance = path.join(dir, 'compliance.csv');
    await writeFile(compliance, 'installation_id,year,free,emission\nAT_1,2019,5,100\nAT_1,2020,5,90\nGR_7,2020,0,5000\n');
    const workbook = await writeXlsx(path.join(dir, 'verified_emissions_2021_en.xlsx'), [
      ['title'],
      ['REGISTRY_CODE', 'INSTALLATION_NAME', 'INSTALLATION_IDENTIFIER', 'PERMIT_IDENTIFIER', 'MAIN_ACTIVITY_TYPE_CODE', 'VERIFIED_EMISSIONS_2020', 'VERIFIED_EMISSIONS_2021', 'ALLOCATION_2021'],
      ['AT', 'New name', 1, 'P1', 20, 95, 80, 4],
      ['EL', null, 7, 'P7', 20, 'Excluded', 4000, 0],
    ]);
    const now = () => new Date('2026-11-01T10:00:00Z');
    const first = await ingestEtsFiles([installation, compliance, workbook], { dataDir, now });
    assert.deepEqual(first.imported.map((r) => [r.dataset, r.source, r.sourceFile, r.rowCount]), [
      ['ets_installations', 'eutl-installation-csv', 'installation.csv', 2],
      ['ets_emissions', 'eutl-compliance-csv', 'compliance.csv', 3],
      ['ets_emissions', 'eu-registry-xlsx', 'verified_emissions_2021_en.xlsx', 3],
    ]);
    assert.equal(first.emissions, 5);
    const inst = await readParquet(path.join(dataDir, 'ets_installations.parquet'),
      'SELECT registry_code, installation_identifier, installation_name, permit_identifier, main_activity_code, city FROM t ORDER BY ALL');
    assert.deepEqual(inst, [
      { registry_code: 'AT', installation_identifier: '1', installation_name: 'New name', permit_identifier: 'P1', main_activity_code: 20, city: 'Linz' },
      { registry_code: 'GR', installation_identifier: '7', installation_name: 'Ptolemaida', permit_identifier: 'P7', main_activity_code: 20, city: 'Kozani' },
    ]);
    const em = await readParquet(path.join(dataDir, 'ets_emissions.parquet'),
      'SELECT registry_code AS r, installation_identifier AS i, year, verified_emissions AS v, allocation AS a FROM t ORDER BY ALL');
    // 2020 restated by the workbook: AT 95 replaces 90. GR's "Excluded" 2020 carries no figure at all, so
    // the workbook has no row for it and the held 5000 stays (a file replaces only the rows it carries).
    assert.deepEqual(em, [
      { r: 'AT', i: '1', year: 2019, v: 100, a: 5 },
      { r: 'AT', i: '1', year: 2020, v: 95, a: null },
      { r: 'AT', i: '1', year: 2021, v: 80, a: 4 },
      { r: 'GR', i: '7', year: 2020, v: 5000, a: 0 },
      { r: 'GR', i: '7', year: 2021, v: 4000, a: 0 },
    ]);
    const again = await ingestEtsFiles([installation, compliance, workbook], { dataDir, now });
    assert.deepEqual([again.imported.length, again.skipped.length], [0, 3]);

    const bad = path.join(dir, 'compliance2.csv');
    await writeFile(bad, 'installation_id,year,free,emission\nAT_1,2022,0,1\nbroken,2022,0,1\n');
    const good = await writeXlsx(path.join(dir, 'verified_emissions_2022_en.xlsx'), [HEADER, ['AT', 'x', 1, null, 20, 1, 1, 1, 1, 1]]);
    await assert.rejects(ingestEtsFiles([good, bad], { dataDir, now }), (error: unknown) =>
      error instanceof IngestRejectedError && /compliance2\.csv, row 3/.test(error.message));
    const after2 = await readParquet(path.join(dataDir, 'ets_emissions.parquet'), 'SELECT count(*)::INTEGER AS n FROM t');
    assert.equal(after2[0].n, 5);
  });
});

describe('command line', () => {
  test('npm run ingest -- ets <folder>: imports, then a no-op; a malformed file exits 1 naming it', async () => {
    const { runCli } = await import('../helpers/cli.ts');
    const { ingestInProcess } = await import('../helpers/ingestCli.ts');
    const dir = await tempDir();
    const source = path.join(dir, 'source');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(source);
    await writeFile(path.join(source, 'compliance.csv'), 'installation_id,year,free,emission\nAT_1,2020,0,10\n');
    await writeFile(path.join(source, 'notes.txt'), 'ignored');
    const dataDir = path.join(dir, 'parquet');
    // The first run as the child process npm starts; the others in this process (test/helpers/ingestCli.ts).
    const first = await runCli('bin/ingest.ts', ['ets', source, '--data-dir', dataDir]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /compliance\.csv \(eutl-compliance-csv\): 1 row/);
    const again = await ingestInProcess(['ets', source, '--data-dir', dataDir]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /imported 0 file\(s\), 0 row\(s\); skipped 1/);
    await writeFile(path.join(source, 'compliance2.csv'), 'installation_id,year,free,emission\nAT1,2020,0,10\n');
    const bad = await ingestInProcess(['ets', source, '--data-dir', dataDir]);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /compliance2\.csv, row 2/);
  });
});
