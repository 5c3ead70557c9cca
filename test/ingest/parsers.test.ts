import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { codeForDescription, SEBRA_CODES } from '../../domains/sebra/ingest/codes.ts';
import { parseDailyReportRows } from '../../domains/sebra/ingest/dailyReport.ts';
import { parseSebraFile } from '../../domains/sebra/ingest/detect.ts';
import { centsFromText, formatCents } from '../../domains/sebra/ingest/money.ts';
import { parsePortalJson } from '../../domains/sebra/ingest/portalJson.ts';
import { dateFromFileName } from '../../domains/sebra/ingest/reportTree.ts';
import { parseMofXlsx } from '../../domains/sebra/ingest/xlsx.ts';
import {
  countLayoutExpected,
  countLayoutPortalJson,
  countLayoutRows,
  currentLayoutExpected,
  currentLayoutRows,
  noPaymentsRows,
  tempDir,
  writeJson,
  writeXlsx,
} from './fixtures.ts';

test('the 23 SEBRA codes and tolerant matching of descriptions', () => {
  assert.equal(SEBRA_CODES.length, 23);
  assert.equal(new Set(SEBRA_CODES.map((entry) => entry.code)).size, 23);
  assert.equal(codeForDescription('Издръжка'), '10');
  assert.equal(codeForDescription('  издръжка '), '10');
  assert.equal(codeForDescription('Заплати, възнаграждения и други плащания за персонала – нетна сума  за изплащане'), '01');
  assert.equal(codeForDescription('ВЪЗМЕЗДНО ФИНАНСИРАНЕ - придобиване на дялове и акции, предоставени кредити и временна финансова помощ'), '70');
  for (const uncoded of [
    'Обща субсидия за делегирани от държавата дейности',
    'Трансфери за местни дейности',
    'Целева субсидия за капиталови разходи',
    'Други трансфери за общини',
    'Временни безлихвени заеми за общини по ПМС №59/2012',
  ]) {
    assert.equal(codeForDescription(uncoded), '', uncoded);
  }
});

test('amounts become exact cents without floats on strings', () => {
  const cases: Array<[string, string | null]> = [
    ['1234.56', '1234.56'],
    ['1 234,56', '1234.56'],
    ['1\u00a0234\u00a0567,5', '1234567.50'],
    ['-0,01', '-0.01'],
    ['1,234.56', '1234.56'],
    ['1.234.567', '1234567.00'],
    ['1234.5599999999', '1234.56'],
    ['1.5E+7', '15000000.00'],
    ['\u22123,00', '-3.00'],
    ['12abc', null],
    ['', null],
  ];
  for (const [text, expected] of cases) {
    const cents = centsFromText(text);
    assert.equal(cents === null ? null : formatCents(cents), expected, text);
  }
});

test('XLSX, current layout: every row, date, currency and status', async () => {
  const dir = await tempDir();
  const report = await parseMofXlsx(await writeXlsx(join(dir, 'SEBRA-15032024.xlsx'), currentLayoutRows()));
  assert.equal(report.paymentDate, '2024-03-15');
  assert.equal(report.currency, 'BGN');
  assert.equal(report.status, 'HAS_PAYMENTS');
  assert.equal(report.format, 'mof-xlsx');
  assert.deepEqual(report.rows, currentLayoutExpected());
});

test('XLSX, layout with counts in column C: counts kept, EUR', async () => {
  const dir = await tempDir();
  const report = await parseMofXlsx(await writeXlsx(join(dir, 'SEBRA-03022026.xlsx'), countLayoutRows()));
  assert.equal(report.paymentDate, '2026-02-03');
  assert.equal(report.currency, 'EUR');
  assert.equal(report.status, 'HAS_PAYMENTS');
  assert.deepEqual(report.rows, countLayoutExpected());
});

test('portal JSON (all strings, decimal comma) gives the same rows as the XLSX', async () => {
  const dir = await tempDir();
  const fromXlsx = await parseMofXlsx(await writeXlsx(join(dir, 'day.xlsx'), countLayoutRows()));
  const portal = countLayoutPortalJson();
  assert.equal(portal.data[2][3], '5\u00a0000\u00a0000,00');
  const fromJson = await parsePortalJson(await writeJson(join(dir, 'day.json'), portal));
  assert.equal(fromJson.format, 'portal-json');
  assert.deepEqual(fromJson.rows, fromXlsx.rows);
  const fromBareArray = await parsePortalJson(await writeJson(join(dir, 'bare.json'), portal.data));
  assert.deepEqual(fromBareArray.rows, fromXlsx.rows);
});

test('a report with a zero total has status NO_PAYMENTS and no rows', () => {
  const report = parseDailyReportRows(noPaymentsRows(), 'zero.json', 'portal-json');
  assert.equal(report.paymentDate, '2025-05-02');
  assert.equal(report.status, 'NO_PAYMENTS');
  assert.deepEqual(report.rows, []);
});

test('detection by extension and content', async () => {
  const dir = await tempDir();
  const xlsx = await parseSebraFile(await writeXlsx(join(dir, 'a.xlsx'), countLayoutRows()));
  assert.equal(xlsx.format, 'mof-xlsx');
  const portal = await parseSebraFile(await writeJson(join(dir, 'b.json'), countLayoutPortalJson()));
  assert.equal(portal.format, 'portal-json');
  const tree = { name: 'Bulgarian Budget Spending', children: [{ name: 'Народно Събрание', children: [{ name: 'Издръжка', count: 2, amount: 10.5 }] }] };
  const fromTree = await parseSebraFile(await writeJson(join(dir, 'tree-2012-07-10.json'), tree));
  assert.equal(fromTree.format, 'report-tree');
  assert.deepEqual(fromTree.rows, [
    { paymentDate: '2012-07-10', currency: 'BGN', programme: 'Народно Събрание', programmeCode: null, accountCode: '10', accountDescription: 'Издръжка', amount: '10.50', paymentCount: 2 },
  ]);
  const euro = await parseSebraFile(join(dir, 'tree-2012-07-10.json'), { date: '2026-03-02' });
  assert.equal(euro.currency, 'EUR');
  assert.equal(euro.paymentDate, '2026-03-02');
});

test('dates in file names', () => {
  assert.equal(dateFromFileName('/x/SEBRA-19052023.xlsx'), '2023-05-19');
  assert.equal(dateFromFileName('report-2012-07-10.json'), '2012-07-10');
  assert.equal(dateFromFileName('NF_SEBRA_19.05.2023.json'), '2023-05-19');
  assert.equal(dateFromFileName('report1.json'), undefined);
  assert.equal(dateFromFileName('SEBRA-32132023.json'), undefined);
});
