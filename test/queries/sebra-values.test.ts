// Values of every SEBRA endpoint against the hand-made fixture (see sebra-fixture.ts for the
// day table). Expected numbers are worked out by hand in the comments, not copied from output.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { writeSebraSnapshot } from '../helpers/snapshot.ts';
import { A, B, C, fixtureDays, fixturePayments } from './sebra-fixture.ts';

let app: TestApp;
before(async () => {
  app = await startTestApp(await writeSebraSnapshot(fixturePayments, fixtureDays));
});
after(() => app.close());

async function ok(path: string) {
  const response = await app.get(path);
  assert.equal(response.status, 200, `${path}: ${JSON.stringify(response.body)}`);
  return response.body;
}

const pick = <T extends Record<string, unknown>>(rows: T[], ...keys: string[]) =>
  rows.map((row) => Object.fromEntries(keys.map((key) => [key, row[key]])));

describe('getPeriodsWithMostPayments', () => {
  test('weekdays in 2024: Wednesday holds d1 + d6 = 100 + 400', async () => {
    const body = await ok('/api/sebra/getPeriodsWithMostPayments?weekdays&year=2024');
    assert.equal(body.endpoint, 'getPeriodsWithMostPayments');
    assert.equal(body.period, 'weekdays');
    assert.equal(body.period_key, 'weekday');
    assert.equal(body.ordered_by, 'total_amount');
    assert.deepEqual(body.filters, { currency: null, year: 2024, from: null, to: null, limit: null });
    // Wed: 100 + 400 = 500, counts 10 + 10, 2 days. The four 100-days tie on amount:
    // Tuesday (d5) has 40 payments so it comes first, then Mon(0), Thu(3), Fri(4) by weekday number.
    assert.deepEqual(pick(body.items, 'weekday', 'label', 'currency', 'total_amount', 'payment_count', 'observed_days', 'rank'), [
      { weekday: 2, label: 'Сряда', currency: 'BGN', total_amount: '500.00', payment_count: 20, observed_days: 2, rank: 1 },
      { weekday: 1, label: 'Вторник', currency: 'BGN', total_amount: '100.00', payment_count: 40, observed_days: 1, rank: 2 },
      { weekday: 0, label: 'Понеделник', currency: 'BGN', total_amount: '100.00', payment_count: 10, observed_days: 1, rank: 3 },
      { weekday: 3, label: 'Четвъртък', currency: 'BGN', total_amount: '100.00', payment_count: 10, observed_days: 1, rank: 4 },
      { weekday: 4, label: 'Петък', currency: 'BGN', total_amount: '100.00', payment_count: 10, observed_days: 1, rank: 5 },
    ]);
    assert.equal(body.count, 5);
  });

  test('days of month: the 7th (d6, 400) first; NO_PAYMENTS day 2024-02-08 absent', async () => {
    const body = await ok('/api/sebra/getPeriodsWithMostPayments?period=days&currency=BGN');
    assert.equal(body.period_key, 'day_of_month');
    // d6 = 7th: 400. Then ties at 100: the 6th (d5, 40 payments), then 1st, 2nd, 5th, 31st by day.
    assert.deepEqual(pick(body.items, 'day_of_month', 'label', 'total_amount', 'payment_count', 'rank'), [
      { day_of_month: 7, label: '7-мо число', total_amount: '400.00', payment_count: 10, rank: 1 },
      { day_of_month: 6, label: '6-то число', total_amount: '100.00', payment_count: 40, rank: 2 },
      { day_of_month: 1, label: '1-во число', total_amount: '100.00', payment_count: 10, rank: 3 },
      { day_of_month: 2, label: '2-ро число', total_amount: '100.00', payment_count: 10, rank: 4 },
      { day_of_month: 5, label: '5-то число', total_amount: '100.00', payment_count: 10, rank: 5 },
      { day_of_month: 31, label: '31-во число', total_amount: '100.00', payment_count: 10, rank: 6 },
    ]);
    assert.ok(!body.items.some((item: { day_of_month: number }) => item.day_of_month === 8));
  });

  test('months: each calendar month a row, per currency, limit applied after sorting', async () => {
    const body = await ok('/api/sebra/getPeriodsWithMostPayments?months');
    // BGN: Feb 2024 = 100*4 + 400 = 800 (counts 10+10+10+40+10 = 80, 5 days); Jan 2024 = 100 (10, 1 day).
    // EUR: Jan 2026 = 15.50 + 100.25 + 15.50 = 131.25 (counts 1 + 2 + 1 = 4, 2 days).
    assert.deepEqual(pick(body.items, 'year', 'month', 'label', 'currency', 'total_amount', 'payment_count', 'observed_days', 'rank'), [
      { year: 2024, month: 2, label: 'Февруари', currency: 'BGN', total_amount: '800.00', payment_count: 80, observed_days: 5, rank: 1 },
      { year: 2024, month: 1, label: 'Януари', currency: 'BGN', total_amount: '100.00', payment_count: 10, observed_days: 1, rank: 2 },
      { year: 2026, month: 1, label: 'Януари', currency: 'EUR', total_amount: '131.25', payment_count: 4, observed_days: 2, rank: 1 },
    ]);
    const limited = await ok('/api/sebra/getPeriodsWithMostPayments?months&limit=1');
    assert.deepEqual(pick(limited.items, 'year', 'month', 'currency', 'rank'), [
      { year: 2024, month: 2, currency: 'BGN', rank: 1 },
      { year: 2026, month: 1, currency: 'EUR', rank: 1 },
    ]);
    assert.equal(limited.filters.limit, 1);
  });

  test('a window cuts exactly: from=02-2024 to=06-02-2024 keeps d2..d5 (4 x 100)', async () => {
    const body = await ok('/api/sebra/getPeriodsWithMostPayments?months&from=02-2024&to=06-02-2024');
    assert.deepEqual(body.filters, { currency: null, year: null, from: '2024-02-01', to: '2024-02-06', limit: null });
    assert.deepEqual(pick(body.items, 'year', 'month', 'total_amount', 'payment_count', 'observed_days'), [
      { year: 2024, month: 2, total_amount: '400.00', payment_count: 70, observed_days: 4 },
    ]);
  });
});

describe('getTaxonomyForYear / getTaxonomyForPeriod', () => {
  test('2024: buckets, shares and accounts', async () => {
    const body = await ok('/api/sebra/getTaxonomyForYear/2024');
    // Year total 100*5 + 400 = 900. Buckets:
    //   capital   50: 300                     -> 300/900 = 33.33 %
    //   salaries  01: 30*4 + 40 + 30 = 190     -> 21.11 %, counts 2*5 + 1 = 11
    //   social    40: 30*6 = 180               -> 20.00 %, counts 4*5 + 34 = 54
    //   transfers '' (Трансфери за местни дейности): 20*6 = 120 -> 13.33 %, counts 6
    //   maintenance 10: 20*5 + 10 = 110        -> 12.22 %, counts 3*6 = 18
    assert.equal(body.year, 2024);
    assert.deepEqual(body.year_totals, [{ currency: 'BGN', total_amount: '900.00' }]);
    assert.deepEqual(body.filters, { currency: null, year: 2024, from: '2024-01-01', to: '2024-12-31' });
    assert.deepEqual(pick(body.items, 'category_key', 'currency', 'total_amount', 'share_percent', 'payment_count', 'account_count', 'rank'), [
      { category_key: 'capital', currency: 'BGN', total_amount: '300.00', share_percent: '33.33', payment_count: 1, account_count: 1, rank: 1 },
      { category_key: 'salaries', currency: 'BGN', total_amount: '190.00', share_percent: '21.11', payment_count: 11, account_count: 1, rank: 2 },
      { category_key: 'social', currency: 'BGN', total_amount: '180.00', share_percent: '20.00', payment_count: 54, account_count: 1, rank: 3 },
      { category_key: 'transfers', currency: 'BGN', total_amount: '120.00', share_percent: '13.33', payment_count: 6, account_count: 1, rank: 4 },
      { category_key: 'maintenance', currency: 'BGN', total_amount: '110.00', share_percent: '12.22', payment_count: 18, account_count: 1, rank: 5 },
    ]);
    const transfers = body.items.find((item: { category_key: string }) => item.category_key === 'transfers');
    assert.deepEqual(transfers.accounts, [
      { code: '', description: 'Трансфери за местни дейности', total_amount: '120.00', payment_count: 6, rank: 1 },
    ]);
    assert.equal(body.items[0].category, 'Капиталови разходи');
  });

  test('always-present buckets are zero where the window has no spend', async () => {
    const body = await ok('/api/sebra/getTaxonomyForYear?year=2024&currency=EUR');
    // 2024 has BGN days only: EUR shows salaries, maintenance, capital at 0, in bucket order.
    assert.deepEqual(body.year_totals, [{ currency: 'EUR', total_amount: '0.00' }]);
    assert.deepEqual(pick(body.items, 'category_key', 'total_amount', 'share_percent', 'payment_count', 'account_count', 'accounts', 'rank'), [
      { category_key: 'salaries', total_amount: '0.00', share_percent: '0.00', payment_count: 0, account_count: 0, accounts: [], rank: 1 },
      { category_key: 'maintenance', total_amount: '0.00', share_percent: '0.00', payment_count: 0, account_count: 0, accounts: [], rank: 2 },
      { category_key: 'capital', total_amount: '0.00', share_percent: '0.00', payment_count: 0, account_count: 0, accounts: [], rank: 3 },
    ]);
  });

  test('2026 in EUR: social 100.25 / 131.25 = 76.38 %, salaries 31.00 / 131.25 = 23.62 %', async () => {
    const body = await ok('/api/sebra/getTaxonomyForYear/2026');
    assert.deepEqual(body.year_totals, [{ currency: 'EUR', total_amount: '131.25' }]);
    assert.deepEqual(pick(body.items, 'category_key', 'total_amount', 'share_percent', 'rank'), [
      { category_key: 'social', total_amount: '100.25', share_percent: '76.38', rank: 1 },
      { category_key: 'salaries', total_amount: '31.00', share_percent: '23.62', rank: 2 },
      { category_key: 'maintenance', total_amount: '0.00', share_percent: '0.00', rank: 3 },
      { category_key: 'capital', total_amount: '0.00', share_percent: '0.00', rank: 4 },
    ]);
  });

  test('period variant over January 2024 (d1 only) and the currency split', async () => {
    const body = await ok('/api/sebra/getTaxonomyForPeriod?from=01-2024&to=01-2024');
    assert.deepEqual(body.filters, { currency: null, from: '2024-01-01', to: '2024-01-31' });
    // d1: 01 30, 10 20, 40 30, '' 20 = 100; no capital -> capital present at 0.
    assert.deepEqual(body.period_totals, [{ currency: 'BGN', total_amount: '100.00' }]);
    assert.deepEqual(pick(body.items, 'category_key', 'total_amount', 'share_percent', 'rank'), [
      { category_key: 'salaries', total_amount: '30.00', share_percent: '30.00', rank: 1 },
      { category_key: 'social', total_amount: '30.00', share_percent: '30.00', rank: 2 },
      { category_key: 'maintenance', total_amount: '20.00', share_percent: '20.00', rank: 3 },
      { category_key: 'transfers', total_amount: '20.00', share_percent: '20.00', rank: 4 },
      { category_key: 'capital', total_amount: '0.00', share_percent: '0.00', rank: 5 },
    ]);
    const split = await ok('/api/sebra/getTaxonomyForPeriod?from=01-01-2024');
    // to defaults to today (2026-11-22): both currencies, each with its own total.
    assert.equal(split.filters.to, '2026-11-22');
    assert.deepEqual(split.period_totals, [
      { currency: 'BGN', total_amount: '900.00' },
      { currency: 'EUR', total_amount: '131.25' },
    ]);
  });
});

describe('getMostSponsoredProgramme', () => {
  test('ranked per currency by amount', async () => {
    const body = await ok('/api/sebra/getMostSponsoredProgramme');
    // BGN: A = 50*5 + 350 = 600 (counts 5*5 + 5 = 30); B = 180 (54); C = 120 (6).
    // EUR: B = 100.25 (2) ahead of A = 31.00 (2).
    assert.deepEqual(body.items, [
      { programme: A, payment_count: 30, total_amount: '600.00', currency: 'BGN', rank: 1 },
      { programme: B, payment_count: 54, total_amount: '180.00', currency: 'BGN', rank: 2 },
      { programme: C, payment_count: 6, total_amount: '120.00', currency: 'BGN', rank: 3 },
      { programme: B, payment_count: 2, total_amount: '100.25', currency: 'EUR', rank: 1 },
      { programme: A, payment_count: 2, total_amount: '31.00', currency: 'EUR', rank: 2 },
    ]);
    assert.deepEqual(body.filters, { year: null, from: null, to: null, currency: null, limit: null });
  });

  test('year and limit', async () => {
    const body = await ok('/api/sebra/getMostSponsoredProgramme/2024?limit=2');
    assert.deepEqual(pick(body.items, 'programme', 'rank'), [{ programme: A, rank: 1 }, { programme: B, rank: 2 }]);
    assert.deepEqual(body.filters, { year: 2024, from: null, to: null, currency: null, limit: 2 });
  });
});

describe('getUnusualPayments', () => {
  test('the four lists for 2024', async () => {
    const body = await ok('/api/sebra/getUnusualPayments/2024');
    assert.deepEqual(body.filters, { year: 2024, from: null, to: null, currency: null, limit: 5 });
    assert.match(body.method, /z >= 2/);
    // Day totals 100,100,100,100,100,400: mean 150, deviations -50 x5 and +250,
    // population variance (5*2500 + 62500)/6 = 12500, sd 111.80; z(400) = 250/111.80 = 2.236 -> 2.24.
    assert.deepEqual(body.unusual_days, [
      { payment_date: '2024-02-07', currency: 'BGN', total_amount: '400.00', mean_amount: '150.00', zscore: '2.24', payment_count: 10, rank: 1 },
    ]);
    // A pays 50 on five days and 350 on d6: mean 100, same shape, z = 2.24. B and C pay a constant (sd 0).
    assert.deepEqual(body.unusual_programmes, [
      { programme: A, payment_date: '2024-02-07', currency: 'BGN', total_amount: '350.00', mean_amount: '100.00', zscore: '2.24', observed_days: 6, rank: 1 },
    ]);
    // January (d1) vs February (d2..d6): salaries 30 -> 30+40+30+30+30 = 160 (5.33x); social 30 -> 150 (5.00x);
    // transfers 20 -> 100 (5.00x, after social by bucket order); maintenance 20 -> 20+10+20+20+20 = 90 (4.50x).
    // Capital has no January, so no comparison.
    assert.deepEqual(pick(body.expense_spikes, 'category_key', 'month', 'total_amount', 'previous_amount', 'increase_ratio', 'rank'), [
      { category_key: 'salaries', month: '2024-02', total_amount: '160.00', previous_amount: '30.00', increase_ratio: '5.33', rank: 1 },
      { category_key: 'social', month: '2024-02', total_amount: '150.00', previous_amount: '30.00', increase_ratio: '5.00', rank: 2 },
      { category_key: 'transfers', month: '2024-02', total_amount: '100.00', previous_amount: '20.00', increase_ratio: '5.00', rank: 3 },
      { category_key: 'maintenance', month: '2024-02', total_amount: '90.00', previous_amount: '20.00', increase_ratio: '4.50', rank: 4 },
    ]);
    assert.equal(body.expense_spikes[0].category, 'Заплати и възнаграждения');
    // Counts 10,10,10,10,40,10: mean 15, variance (4*25 + 625 + 25)/6 = 125, sd 11.18; z(40) = 25/11.18 = 2.24.
    assert.deepEqual(body.unusual_payment_counts, [
      { payment_date: '2024-02-06', currency: 'BGN', payment_count: 40, mean_count: '15.00', zscore: '2.24', total_amount: '100.00', rank: 1 },
    ]);
  });

  test('limit caps each list; a window without spikes gives an empty list', async () => {
    const limited = await ok('/api/sebra/getUnusualPayments?year=2024&limit=2');
    assert.deepEqual(limited.expense_spikes.map((s: { category_key: string }) => s.category_key), ['salaries', 'social']);
    // February alone: no previous month inside the window, so no spikes; z-scores over d2..d6 only:
    // totals 100,100,100,100,400 -> mean 160, sd 120, z(400) = 2.00 exactly, which counts (>= 2).
    const february = await ok('/api/sebra/getUnusualPayments?from=02-2024&to=02-2024');
    assert.deepEqual(february.expense_spikes, []);
    assert.deepEqual(pick(february.unusual_days, 'payment_date', 'mean_amount', 'zscore'), [
      { payment_date: '2024-02-07', mean_amount: '160.00', zscore: '2.00' },
    ]);
  });

  test('EUR has two days only: nothing is unusual', async () => {
    const body = await ok('/api/sebra/getUnusualPayments/2026?currency=EUR');
    // Totals 115.75 and 15.50: z = +1 and -1.
    assert.deepEqual(body.unusual_days, []);
    assert.deepEqual(body.unusual_programmes, []);
    assert.deepEqual(body.expense_spikes, []);
    assert.deepEqual(body.unusual_payment_counts, []);
  });
});
