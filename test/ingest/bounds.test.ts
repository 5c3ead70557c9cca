// Ingest bounds (ingest/bounds.ts): a hostile file fails fast with exit code 1 and an input error naming
// the file (and row) and the bound's variable, and the served generation stays as it was. The bounds
// are set low through their environment variables so that small files made here pass them.
// The command (runIngestCli with bin/ingest.ts's commands and serving build) runs in this process,
// with the variables set in its environment for the run (the command's exit code as a process is
// test/ingest/cli.test.ts's).
import assert from 'node:assert/strict';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { listGenerations } from '../../ingest/generations.ts';
import { ingestInProcess as ingest } from '../helpers/ingestCli.ts';
import { tempDirUntilExit as tempDir } from '../helpers/tmp.ts';

const RATES = 'Date,USD,JPY,\n2024-01-03,1.0919,155.76,\n2024-01-02,1.0956,155.5,\n';

/** The id of the generation served now (null: none). */
async function servedGeneration(dataDir: string): Promise<string | null> {
  return (await listGenerations(dataDir)).find((generation) => generation.current)?.id ?? null;
}

/** A data folder with one generation published from a good eurofxref file. */
async function publishedDataDir(): Promise<{ dataDir: string; generation: string }> {
  const sources = await tempDir('bounds-good-');
  await writeFile(join(sources, 'eurofxref-hist.csv'), RATES);
  const dataDir = join(await tempDir('bounds-data-'), 'parquet');
  const run = await ingest(['eurofxref', sources, '--data-dir', dataDir]);
  assert.equal(run.code, 0, run.stderr);
  const generation = await servedGeneration(dataDir);
  assert.ok(generation !== null);
  return { dataDir, generation };
}

/** A eurofxref zip whose one CSV inflates to `bytes` bytes of a valid-looking file (a few KB compressed). */
async function zipBomb(bytes: number): Promise<Buffer> {
  const row = '2024-01-02,1.0956,155.5,\n';
  const zip = new JSZip();
  zip.file('eurofxref-hist.csv', 'Date,USD,JPY,\n' + row.repeat(Math.ceil(bytes / row.length)));
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 9 } });
}

/** The zip with every uncompressed size it states (central directory and local headers) set to 100 bytes. */
function understated(zip: Buffer): Buffer {
  const copy = Buffer.from(zip);
  for (let at = copy.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])); at >= 0; at = copy.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]), at + 4)) copy.writeUInt32LE(100, at + 24);
  for (let at = copy.indexOf(Buffer.from([0x50, 0x4b, 0x03, 0x04])); at >= 0; at = copy.indexOf(Buffer.from([0x50, 0x4b, 0x03, 0x04]), at + 4)) copy.writeUInt32LE(100, at + 22);
  return copy;
}

test('a zip bomb: its stated size past INGEST_MAX_UNZIPPED_BYTES is refused before inflating; exit 1, generation unchanged', async () => {
  const { dataDir, generation } = await publishedDataDir();
  const bomb = await zipBomb(3_000_000);
  assert.ok(bomb.length < 20_000, `the bomb is ${bomb.length} bytes`);
  const sources = await tempDir('bounds-zip-');
  await writeFile(join(sources, 'eurofxref-hist.zip'), bomb);
  const run = await ingest(['eurofxref', sources, '--data-dir', dataDir], { INGEST_MAX_UNZIPPED_BYTES: '1000000' });
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stderr, /eurofxref-hist\.zip: the zip file unzips to \d+ bytes, over the bound of 1000000 bytes unzipped from one file \(INGEST_MAX_UNZIPPED_BYTES/);
  assert.equal(await servedGeneration(dataDir), generation);
  // Within a higher bound the same file is read.
  const allowed = await ingest(['eurofxref', sources, '--data-dir', dataDir], { INGEST_MAX_UNZIPPED_BYTES: '10000000' });
  assert.equal(allowed.code, 1, allowed.stderr);
  assert.match(allowed.stderr, /appears twice/);
});

test('a zip bomb that understates its sizes: inflating stops at INGEST_MAX_UNZIPPED_BYTES', async () => {
  const { dataDir, generation } = await publishedDataDir();
  const sources = await tempDir('bounds-lying-');
  await writeFile(join(sources, 'eurofxref-hist.zip'), understated(await zipBomb(3_000_000)));
  const run = await ingest(['eurofxref', sources, '--data-dir', dataDir], { INGEST_MAX_UNZIPPED_BYTES: '1000000' });
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stderr, /eurofxref-hist\.zip: entry "eurofxref-hist\.csv" inflates past the bound, over the bound of 1000000 bytes/);
  assert.equal(await servedGeneration(dataDir), generation);
});

test('too many zip entries (INGEST_MAX_ZIP_ENTRIES)', async () => {
  const sources = await tempDir('bounds-entries-');
  const zip = new JSZip();
  zip.file('eurofxref-hist.csv', RATES);
  for (let i = 0; i < 20; i++) zip.file(`readme-${i}.txt`, 'x');
  await writeFile(join(sources, 'eurofxref-hist.zip'), await zip.generateAsync({ type: 'nodebuffer' }));
  const dataDir = join(await tempDir('bounds-data-'), 'parquet');
  const run = await ingest(['eurofxref', sources, '--data-dir', dataDir], { INGEST_MAX_ZIP_ENTRIES: '10' });
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stderr, /eurofxref-hist\.zip: the zip file holds 21 entries, over the bound of 10 entries in one zip \(INGEST_MAX_ZIP_ENTRIES/);
  assert.equal(await servedGeneration(dataDir), null);
});

test('an XLSX with more cells than INGEST_MAX_XLSX_CELLS (or rows, or shared strings) is refused before exceljs reads it', async () => {
  const sources = await tempDir('bounds-xlsx-');
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Sheet1');
  for (let row = 0; row < 300; row++) sheet.addRow([`text ${row}`, row, row * 2, `more ${row}`]);
  const file = join(sources, 'SEBRA-15032024.xlsx');
  await workbook.xlsx.writeFile(file);
  const dataDir = join(await tempDir('bounds-data-'), 'parquet');
  const cells = await ingest(['sebra', sources, '--data-dir', dataDir], { INGEST_MAX_XLSX_CELLS: '1000' });
  assert.equal(cells.code, 1, cells.stderr);
  assert.ok(cells.stderr.includes(`${file}: the workbook has more than 1000 cells, over the bound of 1000 cells in one workbook (INGEST_MAX_XLSX_CELLS`), cells.stderr);
  const rows = await ingest(['sebra', sources, '--data-dir', dataDir], { INGEST_MAX_XLSX_ROWS: '100' });
  assert.equal(rows.code, 1, rows.stderr);
  assert.match(rows.stderr, /more than 100 rows, over the bound of 100 rows in one workbook \(INGEST_MAX_XLSX_ROWS/);
  const strings = await ingest(['sebra', sources, '--data-dir', dataDir], { INGEST_MAX_XLSX_SHARED_STRINGS: '50' });
  assert.equal(strings.code, 1, strings.stderr);
  assert.match(strings.stderr, /more than 50 shared strings, over the bound of 50 shared strings in one workbook \(INGEST_MAX_XLSX_SHARED_STRINGS/);
  assert.equal(await servedGeneration(dataDir), null);
});

test('a CSV record longer than INGEST_MAX_CELL_BYTES: the file and row are named, by csv-parse and by DuckDB', async () => {
  const { dataDir, generation } = await publishedDataDir();
  const huge = 'x'.repeat(200_000);
  const rates = await tempDir('bounds-cell-');
  await writeFile(join(rates, 'eurofxref-hist.csv'), `Date,USD,\n2024-01-04,1.1,\n2024-01-05,${huge},\n`);
  const parsed = await ingest(['eurofxref', rates, '--data-dir', dataDir], { INGEST_MAX_CELL_BYTES: '100000' });
  assert.equal(parsed.code, 1, parsed.stderr);
  assert.match(parsed.stderr, /eurofxref-hist\.csv, row 3: a record too long, over the bound of 100000 bytes in one CSV record \(INGEST_MAX_CELL_BYTES/);
  const ecb = await tempDir('bounds-cell-ecb-');
  await writeFile(join(ecb, 'ecb.csv'), `KEY,FREQ,TIME_PERIOD,OBS_VALUE,TITLE\nEXR.D.USD.EUR.SP00.A,D,2024-01-02,1.1,x\nEXR.D.USD.EUR.SP00.A,D,2024-01-03,1.2,${huge}\n`);
  const staged = await ingest(['ecb', ecb, '--data-dir', dataDir], { INGEST_MAX_CELL_BYTES: '100000' });
  assert.equal(staged.code, 1, staged.stderr);
  assert.match(staged.stderr, /ecb\.csv, row 3: a record too long, over the bound of 100000 bytes in one CSV record \(INGEST_MAX_CELL_BYTES/);
  assert.equal(await servedGeneration(dataDir), generation);
});

test('a symbolic link out of the folder given is refused; one inside it is read', async () => {
  const { dataDir, generation } = await publishedDataDir();
  const outside = await tempDir('bounds-outside-');
  await writeFile(join(outside, 'secret.csv'), RATES.replace('2024-01-03', '2024-02-03'));
  const sources = await tempDir('bounds-links-');
  await symlink(join(outside, 'secret.csv'), join(sources, 'eurofxref-hist.csv'));
  const run = await ingest(['eurofxref', sources, '--data-dir', dataDir]);
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stderr, /eurofxref-hist\.csv: a symbolic link to a file outside the folder given; refused/);
  assert.equal(await servedGeneration(dataDir), generation);
  const inside = await tempDir('bounds-inside-');
  await mkdir(join(inside, 'kept'));
  await writeFile(join(inside, 'kept', 'rates.data'), RATES.replace('2024-01-03', '2024-02-03'));
  await symlink(join(inside, 'kept', 'rates.data'), join(inside, 'eurofxref-hist.csv'));
  const allowed = await ingest(['eurofxref', inside, '--data-dir', dataDir]);
  assert.equal(allowed.code, 0, allowed.stderr);
});

test('a file name with a line break or an ANSI escape is printed escaped: it cannot forge a log line', async () => {
  const sources = await tempDir('bounds-names-');
  const name = 'x\ningest: published generation 999999\u001b[2K.csv';
  await writeFile(join(sources, name), 'not,a,rate,file\n');
  const dataDir = join(await tempDir('bounds-data-'), 'parquet');
  const run = await ingest(['eurofxref', sources, '--data-dir', dataDir]);
  assert.equal(run.code, 1, run.stderr);
  assert.ok(run.stderr.includes(`${JSON.stringify(name)}, row 1: not a reference-rate file`), run.stderr);
  assert.ok(!run.stderr.split('\n').some((line) => line.startsWith('ingest: published')), run.stderr);
  assert.ok(!run.stderr.includes('\u001b'), 'no raw escape character is printed');
  assert.equal(await servedGeneration(dataDir), null);
});
