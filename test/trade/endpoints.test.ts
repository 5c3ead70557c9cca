// The ten trade and markets endpoints against the hand-made fixture of fixtures.ts. Expected values
// are worked out by hand below, never copied from the output.
//
// Annual market series (WORLD partner):
//   RO 1001 price: 2020 (200 + 220 + 180) / 3 = 200.00 (Breadmaking common wheat and Feed wheat; Durum
//     wheat's 999 is not a price product of 1001), 2021 (250 + 230) / 2 = 240.00, 2022 300.00, 2023 none.
//     LAG: 2021 +40.00 (+20.00 %), 2022 +60.00 (+25.00 %).
//   RO 1001 imports: 1000, 1100, (2022 confidential), 2200. LAG skips 2022: 2021 +100 (+10.00 %),
//     2023 vs 2021 +1100 (+100.00 %).
//   RO 1001 exports: 5000, 6000, 9000, 4500. LAG: +1000 (+20.00 %), +3000 (+50.00 %), -4500 (-50.00 %).
//   RO 1001 trade_balance (exports - imports): 2020 4000, 2021 4900, 2022 null (imports missing), 2023 2300.
//     LAG: 2021 +900 (+22.50 %), 2023 vs 2021 -2600 (-2600/4900 = -53.06 %).
//   FR 1001: imports 500, 520 (+4.00 %); exports 7000, 8000 (+14.29 %); balance 6500, 7480 (+980, +15.08 %);
//     price 2022 280.00 only.
//   RO 1003 price 2021 150.00 only; HU 1005 imports 2024 = 10 + 20 + ... + 120 = 780 (sum of 12 months).
// Leave-one-out z-scores need 3 other years, so only RO exports has them:
//   2020: others 6000, 9000, 4500: mean 6500, pop. variance (500^2 + 2500^2 + 2000^2) / 3 = 3500000, sd 1870.83,
//         z = -1500 / 1870.83 = -0.80
//   2021: others 5000, 9000, 4500: mean 6166.67, variance 12166666.67 / 3 = 4055555.56, sd 2013.84, z = -0.08
//   2022: others 5000, 6000, 4500: mean 5166.67, variance (166.67^2 + 833.33^2 + 666.67^2) / 3 = 388888.89,
//         sd 623.61, z = 3833.33 / 623.61 = 6.15
//   2023: others 5000, 6000, 9000: mean 6666.67, variance 8666666.67 / 3 = 2888888.89, sd 1699.67, z = -1.27
// Partners RO 1001 2023 (latest period), flow both: WORLD value 2200 + 4500 = 6700, quantity 1500 + 3000 = 4500.
//   EG 2000 (29.85 %), UA 1200 (17.91 %), US 1000 (14.93 %), BG 500 (7.46 %), TR null (confidential; last).
//   Listed value 4700 -> coverage 4700 / 6700 = 70.15 %; listed quantity 500 + 800 + 600 + 100 + 50 = 2050.
//   By quantity: UA 800, US 600, EG 500, BG 100, TR 50. Quantity share UA 800 / 4500 = 17.78 %.
//   Imports only: WORLD 2200; UA 1200 (54.55 %), BG 500 (22.73 %).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, expectOk, pick, startTestApp, type TestApp } from '../helpers/app.ts';
import { removeFixture, tempDir, TRADE_FACT_ROWS, writeTradeFixtureSnapshot } from './fixtures.ts';

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

const ok = (url: string) => expectOk(app, url);
const fails = (url: string, status: number, param?: string) => expectError(app, url, status, param);

describe('/api/v1/trade', () => {
  test('every published row, newest period first; default page 100', async () => {
    const body = await ok('/api/v1/trade');
    assert.equal(body.total, TRADE_FACT_ROWS);
    assert.equal(body.count, TRADE_FACT_ROWS);
    assert.deepEqual([body.limit, body.offset], [100, 0]);
    assert.deepEqual(body.filters, { reporter: null, partner: null, product: null, flow: null, date_from: null, date_to: null });
    // HU 2025-01 is the newest period; then 2024-12 ...
    assert.deepEqual(pick(body.items.slice(0, 2), 'reporter', 'period', 'freq', 'value', 'quantity'), [
      { reporter: 'HU', period: '2025-01', freq: 'M', value: '130.00', quantity: '13.00' },
      { reporter: 'HU', period: '2024-12', freq: 'M', value: '120.00', quantity: '12.00' },
    ]);
  });

  test('reporter, partner, product and flow filter; a confidential value is null with its flag', async () => {
    const body = await ok('/api/v1/trade?reporter=RO&partner=WORLD&product=1001&flow=import');
    assert.deepEqual(pick(body.items, 'period', 'value', 'value_flag', 'quantity', 'flow', 'flow_name'), [
      { period: '2023', value: '2200.00', value_flag: null, quantity: '1500.00', flow: 1, flow_name: 'import' },
      { period: '2022', value: null, value_flag: 'c', quantity: '600.00', flow: 1, flow_name: 'import' },
      { period: '2021', value: '1100.00', value_flag: null, quantity: '520.00', flow: 1, flow_name: 'import' },
      { period: '2020', value: '1000.00', value_flag: null, quantity: '500.00', flow: 1, flow_name: 'import' },
    ]);
    assert.equal(body.items[0].reporter_name, 'Romania');
    assert.equal(body.items[0].product_name, 'wheat');
    assert.equal(body.items[0].last_update, '2026-09-15T11:00:00');
  });

  test('aliases country/reporter and commodity/product; names; flow 2 = export', async () => {
    const a = await ok('/api/v1/trade?country=romania&commodity=wheat&flow=2&partner=world');
    const b = await ok('/api/v1/trade?reporter=RO&product=1001&flow=export&partner=WORLD');
    assert.deepEqual(a.items, b.items);
    assert.deepEqual(a.filters, { reporter: 'RO', partner: 'WORLD', product: '1001', flow: 'export', date_from: null, date_to: null });
    assert.deepEqual(a.items.map((i: any) => i.value), ['4500.00', '9000.00', '6000.00', '5000.00']);
    const same = await ok('/api/v1/trade?country=RO&reporter=ro&product=1001');
    assert.equal(same.total, 17);
  });

  test('date_from/date_to keep periods entirely inside the window', async () => {
    const body = await ok('/api/v1/trade?reporter=HU&date_from=2024-03&date_to=2024-05-31');
    assert.deepEqual(body.items.map((i: any) => i.period), ['2024-05', '2024-04', '2024-03']);
    assert.deepEqual([body.filters.date_from, body.filters.date_to], ['2024-03-01', '2024-05-31']);
    const years = await ok('/api/v1/trade?reporter=FR&date_from=2023&date_to=2023');
    assert.equal(years.total, 2);
    // A window ending mid-year keeps no annual row of that year.
    const none = await ok('/api/v1/trade?reporter=FR&date_from=2023-01-01&date_to=2023-06-30');
    assert.equal(none.total, 0);
  });

  test('pagination edges', async () => {
    const last = await ok(`/api/v1/trade?limit=5&offset=${TRADE_FACT_ROWS - 2}`);
    assert.deepEqual([last.count, last.total, last.limit, last.offset], [2, TRADE_FACT_ROWS, 5, TRADE_FACT_ROWS - 2]);
    const beyond = await ok(`/api/v1/trade?offset=${TRADE_FACT_ROWS}`);
    assert.deepEqual([beyond.count, beyond.total, beyond.items], [0, TRADE_FACT_ROWS, []]);
    const max = await ok('/api/v1/trade?limit=500');
    assert.equal(max.limit, 500);
    const pages = [];
    for (let offset = 0; offset < TRADE_FACT_ROWS; offset += 10) pages.push(...(await ok(`/api/v1/trade?limit=10&offset=${offset}`)).items);
    assert.deepEqual(pages, (await ok('/api/v1/trade')).items);
  });

  test('400s and 404s', async () => {
    await fails('/api/v1/trade?limit=0', 400, 'limit');
    await fails('/api/v1/trade?limit=501', 400, 'limit');
    await fails('/api/v1/trade?offset=-1', 400, 'offset');
    await fails('/api/v1/trade?flow=3', 400, 'flow');
    await fails('/api/v1/trade?flow=both', 400, 'flow');
    await fails('/api/v1/trade?date_from=2024-13', 400, 'date_from');
    await fails('/api/v1/trade?date_to=20', 400, 'date_to');
    await fails('/api/v1/trade?date_from=2024&date_to=2023', 400, 'date_from');
    await fails('/api/v1/trade?country=RO&reporter=FR', 400, 'country');
    await fails('/api/v1/trade?product=1001&commodity=1005', 400, 'commodity');
    await fails('/api/v1/trade?year=2024', 400, 'year');
    await fails('/api/v1/trade?reporter=XX', 404);
    await fails('/api/v1/trade?product=9999', 404);
    await fails('/api/v1/trade?partner=ZZ', 404);
  });
});

describe('/api/v1/trade/balance', () => {
  test('exports minus imports per period, WORLD by default; a missing side leaves the balance null', async () => {
    const body = await ok('/api/v1/trade/balance?country=RO&commodity=1001');
    assert.deepEqual(body.filters, { country: 'RO', commodity: '1001', partner: 'WORLD', date_from: null, date_to: null });
    assert.deepEqual(body.country, { code: 'RO', name: 'Romania' });
    assert.deepEqual(pick(body.items, 'period', 'imports', 'exports', 'trade_balance'), [
      { period: '2020', imports: '1000.00', exports: '5000.00', trade_balance: '4000.00' },
      { period: '2021', imports: '1100.00', exports: '6000.00', trade_balance: '4900.00' },
      { period: '2022', imports: null, exports: '9000.00', trade_balance: null },
      { period: '2023', imports: '2200.00', exports: '4500.00', trade_balance: '2300.00' },
    ]);
    assert.equal(body.items[0].exports_quantity, '2500.00');
  });

  test('aliases, a partner, a window', async () => {
    const body = await ok('/api/v1/trade/balance?reporter=ro&product=wheat&partner=ext_eu27_2020&date_from=2023');
    // 3500 - 1500 = 2000
    assert.deepEqual(pick(body.items, 'period', 'imports', 'exports', 'trade_balance'), [
      { period: '2023', imports: '1500.00', exports: '3500.00', trade_balance: '2000.00' },
    ]);
  });

  test('a year published monthly gets the sum of its 12 months; an incomplete year none', async () => {
    const body = await ok('/api/v1/trade/balance?country=HU&commodity=maize&date_from=2024&date_to=2025');
    const annual = body.items.filter((i: any) => i.freq === 'A');
    // 10 + 20 + ... + 120 = 780; quantities 1 + ... + 12 = 78; no exports: balance null. 2025 has one month only.
    assert.deepEqual(annual, [{
      freq: 'A', period: '2024', period_start: '2024-01-01', period_end: '2024-12-31', imports: '780.00', exports: null,
      trade_balance: null, imports_quantity: '78.00', exports_quantity: null, derived_from_months: true,
    }]);
    assert.equal(body.total, 14); // 12 + 1 months and the derived year
  });

  test('400 when country or commodity is missing, 404 when unknown', async () => {
    await fails('/api/v1/trade/balance?commodity=1001', 400, 'country');
    await fails('/api/v1/trade/balance?country=RO', 400, 'commodity');
    await fails('/api/v1/trade/balance', 400);
    await fails('/api/v1/trade/balance?country=RO&commodity=1001&date_from=x', 400, 'date_from');
    await fails('/api/v1/trade/balance?country=Atlantis&commodity=1001', 404);
    await fails('/api/v1/trade/balance?country=RO&commodity=rice', 404);
    await fails('/api/v1/trade/balance?country=RO&commodity=1001&partner=XY', 404);
  });
});

describe('/api/v1/trade/partners', () => {
  test('ranking without WORLD and aggregates; WORLD totals in data_quality; latest period by default', async () => {
    const body = await ok('/api/v1/trade/partners?reporter=RO&product=1001');
    assert.deepEqual(body.selection, { freq: 'A', periods: ['2023'] });
    assert.equal(body.limit, 20);
    assert.deepEqual(pick(body.items, 'rank', 'partner', 'value', 'share', 'import_value', 'export_value'), [
      { rank: 1, partner: 'EG', value: '2000.00', share: '29.85', import_value: null, export_value: '2000.00' },
      { rank: 2, partner: 'UA', value: '1200.00', share: '17.91', import_value: '1200.00', export_value: null },
      { rank: 3, partner: 'US', value: '1000.00', share: '14.93', import_value: null, export_value: '1000.00' },
      { rank: 4, partner: 'BG', value: '500.00', share: '7.46', import_value: '500.00', export_value: null },
      { rank: 5, partner: 'TR', value: null, share: null, import_value: null, export_value: null },
    ]);
    const { note: _note, ...quality } = body.data_quality;
    assert.deepEqual(quality, {
      world_value: '6700.00', world_quantity: '4500.00', listed_value: '4700.00', listed_quantity: '2050.00',
      coverage_percent: '70.15', partners: 5, partners_missing_value: 1, excluded_aggregates: ['EXT_EU27_2020', 'INT_EU27_2020', 'WORLD'],
    });
  });

  test('flow import, sort quantity, aliases, period, limit and offset', async () => {
    const imports = await ok('/api/v1/trade/partners?country=RO&commodity=wheat&flow=import');
    assert.deepEqual(pick(imports.items, 'partner', 'share'), [{ partner: 'UA', share: '54.55' }, { partner: 'BG', share: '22.73' }]);
    assert.equal(imports.data_quality.world_value, '2200.00');
    const byQuantity = await ok('/api/v1/trade/partners?reporter=RO&product=1001&sort=quantity&period=2023');
    assert.deepEqual(byQuantity.items.map((i: any) => i.partner), ['UA', 'US', 'EG', 'BG', 'TR']);
    assert.equal(byQuantity.items[0].quantity_share, '17.78');
    const byShare = await ok('/api/v1/trade/partners?reporter=RO&product=1001&sort=share&limit=2&offset=1');
    assert.deepEqual(pick(byShare.items, 'rank', 'partner'), [{ rank: 2, partner: 'UA' }, { rank: 3, partner: 'US' }]);
    assert.deepEqual([byShare.count, byShare.total], [2, 5]);
    // A year with WORLD only: no partners, coverage null.
    const empty = await ok('/api/v1/trade/partners?reporter=RO&product=1001&period=2021');
    assert.deepEqual([empty.total, empty.data_quality.world_value, empty.data_quality.coverage_percent], [0, '7100.00', null]);
  });

  test('a window sums annual periods', async () => {
    // 2020..2023 WORLD imports: 1000 + 1100 + confidential + 2200: one part missing -> null, never a partial sum.
    const body = await ok('/api/v1/trade/partners?reporter=RO&product=1001&flow=import&date_from=2020&date_to=2023');
    assert.deepEqual(body.selection, { freq: 'A', periods: ['2020', '2021', '2022', '2023'] });
    assert.equal(body.data_quality.world_value, null);
    assert.deepEqual(pick(body.items, 'partner', 'value', 'share'), [{ partner: 'UA', value: '1200.00', share: null }, { partner: 'BG', value: '500.00', share: null }]);
  });

  test('400s and 404s', async () => {
    await fails('/api/v1/trade/partners?product=1001', 400, 'reporter');
    await fails('/api/v1/trade/partners?reporter=RO', 400, 'product');
    await fails('/api/v1/trade/partners?reporter=RO&product=1001&flow=1', 400, 'flow');
    await fails('/api/v1/trade/partners?reporter=RO&product=1001&sort=name', 400, 'sort');
    await fails('/api/v1/trade/partners?reporter=RO&product=1001&period=23', 400, 'period');
    await fails('/api/v1/trade/partners?reporter=RO&product=1001&period=2023&date_from=2020', 400, 'period');
    await fails('/api/v1/trade/partners?reporter=RO&product=1001&limit=501', 400, 'limit');
    await fails('/api/v1/trade/partners?reporter=QQ&product=1001', 404);
  });
});

describe('/api/v1/changes', () => {
  test('every annual market change, newest year first, missing years skipped', async () => {
    const body = await ok('/api/v1/changes');
    assert.equal(body.source, 'markets');
    assert.deepEqual(body.items.map((i: any) => `${i.period} ${i.country} ${i.metric} ${i.previous_period} ${i.percentage_change}`), [
      '2023 FR imports 2022 4.00',
      '2023 FR exports 2022 14.29',
      '2023 FR trade_balance 2022 15.08',
      '2023 RO imports 2021 100.00',
      '2023 RO exports 2022 -50.00',
      '2023 RO trade_balance 2021 -53.06',
      '2022 RO price 2021 25.00',
      '2022 RO exports 2021 50.00',
      '2021 RO price 2020 20.00',
      '2021 RO imports 2020 10.00',
      '2021 RO exports 2020 20.00',
      '2021 RO trade_balance 2020 22.50',
    ]);
    assert.deepEqual(body.items[5], {
      metric: 'trade_balance', dataset: null, country: 'RO', country_name: 'Romania', commodity: '1001', commodity_name: 'wheat',
      partner: 'WORLD', market: null, stage: null, unit: 'EUR', period: '2023', previous_period: '2021',
      previous_value: '4900.00', current_value: '2300.00', absolute_change: '-2600.00', percentage_change: '-53.06',
    });
  });

  test('country/reporter, commodity/product, metric and period filters', async () => {
    const a = await ok('/api/v1/changes?country=RO&commodity=1001&metric=price');
    const b = await ok('/api/v1/changes?reporter=Romania&product=WHEAT&metric=PRICE');
    assert.deepEqual(a.items, b.items);
    assert.deepEqual(pick(a.items, 'period', 'previous_value', 'current_value', 'absolute_change', 'unit'), [
      { period: '2022', previous_value: '240.00', current_value: '300.00', absolute_change: '60.00', unit: 'EUR/t' },
      { period: '2021', previous_value: '200.00', current_value: '240.00', absolute_change: '40.00', unit: 'EUR/t' },
    ]);
    const window = await ok('/api/v1/changes?country=RO&date_from=2022&date_to=2022');
    assert.deepEqual(window.items.map((i: any) => i.metric), ['price', 'exports']);
    const paged = await ok('/api/v1/changes?limit=5&offset=10');
    assert.deepEqual([paged.count, paged.total], [2, 12]);
  });

  test('dataset routes to the agri-food weekly price LAG changes', async () => {
    const body = await ok('/api/v1/changes?dataset=cereals_prices&country=RO');
    assert.equal(body.source, 'agrifood');
    // Breadmaking: 200 -> 220 (+10.00 %), 220 -> 250 (+13.64 %), 250 -> 300 (+20.00 %); Feed wheat 180 -> 230 (+27.78 %).
    assert.deepEqual(pick(body.items, 'period', 'commodity_name', 'previous_value', 'current_value', 'percentage_change'), [
      { period: '2022-03-07', commodity_name: 'Breadmaking common wheat', previous_value: '250.00', current_value: '300.00', percentage_change: '20.00' },
      { period: '2021-03-01', commodity_name: 'Breadmaking common wheat', previous_value: '220.00', current_value: '250.00', percentage_change: '13.64' },
      { period: '2021-03-01', commodity_name: 'Feed wheat', previous_value: '180.00', current_value: '230.00', percentage_change: '27.78' },
      { period: '2020-03-09', commodity_name: 'Breadmaking common wheat', previous_value: '200.00', current_value: '220.00', percentage_change: '10.00' },
    ]);
    assert.equal(body.items[0].commodity, 'cereals_prices:Breadmaking common wheat');
    assert.equal(body.items[0].market, 'Constanta');
    // An HS code stands for its price products; a product name for itself; dates bound begin_date.
    const wheat = await ok('/api/v1/changes?dataset=cereals_prices&commodity=1001&date_from=2021-01-01');
    assert.equal(wheat.total, 3);
    const feed = await ok('/api/v1/changes?dataset=cereals_prices&product=feed%20wheat&metric=price');
    assert.equal(feed.total, 1);
    const empty = await ok('/api/v1/changes?dataset=pigmeat_prices');
    assert.equal(empty.total, 0);
  });

  test('400s and 404s', async () => {
    await fails('/api/v1/changes?metric=volume', 400, 'metric');
    await fails('/api/v1/changes?dataset=cereals_prices&metric=imports', 400, 'metric');
    await fails('/api/v1/changes?date_from=2023&date_to=2021', 400, 'date_from');
    await fails('/api/v1/changes?limit=0', 400, 'limit');
    await fails('/api/v1/changes?dataset=rice_prices', 404);
    await fails('/api/v1/changes?dataset=cereals_prices&commodity=Rye', 404);
    await fails('/api/v1/changes?country=Narnia', 404);
    await fails('/api/v1/changes?commodity=rice', 404);
  });
});

describe('/api/v1/markets/{country}/{commodity}', () => {
  test('the latest year by default: price null, trade, changes from the previous calendar year', async () => {
    const body = await ok('/api/v1/markets/RO/1001');
    assert.deepEqual(body.commodity, { code: '1001', name: 'wheat', price_products: ['Breadmaking common wheat', 'Feed wheat'] });
    assert.deepEqual(body.filters, { year: null, date_from: null, date_to: null, partner: 'WORLD', flow: null });
    assert.equal(body.period, 2023);
    assert.deepEqual(body.available_periods, [2020, 2021, 2022, 2023]);
    // 2023 vs 2022: exports (4500 - 9000) / 9000 = -50.00; 2022 imports are missing, so no imports change.
    assert.deepEqual(body.market, {
      period: 2023, price: null, price_observations: 0, imports: '2200.00', exports: '4500.00', trade_balance: '2300.00',
      imports_quantity: '1500.00', exports_quantity: '3000.00', previous_period: 2022, price_change: null,
      imports_change: null, exports_change: '-50.00',
    });
  });

  test('year, names, partner and flow', async () => {
    const body = await ok('/api/v1/markets/romania/wheat?year=2021');
    assert.deepEqual(body.market, {
      period: 2021, price: '240.00', price_observations: 2, imports: '1100.00', exports: '6000.00', trade_balance: '4900.00',
      imports_quantity: '520.00', exports_quantity: '2800.00', previous_period: 2020, price_change: '20.00',
      imports_change: '10.00', exports_change: '20.00',
    });
    const ua = await ok('/api/v1/markets/RO/1001?partner=ua&flow=import');
    assert.deepEqual(pick([ua.market], 'period', 'imports', 'exports', 'trade_balance'), [{ period: 2023, imports: '1200.00', exports: null, trade_balance: null }]);
    assert.equal(ua.filters.flow, 'import');
    const barley = await ok('/api/v1/markets/RO/1003');
    assert.deepEqual(pick([barley.market], 'period', 'price', 'imports'), [{ period: 2021, price: '150.00', imports: null }]);
    const noData = await ok('/api/v1/markets/RO/1001?year=2019');
    assert.deepEqual([noData.period, noData.market, noData.available_periods], [2019, null, []]);
    const window = await ok('/api/v1/markets/RO/1001?date_from=2020&date_to=2021-12-31');
    assert.deepEqual([window.period, window.available_periods], [2021, [2020, 2021]]);
  });

  test('400s and 404s', async () => {
    await fails('/api/v1/markets/RO/1001?year=2021&date_from=2020', 400, 'year');
    await fails('/api/v1/markets/RO/1001?year=21', 400, 'year');
    await fails('/api/v1/markets/RO/1001?flow=both', 400, 'flow');
    await fails('/api/v1/markets/XX/1001', 404);
    await fails('/api/v1/markets/RO/rice', 404);
    await fails('/api/v1/markets/RO/1001?partner=ZZ', 404);
  });
});

describe('/api/v1/markets/{country}/{commodity}/history', () => {
  test('the annual series, oldest first; nulls stay null', async () => {
    const body = await ok('/api/v1/markets/RO/1001/history');
    assert.deepEqual(pick(body.items, 'period', 'price', 'imports', 'exports', 'trade_balance'), [
      { period: 2020, price: '200.00', imports: '1000.00', exports: '5000.00', trade_balance: '4000.00' },
      { period: 2021, price: '240.00', imports: '1100.00', exports: '6000.00', trade_balance: '4900.00' },
      { period: 2022, price: '300.00', imports: null, exports: '9000.00', trade_balance: null },
      { period: 2023, price: null, imports: '2200.00', exports: '4500.00', trade_balance: '2300.00' },
    ]);
    assert.equal(body.items[0].price_observations, 3);
    const window = await ok('/api/v1/markets/ro/WHEAT/history?date_from=2021&date_to=2022&limit=1&offset=1');
    assert.deepEqual([window.total, window.count, window.items[0].period], [2, 1, 2022]);
    const hu = await ok('/api/v1/markets/HU/1005/history');
    assert.deepEqual(pick(hu.items, 'period', 'imports', 'price'), [{ period: 2024, imports: '780.00', price: null }]);
  });

  test('400s and 404s', async () => {
    await fails('/api/v1/markets/RO/1001/history?date_from=1.1.2020', 400, 'date_from');
    await fails('/api/v1/markets/RO/1001/history?limit=600', 400, 'limit');
    await fails('/api/v1/markets/ZZ/1001/history', 404);
  });
});

describe('/api/v1/markets/{country}/{commodity}/insights', () => {
  test('year-over-year changes and leave-one-out z-scores; default z 3', async () => {
    const body = await ok('/api/v1/markets/RO/1001/insights');
    assert.deepEqual(body.filters, { z: 3 });
    const exports = body.items.filter((i: any) => i.metric === 'exports');
    assert.deepEqual(pick(exports, 'period', 'yoy_percent', 'zscore', 'is_anomaly'), [
      { period: 2020, yoy_percent: null, zscore: '-0.80', is_anomaly: false },
      { period: 2021, yoy_percent: '20.00', zscore: '-0.08', is_anomaly: false },
      { period: 2022, yoy_percent: '50.00', zscore: '6.15', is_anomaly: true },
      { period: 2023, yoy_percent: '-50.00', zscore: '-1.27', is_anomaly: false },
    ]);
    // Series with 3 observations have only 2 other years: no z-score.
    assert.ok(body.items.filter((i: any) => i.metric !== 'exports').every((i: any) => i.zscore === null));
    assert.deepEqual(pick(body.anomalies, 'metric', 'period'), [{ metric: 'exports', period: 2022 }]);
    assert.equal(body.count, 3 + 3 + 4 + 3);
    const exportSeries = body.series.find((s: any) => s.metric === 'exports');
    // mean (5000 + 6000 + 9000 + 4500) / 4 = 6125; largest |move| 50 twice: the later year.
    assert.deepEqual(exportSeries, {
      metric: 'exports', observations: 4, first_period: 2020, last_period: 2023, latest_value: '4500.00',
      latest_yoy_percent: '-50.00', mean: '6125.00', largest_move: { period: 2023, yoy_percent: '-50.00' }, anomalies: 1,
    });
  });

  test('z threshold; 400 and 404', async () => {
    const strict = await ok('/api/v1/markets/RO/1001/insights?z=7');
    assert.deepEqual(strict.anomalies, []);
    const loose = await ok('/api/v1/markets/RO/1001/insights?z=1.2');
    assert.deepEqual(pick(loose.anomalies, 'period'), [{ period: 2022 }, { period: 2023 }]);
    await fails('/api/v1/markets/RO/1001/insights?z=-1', 400, 'z');
    await fails('/api/v1/markets/RO/1001/insights?z=abc', 400, 'z');
    await fails('/api/v1/markets/RO/9999/insights', 404);
  });
});

describe('/api/v1/markets/changes', () => {
  test('moves of at least 10 % by default, largest first', async () => {
    const body = await ok('/api/v1/markets/changes');
    assert.deepEqual(body.filters, { countries: null, commodities: null, min_percent: 10 });
    // FR imports +4.00 % is below the threshold; RO imports 2021 +10.00 % is exactly at it.
    assert.deepEqual(body.items.map((i: any) => `${i.country} ${i.metric} ${i.period} ${i.percent_change} ${i.direction}`), [
      'RO imports 2023 100.00 up',
      'RO trade_balance 2023 -53.06 down',
      'RO exports 2023 -50.00 down',
      'RO exports 2022 50.00 up',
      'RO price 2022 25.00 up',
      'RO trade_balance 2021 22.50 up',
      'RO price 2021 20.00 up',
      'RO exports 2021 20.00 up',
      'FR trade_balance 2023 15.08 up',
      'FR exports 2023 14.29 up',
      'RO imports 2021 10.00 up',
    ]);
  });

  test('countries, commodities, min_percent, pagination', async () => {
    const body = await ok('/api/v1/markets/changes?countries=fr,Romania&commodities=wheat,1005&min_percent=50');
    assert.deepEqual(body.filters, { countries: ['FR', 'RO'], commodities: ['1001', '1005'], min_percent: 50 });
    assert.equal(body.total, 4);
    const fr = await ok('/api/v1/markets/changes?countries=FR&min_percent=0');
    assert.deepEqual(fr.items.map((i: any) => i.percent_change), ['15.08', '14.29', '4.00']);
    const page = await ok('/api/v1/markets/changes?limit=3&offset=9');
    assert.deepEqual([page.count, page.total], [2, 11]);
  });

  test('400s and 404s', async () => {
    await fails('/api/v1/markets/changes?min_percent=-5', 400, 'min_percent');
    await fails('/api/v1/markets/changes?countries=RO,,FR', 400, 'countries');
    await fails('/api/v1/markets/changes?countries=RO,XX', 404);
    await fails('/api/v1/markets/changes?commodities=oats', 404);
  });
});

describe('/api/v1/markets/anomalies', () => {
  test('price or imports with |yoy| >= 40 or |z| >= 3 by default', async () => {
    const body = await ok('/api/v1/markets/anomalies');
    assert.deepEqual(body.filters, { countries: null, commodities: null, min_percent: 40, z: 3 });
    // Exports 2022 (z 6.15) is not price or imports; RO imports 2023 (+100 %) is the only one.
    assert.deepEqual(pick(body.items, 'country', 'metric', 'period', 'percent_change', 'zscore', 'reasons'), [
      { country: 'RO', metric: 'imports', period: 2023, percent_change: '100.00', zscore: null, reasons: ['percent_change'] },
    ]);
    const lower = await ok('/api/v1/markets/anomalies?min_percent=20&countries=RO');
    assert.deepEqual(lower.items.map((i: any) => `${i.metric} ${i.period}`), ['imports 2023', 'price 2022', 'price 2021']);
    const none = await ok('/api/v1/markets/anomalies?commodities=barley');
    assert.equal(none.total, 0);
  });

  test('400s and 404s', async () => {
    await fails('/api/v1/markets/anomalies?z=x', 400, 'z');
    await fails('/api/v1/markets/anomalies?limit=0', 400, 'limit');
    await fails('/api/v1/markets/anomalies?countries=Mordor', 404);
  });
});

describe('/api/v1/markets/compare', () => {
  test('the latest common period by default', async () => {
    const body = await ok('/api/v1/markets/compare?countries=RO,FR&commodity=1001');
    assert.equal(body.common_period, 2023);
    assert.deepEqual(body.periods, [2023]);
    // FR 2023: imports (520 - 500) / 500 = 4.00 %, exports (8000 - 7000) / 7000 = 14.29 %; price only in 2022.
    assert.deepEqual(pick(body.items, 'country', 'period', 'price', 'imports', 'exports', 'trade_balance', 'price_change', 'imports_change', 'exports_change'), [
      { country: 'RO', period: 2023, price: null, imports: '2200.00', exports: '4500.00', trade_balance: '2300.00', price_change: null, imports_change: null, exports_change: '-50.00' },
      { country: 'FR', period: 2023, price: null, imports: '520.00', exports: '8000.00', trade_balance: '7480.00', price_change: null, imports_change: '4.00', exports_change: '14.29' },
    ]);
  });

  test('a window gives every year with data, missing countries as nulls', async () => {
    const body = await ok('/api/v1/markets/compare?countries=france,ro&commodity=wheat&date_from=2021&date_to=2022');
    assert.deepEqual(body.periods, [2022, 2021]);
    assert.equal(body.common_period, 2022);
    assert.deepEqual(pick(body.items, 'country', 'period', 'price', 'exports'), [
      { country: 'FR', period: 2022, price: '280.00', exports: '7000.00' },
      { country: 'RO', period: 2022, price: '300.00', exports: '9000.00' },
      { country: 'FR', period: 2021, price: null, exports: null },
      { country: 'RO', period: 2021, price: '240.00', exports: '6000.00' },
    ]);
    const page = await ok('/api/v1/markets/compare?countries=FR,RO&commodity=1001&date_from=2021&date_to=2022&limit=1&offset=3');
    assert.deepEqual([page.count, page.total, page.items[0].country], [1, 4, 'RO']);
    const disjoint = await ok('/api/v1/markets/compare?countries=HU,FR&commodity=1001');
    assert.deepEqual([disjoint.common_period, disjoint.items], [null, []]);
  });

  test('400s and 404s', async () => {
    await fails('/api/v1/markets/compare?commodity=1001', 400, 'countries');
    await fails('/api/v1/markets/compare?countries=RO,FR', 400, 'commodity');
    await fails('/api/v1/markets/compare?countries=RO&commodity=1001', 400, 'countries');
    await fails('/api/v1/markets/compare?countries=RO,ro,Romania&commodity=1001', 400, 'countries');
    await fails('/api/v1/markets/compare?countries=RO,FR&commodity=1001&date_from=2023&date_to=2022', 400, 'date_from');
    await fails('/api/v1/markets/compare?countries=RO,XX&commodity=1001', 404);
    await fails('/api/v1/markets/compare?countries=RO,FR&commodity=soy', 404);
  });
});

describe('output formats and an empty snapshot', () => {
  test('lists as CSV', async () => {
    const response = await app.get('/api/v1/trade/balance?country=RO&commodity=1001&format=csv');
    assert.equal(response.status, 200);
    const lines = String(response.body).trim().split(/\r?\n/);
    assert.equal(lines.length, 5);
    assert.match(lines[0], /^freq,period,period_start,period_end,imports,exports,trade_balance/);
    assert.match(lines[3], /^A,2022,2022-01-01,2022-12-31,,9000\.00,,/);
  });

  test('every endpoint answers on a snapshot without trade or prices', async () => {
    const empty = await startTestApp(await tempDir('trade-empty-'));
    try {
      const get = async (url: string) => {
        const response = await empty.get(url);
        assert.equal(response.status, 200, `${url}: ${JSON.stringify(response.body)}`);
        return response.body;
      };
      assert.equal((await get('/api/v1/trade')).total, 0);
      assert.equal((await get('/api/v1/trade/balance?country=DE&commodity=1001')).total, 0);
      const partners = await get('/api/v1/trade/partners?reporter=DE&product=1001');
      assert.deepEqual([partners.total, partners.selection, partners.data_quality.world_value], [0, { freq: null, periods: [] }, null]);
      assert.equal((await get('/api/v1/changes')).total, 0);
      assert.equal((await get('/api/v1/changes?dataset=cereals_prices')).total, 0);
      assert.equal((await get('/api/v1/markets/DE/1001')).market, null);
      assert.equal((await get('/api/v1/markets/DE/1001/history')).total, 0);
      assert.deepEqual((await get('/api/v1/markets/DE/1001/insights')).items, []);
      assert.equal((await get('/api/v1/markets/changes')).total, 0);
      assert.equal((await get('/api/v1/markets/anomalies')).total, 0);
      assert.equal((await get('/api/v1/markets/compare?countries=DE,FR&commodity=1001')).common_period, null);
    } finally {
      await empty.close();
    }
  });
});
