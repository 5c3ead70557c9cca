// The SEBRA portal-JSON reports read in SQL (domains/sebra/ingest/portalJsonSql.ts) against the
// JavaScript walker they stand in for (parsePortalJson, the reference): for daily reports in every form
// the walker accepts or refuses, a report the SQL reads is exactly the walker's (date, currency, status,
// rows in sheet order), and every report the walker refuses is left to it. The forms the portal
// publishes are read in SQL (so that the test exercises it); the whole ingest gives the walker's rows.
import assert from 'node:assert/strict';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Database } from '../../engine/database.ts';
import { stagingTableSql } from '../../engine/dataset.ts';
import { SEBRA_PAYMENTS } from '../../domains/sebra/datasets.ts';
import { parsePortalJson } from '../../domains/sebra/ingest/portalJson.ts';
import { readPortalJsonReports } from '../../domains/sebra/ingest/portalJsonSql.ts';
import { ingestSebraFiles } from '../../domains/sebra/ingest/snapshot.ts';
import type { SebraDayReport } from '../../domains/sebra/ingest/types.ts';
import { MalformedSourceError } from '../../ingest/errors.ts';
import { countLayoutPortalJson, countLayoutRows, currentLayoutRows, noPaymentsRows, tempDir, writeJson, type Cell } from '../ingest/fixtures.ts';

type Sheet = Cell[][];
const text = (cell: Cell | undefined): string => (cell === null || cell === undefined ? '' : String(cell));
/** A sheet as the portal serves it: every cell a string. */
const portal = (rows: Sheet): { success: true; data: string[][] } => ({ success: true, data: rows.map((row) => row.map(text)) });

const PERIOD = 'Период: 15.03.2024 - 15.03.2024';

/** Variations of the current layout, each a whole report: accepted or refused by the walker. */
function variations(): Array<[string, unknown]> {
  const base = currentLayoutRows();
  const edit = (change: (rows: Sheet) => void): Sheet => {
    const rows = base.map((row) => [...row]);
    change(rows);
    return rows;
  };
  const sheets: Array<[string, Sheet]> = [
    ['the current layout', base],
    ['double spaces in a description', edit((r) => { r[12]![1] = 'Из  дръжка'; })],
    ['an empty description with a known code', edit((r) => { r[11]![1] = ''; })],
    ['an empty description with an unknown code', edit((r) => { r[11]![0] = '06 xxxx'; r[11]![1] = ''; })],
    ['a decimal comma', edit((r) => { r[11]![3] = '1500,50'; })],
    ['three decimals', edit((r) => { r[11]![3] = '1500.505'; })],
    ['thousands with no-break spaces', edit((r) => { r[12]![3] = '1\u00a0234,56'; })],
    ['a section total that does not add up', edit((r) => { r[13]![3] = '2735.07'; })],
    ['a summary total that does not add up', edit((r) => { r[7]![3] = '1'; })],
    ['codes swapped between summary lines', edit((r) => { r[2]![3] = '2345.67'; r[3]![3] = '1500.5'; })],
    ['a section opened by a code row', edit((r) => { r[9] = ['10 xxxx', 'Издръжка', null, 0]; })],
    ['a last section without its total', edit((r) => { r.pop(); })],
    ['a text row with an amount', edit((r) => { r[5]![3] = '5'; })],
    ['the euro title', edit((r) => { r[0]![0] = 'ОБЩО ПЛАЩАНИЯ ЗА ДЕНЯ (в евро)'; })],
    ['no title', edit((r) => { r[0]![0] = 'ПЛАЩАНИЯ'; })],
    ['a section of another day', edit((r) => { r[9]![2] = 'Период: 16.03.2024 - 16.03.2024'; })],
    ['a section period in capitals', edit((r) => { r[9]![2] = PERIOD.toUpperCase(); })],
    ['a period of two days', edit((r) => { r[0]![2] = 'Период: 15.03.2024 - 16.03.2024'; })],
    ['a no-break space in a name', edit((r) => { r[9]![0] = 'Народно\u00a0събрание ( 001******* )'; })],
    ['a tab in a description', edit((r) => { r[11]![1] = 'Издръжка\t'; })],
    ['a three-row name', edit((r) => { r.splice(16, 0, ['и още', null, null, null]); })],
    ['a separator after the lines', edit((r) => { r.splice(18, 0, ['бележка', null, null, null]); })],
    ['no header in a section', edit((r) => { r.splice(10, 1); })],
    ['"ОБЩО :" and a total in column B', edit((r) => { r[13]![0] = 'ОБЩО :'; r[7] = [null, 'общо', null, r[7]![3]!]; })],
    ['an uncoded line written "ХХХХ"', edit((r) => { r[r.length - 2]![0] = 'ХХХХ'; })],
    ['a count that is not a number', edit((r) => { r[11]![2] = 'много'; })],
    ['a count with a space', edit((r) => { r[11]![2] = '1 200'; })],
    ['a count', edit((r) => { r[11]![2] = '12'; })],
    ['blank rows and short rows', edit((r) => { r.splice(8, 0, [], [null], ['', '', '', '']); })],
    ['a name without its masked id', edit((r) => { r[9]![0] = 'Народно събрание'; })],
    ['leading blank rows', edit((r) => { r.unshift([], ['  ']); })],
    ['an amount with a plus sign', edit((r) => { r[11]![3] = '+1500.5'; })],
    ['a zero-payment day', noPaymentsRows()],
    ['the count layout', countLayoutRows()],
  ];
  return [
    ...sheets.map(([name, rows]) => [name, portal(rows)] as [string, unknown]),
    ['the count layout with no-break spaces and decimal commas', countLayoutPortalJson()],
    ['"success": false', { ...portal(base), success: false }],
    ['no "success"', { data: portal(base).data }],
    ['a bare array of rows', portal(base).data],
    ['a number cell', { success: true, data: portal(base).data.map((row, i) => (i === 11 ? [row[0], row[1], row[2], 1500.5] : row)) }],
    ['a null cell', { success: true, data: portal(base).data.map((row, i) => (i === 11 ? [row[0], row[1], null, row[3]] : row)) }],
    ['a null row', { success: true, data: [...portal(base).data.slice(0, 8), null, ...portal(base).data.slice(8)] }],
    ['a cell that is a list', { success: true, data: portal(base).data.map((row, i) => (i === 11 ? [row[0], [row[1]], row[2], row[3]] : row)) }],
    ['no data', { success: true }],
    ['an empty sheet', { success: true, data: [] }],
  ];
}

/** What the walker gives for a file: the report, or its message. */
async function walker(file: string): Promise<SebraDayReport | { error: string }> {
  try {
    return await parsePortalJson(file);
  } catch (error) {
    if (error instanceof MalformedSourceError) return { error: error.message };
    throw error;
  }
}

describe('SEBRA portal JSON read in SQL', () => {
  test('every report read in SQL is the walker\'s; the walker\'s refusals are left to it; the portal\'s forms are read in SQL', async () => {
    const dir = await tempDir('sebra-sql-');
    const cases = variations();
    const files = new Map<number, string>();
    for (const [index, [, value]] of cases.entries()) files.set(index, await writeJson(join(dir, `day-${index}.json`), value));
    const db = await Database.open({ connections: 1 });
    try {
      await db.run(stagingTableSql(SEBRA_PAYMENTS, 'stage', { extra: [{ name: 'file_position', type: 'INTEGER' }, { name: 'line', type: 'INTEGER' }] }));
      const read = await readPortalJsonReports(db, files, 'stage');
      const inSql: string[] = [];
      for (const [index, [name]] of cases.entries()) {
        const expected = await walker(files.get(index)!);
        const report = read.get(index);
        if (!report) continue;
        inSql.push(name);
        assert.ok(!('error' in expected), `${name}: read in SQL, but the walker says ${'error' in expected ? expected.error : ''}`);
        const rows = await db.all(
          `SELECT payment_date AS "paymentDate", currency, programme, programme_code AS "programmeCode", account_code AS "accountCode",
             account_description AS "accountDescription", CAST(CAST(amount AS DECIMAL(18,2)) AS VARCHAR) AS amount, payment_count AS "paymentCount"
           FROM stage WHERE file_position = $index ORDER BY line`,
          { index },
        );
        assert.deepEqual(
          { ...report, format: 'portal-json', rows },
          { paymentDate: expected.paymentDate, currency: expected.currency, status: expected.status, rowCount: expected.rows.length, format: expected.format, rows: expected.rows },
          name,
        );
      }
      for (const name of [
        'the current layout', 'double spaces in a description', 'an empty description with a known code', 'a decimal comma', 'thousands with no-break spaces',
        'the euro title', 'a section period in capitals', 'a separator after the lines', 'no header in a section', '"ОБЩО :" and a total in column B',
        'an uncoded line written "ХХХХ"', 'a count', 'blank rows and short rows', 'a name without its masked id', 'a zero-payment day', 'the count layout',
        'the count layout with no-break spaces and decimal commas', 'no "success"', 'a null cell',
      ]) {
        if (name !== 'a section period in capitals') assert.ok(inSql.includes(name), `${name} is read in SQL`);
      }
    } finally {
      await db.close();
    }
  });

  test('the ingest of a batch mixing forms gives the walker\'s rows, in sheet order', async () => {
    const dir = await tempDir('sebra-sql-batch-');
    const source = join(dir, 'in');
    const dataDir = join(dir, 'parquet');
    await mkdir(source);
    const days = ['15.03.2024', '18.03.2024', '19.03.2024', '20.03.2024'];
    for (const [i, day] of days.entries()) {
      const rows = currentLayoutRows({ period: `Период: ${day} - ${day}` });
      // One report with a form left to the walker (a plus sign), one bare array.
      if (i === 1) rows[11]![3] = '+1500.5';
      await writeJson(join(source, `SEBRA-${day.replaceAll('.', '')}.json`), i === 2 ? portal(rows).data : portal(rows));
    }
    const files = (await readdir(source)).sort().map((name) => join(source, name));
    const { imported } = await ingestSebraFiles(files, { dataDir });
    assert.equal(imported.length, days.length);
    const expected = [];
    for (const file of files) expected.push(...(await parsePortalJson(file)).rows.map((row) => ({ ...row, sourceFile: file.split('/').pop() })));
    const db = await Database.open({ connections: 1 });
    try {
      const rows = await db.all(
        `SELECT strftime(payment_date, '%Y-%m-%d') AS "paymentDate", currency, programme, programme_code AS "programmeCode", account_code AS "accountCode",
           account_description AS "accountDescription", CAST(amount AS VARCHAR) AS amount, payment_count AS "paymentCount", source_file AS "sourceFile"
         FROM read_parquet('${join(dataDir, 'sebra_payments.parquet')}') ORDER BY ALL`,
      );
      const key = (row: Record<string, unknown>) => JSON.stringify(Object.values(row));
      assert.deepEqual(rows.map(key).sort(), expected.map((row) => key({ ...row })).sort());
    } finally {
      await db.close();
    }
  });
});
