// Pages of the agri-food lists past their first page, at and past their end, and across the filter
// groups the shapes are built per (tables.ts): the total stays the rows before paging whichever
// shape answers. The fixture is endpoints.test.ts's (fixtures.ts); expected values are worked out
// by hand from its description:
//   DE rows, newest first (same week: cereals before pigmeat): wheat 03-16 .. 01-19 (9 rows),
//   wheat 01-12, S 01-12, wheat 01-05, S 01-05 = 13 rows.
//   DE changes: wheat 03-16 .. 01-12 (10) and S 01-12 (1) = 11; PT (one observation) has none.
//   Priced rows: 23 - 2 without a price = 21; 6 are first observations (no percent change), of which
//   3 have a z-score (A, B, BG have spread; FR rapeseed, PT E and DE S have none).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectOk, pick, startTestApp, type TestApp } from '../helpers/app.ts';
import { writeAgrifoodFixtureSnapshot } from './fixtures.ts';

let app: TestApp;
before(async () => {
  const { dataDir } = await writeAgrifoodFixtureSnapshot();
  app = await startTestApp(dataDir);
});
after(() => app?.close());

const ok = (url: string) => expectOk(app, url);
const page = (body: any) => ({ count: body.count, offset: body.offset, total: body.total });

describe('price lists past the first page', () => {
  test('a date window without other filters: the last page of the window', async () => {
    const body = await ok('/api/v1/prices?date_from=2026-02-01&date_to=2026-03-31&limit=3&offset=6');
    assert.deepEqual(page(body), { count: 2, offset: 6, total: 8 });
    assert.deepEqual(pick(body.items, 'begin_date', 'member_state_code', 'commodity_id'), [
      { begin_date: '2026-02-02', member_state_code: 'DE', commodity_id: 'cereals_prices:Breadmaking common wheat' },
      { begin_date: '2026-02-02', member_state_code: 'FR', commodity_id: 'cereals_prices:Feed barley' },
    ]);
  });

  test('a text filter: the page spans two datasets in price order', async () => {
    const body = await ok('/api/v1/prices?country=DE&limit=5&offset=10');
    assert.deepEqual(page(body), { count: 3, offset: 10, total: 13 });
    assert.deepEqual(pick(body.items, 'dataset', 'begin_date'), [
      { dataset: 'pigmeat_prices', begin_date: '2026-01-12' },
      { dataset: 'cereals_prices', begin_date: '2026-01-05' },
      { dataset: 'pigmeat_prices', begin_date: '2026-01-05' },
    ]);
    assert.deepEqual(page(await ok('/api/v1/prices?country=DE&offset=13')), { count: 0, offset: 13, total: 13 });
    assert.deepEqual(page(await ok('/api/v1/prices?date_from=2026-02-01&offset=50')), { count: 0, offset: 50, total: 9 });
  });

  test('a period with a text filter: counted and paged over the keys\' rows of that period', async () => {
    // DE wheat is marketing year 2025/2026, weeks 28 + n for 2026-01-05 + n weeks (n = 0..10); DE class
    // S has weeks 2 and 3 (2026-01-05, 2026-01-12) and no marketing year.
    const year = await ok('/api/v1/prices?country=DE&period=2025/2026&limit=4&offset=8');
    assert.deepEqual([page(year), year.items.map((r: any) => r.begin_date)], [{ count: 3, offset: 8, total: 11 }, ['2026-01-19', '2026-01-12', '2026-01-05']]);
    const week = await ok('/api/v1/prices?country=DE&period=3');
    assert.deepEqual([page(week), pick(week.items, 'dataset', 'begin_date')], [{ count: 1, offset: 0, total: 1 }, [{ dataset: 'pigmeat_prices', begin_date: '2026-01-12' }]]);
    assert.deepEqual(page(await ok('/api/v1/prices?country=DE&period=30&offset=1')), { count: 0, offset: 1, total: 1 });
  });

  test('history pages run oldest first', async () => {
    const body = await ok(`/api/v1/commodities/${encodeURIComponent('pigmeat_prices:S')}/history?offset=1`);
    assert.deepEqual([page(body), body.items.map((r: any) => r.begin_date)], [{ count: 1, offset: 1, total: 2 }, ['2026-01-12']]);
  });
});

describe('changes per filter group', () => {
  test('a member state across datasets, its last page', async () => {
    const body = await ok('/api/v1/prices/changes?country=DE&limit=3&offset=9');
    assert.deepEqual(page(body), { count: 2, offset: 9, total: 11 });
    assert.deepEqual(pick(body.items, 'dataset', 'period', 'previous_period'), [
      { dataset: 'cereals_prices', period: '2026-01-12', previous_period: '2026-01-05' },
      { dataset: 'pigmeat_prices', period: '2026-01-12', previous_period: '2026-01-05' },
    ]);
  });

  test('a group without changes and pages past the end', async () => {
    const pt = await ok('/api/v1/prices/changes?country=PT');
    assert.deepEqual([page(pt), pt.items], [{ count: 0, offset: 0, total: 0 }, []]);
    assert.deepEqual(page(await ok('/api/v1/prices/changes?dataset=cereals_prices&country=FR&offset=3')), { count: 0, offset: 3, total: 3 });
    assert.deepEqual(page(await ok('/api/v1/prices/changes?offset=15')), { count: 0, offset: 15, total: 15 });
    assert.deepEqual(page(await ok('/api/v1/prices/changes?dataset=oilseeds_prices')), { count: 1, offset: 0, total: 1 });
  });
});

describe('anomalies at the edges of the thresholds', () => {
  test('thresholds of 0 keep every priced row with a percent change or a z-score, each once', async () => {
    const body = await ok('/api/v1/anomalies?min_percent=0&z=0');
    assert.equal(body.total, 18);
    const reasons = body.items.map((r: any) => r.reasons.join());
    assert.equal(reasons.filter((r: string) => r.includes('percent_change')).length, 15);
    assert.equal(reasons.filter((r: string) => r === 'zscore').length, 3);
    assert.deepEqual(page(await ok('/api/v1/anomalies?offset=3')), { count: 0, offset: 3, total: 3 });
  });
});

describe('small lists past their end keep their total', () => {
  test('latest, commodities, countries', async () => {
    assert.deepEqual(page(await ok('/api/v1/latest?offset=6')), { count: 0, offset: 6, total: 6 });
    assert.deepEqual(pick((await ok('/api/v1/latest?country=PT')).items, 'commodity_id', 'price'), [{ commodity_id: 'pigmeat_prices:E', price: '18.17' }]);
    assert.deepEqual(page(await ok('/api/v1/commodities?offset=6')), { count: 0, offset: 6, total: 6 });
    assert.deepEqual(page(await ok('/api/v1/commodities?q=barley&offset=1')), { count: 0, offset: 1, total: 1 });
    assert.deepEqual(page(await ok('/api/v1/countries?offset=4')), { count: 0, offset: 4, total: 4 });
  });

  test('dataset facts of the other datasets', async () => {
    // Oilseeds: BG 3 rows (one without a price) and FR rapeseed. Pigmeat: DE S twice and PT E.
    assert.deepEqual((await ok('/api/v1/datasets/oilseeds_prices')).facts,
      { rows: 4, priced_rows: 3, commodities: 2, countries: 2, first_date: '2026-01-05', last_date: '2026-07-27' });
    assert.deepEqual((await ok('/api/v1/datasets/pigmeat_prices')).facts,
      { rows: 3, priced_rows: 3, commodities: 2, countries: 2, first_date: '2020-03-23', last_date: '2026-01-12' });
  });
});
