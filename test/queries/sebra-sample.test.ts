// The SEBRA endpoints over the full generated sample, as `npm start` serves it (the run's shared
// sample, test/http/sample-app.ts): the endpoints agree with each other, and every unusual-payment
// list is non-empty.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TestApp } from '../helpers/app.ts';
import { startSampleApp } from '../http/sample-app.ts';

let app: TestApp;
before(async () => {
  app = await startSampleApp('sebra-sample-');
});
after(() => app?.close());

async function ok(url: string) {
  const response = await app.get(url);
  assert.equal(response.status, 200, `${url}: ${JSON.stringify(response.body)}`);
  return response.body;
}

/** Exact sum of decimal strings, in cents. */
function cents(amounts: string[]): bigint {
  return amounts.reduce((sum, amount) => {
    const negative = amount.startsWith('-');
    const [whole, fraction] = amount.replace('-', '').split('.');
    const value = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
    return sum + (negative ? -value : value);
  }, 0n);
}

type Item = { currency: string; total_amount: string; payment_count?: number };
const totalsByCurrency = (items: Item[]) => {
  const byCurrency = new Map<string, string[]>();
  for (const item of items) byCurrency.set(item.currency, [...(byCurrency.get(item.currency) ?? []), item.total_amount]);
  return Object.fromEntries([...byCurrency].map(([currency, amounts]) => [currency, cents(amounts)]));
};
const countsByCurrency = (items: Item[]) => {
  const counts: Record<string, number> = {};
  for (const item of items) counts[item.currency] = (counts[item.currency] ?? 0) + (item.payment_count ?? 0);
  return counts;
};

for (const year of [2024, 2025, 2026]) {
  test(`${year}: months = taxonomy year total = days of month = weekdays = programmes`, async () => {
    const months = await ok(`/api/sebra/getPeriodsWithMostPayments?months&year=${year}`);
    const days = await ok(`/api/sebra/getPeriodsWithMostPayments?days&year=${year}`);
    const weekdays = await ok(`/api/sebra/getPeriodsWithMostPayments?weekdays&year=${year}`);
    const taxonomy = await ok(`/api/sebra/getTaxonomyForYear/${year}`);
    const programmes = await ok(`/api/sebra/getMostSponsoredProgramme/${year}`);
    const byMonth = totalsByCurrency(months.items);

    assert.deepEqual(totalsByCurrency(taxonomy.year_totals), byMonth);
    assert.deepEqual(totalsByCurrency(taxonomy.items), byMonth);
    assert.deepEqual(totalsByCurrency(days.items), byMonth);
    assert.deepEqual(totalsByCurrency(weekdays.items), byMonth);
    assert.deepEqual(totalsByCurrency(programmes.items), byMonth);
    assert.deepEqual(countsByCurrency(days.items), countsByCurrency(months.items));
    assert.deepEqual(countsByCurrency(programmes.items), countsByCurrency(months.items));
    // The sample's currency: lev to 2025, euro from 2026.
    assert.deepEqual(Object.keys(byMonth), [year < 2026 ? 'BGN' : 'EUR']);
    // Bucket shares of one currency add up to 100 within rounding (7 buckets x 0.005).
    const shares = taxonomy.items.map((item: { share_percent: string }) => Number(item.share_percent));
    assert.ok(Math.abs(shares.reduce((a: number, b: number) => a + b, 0) - 100) <= 0.035);
    // Each bucket's accounts add up to the bucket.
    for (const item of taxonomy.items) {
      assert.equal(cents(item.accounts.map((a: Item) => a.total_amount)), cents([item.total_amount]), item.category_key);
    }
  });

  test(`${year}: every unusual-payment list is non-empty`, async () => {
    const body = await ok(`/api/sebra/getUnusualPayments/${year}`);
    for (const list of ['unusual_days', 'unusual_programmes', 'expense_spikes', 'unusual_payment_counts']) {
      assert.ok(body[list].length > 0, `${list} is empty for ${year}`);
      assert.ok(body[list].length <= 5, `${list} exceeds the default limit`);
      assert.deepEqual(body[list].map((item: { rank: number }) => item.rank), body[list].map((_: unknown, i: number) => i + 1));
    }
  });
}

test('full history: every unusual-payment list is non-empty, and a month total equals the sum of its days', async () => {
  const body = await ok('/api/sebra/getUnusualPayments');
  for (const list of ['unusual_days', 'unusual_programmes', 'expense_spikes', 'unusual_payment_counts']) {
    assert.ok(body[list].length > 0, `${list} is empty`);
  }
  const march = await ok('/api/sebra/getPeriodsWithMostPayments?months&from=03-2025&to=03-2025');
  const marchDays = await ok('/api/sebra/getTaxonomyForPeriod?from=01-03-2025&to=31-03-2025');
  assert.equal(march.count, 1);
  assert.equal(cents([march.items[0].total_amount]), cents(marchDays.period_totals.map((t: Item) => t.total_amount)));
});
