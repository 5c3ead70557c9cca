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

// Keys start late, skip days, stop early, and one sum is exact money (the calendar is every day with a row):
//   BGN a: 01-02, 01-03, 02-01   BGN b: 01-07, 02-01   EUR c: 01-03   EUR a: 01-05
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
  keys: ['currency', 'item'],
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

const WINDOW_SQL = `WITH bounds AS (${windowBoundsSql(SHAPE, { from: 'CAST($from AS DATE)', to: 'CAST($to AS DATE)' })})
  SELECT * FROM (${windowTotalsSql(SHAPE, 'bounds')}) WHERE $currency = '' OR currency = $currency ORDER BY currency, item`;

async function windowTotals(from: string, to: string, currency = '') {
  const rows = await db.all(WINDOW_SQL, { from, to, currency });
  return Object.fromEntries(rows.map((r) => [`${r.currency}|${r.item}`, { days: Number(r.days), amount: r.amount, n: Number(r.n) }]));
}

describe('windowSums', () => {
  test('the calendar numbers the days with a row in date order', async () => {
    const days = await db.all(`SELECT strftime(day, '%m-%d') AS day, position FROM ${calendarTable(SHAPE)} ORDER BY position`);
    assert.deepEqual(days, [
      { day: '01-02', position: 1 },
      { day: '01-03', position: 2 },
      { day: '01-05', position: 3 },
      { day: '01-07', position: 4 },
      { day: '02-01', position: 5 },
    ]);
  });

  test('running totals: one row per key and calendar day from its first row on', async () => {
    const rows = await db.all(`SELECT position, currency, item, days, amount, n FROM ${SHAPE.table} ORDER BY position, currency, item`);
    assert.deepEqual(rows, [
      { position: 1, currency: 'BGN', item: 'a', days: 1, amount: '10.10', n: 1 },
      { position: 2, currency: 'BGN', item: 'a', days: 2, amount: '10.10', n: 3 },
      { position: 2, currency: 'EUR', item: 'c', days: 1, amount: '7.00', n: 6 },
      { position: 3, currency: 'BGN', item: 'a', days: 2, amount: '10.10', n: 3 },
      { position: 3, currency: 'EUR', item: 'a', days: 1, amount: '2.50', n: 7 },
      { position: 3, currency: 'EUR', item: 'c', days: 1, amount: '7.00', n: 6 },
      { position: 4, currency: 'BGN', item: 'a', days: 2, amount: '10.10', n: 3 },
      { position: 4, currency: 'BGN', item: 'b', days: 1, amount: '5.25', n: 3 },
      { position: 4, currency: 'EUR', item: 'a', days: 1, amount: '2.50', n: 7 },
      { position: 4, currency: 'EUR', item: 'c', days: 1, amount: '7.00', n: 6 },
      { position: 5, currency: 'BGN', item: 'a', days: 3, amount: '9.05', n: 7 },
      { position: 5, currency: 'BGN', item: 'b', days: 2, amount: '100000000000005.26', n: 8 },
      { position: 5, currency: 'EUR', item: 'a', days: 1, amount: '2.50', n: 7 },
      { position: 5, currency: 'EUR', item: 'c', days: 1, amount: '7.00', n: 6 },
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

  test('bounds: the positions around the window, and no row when it has no day', async () => {
    const bounds = await db.all(
      `SELECT lo, hi, strftime(first_day, '%Y-%m-%d') AS first_day, strftime(last_day, '%Y-%m-%d') AS last_day
       FROM (${windowBoundsSql(SHAPE, { from: "DATE '2024-01-04'", to: "DATE '2024-01-31'" })})`,
    );
    // Days 01-05 (position 3) and 01-07 (4) are inside; 01-03 (2) is the last before.
    assert.deepEqual(bounds, [{ lo: 2, hi: 4, first_day: '2024-01-05', last_day: '2024-01-07' }]);
    const none = await db.all(`SELECT * FROM (${windowBoundsSql(SHAPE, { from: "DATE '2024-01-08'", to: "DATE '2024-01-31'" })})`);
    assert.deepEqual(none, []);
  });

  test('spans: totals between arbitrary positions, e.g. month by month', async () => {
    // January = positions (null, 4], February = (4, 5].
    const rows = await db.all(`WITH spans AS (SELECT * FROM (VALUES ('jan', NULL, 4), ('feb', 4, 5)) v(span, before_position, upto_position))
      SELECT span, currency, item, days, amount, n
      FROM (${spanTotalsSql(SHAPE, { from: 'spans', carry: ['span'], upto: 'upto_position', before: 'before_position' })})
      ORDER BY span DESC, currency, item`);
    assert.deepEqual(rows, [
      { span: 'jan', currency: 'BGN', item: 'a', days: 2, amount: '10.10', n: 3 },
      { span: 'jan', currency: 'BGN', item: 'b', days: 1, amount: '5.25', n: 3 },
      { span: 'jan', currency: 'EUR', item: 'a', days: 1, amount: '2.50', n: 7 },
      { span: 'jan', currency: 'EUR', item: 'c', days: 1, amount: '7.00', n: 6 },
      { span: 'feb', currency: 'BGN', item: 'a', days: 1, amount: '-1.05', n: 4 },
      { span: 'feb', currency: 'BGN', item: 'b', days: 1, amount: '100000000000000.01', n: 5 },
    ]);
  });

  test('a lookup reads the looked-up slices only, also for a window from before the first day', async () => {
    // 400 keys x 2 000 days = 800 000 running rows (seven row groups); the two looked-up slices are 800
    // of them, in at most two row groups (zone maps prune whole row groups).
    const shape: WindowSums = { table: 'test_big', keys: ['item'], sums: { n: 'BIGINT' } };
    await db.run(`CREATE TABLE test_big_source AS
      SELECT i % 400 AS item, DATE '2020-01-01' + CAST(i // 400 AS INTEGER) AS day, 1 AS n FROM range(800000) r(i)`);
    for (const sql of buildWindowSumsSql(shape, 'SELECT item, day, n FROM test_big_source')) await db.run(sql);
    for (const [from, to] of [['2019-01-01', '2021-03-01'], ['2021-02-01', '2024-03-01'], ['2020-02-01', '2030-01-01']]) {
      const sql = `WITH bounds AS (${windowBoundsSql(shape, { from: `DATE '${from}'`, to: `DATE '${to}'` })})
        SELECT count(*) AS keys, sum(n) AS n FROM (${windowTotalsSql(shape, 'bounds')})`;
      const [plan] = await db.all(`EXPLAIN (ANALYZE, FORMAT json) ${sql}`);
      let scanned = 0;
      const walk = (node: any) => {
        if (String(node.extra_info?.Table ?? '').endsWith('test_big')) scanned += Number(node.operator_rows_scanned ?? 0);
        for (const child of node.children ?? []) walk(child);
      };
      walk(JSON.parse(String(plan.explain_value)));
      assert.ok(scanned <= 2 * 122_880, `${from}..${to}: ${scanned} running rows scanned`);
    }
  });

  test('a lookup reads the looked-up slices only (dynamic filters on position)', async () => {
    const [plan] = await db.all(`EXPLAIN ANALYZE ${WINDOW_SQL}`, { from: '2024-01-03', to: '2024-01-07', currency: '' });
    assert.match(String(plan.explain_value), /Dynamic Filters:/);
    assert.match(String(plan.explain_value), /position=\d+/);
  });
});
