// Every SEBRA route over many windows (whole years and months, windows cutting months, single days,
// open ends) against values computed here directly from the payment lines, in JavaScript: the
// routes read precomputed shapes (running totals, a month sparse table, candidate programmes), so
// this checks that no window, limit or currency makes them differ from a plain sum over the lines.
// The generated lines hold constant programmes (no spread), programmes with identical series (tied
// z-scores), programmes with fewer than five days, spikes on the first and last days of months and
// a NO_PAYMENTS day whose lines must be ignored. getUnusualPayments is asked once per request and its
// lists checked by one test each; getPeriodsWithMostPayments over every fourth combination of window,
// period, currency and limit, and always every period over all time and every window without lines.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { combinations, strided } from '../helpers/sample.ts';
import { businessDays, randoms } from '../helpers/sebraDays.ts';
import { writeSebraSnapshot, type FixtureDay, type FixturePayment } from '../helpers/snapshot.ts';

type Currency = 'BGN' | 'EUR';

const ACCOUNTS = [
  { code: '01', description: 'Заплати' },
  { code: '10', description: 'Издръжка' },
  { code: '50', description: 'Капиталови' },
  { code: '40', description: 'Помощи' },
  { code: '', description: 'Трансфери за местни дейности' },
];

const NO_PAYMENTS_DAY = '2024-12-24';
const BGN_DAYS = businessDays('2024-11-01', '2025-02-28').filter((day) => day !== NO_PAYMENTS_DAY);
const EUR_DAYS = businessDays('2026-01-02', '2026-02-27');

/** Lines: one or two per programme and paying day, amounts in cents. */
function generate(): { payments: FixturePayment[]; days: FixtureDay[] } {
  const random = randoms(7);
  const payments: FixturePayment[] = [];
  const money = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
  const pay = (date: string, currency: Currency, programme: string, cents: number) => {
    const account = ACCOUNTS[Math.floor(random() * ACCOUNTS.length)];
    const split = random() < 0.3 ? Math.floor(cents / 3) : 0;
    payments.push({ date, currency, programme, code: account.code, description: account.description, amount: money(cents - split), count: 1 + Math.floor(random() * 4) });
    if (split > 0) payments.push({ date, currency, programme, code: '10', description: 'Издръжка', amount: money(split), count: null });
  };
  const series = (currency: Currency, days: string[]) => {
    for (let p = 0; p < 14; p++) {
      const programme = `P${String(p).padStart(2, '0')}`;
      const activity = 0.4 + 0.6 * random();
      const base = 1000 + Math.floor(random() * 90_000);
      for (const date of days) {
        if (random() > activity) continue;
        const spike = random() < 0.04 ? 3 + Math.floor(random() * 6) : 1;
        pay(date, currency, programme, Math.floor(base * spike * (0.7 + 0.6 * random())));
      }
    }
    days.forEach((date, i) => {
      pay(date, currency, 'CONST', 10_000); // no spread: never unusual
      // Two identical series: equal z-scores, told apart by the programme name (shaped apart per currency,
      // so that a BGN and an EUR score are not equal too: those would be told apart by rounding only).
      const tied = i % 17 === 5 ? (currency === 'BGN' ? 90_000 : 70_000) : 20_000 + (i % 3) * 500;
      pay(date, currency, 'TIE-A', tied);
      pay(date, currency, 'TIE-B', tied);
      // Spikes on each month's first and last paying day: windows that cut months see them or not.
      const month = date.slice(0, 7);
      const edge = date === days.find((d) => d.startsWith(month)) || date === days.filter((d) => d.startsWith(month)).at(-1);
      pay(date, currency, 'EDGE', edge ? 150_000 : 30_000 + (i % 5) * 700);
    });
    for (const date of days.slice(3, 7)) pay(date, currency, 'SHORT', 500_000); // four days only
  };
  series('BGN', BGN_DAYS);
  series('EUR', EUR_DAYS);
  // A NO_PAYMENTS day: its lines are ignored everywhere.
  payments.push({ date: NO_PAYMENTS_DAY, currency: 'BGN', programme: 'P00', code: '10', description: 'Издръжка', amount: '9999999.00', count: 5 });
  const days: FixtureDay[] = [
    ...BGN_DAYS.map((date): FixtureDay => ({ date, currency: 'BGN', status: 'HAS_PAYMENTS' })),
    ...EUR_DAYS.map((date): FixtureDay => ({ date, currency: 'EUR', status: 'HAS_PAYMENTS' })),
    { date: NO_PAYMENTS_DAY, currency: 'BGN', status: 'NO_PAYMENTS' },
  ];
  return { payments, days };
}

const { payments, days } = generate();
const counted = payments.filter((p) => p.date !== NO_PAYMENTS_DAY);

const cents = (amount: string): bigint => {
  const negative = amount.startsWith('-');
  const [whole, fraction = ''] = (negative ? amount.slice(1) : amount).split('.');
  const value = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
  return negative ? -value : value;
};
const money = (value: bigint): string => {
  const abs = value < 0n ? -value : value;
  return `${value < 0n ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
};

interface Window { from: string; to: string; query: string }

/** Lines of the window, in the asked currency (all when none). */
function linesIn(window: Window, currency?: Currency): FixturePayment[] {
  return counted.filter((p) => p.date >= window.from && p.date <= window.to && (!currency || p.currency === currency));
}

/** The window's lines summed per key: exact cents, payment counts (a line without one is one payment), the days, and the group's first line. */
function sumLines(window: Window, currency: Currency | undefined, keyOf: (line: FixturePayment) => string) {
  const sums = new Map<string, { first: FixturePayment; amount: bigint; count: number; dates: Set<string> }>();
  for (const p of linesIn(window, currency)) {
    const key = keyOf(p);
    const sum = sums.get(key) ?? { first: p, amount: 0n, count: 0, dates: new Set<string>() };
    sum.amount += cents(p.amount);
    sum.count += p.count ?? 1;
    sum.dates.add(p.date);
    sums.set(key, sum);
  }
  return [...sums.values()];
}

/** getMostSponsoredProgramme, summed directly: ranked per currency by amount, then count, then name. */
function expectedProgrammes(window: Window, currency: Currency | undefined, limit: number | null) {
  const totals = sumLines(window, currency, (p) => `${p.currency}|${p.programme}`)
    .map(({ first, amount, count }) => ({ programme: first.programme, currency: first.currency, amount, count }));
  const items: object[] = [];
  for (const code of ['BGN', 'EUR']) {
    const ranked = totals
      .filter((t) => t.currency === code)
      .sort((a, b) => (a.amount !== b.amount ? (a.amount > b.amount ? -1 : 1) : b.count - a.count || (a.programme < b.programme ? -1 : 1)));
    ranked.slice(0, limit ?? undefined).forEach((t, i) =>
      items.push({ programme: t.programme, payment_count: t.count, total_amount: money(t.amount), currency: t.currency, rank: i + 1 }),
    );
  }
  return items;
}

/** unusual_programmes, scored directly: population z of each paying day against the programme's days in the window. */
function expectedUnusualProgrammes(window: Window, currency: Currency | undefined, limit: number) {
  const daily = new Map<string, Map<string, bigint>>();
  for (const p of linesIn(window, currency)) {
    const key = `${p.currency}|${p.programme}`;
    const byDay = daily.get(key) ?? new Map<string, bigint>();
    byDay.set(p.date, (byDay.get(p.date) ?? 0n) + cents(p.amount));
    daily.set(key, byDay);
  }
  const items: Array<{ programme: string; payment_date: string; currency: string; total_amount: string; z: number; mean: number; observed_days: number }> = [];
  for (const [key, byDay] of daily) {
    const [code, programme] = key.split('|');
    const values = [...byDay.values()].map((v) => Number(v) / 100);
    const n = values.length;
    if (n < 5) continue;
    const mean = values.reduce((a, b) => a + b, 0) / n;
    const sd = Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / n);
    if (sd === 0) continue;
    for (const [date, value] of byDay) {
      const z = (Number(value) / 100 - mean) / sd;
      if (z >= 2 - 1e-9) items.push({ programme, payment_date: date, currency: code, total_amount: money(value), z, mean, observed_days: n });
    }
  }
  items.sort((a, b) => b.z - a.z || (a.payment_date < b.payment_date ? -1 : a.payment_date > b.payment_date ? 1 : 0) ||
    (a.programme < b.programme ? -1 : a.programme > b.programme ? 1 : 0) || (a.currency < b.currency ? -1 : 1));
  return items.slice(0, limit).map((item, i) => ({ ...item, rank: i + 1 }));
}

/** getTaxonomyForPeriod's bucket totals per currency: category -> amount. */
function expectedBucketAmounts(window: Window, currency?: Currency): Record<string, string> {
  const byCode: Record<string, string> = { '01': 'salaries', '10': 'maintenance', '50': 'capital', '40': 'social', '': 'transfers' };
  const totals = new Map<string, bigint>();
  for (const p of linesIn(window, currency)) {
    const key = `${p.currency}|${byCode[p.code]}`;
    totals.set(key, (totals.get(key) ?? 0n) + cents(p.amount));
  }
  return Object.fromEntries([...totals].map(([key, value]) => [key, money(value)]));
}

/** Windows: whole months and years, windows cutting months, single days, open ends, none at all. */
function windows(): Window[] {
  const list: Window[] = [
    { from: '0001-01-01', to: '9999-12-31', query: '' },
    { from: '2025-01-01', to: '2025-12-31', query: 'year=2025' },
    { from: '2024-01-01', to: '2024-12-31', query: 'year=2024' },
    { from: '2026-01-01', to: '2026-12-31', query: 'year=2026' },
    { from: '2024-11-01', to: '2024-12-31', query: 'from=11-2024&to=12-2024' },
    { from: '2024-12-01', to: '2025-02-28', query: 'from=12-2024&to=02-2025' },
    { from: '2024-11-15', to: '2025-01-10', query: 'from=15-11-2024&to=10-01-2025' },
    { from: '2024-12-02', to: '2024-12-02', query: 'from=02-12-2024&to=02-12-2024' },
    { from: '2024-12-03', to: '2024-12-20', query: 'from=03-12-2024&to=20-12-2024' },
    { from: '2025-01-31', to: '2026-01-30', query: 'from=31-01-2025&to=30-01-2026' },
    { from: '0001-01-01', to: '2025-01-15', query: 'to=15-01-2025' },
    { from: '2025-02-03', to: '2026-11-22', query: 'from=03-02-2025' },
  ];
  const random = randoms(11);
  const all = [...BGN_DAYS, ...EUR_DAYS];
  for (let i = 0; i < 10; i++) {
    const a = all[Math.floor(random() * all.length)];
    const b = all[Math.floor(random() * all.length)];
    const [from, to] = a <= b ? [a, b] : [b, a];
    const dmy = (iso: string) => `${iso.slice(8, 10)}-${iso.slice(5, 7)}-${iso.slice(0, 4)}`;
    list.push({ from, to, query: `from=${dmy(from)}&to=${dmy(to)}` });
  }
  return list;
}

let app: TestApp;
before(async () => {
  app = await startTestApp(await writeSebraSnapshot(payments, days));
});
after(() => app?.close());

async function ok(path: string) {
  const response = await app.get(path);
  assert.equal(response.status, 200, `${path}: ${JSON.stringify(response.body)}`);
  return response.body;
}

const withQuery = (path: string, ...parts: string[]) => {
  const query = parts.filter((p) => p !== '').join('&');
  return query === '' ? path : `${path}?${query}`;
};

/** getUnusualPayments bodies by path: its day, count and spike lists are checked by separate tests over the same requests. */
const unusualBodies = new Map<string, Promise<any>>();
function unusualBody(path: string): Promise<any> {
  if (!unusualBodies.has(path)) unusualBodies.set(path, ok(path));
  return unusualBodies.get(path)!;
}

/** Every getUnusualPayments request of the fixture's non-empty windows, in each currency filter and limit. */
function* unusualRequests(currencies: ReadonlyArray<Currency | undefined>, limits: readonly number[]) {
  for (const window of windows()) {
    if (linesIn(window).length === 0) continue;
    for (const currency of currencies) {
      for (const limit of limits) {
        yield { window, currency, limit, path: withQuery('/api/sebra/getUnusualPayments', window.query, currency ? `currency=${currency}` : '', `limit=${limit}`) };
      }
    }
  }
}

/** getPeriodsWithMostPayments summed directly from the lines: ranked per currency by amount, then count, then the key. */
function expectedPeriods(period: 'days' | 'months' | 'weekdays', window: Window, currency: Currency | undefined, limit: number | null) {
  const keyOf = (date: string): number[] =>
    period === 'days' ? [Number(date.slice(8, 10))]
      : period === 'weekdays' ? [(new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7]
        : [Number(date.slice(0, 4)), Number(date.slice(5, 7))];
  const totals = sumLines(window, currency, (p) => `${p.currency}|${keyOf(p.date).join('|')}`)
    .map(({ first, amount, count, dates }) => ({ currency: first.currency, key: keyOf(first.date), amount, count, dates }));
  const names = period === 'days' ? ['day_of_month'] : period === 'weekdays' ? ['weekday'] : ['year', 'month'];
  const items: object[] = [];
  for (const code of ['BGN', 'EUR']) {
    const ranked = totals.filter((t) => t.currency === code).sort((a, b) =>
      a.amount !== b.amount ? (a.amount > b.amount ? -1 : 1) : b.count - a.count || a.key[0] - b.key[0] || (a.key[1] ?? 0) - (b.key[1] ?? 0));
    ranked.slice(0, limit ?? undefined).forEach((t, i) => items.push({
      ...Object.fromEntries(names.map((name, k) => [name, t.key[k]])),
      currency: t.currency, total_amount: money(t.amount), payment_count: t.count, observed_days: t.dates.size, rank: i + 1,
    }));
  }
  return items;
}

/** expense_spikes summed directly: a bucket's month inside the window at least twice the month before it (> 0), by ratio, month, bucket, currency. */
function expectedSpikes(window: Window, currency: Currency | undefined, limit: number) {
  const byCode: Record<string, string> = { '01': 'salaries', '10': 'maintenance', '50': 'capital', '40': 'social', '': 'transfers' };
  const order: Record<string, number> = { salaries: 1, maintenance: 2, capital: 3, social: 4, transfers: 5 };
  const monthly = new Map<string, bigint>();
  for (const p of linesIn(window, currency)) {
    const key = `${p.currency}|${byCode[p.code]}|${p.date.slice(0, 7)}`;
    monthly.set(key, (monthly.get(key) ?? 0n) + cents(p.amount));
  }
  const spikes: Array<{ category_key: string; currency: string; month: string; total_amount: string; previous_amount: string; ratio: number }> = [];
  for (const [key, amount] of monthly) {
    const [code, category, month] = key.split('|');
    const date = new Date(`${month}-01T00:00:00Z`);
    date.setUTCMonth(date.getUTCMonth() - 1);
    const previous = monthly.get(`${code}|${category}|${date.toISOString().slice(0, 7)}`);
    if (previous === undefined || previous <= 0n || amount < 2n * previous) continue;
    spikes.push({ category_key: category, currency: code, month, total_amount: money(amount), previous_amount: money(previous), ratio: Number(amount) / Number(previous) });
  }
  spikes.sort((a, b) => b.ratio - a.ratio || (a.month < b.month ? -1 : a.month > b.month ? 1 : 0) ||
    order[a.category_key] - order[b.category_key] || (a.currency < b.currency ? -1 : 1));
  return spikes.slice(0, limit).map((spike, i) => ({ ...spike, rank: i + 1 }));
}

/** unusual_days (by amount) or unusual_payment_counts (by count), scored directly: population z of each day against its currency's days in the window. */
function expectedUnusualDays(window: Window, currency: Currency | undefined, limit: number, measure: 'amount' | 'count') {
  const days = sumLines(window, currency, (p) => `${p.date}|${p.currency}`)
    .map(({ first, amount, count }) => ({ payment_date: first.date, currency: first.currency, amount, count }));
  const value = (day: { amount: bigint; count: number }) => (measure === 'amount' ? Number(day.amount) / 100 : day.count);
  const items: Array<{ payment_date: string; currency: string; total_amount: string; payment_count: number; z: number }> = [];
  for (const code of ['BGN', 'EUR']) {
    const own = days.filter((day) => day.currency === code);
    const mean = own.reduce((a, day) => a + value(day), 0) / own.length;
    const sd = Math.sqrt(own.reduce((a, day) => a + (value(day) - mean) ** 2, 0) / own.length);
    if (!(sd > 1e-9)) continue;
    for (const day of own) {
      const z = (value(day) - mean) / sd;
      if (z >= 2 - 1e-9) items.push({ payment_date: day.payment_date, currency: code, total_amount: money(day.amount), payment_count: day.count, z });
    }
  }
  items.sort((a, b) => b.z - a.z || (a.payment_date < b.payment_date ? -1 : a.payment_date > b.payment_date ? 1 : 0) || (a.currency < b.currency ? -1 : 1));
  return items.slice(0, limit).map((item, i) => ({ ...item, rank: i + 1 }));
}

describe('SEBRA routes over many windows equal direct sums over the lines', () => {
  test('getMostSponsoredProgramme', async () => {
    for (const window of windows()) {
      for (const currency of [undefined, 'BGN', 'EUR'] as const) {
        for (const limit of [null, 3]) {
          const path = withQuery('/api/sebra/getMostSponsoredProgramme', window.query, currency ? `currency=${currency}` : '', limit ? `limit=${limit}` : '');
          const response = await app.get(path);
          const expected = expectedProgrammes(window, currency, limit);
          if (linesIn(window).length === 0) {
            assert.equal(response.status, 404, path);
            continue;
          }
          assert.equal(response.status, 200, path);
          assert.deepEqual(response.body.items, expected, path);
        }
      }
    }
  });

  test('getUnusualPayments: unusual_programmes (candidates widen until no programme left out could rank)', async () => {
    let nonEmpty = 0;
    for (const { window, currency, limit, path } of unusualRequests([undefined, 'BGN'], [1, 2, 5, 40])) {
      const body = await unusualBody(path);
      const expected = expectedUnusualProgrammes(window, currency, limit);
      const pick = (items: any[]) => items.map(({ programme, payment_date, currency: code, total_amount, observed_days, rank }) => ({ programme, payment_date, currency: code, total_amount, observed_days, rank }));
      assert.deepEqual(pick(body.unusual_programmes), pick(expected), path);
      body.unusual_programmes.forEach((item: any, i: number) => {
        assert.equal(item.zscore, expected[i].z.toFixed(2), `${path} zscore of ${item.programme} ${item.payment_date}`);
        assert.ok(Math.abs(Number(item.mean_amount) - expected[i].mean) <= 0.005 + 1e-9, `${path} mean of ${item.programme}`);
      });
      if (expected.length > 0) nonEmpty++;
    }
    assert.ok(nonEmpty > 40, `only ${nonEmpty} non-empty lists: the fixture no longer exercises the ranking`);
  });

  test('getUnusualPayments: unusual_days and unusual_payment_counts', async () => {
    let nonEmpty = 0;
    for (const { window, currency, limit, path } of unusualRequests([undefined, 'BGN', 'EUR'], [1, 3, 40])) {
      const body = await unusualBody(path);
      for (const [list, measure] of [['unusual_days', 'amount'], ['unusual_payment_counts', 'count']] as const) {
        const expected = expectedUnusualDays(window, currency, limit, measure);
        const actual = body[list].map(({ payment_date, currency: code, total_amount, payment_count, rank }: any) => ({ payment_date, currency: code, total_amount, payment_count, rank }));
        assert.deepEqual(actual, expected.map(({ z: _z, ...item }) => item), `${path} ${list}`);
        body[list].forEach((item: any, i: number) =>
          assert.ok(Math.abs(Number(item.zscore) - expected[i].z) <= 0.005 + 1e-9, `${path} ${list} zscore of ${item.payment_date}`));
        if (expected.length > 0) nonEmpty++;
      }
    }
    assert.ok(nonEmpty > 10, `only ${nonEmpty} non-empty lists: the fixture no longer exercises the day lists`);
  });

  test('getUnusualPayments: expense_spikes', async () => {
    let nonEmpty = 0;
    for (const { window, currency, limit, path } of unusualRequests([undefined, 'BGN', 'EUR'], [1, 3, 40])) {
      const body = await unusualBody(path);
      const expected = expectedSpikes(window, currency, limit);
      const actual = body.expense_spikes.map(({ category_key, currency: code, month, total_amount, previous_amount, rank }: any) =>
        ({ category_key, currency: code, month, total_amount, previous_amount, rank }));
      assert.deepEqual(actual, expected.map(({ ratio: _ratio, ...spike }) => spike), path);
      body.expense_spikes.forEach((item: any, i: number) =>
        assert.ok(Math.abs(Number(item.increase_ratio) - expected[i].ratio) <= 0.005 + 1e-9, `${path} ratio of ${item.month}`));
      if (expected.length > 0) nonEmpty++;
    }
    assert.ok(nonEmpty > 10, `only ${nonEmpty} non-empty lists: the fixture no longer exercises the spikes`);
  });

  test('the tied programmes rank by date, then name; CONST and SHORT never appear', async () => {
    const body = await ok('/api/sebra/getUnusualPayments?from=11-2024&to=02-2025&limit=200');
    const programmes = new Set(body.unusual_programmes.map((item: { programme: string }) => item.programme));
    assert.ok(programmes.has('TIE-A') && programmes.has('TIE-B'));
    assert.ok(!programmes.has('CONST') && !programmes.has('SHORT'));
    const tied = body.unusual_programmes.filter((item: { programme: string }) => item.programme.startsWith('TIE'));
    for (let i = 0; i + 1 < tied.length; i += 2) {
      assert.equal(tied[i].payment_date, tied[i + 1].payment_date);
      assert.deepEqual([tied[i].programme, tied[i + 1].programme], ['TIE-A', 'TIE-B']);
      assert.equal(tied[i + 1].rank, tied[i].rank + 1);
    }
  });

  test('getTaxonomyForPeriod: bucket totals', async () => {
    for (const window of windows()) {
      if (!window.query.includes('from=') || linesIn(window).length === 0) continue;
      for (const currency of [undefined, 'BGN'] as const) {
        const body = await ok(withQuery('/api/sebra/getTaxonomyForPeriod', window.query, currency ? `currency=${currency}` : ''));
        const expected = expectedBucketAmounts(window, currency);
        const actual = Object.fromEntries(
          body.items.filter((item: any) => item.total_amount !== '0.00' || expected[`${item.currency}|${item.category_key}`])
            .map((item: any) => [`${item.currency}|${item.category_key}`, item.total_amount]),
        );
        assert.deepEqual(actual, expected, window.query);
      }
    }
  });

  test('getPeriodsWithMostPayments: days, months and weekdays ranked per currency, over the limits', async () => {
    const all = combinations<[Window, 'days' | 'months' | 'weekdays', Currency | undefined, number | null]>(
      windows(), ['days', 'months', 'weekdays'], [undefined, 'BGN', 'EUR'], [null, 1, 4]);
    const explicit = ([window]: (typeof all)[number]) => window.query === '' || linesIn(window).length === 0;
    for (const [window, period, currency, limit] of strided(all, 4, explicit)) {
      const path = withQuery('/api/sebra/getPeriodsWithMostPayments', period, window.query, currency ? `currency=${currency}` : '', limit ? `limit=${limit}` : '');
      const response = await app.get(path);
      if (linesIn(window).length === 0) {
        assert.equal(response.status, 404, path);
        continue;
      }
      assert.equal(response.status, 200, path);
      const actual = response.body.items.map(({ label: _label, ...item }: any) => item);
      assert.deepEqual(actual, expectedPeriods(period, window, currency, limit), path);
    }
  });

  test('getPeriodsWithMostPayments: weekday totals', async () => {
    for (const window of windows()) {
      if (linesIn(window).length === 0) continue;
      const body = await ok(withQuery('/api/sebra/getPeriodsWithMostPayments', 'weekdays', window.query));
      const totals = new Map<string, bigint>();
      for (const p of linesIn(window)) {
        const key = `${p.currency}|${(new Date(`${p.date}T00:00:00Z`).getUTCDay() + 6) % 7}`;
        totals.set(key, (totals.get(key) ?? 0n) + cents(p.amount));
      }
      const actual = Object.fromEntries(body.items.map((item: any) => [`${item.currency}|${item.weekday}`, item.total_amount]));
      assert.deepEqual(actual, Object.fromEntries([...totals].map(([k, v]) => [k, money(v)])), window.query);
    }
  });
});
