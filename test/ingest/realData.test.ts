import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseReportTree } from '../../domains/sebra/ingest/reportTree.ts';
import { centsFromText } from '../../domains/sebra/ingest/money.ts';
import { realSebraDir } from './fixtures.ts';

const report1 = join(realSebraDir, 'report1.json');

test('real report1.json (2012 report tree): 70 organisations, 375 rows, 499,623,967.97 BGN', async (t) => {
  if (!existsSync(report1)) {
    t.skip(`${report1} absent`);
    return;
  }
  const report = await parseReportTree(report1, { paymentDate: '2012-07-10' });
  assert.equal(report.format, 'report-tree');
  assert.equal(report.currency, 'BGN');
  assert.equal(report.status, 'HAS_PAYMENTS');
  assert.equal(report.rows.length, 375);
  assert.equal(new Set(report.rows.map((row) => row.programme)).size, 70);
  const totalCents = report.rows.reduce((sum, row) => sum + centsFromText(row.amount)!, 0n);
  assert.equal(totalCents, 49962396797n);

  const first = report.rows[0];
  assert.deepEqual(first, {
    paymentDate: '2012-07-10',
    currency: 'BGN',
    programme: 'Народно Събрание',
    programmeCode: null,
    accountCode: '01',
    accountDescription: 'Заплати, възнаграждения и други плащания за персонала - нетна сума за изплащане',
    amount: '3709.54',
    paymentCount: 16,
  });
  // Every payment-type name is joined to its code, except the uncoded municipal lines.
  const uncoded = report.rows.filter((row) => row.accountCode === '').map((row) => row.accountDescription);
  assert.deepEqual(uncoded.sort(), [
    'Временни безлихвени заеми за общини по ПМС №59/2012',
    'Други трансфери за общини',
    'Обща субсидия за делегирани от държавата дейности',
    'Трансфери за местни дейности',
    'Целева субсидия за капиталови разходи',
  ]);
  const byCode = new Map<string, number>();
  for (const row of report.rows) byCode.set(row.accountCode, (byCode.get(row.accountCode) ?? 0) + 1);
  assert.equal(byCode.get('10'), 64);
  assert.equal(byCode.get('70'), 1);
  // Whitespace in names is collapsed ("НОИ  Държавно ..." in the source).
  assert.ok(report.rows.some((row) => row.programme === 'НОИ Държавно обществено осигуряване'));
});
