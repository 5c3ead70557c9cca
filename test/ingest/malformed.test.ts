import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseDailyReportRows } from '../../domains/sebra/ingest/dailyReport.ts';
import { parseReportTree } from '../../domains/sebra/ingest/reportTree.ts';
import { MalformedSourceError } from '../../domains/sebra/ingest/types.ts';
import { parseMofXlsx } from '../../domains/sebra/ingest/xlsx.ts';
import { countLayoutRows, currentLayoutRows, rowOf, tempDir, writeJson, writeXlsx, type Cell } from './fixtures.ts';

function malformed(file: string, row: number | null, problem: RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof MalformedSourceError, `expected MalformedSourceError, got ${String(error)}`);
    assert.equal(error.file, file);
    assert.equal(error.row, row);
    assert.match(error.problem, problem);
    assert.ok(error.message.startsWith(`${file}${row === null ? '' : `, row ${row}`}: `), error.message);
    return true;
  };
}

test("a section whose rows do not add up to its Общо: names the file, the Общо: row and 'sum'", async () => {
  const dir = await tempDir();
  const rows = currentLayoutRows({ org1Total: 2735.07 });
  const file = await writeXlsx(join(dir, 'bad-sum.xlsx'), rows);
  const totalRow = rowOf(rows, 'Общо:', rowOf(rows, 'Народно събрание ( 001******* )'));
  assert.equal(totalRow, 14);
  await assert.rejects(parseMofXlsx(file), malformed(file, totalRow, /sum of the section's rows 2735\.06 does not match its "Общо:" 2735\.07/));
});

test('summary and organisation sections must agree, per code and in total', () => {
  const rows = countLayoutRows();
  // Move 0.01 from code 40 to code 50 in the summary: both totals still match, the per-code check does not.
  const swapped: Cell[][] = rows.map((row, i) => (i === 2 ? ['40 xxxx', row[1], 1200, 4999999.99] : i === 3 ? ['50 xxxx', row[1], 3, 1234.57] : row));
  assert.throws(() => parseDailyReportRows(swapped, 'f.json', 'portal-json'), malformed('f.json', 5, /code 40: summary amount 4999999\.99 does not match the sum over organisations 5000000\.00/));
  const summaryOff: Cell[][] = rows.map((row, i) => (i === 2 ? ['40 xxxx', row[1], 1200, 5000001] : i === 4 ? ['Общо:', null, null, 5001235.56] : row));
  assert.throws(() => parseDailyReportRows(summaryOff, 'f.json', 'portal-json'), malformed('f.json', 5, /sum of the organisation totals 5001234\.56 does not match the summary "Общо:" 5001235\.56/));
});

test('missing Период in the title row', async () => {
  const rows = currentLayoutRows();
  rows[0] = ['ОБЩО ПЛАЩАНИЯ ЗА ДЕНЯ (в лева)', null, null, null];
  assert.throws(() => parseDailyReportRows(rows, 'f.json', 'portal-json'), malformed('f.json', 1, /missing "Период: DD\.MM\.YYYY - DD\.MM\.YYYY"/));
});

test('a period that spans more than one day', () => {
  const rows = currentLayoutRows({ period: 'Период: 15.03.2024 - 16.03.2024' });
  assert.throws(() => parseDailyReportRows(rows, 'f.json', 'portal-json'), malformed('f.json', 1, /spans 2024-03-15 to 2024-03-16; a daily report covers one day/));
});

test('a section period that differs from the report date', () => {
  const rows = currentLayoutRows();
  rows[9] = ['Народно събрание ( 001******* )', null, 'Период: 14.03.2024 - 14.03.2024', null];
  assert.throws(() => parseDailyReportRows(rows, 'f.json', 'portal-json'), malformed('f.json', 10, /section period 2024-03-14 differs from the report's 2024-03-15/));
});

test('unreadable cells and a missing Общо: row', () => {
  const rows = currentLayoutRows();
  rows[12] = ['10 xxxx', 'Издръжка', null, '12x4,56'];
  assert.throws(() => parseDailyReportRows(rows, 'f.json', 'portal-json'), malformed('f.json', 13, /amount "12x4,56" in column D is not a number/));
  const counts = countLayoutRows();
  counts[8] = ['40 xxxx', 'x', 'много', 5000000];
  assert.throws(() => parseDailyReportRows(counts, 'f.json', 'portal-json'), malformed('f.json', 9, /payment count "много" in column C is not a whole number/));
  const cut = countLayoutRows().slice(0, -1);
  assert.throws(() => parseDailyReportRows(cut, 'f.json', 'portal-json'), malformed('f.json', 14, /section "СТОЛИЧНА ОБЩИНА \( 422\*{7} \)" from row 12 has no "Общо:" row/));
  const noTitle = countLayoutRows().slice(1);
  assert.throws(() => parseDailyReportRows(noTitle, 'f.json', 'portal-json'), malformed('f.json', 1, /expected the title/));
});

test('a file that is not an XLSX workbook', async () => {
  const dir = await tempDir();
  const file = join(dir, 'SEBRA-15032024.xlsx');
  await writeFile(file, 'this is not a zip file');
  await assert.rejects(parseMofXlsx(file), malformed(file, null, /^not a readable XLSX workbook: /));
});

test('a report tree without a date in options or file name', async () => {
  const dir = await tempDir();
  const file = await writeJson(join(dir, 'report1.json'), { name: 'x', children: [] });
  await assert.rejects(parseReportTree(file), malformed(file, null, /^no payment date: pass --date$/));
});

test('a report tree line without a numeric amount', async () => {
  const dir = await tempDir();
  const tree = { name: 'x', children: [{ name: 'A', children: [{ name: 'Издръжка', count: 1, amount: 1 }] }, { name: 'B', children: [{ name: 'Издръжка', count: 1, amount: 'n/a' }] }] };
  const file = await writeJson(join(dir, 'tree.json'), tree);
  await assert.rejects(parseReportTree(file, { paymentDate: '2012-07-10' }), malformed(file, 2, /amount "n\/a" of "Издръжка" \(organisation 2\) is not a number/));
});
