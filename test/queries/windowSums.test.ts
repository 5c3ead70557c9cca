// queries/shared/windowSums.ts: the totals of every window, read from two lookups per key, equal the
// totals summed directly from the source rows (computed here in JavaScript, independently).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Database } from '../../engine/database.ts';
import {
  buildWindowSumsSql,
  calendarTable,
  spanTotalsSql,
  windowBoundsSql,
  windowTotalsSql,
  type WindowSums,
} from '../../queries/shared/windowSums.ts';

// Two partitions with their own days; keys start late, skip days, and one sum is exact money.
//   BGN: days 01-02, 01-03, 01-07, 02-01; keys a (from 01-02), b (from 01-07)
//   EUR: days 01-03, 01-05;              key a (from 01-05)
interface SourceRow { currency: string; item: string; day: string; amount: string; n: number }
const SOURCE: SourceRow[] = [
  { currency: 'BGN', item: 'a', day: '2024-01-02', amount: '10.10', n: 1 },
  { currency: 'BGN', item: 'a', day: '2024-01-03', amount: '0.00', n: 2 },
  { currency: 'BGN', item: 'b', day: '2024-01-07', amount: '5.25', n: 3 },
  { currency: 'BGN', item: 'a', day: '2024-02-01', amount: '-1.05', n: 4 },
  { currency: 'BGN', item: 'b', day: '2024-02-01', amount: '100000000000000.01', n: 5 },
  { currency: 'EUR', item: 'c', day: '2024-01-03', amount: '7.00', n: 6 },
  { currency: 'EUR', item: 'a', day: '2024-01-05', amount: '2.50', n: 7 },
];

const SHAPE: WindowSums = {
  table: 'test_sums',
  partitionBy: ['currency'],
  keys: ['item'],
  sums: { amount: 'DECIMAL(38,2)', n: 'BIGINT' },
};

/** Cents of a decimal string, exactly. */
const cents = (amount: string): bigint => {
  const [whole, fraction = ''] = amount.replace('-', '').split('.');
  const value = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
  return amount.startsWith('-') ? -value : value;
};
const money = (value: bigint): string => {
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
};

/** The expected totals of [from, to], summed directly: "currency|item" -> {days, amount, n}. */
function directTotals(from: string, to: string, currency?: string) {
  const totals = new Map<string, { days: number; amount: bigint; n: number }>();
  for (const row of SOURCE) {
    if (row.day < from || row.day > to || (currency && row.currency !== currency)) continue;
    const key = `${row.currency}|${row.item}`;
    const total = totals.get(key) ?? { days: 0, amount: 0n, n: 0 };
    totals.set(key, { days: total.days + 1, amount: total.amount + cents(row.amount), n: total.n + row.n });
  }
  return Object.fromEntries([...totals].sort().map(([key, t]) => [key, { days: t.days, amount: money(t.amount), n: t.n }]));
}

let db: Database;
before(async () => {
  db = await Database.open({ connections: 1 });
  await db.run('CREATE TABLE test_source (currency VARCHAR, item VARCHAR, day DATE, amount DECIMAL(18,2), n INTEGER)');
  for (const row of SOURCE) {
    await db.run('INSERT INTO test_source VALUES ($currency, $item, CAST($day AS DATE), CAST($amount AS DECIMAL(18,2)), $n)', { ...row });
  }
  for (const sql of buildWindowSumsSql(SHAPE, 'SELECT currency, item, day, amount, n FROM test_source')) await db.run(sql);
});
after(() => db.close());

const WINDOW_SQL = `WITH bounds AS (${windowBoundsSql(SHAPE, {
  from: 'CAST($from AS DATE)',
  to: 'CAST($to AS DATE)',
  where: "($currency = '' OR currency = $currency)",
})})
  SELECT * FROM (${windowTotalsSql(SHAPE, 'bounds')}) ORDER BY currency, item`;

async function windowTotals(from: string, to: string, currency = '') {
  const rows = await db.all(WINDOW_SQL, { from, to, currency });
  return Object.fromEntries(rows.map((r) => [`${r.currency}|${r.item}`, { days: Number(r.days), amount: r.amount, n: Number(r.n) }]));
}

describe('windowSums', () => {
  test('the calendar numbers each partition\'s days in one run', async () => {
    const days = await db.all(`SELECT currency, strftime(day, '%m-%d') AS day, position FROM ${calendarTable(SHAPE)} ORDER BY position`);
    assert.deepEqual(days, [
      { currency: 'BGN', day: '01-02', position: 1 },
      { currency: 'BGN', day: '01-03', position: 2 },
      { currency: 'BGN', day: '01-07', position: 3 },
      { currency: 'BGN', day: '02-01', position: 4 },
      { currency: 'EUR', day: '01-03', position: 5 },
      { currency: 'EUR', day: '01-05', position: 6 },
    ]);
  });

  test('running totals: one row per key and partition day from its first row on', async () => {
    const rows = await db.all(`SELECT position, item, days, amount, n FROM ${SHAPE.table} ORDER BY position, item`);
    // a (BGN) from position 1; b (BGN) from position 3; c (EUR) from 5; a (EUR) from 6.
    assert.deepEqual(rows, [
      { position: 1, item: 'a', days: 1, amount: '10.10', n: 1 },
      { position: 2, item: 'a', days: 2, amount: '10.10', n: 3 },
      { position: 3, item: 'a', days: 2, amount: '10.10', n: 3 },
      { position: 3, item: 'b', days: 1, amount: '5.25', n: 3 },
      { position: 4, item: 'a', days: 3, amount: '9.05', n: 7 },
      { position: 4, item: 'b', days: 2, amount: '100000000000005.26', n: 8 },
      { position: 5, item: 'c', days: 1, amount: '7.00', n: 6 },
      { position: 6, item: 'a', days: 1, amount: '2.50', n: 7 },
      { position: 6, item: 'c', days: 1, amount: '7.00', n: 6 },
    ]);
  });

  test('every window (days inside, before and after the data) equals the direct sums', async () => {
    const edges = ['2023-12-31', '2024-01-02', '2024-01-03', '2024-01-04', '2024-01-05', '2024-01-07', '2024-01-31', '2024-02-01', '2024-03-01'];
    for (const from of edges) {
      for (const to of edges) {
        if (from > to) continue;
        for (const currency of ['', 'BGN', 'EUR']) {
          assert.deepEqual(await windowTotals(from, to, currency), directTotals(from, to, currency || undefined), `${from}..${to} ${currency}`);
        }
      }
    }
  });

  test('a window without any day in a partition leaves that partition out', async () => {
    const bounds = await db.all(
      `SELECT currency, lo, hi, strftime(first_day, '%Y-%m-%d') AS first_day, strftime(last_day, '%Y-%m-%d') AS last_day
       FROM (${windowBoundsSql(SHAPE, { from: "DATE '2024-01-04'", to: "DATE '2024-01-31'" })}) ORDER BY currency`,
    );
    // BGN: 01-07 only (position 3, after position 2); EUR: 01-05 (position 6, after 5).
    assert.deepEqual(bounds, [
      { currency: 'BGN', lo: 2, hi: 3, first_day: '2024-01-07', last_day: '2024-01-07' },
      { currency: 'EUR', lo: 5, hi: 6, first_day: '2024-01-05', last_day: '2024-01-05' },
    ]);
    const none = await db.all(`SELECT * FROM (${windowBoundsSql(SHAPE, { from: "DATE '2024-01-08'", to: "DATE '2024-01-31'" })})`);
    assert.deepEqual(none, []);
  });

  test('spans: totals between arbitrary positions, e.g. month by month', async () => {
    // BGN January = positions (null, 3], February = (3, 4].
    const rows = await db.all(`WITH spans AS (SELECT * FROM (VALUES ('jan', NULL, 3), ('feb', 3, 4)) v(span, before_position, upto_position))
      SELECT span, item, days, amount, n FROM (${spanTotalsSql(SHAPE, { from: 'spans', carry: ['span'], upto: 'upto_position', before: 'before_position' })})
      ORDER BY span DESC, item`);
    assert.deepEqual(rows, [
      { span: 'jan', item: 'a', days: 2, amount: '10.10', n: 3 },
      { span: 'jan', item: 'b', days: 1, amount: '5.25', n: 3 },
      { span: 'feb', item: 'a', days: 1, amount: '-1.05', n: 4 },
      { span: 'feb', item: 'b', days: 1, amount: '100000000000000.01', n: 5 },
    ]);
  });

  test('one calendar (no partition columns) works the same', async () => {
    const shape: WindowSums = { table: 'test_flat', partitionBy: [], keys: ['item'], sums: { n: 'BIGINT' } };
    for (const sql of buildWindowSumsSql(shape, "SELECT item, day, n FROM test_source WHERE currency = 'BGN'")) await db.run(sql);
    const rows = await db.all(`WITH bounds AS (${windowBoundsSql(shape, { from: "DATE '2024-01-03'", to: "DATE '2024-02-01'" })})
      SELECT item, days, n FROM (${windowTotalsSql(shape, 'bounds')}) ORDER BY item`);
    // a: 01-03 (2) + 02-01 (4) = 6 over 2 days; b: 01-07 (3) + 02-01 (5) = 8 over 2 days.
    assert.deepEqual(rows, [{ item: 'a', days: 2, n: 6 }, { item: 'b', days: 2, n: 8 }]);
  });

  test('a lookup reads the looked-up slices only (dynamic filters on position)', async () => {
    const [plan] = await db.all(`EXPLAIN ANALYZE ${WINDOW_SQL}`, { from: '2024-01-03', to: '2024-01-07', currency: '' });
    assert.match(String(plan.explain_value), /Dynamic Filters:/);
    assert.match(String(plan.explain_value), /position=\d+/);
  });
});
