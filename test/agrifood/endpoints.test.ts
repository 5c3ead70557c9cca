// The ten agri-food endpoints against the hand-made fixture of fixtures.ts. Expected values are
// worked out by hand below, never copied from the output.
//
// Series A, FR Feed barley (Rouen, FOB, Tonne), weeks of 2026: 01-05 200, 01-12 210, 01-19 no price,
//   01-26 168, 02-02 168 ("€168,00").
//   LAG changes (the missing week skipped, never 0): 01-12 +10.00 (+5.00 %); 01-26 vs 01-12: -42.00
//   (-42/210 = -20.00 %); 02-02 0.00 (0.00 %).
//   z (population): mean 746/4 = 186.5; squared deviations 182.25 + 552.25 + 342.25 + 342.25 = 1419;
//   variance 354.75, sd 18.8348; z(200) = 13.5/18.8348 = 0.72, z(210) = 23.5/18.8348 = 1.25,
//   z(168) = -18.5/18.8348 = -0.98.
// Series B, DE Breadmaking common wheat (Hamburg, Delivered port): 11 weeks 01-05..03-16 at 100, except
//   02-09 at 210. Mean 1210/11 = 110; squared deviations 10 x 100 + 100^2 = 11000; variance 1000,
//   sd 31.6228; z(210) = 100/31.6228 = 3.16; z(100) = -0.32. Changes: 02-09 +110.00 (+110.00 %),
//   02-16 -110.00 (-110/210 = -52.38 %), the other eight 0.00.
// Oilseeds BG Sunflower seed|Standard: 01-05 1000.00 ("€1,000.00"), 01-12 1250.00 ("€1.250,00"),
//   01-19 null. Change 01-12 +250.00 (+25.00 %, exactly the default threshold). Mean 1125, sd 125.
// Oilseeds FR Rapeseed|N.A.: one row, 2026-07-27 524.00. Pigmeat DE S: 150.00 twice (change 0.00,
//   no spread so z null). Pigmeat PT E: one row, 2020-03-23 18.17.
// Rows: cereals 16 (v2 only; v1's 999.00 must not appear), oilseeds 4, pigmeat 3 = 23.
// Changes: A 3 + B 10 + BG 1 + DE S 1 = 15. Anomalies at 25 % / z 3: B 02-16 (percent), B 02-09
// (percent and z), BG 01-12 (percent) = 3.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, expectOk, pick, startTestApp, type TestApp } from '../helpers/app.ts';
import { writeAgrifoodFixtureSnapshot } from './fixtures.ts';
import { tempDirUntilExit } from '../helpers/tmp.ts';

let app: TestApp;
before(async () => {
  const { dataDir } = await writeAgrifoodFixtureSnapshot();
  app = await startTestApp(dataDir);
});
after(() => app?.close());

const enc = encodeURIComponent;
const ok = (url: string) => expectOk(app, url);
const fails = (url: string, status: number, param?: string) => expectError(app, url, status, param);

describe('/api/v1/datasets', () => {
  test('a JSON array of the latest import record per dataset, with the version count', async () => {
    const body = await ok('/api/v1/datasets');
    assert.ok(Array.isArray(body));
    assert.deepEqual(pick(body, 'dataset', 'source_file', 'row_count', 'versions', 'import_date'), [
      { dataset: 'cereals_prices', source_file: 'b-cereals.json', row_count: 16, versions: 2, import_date: '2026-11-20T10:00:00.001Z' },
      { dataset: 'oilseeds_prices', source_file: 'c-oilseeds.json', row_count: 4, versions: 1, import_date: '2026-11-20T10:00:00.002Z' },
      { dataset: 'pigmeat_prices', source_file: 'd-pigmeat.json', row_count: 3, versions: 1, import_date: '2026-11-20T10:00:00.003Z' },
    ]);
    assert.equal(body[0].source, 'agrifood-cereal-prices-json');
    assert.equal(body[0].source_url, 'https://api.tech.ec.europa.eu/agrifood/api/cereal/prices');
    assert.match(body[0].file_hash, /^[0-9a-f]{64}$/);
  });

  test('limit and offset page the array', async () => {
    assert.deepEqual((await ok('/api/v1/datasets?limit=1&offset=1')).map((r: any) => r.dataset), ['oilseeds_prices']);
    assert.deepEqual((await ok('/api/v1/datasets?limit=2')).map((r: any) => r.dataset), ['cereals_prices', 'oilseeds_prices']);
    assert.deepEqual((await ok('/api/v1/datasets?limit=5&offset=1')).map((r: any) => r.dataset), ['oilseeds_prices', 'pigmeat_prices']);
    assert.deepEqual((await ok('/api/v1/datasets?limit=1&offset=2')).map((r: any) => r.versions), [1]);
    // A page read twice is the same page (the answers come from rows held per database).
    assert.deepEqual(await ok('/api/v1/datasets?limit=2&offset=1'), await ok('/api/v1/datasets?limit=2&offset=1'));
    assert.deepEqual(await ok('/api/v1/datasets?offset=3'), []);
    await fails('/api/v1/datasets?limit=501', 400, 'limit');
    await fails('/api/v1/datasets?offset=-1', 400, 'offset');
  });

  test('CSV of the array', async () => {
    const response = await app.get('/api/v1/datasets?format=csv');
    assert.equal(response.status, 200);
    const lines = String(response.body).trim().split(/\r?\n/);
    assert.equal(lines[0], 'dataset,source,source_file,source_url,file_hash,import_date,row_count,versions');
    assert.equal(lines.length, 4);
  });
});

describe('/api/v1/datasets/{dataset_id}', () => {
  test('import versions under results, newest first; only the latest feeds the facts', async () => {
    const body = await ok('/api/v1/datasets/cereals_prices');
    assert.equal(body.dataset, 'cereals_prices');
    assert.deepEqual(pick(body.results, 'source_file', 'version', 'is_current', 'row_count'), [
      { source_file: 'b-cereals.json', version: 2, is_current: true, row_count: 16 },
      { source_file: 'a-cereals-old.json', version: 1, is_current: false, row_count: 1 },
    ]);
    assert.equal(body.count, 2);
    assert.equal(body.current.source_file, 'b-cereals.json');
    assert.equal(body.current.version, 2);
    // 16 rows, one without a price; 2 commodities in FR and DE; weeks 2026-01-05..2026-03-16.
    assert.deepEqual(body.facts, { rows: 16, priced_rows: 15, commodities: 2, countries: 2, first_date: '2026-01-05', last_date: '2026-03-16' });
  });

  test('any case; unknown dataset is a 404', async () => {
    assert.equal((await ok('/api/v1/datasets/PIGMEAT_PRICES')).dataset, 'pigmeat_prices');
    await fails('/api/v1/datasets/wine_prices', 404);
  });
});

describe('/api/v1/commodities', () => {
  test('every commodity id, ordered, with its counts', async () => {
    const body = await ok('/api/v1/commodities');
    assert.deepEqual(body.items.map((c: any) => c.commodity_id), [
      'cereals_prices:Breadmaking common wheat', 'cereals_prices:Feed barley', 'oilseeds_prices:Rapeseed|N.A.',
      'oilseeds_prices:Sunflower seed|Standard', 'pigmeat_prices:E', 'pigmeat_prices:S',
    ]);
    assert.deepEqual({ limit: body.limit, offset: body.offset, total: body.total, count: body.count }, { limit: 100, offset: 0, total: 6, count: 6 });
    assert.deepEqual(body.filters, { dataset: null, q: null });
    const barley = body.items[1];
    assert.deepEqual(barley, {
      commodity_id: 'cereals_prices:Feed barley', dataset: 'cereals_prices', product_name: 'Feed barley', product_code: 'ORGFOUR',
      product_type: null, pig_class: null, units: ['Tonne'], country_count: 1, observations: 5, priced_observations: 4,
      first_date: '2026-01-05', last_date: '2026-02-02',
    });
    assert.equal(body.items[3].product_type, 'Standard');
    assert.equal(body.items[5].pig_class, 'S');
  });

  test('q and its aliases commodity and product search product names and pig classes, any case', async () => {
    for (const key of ['q', 'commodity', 'product']) {
      const body = await ok(`/api/v1/commodities?${key}=BARLEY`);
      assert.deepEqual(body.items.map((c: any) => c.commodity_id), ['cereals_prices:Feed barley'], key);
      assert.equal(body.filters.q, 'BARLEY');
    }
    assert.deepEqual((await ok('/api/v1/commodities?dataset=pigmeat_prices&q=s')).items.map((c: any) => c.commodity_id), ['pigmeat_prices:S']);
    assert.equal((await ok('/api/v1/commodities?dataset=oilseeds_prices')).total, 2);
    assert.equal((await ok('/api/v1/commodities?q=oats')).total, 0);
    await fails('/api/v1/commodities?q=wheat&product=barley', 400, 'product');
    await fails('/api/v1/commodities?dataset=milk_prices', 404);
  });
});

describe('/api/v1/commodities/{commodity_id}/prices and /history', () => {
  const barley = `/api/v1/commodities/${enc('cereals_prices:Feed barley')}`;
  test('prices: newest begin_date first, the week without a price kept as null', async () => {
    const body = await ok(`${barley}/prices`);
    assert.deepEqual(pick(body.items, 'begin_date', 'price'), [
      { begin_date: '2026-02-02', price: '168.00' },
      { begin_date: '2026-01-26', price: '168.00' },
      { begin_date: '2026-01-19', price: null },
      { begin_date: '2026-01-12', price: '210.00' },
      { begin_date: '2026-01-05', price: '200.00' },
    ]);
    assert.equal(body.order, 'begin_date DESC');
    assert.deepEqual(body.commodity, { commodity_id: 'cereals_prices:Feed barley', dataset: 'cereals_prices', product_name: 'Feed barley', product_code: 'ORGFOUR', product_type: null, pig_class: null });
    assert.deepEqual(body.items[0], {
      dataset: 'cereals_prices', commodity_id: 'cereals_prices:Feed barley', product_name: 'Feed barley', product_code: 'ORGFOUR',
      product_type: null, pig_class: null, member_state_code: 'FR', member_state_name: 'France', market_name: 'Rouen', market_code: 'ROU',
      stage_name: 'Free on board', stage_code: 'FOB', begin_date: '2026-02-02', end_date: '2026-02-08', week_number: 32,
      marketing_year: '2025/2026', reference_period: 'Week 32', unit: 'Tonne', price: '168.00',
    });
  });

  test('history: ascending; country by name, date_from/date_to inclusive', async () => {
    const body = await ok(`${barley}/history?country=france&date_from=2026-01-12&date_to=2026-01-26`);
    assert.deepEqual(body.items.map((r: any) => r.begin_date), ['2026-01-12', '2026-01-19', '2026-01-26']);
    assert.deepEqual(body.filters, { country: 'FR', date_from: '2026-01-12', date_to: '2026-01-26' });
    assert.equal(body.order, 'begin_date ASC');
    assert.equal((await ok(`${barley}/history?limit=2&offset=1`)).items.map((r: any) => r.begin_date).join(), '2026-01-12,2026-01-19');
  });

  test('ids with a bar, any case; a country without this commodity is empty', async () => {
    const sunflower = await ok(`/api/v1/commodities/${enc('oilseeds_prices:Sunflower seed|Standard')}/prices`);
    // Bulgaria's records carry no memberStateName: the name comes from the member-state table.
    assert.deepEqual(pick(sunflower.items, 'begin_date', 'price', 'member_state_name', 'end_date'), [
      { begin_date: '2026-01-19', price: null, member_state_name: 'Bulgaria', end_date: null },
      { begin_date: '2026-01-12', price: '1250.00', member_state_name: 'Bulgaria', end_date: null },
      { begin_date: '2026-01-05', price: '1000.00', member_state_name: 'Bulgaria', end_date: null },
    ]);
    assert.equal((await ok(`/api/v1/commodities/${enc('CEREALS_PRICES:feed BARLEY')}/history`)).total, 5);
    const empty = await ok(`${barley}/prices?country=DE`);
    assert.deepEqual([empty.total, empty.items], [0, []]);
  });

  test('404 for unknown commodity or country, 400 for bad dates', async () => {
    await fails(`/api/v1/commodities/${enc('cereals_prices:Oats')}/prices`, 404);
    await fails('/api/v1/commodities/nope/history', 404);
    await fails(`${barley}/prices?country=Atlantis`, 404);
    await fails(`${barley}/prices?date_from=05-01-2026`, 400, 'date_from');
    await fails(`${barley}/history?date_to=2026-02-30`, 400, 'date_to');
    await fails(`${barley}/prices?date_from=2026-02-01&date_to=2026-01-01`, 400, 'date_from');
    await fails(`${barley}/prices?limit=0`, 400, 'limit');
  });
});

describe('/api/v1/countries', () => {
  test('member states of the data, by code; dataset keeps those present in it', async () => {
    const body = await ok('/api/v1/countries');
    assert.deepEqual(pick(body.items, 'code', 'name', 'datasets'), [
      { code: 'BG', name: 'Bulgaria', datasets: ['oilseeds_prices'] },
      { code: 'DE', name: 'Germany', datasets: ['cereals_prices', 'pigmeat_prices'] },
      { code: 'FR', name: 'France', datasets: ['cereals_prices', 'oilseeds_prices'] },
      { code: 'PT', name: 'Portugal', datasets: ['pigmeat_prices'] },
    ]);
    // FR: 5 barley rows + 1 rapeseed row, 2026-01-05..2026-07-27.
    assert.deepEqual(pick([body.items[2]], 'observations', 'first_date', 'last_date'), [{ observations: 6, first_date: '2026-01-05', last_date: '2026-07-27' }]);
    assert.deepEqual((await ok('/api/v1/countries?dataset=pigmeat_prices')).items.map((c: any) => c.code), ['DE', 'PT']);
    const page = await ok('/api/v1/countries?limit=1&offset=3');
    assert.deepEqual([page.items.map((c: any) => c.code), page.total, page.count], [['PT'], 4, 1]);
    await fails('/api/v1/countries?dataset=x', 404);
  });
});

describe('/api/v1/prices', () => {
  test('all rows, newest first, with the default page', async () => {
    const body = await ok('/api/v1/prices');
    assert.deepEqual([body.total, body.count, body.limit, body.offset], [23, 23, 100, 0]);
    assert.equal(body.items[0].commodity_id, 'oilseeds_prices:Rapeseed|N.A.');
    assert.equal(body.items[22].begin_date, '2020-03-23');
    assert.ok(!body.items.some((r: any) => r.price === '999.00'), 'the replaced cereals version is not served');
    assert.deepEqual(Object.values(body.filters).filter((v) => v !== null), []);
  });

  test('pagination edges: limit 500 ok, 501 and 0 are 400; offset at or past the total is an empty page', async () => {
    assert.equal((await ok('/api/v1/prices?limit=500')).count, 23);
    await fails('/api/v1/prices?limit=501', 400, 'limit');
    await fails('/api/v1/prices?limit=0', 400, 'limit');
    await fails('/api/v1/prices?offset=-1', 400, 'offset');
    await fails('/api/v1/prices?offset=1.5', 400, 'offset');
    const last = await ok('/api/v1/prices?offset=22&limit=5');
    assert.deepEqual([last.count, last.items[0].begin_date], [1, '2020-03-23']);
    for (const offset of [23, 1000]) {
      const beyond = await ok(`/api/v1/prices?offset=${offset}`);
      assert.deepEqual([beyond.count, beyond.total, beyond.items, beyond.offset], [0, 23, [], offset]);
    }
  });

  test('commodity and its alias product: id, product name or pig class, any case', async () => {
    for (const query of ['commodity=Feed%20barley', 'product=feed%20BARLEY', `commodity=${enc('cereals_prices:Feed barley')}`, 'commodity=Feed%20barley&product=Feed%20barley']) {
      const body = await ok(`/api/v1/prices?${query}`);
      assert.equal(body.total, 5, query);
      assert.deepEqual(body.filters.commodity_ids, ['cereals_prices:Feed barley']);
    }
    assert.equal((await ok('/api/v1/prices?product=s')).total, 2);
    await fails('/api/v1/prices?commodity=Feed%20barley&product=Rapeseed', 400, 'product');
    await fails('/api/v1/prices?commodity=Oats', 404);
    await fails('/api/v1/prices?product=Oats', 404);
  });

  test('every other filter', async () => {
    const total = async (query: string) => (await ok(`/api/v1/prices?${query}`)).total;
    assert.equal(await total('dataset=PIGMEAT_PRICES'), 3);
    assert.equal(await total('country=france'), 6);
    assert.equal(await total('country=bg'), 3);
    assert.equal(await total('date=2026-01-12'), 4); // A 210, B 100, BG 1250, DE S 150
    assert.equal(await total('date_from=2026-02-01&date_to=2026-03-31'), 8); // A 02-02 (1) + B 02-02..03-16 (7)
    assert.equal(await total('market=rouen'), 6); // A 5 + FR rapeseed (market name)
    assert.equal(await total('market=ROU'), 5); // market code: cereals only
    assert.equal(await total('stage=fob'), 5);
    assert.equal(await total('stage=Free%20on%20board'), 5);
    assert.equal(await total('stage=DELPROC'), 1); // the oilseed marketStage
    assert.equal(await total('unit=TONNE'), 16);
    assert.equal(await total(`unit=${enc('national currency/ton')}`), 4);
    assert.equal(await total('period=2025/2026'), 19); // cereals 16 + BG 3
    assert.equal(await total('period=2025/26'), 19);
    assert.equal(await total('period=5'), 2); // FR rapeseed and PT E, both week 5
    assert.equal(await total('period=28'), 3); // week 0 of A, B and BG (weeks counted from 28)
    assert.equal(await total('product_type=standard'), 3);
    assert.equal(await total('pig_class=s'), 2);
    assert.equal(await total('country=DE&dataset=cereals_prices&date=2026-02-09'), 1);
    const filters = (await ok('/api/v1/prices?country=Germany&period=2025/26&stage=FOB')).filters;
    assert.deepEqual([filters.country, filters.period, filters.stage], ['DE', '2025/2026', 'FOB']);
  });

  test('400 for bad parameters, 404 for unknown dataset or country', async () => {
    await fails('/api/v1/prices?date=2026-02-30', 400, 'date');
    await fails('/api/v1/prices?date_from=2026-1-5', 400, 'date_from');
    await fails('/api/v1/prices?date_from=2026-03-01&date_to=2026-02-01', 400, 'date_from');
    await fails('/api/v1/prices?period=54', 400, 'period');
    await fails('/api/v1/prices?period=2025/2027', 400, 'period');
    await fails('/api/v1/prices?limit=ten', 400, 'limit');
    await fails('/api/v1/prices?colour=red', 400, 'colour');
    await fails('/api/v1/prices?dataset=wine_prices', 404);
    await fails('/api/v1/prices?country=XX', 404);
  });
});

describe('/api/v1/prices/changes', () => {
  test('LAG within each series, missing weeks skipped, newest first', async () => {
    const body = await ok('/api/v1/prices/changes?limit=500');
    assert.equal(body.total, 15);
    const barley = body.items.filter((r: any) => r.commodity_id === 'cereals_prices:Feed barley');
    assert.deepEqual(pick(barley, 'period', 'previous_period', 'previous_value', 'current_value', 'absolute_change', 'percentage_change'), [
      { period: '2026-02-02', previous_period: '2026-01-26', previous_value: '168.00', current_value: '168.00', absolute_change: '0.00', percentage_change: '0.00' },
      { period: '2026-01-26', previous_period: '2026-01-12', previous_value: '210.00', current_value: '168.00', absolute_change: '-42.00', percentage_change: '-20.00' },
      { period: '2026-01-12', previous_period: '2026-01-05', previous_value: '200.00', current_value: '210.00', absolute_change: '10.00', percentage_change: '5.00' },
    ]);
    const wheat = body.items.filter((r: any) => r.commodity_id === 'cereals_prices:Breadmaking common wheat' && r.absolute_change !== '0.00');
    assert.deepEqual(pick(wheat, 'period', 'absolute_change', 'percentage_change'), [
      { period: '2026-02-16', absolute_change: '-110.00', percentage_change: '-52.38' },
      { period: '2026-02-09', absolute_change: '110.00', percentage_change: '110.00' },
    ]);
    assert.equal(body.items[0].metric, 'price');
    assert.equal(body.items[0].period, '2026-03-16');
  });

  test('dataset and country filter; pagination; 404s', async () => {
    const bg = await ok('/api/v1/prices/changes?country=Bulgaria');
    assert.deepEqual(pick(bg.items, 'period', 'previous_value', 'current_value', 'absolute_change', 'percentage_change'), [
      { period: '2026-01-12', previous_value: '1000.00', current_value: '1250.00', absolute_change: '250.00', percentage_change: '25.00' },
    ]);
    assert.deepEqual(bg.filters, { dataset: null, country: 'BG' });
    assert.equal((await ok('/api/v1/prices/changes?dataset=pigmeat_prices')).total, 1);
    const page = await ok('/api/v1/prices/changes?limit=4&offset=12');
    assert.deepEqual([page.count, page.total], [3, 15]);
    await fails('/api/v1/prices/changes?dataset=x', 404);
    await fails('/api/v1/prices/changes?country=Narnia', 404);
    await fails('/api/v1/prices/changes?limit=501', 400, 'limit');
  });
});

describe('/api/v1/anomalies', () => {
  test('defaults min_percent 25 and z 3: either qualifies, within each series', async () => {
    const body = await ok('/api/v1/anomalies');
    assert.deepEqual(body.filters, { min_percent: 25, z: 3, dataset: null, country: null });
    assert.deepEqual(pick(body.items, 'commodity_id', 'begin_date', 'price', 'percent_change', 'zscore', 'reasons'), [
      { commodity_id: 'cereals_prices:Breadmaking common wheat', begin_date: '2026-02-16', price: '100.00', percent_change: '-52.38', zscore: '-0.32', reasons: ['percent_change'] },
      { commodity_id: 'cereals_prices:Breadmaking common wheat', begin_date: '2026-02-09', price: '210.00', percent_change: '110.00', zscore: '3.16', reasons: ['percent_change', 'zscore'] },
      { commodity_id: 'oilseeds_prices:Sunflower seed|Standard', begin_date: '2026-01-12', price: '1250.00', percent_change: '25.00', zscore: '1.00', reasons: ['percent_change'] },
    ]);
    assert.deepEqual(pick([body.items[1]], 'series_mean', 'series_stddev', 'series_observations', 'previous_value', 'previous_period'), [
      { series_mean: '110.00', series_stddev: '31.62', series_observations: 11, previous_value: '100.00', previous_period: '2026-02-02' },
    ]);
  });

  test('thresholds: min_percent alone, z alone', async () => {
    // min_percent 20 adds A's -20.00 % week (2026-01-26).
    const twenty = await ok('/api/v1/anomalies?min_percent=20');
    assert.equal(twenty.total, 4);
    assert.ok(twenty.items.some((r: any) => r.commodity_id === 'cereals_prices:Feed barley' && r.begin_date === '2026-01-26'));
    // Percent out of reach; |z| >= 1.2: A 210 (1.25) and B 210 (3.16). DE S (no spread) has z null.
    const z = await ok('/api/v1/anomalies?min_percent=1000&z=1.2');
    assert.deepEqual(pick(z.items, 'commodity_id', 'begin_date', 'zscore', 'reasons'), [
      { commodity_id: 'cereals_prices:Breadmaking common wheat', begin_date: '2026-02-09', zscore: '3.16', reasons: ['zscore'] },
      { commodity_id: 'cereals_prices:Feed barley', begin_date: '2026-01-12', zscore: '1.25', reasons: ['zscore'] },
    ]);
    assert.equal((await ok('/api/v1/anomalies?country=DE&dataset=cereals_prices')).total, 2);
    assert.equal((await ok('/api/v1/anomalies?limit=1&offset=2')).items[0].begin_date, '2026-01-12');
  });

  test('400 for bad thresholds', async () => {
    await fails('/api/v1/anomalies?min_percent=-1', 400, 'min_percent');
    await fails('/api/v1/anomalies?z=abc', 400, 'z');
    await fails('/api/v1/anomalies?z=1e3', 400, 'z');
    await fails('/api/v1/anomalies?offset=x', 400, 'offset');
  });
});

describe('/api/v1/latest', () => {
  test('the newest priced row of each series, in series order', async () => {
    const body = await ok('/api/v1/latest');
    assert.deepEqual(pick(body.items, 'commodity_id', 'member_state_code', 'begin_date', 'price', 'previous_value', 'percentage_change', 'observations'), [
      { commodity_id: 'cereals_prices:Breadmaking common wheat', member_state_code: 'DE', begin_date: '2026-03-16', price: '100.00', previous_value: '100.00', percentage_change: '0.00', observations: 11 },
      { commodity_id: 'cereals_prices:Feed barley', member_state_code: 'FR', begin_date: '2026-02-02', price: '168.00', previous_value: '168.00', percentage_change: '0.00', observations: 4 },
      { commodity_id: 'oilseeds_prices:Rapeseed|N.A.', member_state_code: 'FR', begin_date: '2026-07-27', price: '524.00', previous_value: null, percentage_change: null, observations: 1 },
      // 2026-01-19 has no price: the latest price is the week before.
      { commodity_id: 'oilseeds_prices:Sunflower seed|Standard', member_state_code: 'BG', begin_date: '2026-01-12', price: '1250.00', previous_value: '1000.00', percentage_change: '25.00', observations: 2 },
      { commodity_id: 'pigmeat_prices:E', member_state_code: 'PT', begin_date: '2020-03-23', price: '18.17', previous_value: null, percentage_change: null, observations: 1 },
      { commodity_id: 'pigmeat_prices:S', member_state_code: 'DE', begin_date: '2026-01-12', price: '150.00', previous_value: '150.00', percentage_change: '0.00', observations: 2 },
    ]);
    assert.deepEqual((await ok('/api/v1/latest?dataset=oilseeds_prices&limit=1&offset=1')).items.map((r: any) => r.member_state_code), ['BG']);
    await fails('/api/v1/latest?dataset=nope', 404);
  });
});

describe('an agri-food snapshot with no agri-food files', () => {
  test('every endpoint answers, with nothing in it', async () => {
    const empty = await startTestApp(await tempDirUntilExit('agrifood-empty-'));
    try {
      assert.deepEqual((await empty.get('/api/v1/datasets')).body, []);
      const detail = (await empty.get('/api/v1/datasets/cereals_prices')).body;
      assert.deepEqual([detail.current, detail.results, detail.facts.rows], [null, [], 0]);
      for (const url of ['/api/v1/prices', '/api/v1/latest', '/api/v1/anomalies', '/api/v1/prices/changes', '/api/v1/commodities', '/api/v1/countries']) {
        const response = await empty.get(url);
        assert.deepEqual([response.status, response.body.total], [200, 0], url);
      }
      const [row] = await empty.db.all('SELECT count(*)::INTEGER AS n FROM agri_prices');
      assert.equal(row.n, 0);
    } finally {
      await empty.close();
    }
  });
});
