// Request forms and output forms of the SEBRA endpoints over HTTP: path form = query form,
// bare flags, MM-YYYY windows, defaults, 404s, CSV and Arrow output, JSON errors for unknown
// paths and methods, /healthz.
//
// Hand-worked values from the fixture (test/queries/sebra-fixture.ts, day table in its header):
//   programmes, BGN 2024 (d1..d6):
//     A = A:01 + A:10 (+ A:50 on d6): 50 x 5 days + (30 + 20 + 300) = 600.00; payments 5 x 5 + (1 + 3 + 1) = 30
//     B = B:40: 30 x 6 = 180.00; payments 4 x 5 + 34 = 54
//     C = 20 x 6 = 120.00; payments 1 x 6 = 6
//   programmes, EUR (e1, e2 in January 2026): B = 100.25 (2), A = 15.50 + 15.50 = 31.00 (1 + 1 = 2)
//   taxonomy 2024 BGN: total 100 x 5 + 400 = 900.00; capital 300 (33.33 %), salaries
//     30+30+40+30+30+30 = 190 (21.11 %), social 180 (20.00 %), transfers 120 (13.33 %), maintenance
//     20+20+10+20+20+20 = 110 (12.22 %).
//   unusual days 2024 BGN: totals 100,100,100,100,100,400: mean 150, population sd
//     sqrt((5 x 50^2 + 250^2) / 6) = sqrt(12500) = 111.80; z(d6) = 250 / 111.80 = 2.236 -> "2.24".
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { tableFromIPC } from 'apache-arrow';
import { parse } from 'csv-parse/sync';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { writeSebraSnapshot } from '../helpers/snapshot.ts';
import { A, B, C, fixtureDays, fixturePayments } from '../queries/sebra-fixture.ts';

const S = '/api/sebra';
const ARROW = 'application/vnd.apache.arrow.stream';

let app: TestApp;
before(async () => {
  app = await startTestApp(await writeSebraSnapshot(fixturePayments, fixtureDays));
});
after(() => app.close());

async function ok(path: string, headers: Record<string, string> = {}) {
  const response = await app.get(path, headers);
  assert.equal(response.status, 200, `${path}: ${JSON.stringify(response.body)}`);
  return response;
}
const json = async (path: string) => (await ok(path)).body;

const pick = (rows: Array<Record<string, unknown>>, ...keys: string[]) =>
  rows.map((row) => Object.fromEntries(keys.map((key) => [key, row[key]])));

/** A CSV cell as the JSON value would be written: null -> '', nested -> JSON text, else String(). */
const asCell = (value: unknown) => (value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));

const programmes2024 = [
  { programme: A, payment_count: 30, total_amount: '600.00', currency: 'BGN', rank: 1 },
  { programme: B, payment_count: 54, total_amount: '180.00', currency: 'BGN', rank: 2 },
  { programme: C, payment_count: 6, total_amount: '120.00', currency: 'BGN', rank: 3 },
];

describe('path form = query form', () => {
  test('getTaxonomyForYear/2024 = getTaxonomyForYear?year=2024', async () => {
    const path = await json(`${S}/getTaxonomyForYear/2024`);
    const query = await json(`${S}/getTaxonomyForYear?year=2024`);
    assert.deepEqual(path, query);
    assert.equal(path.year, 2024);
    assert.deepEqual(path.filters, { currency: null, year: 2024, from: '2024-01-01', to: '2024-12-31' });
    assert.deepEqual(path.year_totals, [{ currency: 'BGN', total_amount: '900.00' }]);
    assert.deepEqual(pick(path.items, 'category_key', 'total_amount', 'share_percent', 'rank'), [
      { category_key: 'capital', total_amount: '300.00', share_percent: '33.33', rank: 1 },
      { category_key: 'salaries', total_amount: '190.00', share_percent: '21.11', rank: 2 },
      { category_key: 'social', total_amount: '180.00', share_percent: '20.00', rank: 3 },
      { category_key: 'transfers', total_amount: '120.00', share_percent: '13.33', rank: 4 },
      { category_key: 'maintenance', total_amount: '110.00', share_percent: '12.22', rank: 5 },
    ]);
  });

  test('getTaxonomyForYear/2024?currency=bgn = ?year=2024&currency=BGN (currency case-insensitive)', async () => {
    const path = await json(`${S}/getTaxonomyForYear/2024?currency=bgn`);
    const query = await json(`${S}/getTaxonomyForYear?year=2024&currency=BGN`);
    assert.deepEqual(path, query);
    assert.equal(path.filters.currency, 'BGN');
  });

  test('getMostSponsoredProgramme/2024 = getMostSponsoredProgramme?year=2024', async () => {
    const path = await json(`${S}/getMostSponsoredProgramme/2024`);
    const query = await json(`${S}/getMostSponsoredProgramme?year=2024`);
    assert.deepEqual(path, query);
    assert.deepEqual(path.filters, { year: 2024, from: null, to: null, currency: null, limit: null });
    assert.equal(path.count, 3);
    assert.deepEqual(path.items, programmes2024);
  });

  test('getMostSponsoredProgramme/2024?limit=2 = ?year=2024&limit=2', async () => {
    const path = await json(`${S}/getMostSponsoredProgramme/2024?limit=2`);
    assert.deepEqual(path, await json(`${S}/getMostSponsoredProgramme?year=2024&limit=2`));
    assert.equal(path.filters.limit, 2);
    assert.deepEqual(path.items, programmes2024.slice(0, 2));
  });

  test('getUnusualPayments/2024 = getUnusualPayments?year=2024', async () => {
    const path = await json(`${S}/getUnusualPayments/2024`);
    const query = await json(`${S}/getUnusualPayments?year=2024`);
    assert.deepEqual(path, query);
    // limit defaults to 5
    assert.deepEqual(path.filters, { year: 2024, from: null, to: null, currency: null, limit: 5 });
    assert.deepEqual(pick(path.unusual_days, 'payment_date', 'currency', 'total_amount', 'mean_amount', 'zscore', 'rank'), [
      { payment_date: '2024-02-07', currency: 'BGN', total_amount: '400.00', mean_amount: '150.00', zscore: '2.24', rank: 1 },
    ]);
  });

  test('getUnusualPayments/2024?currency=BGN&limit=1 = ?year=2024&currency=BGN&limit=1', async () => {
    const path = await json(`${S}/getUnusualPayments/2024?currency=BGN&limit=1`);
    assert.deepEqual(path, await json(`${S}/getUnusualPayments?year=2024&currency=BGN&limit=1`));
    for (const list of ['unusual_days', 'unusual_programmes', 'expense_spikes', 'unusual_payment_counts']) {
      assert.ok(path[list].length <= 1, `${list} capped by limit=1`);
    }
  });
});

describe('bare flags and date forms', () => {
  for (const period of ['days', 'months', 'weekdays']) {
    test(`?${period} = ?period=${period}`, async () => {
      const flag = await json(`${S}/getPeriodsWithMostPayments?${period}&year=2024`);
      assert.deepEqual(flag, await json(`${S}/getPeriodsWithMostPayments?period=${period}&year=2024`));
      assert.equal(flag.period, period);
    });
  }

  test('a flag and the same period= agree (?days&period=days = ?period=days)', async () => {
    assert.deepEqual(
      await json(`${S}/getPeriodsWithMostPayments?days&period=days`),
      await json(`${S}/getPeriodsWithMostPayments?period=days`),
    );
  });

  test('MM-YYYY from/to = explicit first/last day = ISO dates; filters echo ISO', async () => {
    const monthForm = await json(`${S}/getPeriodsWithMostPayments?days&from=02-2024&to=02-2024`);
    const dayForm = await json(`${S}/getPeriodsWithMostPayments?days&from=01-02-2024&to=29-02-2024`);
    const isoForm = await json(`${S}/getPeriodsWithMostPayments?days&from=2024-02-01&to=2024-02-29`);
    assert.deepEqual(monthForm, dayForm);
    assert.deepEqual(monthForm, isoForm);
    assert.deepEqual(monthForm.filters, { currency: null, year: null, from: '2024-02-01', to: '2024-02-29', limit: null });
    // February 2024 = d2..d6: the 7th (400), then the 100-days: 6th (40 payments), 1st, 2nd, 5th.
    assert.deepEqual(pick(monthForm.items, 'day_of_month', 'total_amount', 'payment_count', 'rank'), [
      { day_of_month: 7, total_amount: '400.00', payment_count: 10, rank: 1 },
      { day_of_month: 6, total_amount: '100.00', payment_count: 40, rank: 2 },
      { day_of_month: 1, total_amount: '100.00', payment_count: 10, rank: 3 },
      { day_of_month: 2, total_amount: '100.00', payment_count: 10, rank: 4 },
      { day_of_month: 5, total_amount: '100.00', payment_count: 10, rank: 5 },
    ]);
    assert.equal(monthForm.count, 5);
  });

  test('to=MM-YYYY of a 31-day month ends on the 31st (01-2024 -> 2024-01-31, keeps d1)', async () => {
    const body = await json(`${S}/getMostSponsoredProgramme?from=01-2024&to=01-2024`);
    assert.equal(body.filters.from, '2024-01-01');
    assert.equal(body.filters.to, '2024-01-31');
    // d1 only: A = 30 + 20 = 50 (2 + 3 = 5), B = 30 (4), C = 20 (1)
    assert.deepEqual(pick(body.items, 'programme', 'total_amount', 'payment_count'), [
      { programme: A, total_amount: '50.00', payment_count: 5 },
      { programme: B, total_amount: '30.00', payment_count: 4 },
      { programme: C, total_amount: '20.00', payment_count: 1 },
    ]);
  });

  test('from alone: to defaults to today (2026-11-22)', async () => {
    const body = await json(`${S}/getMostSponsoredProgramme?from=01-2026`);
    assert.deepEqual(body.filters, { year: null, from: '2026-01-01', to: '2026-11-22', currency: null, limit: null });
    assert.deepEqual(body.items, [
      { programme: B, payment_count: 2, total_amount: '100.25', currency: 'EUR', rank: 1 },
      { programme: A, payment_count: 2, total_amount: '31.00', currency: 'EUR', rank: 2 },
    ]);
    const period = await json(`${S}/getTaxonomyForPeriod?from=01-01-2026`);
    assert.deepEqual(period.filters, { currency: null, from: '2026-01-01', to: '2026-11-22' });
    // EUR: 15.50 + 100.25 + 15.50 = 131.25
    assert.deepEqual(period.period_totals, [{ currency: 'EUR', total_amount: '131.25' }]);
  });

  test('to alone: from stays open (null), window is everything up to to', async () => {
    const body = await json(`${S}/getMostSponsoredProgramme?to=31-01-2024`);
    assert.equal(body.filters.from, null);
    assert.equal(body.filters.to, '2024-01-31');
    assert.deepEqual(pick(body.items, 'programme', 'total_amount'), [
      { programme: A, total_amount: '50.00' },
      { programme: B, total_amount: '30.00' },
      { programme: C, total_amount: '20.00' },
    ]);
  });
});

describe('404 and empty results', () => {
  const missing = [
    `${S}/getPeriodsWithMostPayments?days&year=2025`,
    `${S}/getTaxonomyForYear/2025`,
    `${S}/getTaxonomyForYear?year=2025`,
    `${S}/getTaxonomyForPeriod?from=01-01-2030&to=31-12-2030`,
    // 2024-02-08 is a NO_PAYMENTS day only: it does not count as a payment day
    `${S}/getTaxonomyForPeriod?from=08-02-2024&to=08-02-2024`,
    `${S}/getMostSponsoredProgramme/2025`,
    `${S}/getMostSponsoredProgramme?from=01-01-2030&to=31-01-2030`,
    `${S}/getUnusualPayments/2025`,
    `${S}/getUnusualPayments?year=2025`,
  ];
  for (const path of missing) {
    test(`${path} -> 404 not_found`, async () => {
      const response = await app.get(path);
      assert.equal(response.status, 404, JSON.stringify(response.body));
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(response.body.error.status, 404);
      assert.equal(response.body.error.code, 'not_found');
      assert.ok(response.body.error.message.length > 0);
      assert.equal(response.body.error.param, null);
    });
  }

  test('a currency with no rows in a window that has days -> 200, count 0, items []', async () => {
    // 2024 has six BGN payment days and no EUR day.
    const periods = await json(`${S}/getPeriodsWithMostPayments?period=days&currency=EUR&year=2024`);
    assert.equal(periods.count, 0);
    assert.deepEqual(periods.items, []);
    assert.deepEqual(periods.filters, { currency: 'EUR', year: 2024, from: null, to: null, limit: null });
    const programmes = await json(`${S}/getMostSponsoredProgramme/2024?currency=eur`);
    assert.equal(programmes.count, 0);
    assert.deepEqual(programmes.items, []);
  });
});

describe('CSV output', () => {
  async function csv(path: string, headers: Record<string, string> = {}) {
    const response = await ok(path, headers);
    assert.match(response.headers.get('content-type') ?? '', /^text\/csv/);
    return response.body as string;
  }

  for (const [how, path, headers] of [
    ['?format=csv', `${S}/getMostSponsoredProgramme/2024?format=csv`, {}],
    ['Accept: text/csv', `${S}/getMostSponsoredProgramme/2024`, { Accept: 'text/csv' }],
  ] as const) {
    test(`${how}: header = item keys, one line per item, values = JSON values`, async () => {
      const text = await csv(path, headers);
      const body = await json(`${S}/getMostSponsoredProgramme/2024`);
      const lines = text.split('\r\n').filter((line) => line !== '');
      assert.equal(lines[0], 'programme,payment_count,total_amount,currency,rank');
      assert.equal(lines[0], Object.keys(body.items[0]).join(','));
      assert.equal(lines.length, 1 + body.items.length);
      assert.equal(lines[1], `${A},30,600.00,BGN,1`);
      const records = parse(text, { columns: true }) as Array<Record<string, string>>;
      assert.deepEqual(records, body.items.map((item: Record<string, unknown>) =>
        Object.fromEntries(Object.entries(item).map(([key, value]) => [key, asCell(value)]))));
    });
  }

  test('taxonomy CSV: nested accounts as JSON text, Cyrillic intact', async () => {
    const text = await csv(`${S}/getTaxonomyForYear/2024?format=csv`);
    const body = await json(`${S}/getTaxonomyForYear/2024`);
    const records = parse(text, { columns: true }) as Array<Record<string, string>>;
    assert.equal(records.length, 5);
    assert.deepEqual(Object.keys(records[0]), Object.keys(body.items[0]));
    assert.equal(records[0].category, 'Капиталови разходи');
    assert.deepEqual(JSON.parse(records[0].accounts), [
      { code: '50', description: 'Плащания за дълготрайни активи, основен ремонт и капиталови трансфери', total_amount: '300.00', payment_count: 1, rank: 1 },
    ]);
    records.forEach((record, i) => assert.equal(record.accounts, JSON.stringify(body.items[i].accounts)));
  });

  test('getUnusualPayments CSV: the four lists in one table, told apart by `list`', async () => {
    const text = await csv(`${S}/getUnusualPayments/2024`, { Accept: 'text/csv' });
    const body = await json(`${S}/getUnusualPayments/2024`);
    const records = parse(text, { columns: true }) as Array<Record<string, string>>;
    const lists = ['unusual_days', 'unusual_programmes', 'expense_spikes', 'unusual_payment_counts'];
    assert.equal(records.length, lists.reduce((n, list) => n + body[list].length, 0));
    assert.equal(records[0].list, 'unusual_days');
    assert.equal(records[0].payment_date, '2024-02-07');
    assert.equal(records[0].zscore, '2.24');
    for (const list of lists) {
      const rows = records.filter((record) => record.list === list);
      assert.equal(rows.length, body[list].length, list);
      rows.forEach((row, i) => {
        for (const [key, value] of Object.entries(body[list][i])) assert.equal(row[key], asCell(value), `${list}[${i}].${key}`);
      });
    }
  });

  test('an empty list keeps its header line (no phantom empty record)', async () => {
    // BUG (reported): rowsToCsv derives the columns from the rows, so zero items give "\r\n":
    // no header, and CSV readers see one record with a single empty field.
    const text = await csv(`${S}/getPeriodsWithMostPayments?days&currency=EUR&year=2024&format=csv`);
    assert.equal(text.split('\r\n')[0], 'day_of_month,label,currency,total_amount,payment_count,observed_days,rank');
    assert.deepEqual(parse(text, { columns: true }), []);
  });
});

describe('Arrow output', () => {
  async function arrow(path: string, headers: Record<string, string> = { Accept: ARROW }) {
    const response = await ok(path, headers);
    assert.equal(response.headers.get('content-type'), ARROW);
    return tableFromIPC(new Uint8Array(response.raw));
  }

  test('Accept: Arrow stream: row count, column types and values equal the JSON items', async () => {
    const table = await arrow(`${S}/getMostSponsoredProgramme/2024`);
    assert.equal(table.numRows, 3);
    assert.deepEqual(table.schema.fields.map((f) => `${f.name}:${f.type}`), [
      'programme:Utf8', 'payment_count:Int64', 'total_amount:Utf8', 'currency:Utf8', 'rank:Int64',
    ]);
    const rows = table.toArray().map((row) => {
      const values = row.toJSON() as Record<string, unknown>;
      return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v]));
    });
    assert.deepEqual(rows, programmes2024);
  });

  test('?format=arrow on months: same rows as JSON', async () => {
    const table = await arrow(`${S}/getPeriodsWithMostPayments?months&format=arrow`, {});
    const body = await json(`${S}/getPeriodsWithMostPayments?months`);
    // BGN: Feb 2024 (800.00), Jan 2024 (100.00); EUR: Jan 2026 (131.25)
    assert.equal(table.numRows, 3);
    assert.deepEqual(table.getChild('total_amount')!.toArray(), ['800.00', '100.00', '131.25']);
    assert.deepEqual([...table.getChild('month')!.toArray()].map(Number), [2, 1, 1]);
    assert.deepEqual(table.getChild('label')!.toArray(), body.items.map((item: { label: string }) => item.label));
  });
});

describe('unknown paths, methods, health', () => {
  for (const path of ['/api/nope', '/api/sebra/getNothing', `${S}/getTaxonomyForYear/2024/extra`, '/']) {
    test(`${path} -> JSON 404`, async () => {
      const response = await app.get(path);
      assert.equal(response.status, 404);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(response.body.error.status, 404);
      assert.equal(response.body.error.code, 'not_found');
      assert.equal(response.body.error.param, null);
    });
  }

  for (const method of ['POST', 'PUT', 'DELETE']) {
    test(`${method} to a GET route -> JSON 405`, async () => {
      const response = await app.request(`${S}/getTaxonomyForYear/2024`, { method });
      assert.equal(response.status, 405);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      const body = await response.json();
      assert.equal(body.error.status, 405);
      assert.equal(body.error.code, 'method_not_allowed');
      assert.ok(body.error.message.length > 0);
    });
  }

  test('405 names the allowed methods in an Allow header (RFC 9110 15.5.6)', async () => {
    // BUG (reported): allowedMethods({ throw: true }) throws before setting Allow.
    const response = await app.request(`${S}/getTaxonomyForYear/2024`, { method: 'POST' });
    await response.arrayBuffer();
    assert.equal(response.status, 405);
    assert.match(response.headers.get('allow') ?? '', /\bGET\b/);
  });

  test('/healthz answers status ok and the snapshot import date', async () => {
    const response = await ok('/healthz');
    // the fixture's import record says 2026-11-01 10:00:00
    const { status, import_date, cache, held, data, sources, ...rest } = response.body;
    assert.deepEqual({ status, import_date }, { status: 'ok', import_date: '2026-11-01T10:00:00Z' });
    // sample or imported (issue 19): the fixture's import record has no source address, so neither
    assert.deepEqual({ data, sources }, { data: 'unknown', sources: {} });
    // and the answer cache's figures (test/http/cache.test.ts checks their values)
    assert.deepEqual(Object.keys(cache).sort(), ['bytes', 'entries', 'hit_rate', 'hits', 'max_answer_bytes', 'max_bytes', 'misses']);
    // and the held views against their budget (test/http/pipeline.test.ts checks their values)
    assert.deepEqual(Object.keys(held).sort(), ['budget_bytes', 'bytes', 'views']);
    assert.deepEqual(rest, {});
  });
});
