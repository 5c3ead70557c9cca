// Paging of the trade and markets lists over the hand-made fixture: every page is the matching slice
// of the whole list, whatever copy of a served shape answers (no filter: a range of positions; a
// reporter: the copy sorted by reporter; a partner or flow only: the table with its top-N) and whether
// the total is counted with the page or before it (an offset past 10 000).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectOk, startTestApp, type TestApp } from '../helpers/app.ts';
import { removeFixture, TRADE_FACT_ROWS, writeTradeFixtureSnapshot } from './fixtures.ts';

let app: TestApp;
let fixtureRoot: string | undefined;
before(async () => {
  const { root, dataDir } = await writeTradeFixtureSnapshot();
  fixtureRoot = root;
  app = await startTestApp(dataDir);
});
after(async () => {
  await app?.close();
  await removeFixture(fixtureRoot);
});

const withPage = (url: string, limit: number, offset: number) => `${url}${url.includes('?') ? '&' : '?'}limit=${limit}&offset=${offset}`;

/** Every page of `url` equals the slice of the whole list; past the end the page is empty with the same total. */
async function pagesAreSlices(url: string, expectedTotal?: number): Promise<void> {
  const whole = await expectOk(app, withPage(url, 500, 0));
  if (expectedTotal !== undefined) assert.equal(whole.total, expectedTotal, url);
  // Slices of an empty list would all be equal: every list paged here has rows.
  assert.ok(whole.total > 0, `${url}: the list has rows`);
  assert.equal(whole.items.length, whole.total, url);
  for (const limit of [1, 3, 7]) {
    for (let offset = 0; offset <= whole.total + 1; offset += 2) {
      const page = await expectOk(app, withPage(url, limit, offset));
      assert.deepEqual(page.items, whole.items.slice(offset, offset + limit), `${url} limit=${limit} offset=${offset}`);
      assert.deepEqual([page.total, page.count, page.limit, page.offset], [whole.total, page.items.length, limit, offset]);
    }
  }
  const far = await expectOk(app, withPage(url, 5, 20_000));
  assert.deepEqual([far.total, far.count, far.items], [whole.total, 0, []], `${url} offset=20000`);
}

describe('/api/v1/trade pages', () => {
  test('without filters (positions), with a reporter (sorted copy), with a partner or flow only (top-N)', async () => {
    await pagesAreSlices('/api/v1/trade', TRADE_FACT_ROWS);
    // RO: 8 WORLD rows and 9 partner rows; HU: 13 months of imports; partner UA: RO's 2023 import only.
    await pagesAreSlices('/api/v1/trade?reporter=RO', 17);
    await pagesAreSlices('/api/v1/trade?reporter=HU&date_from=2024-03&date_to=2024-06', 4);
    await pagesAreSlices('/api/v1/trade?partner=UA', 1);
    // Exports: RO WORLD 4 + EXT 1 + INT 1 + US, EG, TR 3 = 9, FR 2.
    await pagesAreSlices('/api/v1/trade?flow=export', 11);
  });

  test('the whole list runs newest period first, then annual before monthly, reporter, partner, product, flow', async () => {
    const whole = await expectOk(app, '/api/v1/trade?limit=500');
    assert.equal(whole.items.length, TRADE_FACT_ROWS, 'the whole list, every row');
    // Newest first: the period start descending, the rest ascending.
    const key = (item: any) => [`${9999 - Number(item.period_start.slice(0, 4))}${item.period_start.slice(4)}`.replace(/-(\d\d)/g, (_, n) => `-${99 - Number(n)}`),
      item.freq, item.reporter, item.partner, item.product, item.flow];
    const compare = (a: any[], b: any[]) => a.findIndex((value, i) => value !== b[i]);
    for (let i = 1; i < whole.items.length; i++) {
      const [a, b] = [key(whole.items[i - 1]), key(whole.items[i])];
      const at = compare(a, b);
      assert.ok(at !== -1 && a[at] < b[at], `${JSON.stringify(a)} before ${JSON.stringify(b)}`);
    }
  });
});

describe('market and changes pages', () => {
  test('/api/v1/changes (market series and agri-food prices), /markets/changes, /markets/anomalies, /trade/balance, /trade/partners', async () => {
    await pagesAreSlices('/api/v1/changes');
    await pagesAreSlices('/api/v1/changes?country=RO&commodity=1001');
    await pagesAreSlices('/api/v1/changes?dataset=cereals_prices');
    await pagesAreSlices('/api/v1/markets/changes?min_percent=0');
    await pagesAreSlices('/api/v1/markets/anomalies?min_percent=0&z=0');
    await pagesAreSlices('/api/v1/trade/balance?country=HU&commodity=1005');
    await pagesAreSlices('/api/v1/trade/partners?reporter=RO&product=1001');
  });
});
