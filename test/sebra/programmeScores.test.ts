// unusual_programmes from the in-memory index (programmeScores.ts: running sums, a range-maximum tree and
// a merge over programmes) against a plain window-function statement written here, over many random
// windows (a fixed seed; single days among them), every currency and limit: the rows (decimals, ranks, tie-breaks) must be identical. The lines
// hold large payouts (sums of squares above 2^64), constant programmes, identical series (tied scores),
// programmes with fewer than five days and negative payouts.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { businessDays, randoms } from '../helpers/sebraDays.ts';
import { writeSebraSnapshot, type FixtureDay, type FixturePayment } from '../helpers/snapshot.ts';
import { unusualProgrammeItems } from '../../domains/sebra/queries/programmeScores.ts';

const random = randoms(29);
const money = (cents: number) => `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;
const BGN_DAYS = businessDays('2025-03-03', '2025-08-29');
const EUR_DAYS = businessDays('2026-01-05', '2026-03-31');
const payments: FixturePayment[] = [];
const pay = (date: string, currency: 'BGN' | 'EUR', programme: string, cents: number) =>
  payments.push({ date, currency, programme, code: '10', description: 'Издръжка', amount: money(cents), count: 1 });
for (const [currency, days] of [['BGN', BGN_DAYS], ['EUR', EUR_DAYS]] as const) {
  for (let p = 0; p < 12; p++) {
    const activity = 0.3 + 0.7 * random();
    const base = p < 3 ? 1e11 + Math.floor(random() * 2e11) : 1000 + Math.floor(random() * 900_000);
    for (const date of days) {
      if (random() > activity) continue;
      const spike = random() < 0.05 ? 3 + Math.floor(random() * 8) : 1;
      pay(date, currency, `Програма ${p}`, Math.floor(base * spike * (0.5 + random())) - (p === 5 ? 400_000 : 0));
    }
  }
  days.forEach((date, i) => {
    pay(date, currency, 'CONST', 10_000);
    const tied = i % 13 === 4 ? 90_000 : 20_000 + (i % 3) * 500;
    pay(date, currency, 'TIE-A', tied);
    pay(date, currency, 'TIE-B', tied);
    if (i % 2 === 0) pay(date, currency, 'REPEAT', i % 10 === 0 ? 70_000 : 30_000); // equal spikes: ties by date
  });
  for (const date of days.slice(2, 6)) pay(date, currency, 'SHORT', 500_000);
}
const days: FixtureDay[] = [
  ...BGN_DAYS.map((date): FixtureDay => ({ date, currency: 'BGN', status: 'HAS_PAYMENTS' })),
  ...EUR_DAYS.map((date): FixtureDay => ({ date, currency: 'EUR', status: 'HAS_PAYMENTS' })),
];

/** The plain definition: every programme's days in the window scored by window functions over exact cents. */
const PLAIN_SQL = `
  WITH lines AS (
    SELECT p.programme, p.currency, d.payment_date, d.total_amount, CAST(d.total_amount * 100 AS HUGEINT) AS x
    FROM sebra_programme_daily d JOIN sebra_programmes p USING (programme_id)
    WHERE d.payment_date BETWEEN CAST($from AS DATE) AND CAST($to AS DATE) AND ($currency = '' OR p.currency = $currency)
  ), summed AS (
    SELECT *, count(*) OVER w AS n, sum(x) OVER w AS s, sum(x * x) OVER w AS q
    FROM lines WINDOW w AS (PARTITION BY programme, currency)
  ), scored AS (
    SELECT *, CAST(n * x - s AS DOUBLE) / sqrt(CAST(n * q - s * s AS DOUBLE)) AS z FROM summed WHERE n >= 5 AND n * q - s * s > 0
  )
  SELECT programme, payment_date, currency, total_amount, CAST(CAST(s AS DOUBLE) / (n * 100) AS DECIMAL(38,2)) AS mean_amount,
         CAST(round(z, 2) AS DECIMAL(38,2)) AS zscore, n::BIGINT AS observed_days,
         row_number() OVER (ORDER BY z DESC, payment_date, programme, currency) AS rank
  FROM scored WHERE z >= 2 - 1e-9 ORDER BY rank LIMIT CAST($limit AS BIGINT)`;

let app: TestApp;
before(async () => {
  app = await startTestApp(await writeSebraSnapshot(payments, days));
});
after(() => app?.close());

test('unusual_programmes from the in-memory index equal the plain statement on random windows', async () => {
  const all = [...BGN_DAYS, ...EUR_DAYS];
  const windows: Array<[string, string]> = [['0001-01-01', '9999-12-31'], ['2025-01-01', '2025-12-31'], ['2026-02-01', '2026-02-28'], ['2025-05-14', '2025-05-14']];
  const pick = randoms(3);
  for (let i = 0; i < 20; i++) {
    const a = all[Math.floor(pick() * all.length)];
    const b = i % 4 === 0 ? a : all[Math.floor(pick() * all.length)];
    windows.push(a <= b ? [a, b] : [b, a]);
  }
  let nonEmpty = 0;
  let ties = 0;
  for (const [from, to] of windows) {
    for (const currency of ['', 'BGN', 'EUR']) {
      for (const limit of [1, 5, 100, 500]) {
        const expected = await app.db.all(PLAIN_SQL, { from, to, currency, limit });
        const actual = await unusualProgrammeItems(app.db, { from, to, currency, limit }, 5);
        assert.deepEqual(actual, expected, `${from}..${to} ${currency} ${limit}`);
        if (expected.length > 0) nonEmpty++;
        if (expected.some((row, k) => k > 0 && row.zscore === expected[k - 1].zscore)) ties++;
      }
    }
  }
  assert.ok(nonEmpty > 150, `only ${nonEmpty} non-empty lists`);
  assert.ok(ties > 18, `only ${ties} lists with tied scores`);
});
