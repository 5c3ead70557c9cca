// The generated agri-food sample: deterministic, in the real layouts, covering the member states and
// products the markets views need, a decade of weeks, and planted moves that the change and anomaly
// endpoints find. Expectations are computed from the generated JSON itself, not from the service.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generateAgrifoodSample, PLANTED_MOVES, SAMPLE_FILES } from '../../domains/agrifood/ingest/sample.ts';
import { agrifoodSampleSource } from '../../domains/agrifood/ingest/sampleSource.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { tempDirUntilExit } from '../helpers/tmp.ts';

type PortalRecord = Record<string, any>;
const iso = (dmy: string) => dmy.split('/').reverse().join('-');

let root: string;
let files: string[];
let app: TestApp;
const records: Record<string, PortalRecord[]> = {};

before(async () => {
  root = await tempDirUntilExit('agrifood-sample-');
  files = await generateAgrifoodSample(path.join(root, 'sample'));
  for (const [key, name] of Object.entries(SAMPLE_FILES)) records[key] = JSON.parse(await readFile(path.join(root, 'sample', name), 'utf8'));
  const dataDir = path.join(root, 'parquet');
  await agrifoodSampleSource.ingest({ dataDir, sampleDir: path.join(root, 'sample'), log: () => undefined });
  app = await startTestApp(dataDir);
});
after(() => app?.close());

describe('agri-food sample', () => {
  test('deterministic: a second generation gives the same bytes', async () => {
    const again = await generateAgrifoodSample(path.join(root, 'again'));
    for (let i = 0; i < files.length; i++) assert.ok((await readFile(files[i])).equals(await readFile(again[i])), path.basename(files[i]));
  });

  test('real layouts, member states with their names, products for the markets views, a decade of weeks', () => {
    const cereal = records.cereals[0];
    for (const field of ['memberStateCode', 'memberStateName', 'beginDate', 'endDate', 'weekNumber', 'price', 'unit', 'productName', 'productCode', 'marketName', 'stageName']) {
      assert.ok(field in cereal, `cereals field ${field}`);
    }
    for (const field of ['product', 'productType', 'market', 'marketStage', 'marketingYear']) assert.ok(field in records.oilseeds[0], `oilseeds ${field}`);
    assert.ok('pigClass' in records.pigmeat[0]);
    assert.match(cereal.price, /^€\d+[.,]\d{2}$/);
    assert.match(cereal.beginDate, /^\d{2}\/\d{2}\/\d{4}$/);
    const names = new Map(records.cereals.map((r) => [r.memberStateCode, r.memberStateName]));
    for (const [code, name] of [['DE', 'Germany'], ['FR', 'France'], ['BG', 'Bulgaria'], ['RO', 'Romania'], ['PL', 'Poland'], ['HU', 'Hungary']]) {
      assert.equal(names.get(code), name);
    }
    const products = new Set(records.cereals.map((r) => r.productName));
    for (const product of ['Breadmaking common wheat', 'Feed barley', 'Feed maize']) assert.ok(products.has(product), product);
    for (const key of ['cereals', 'oilseeds', 'pigmeat']) {
      const dates = records[key].map((r) => iso(r.beginDate)).sort();
      assert.ok(dates[0] <= '2016-01-31', `${key} starts ${dates[0]}`);
      assert.ok(dates[dates.length - 1] < '2026-11-22', `${key} ends ${dates[dates.length - 1]}`);
    }
    // The quirks: Bulgarian oilseed records without name and end date, decimal commas, missing prices.
    assert.ok(records.oilseeds.some((r) => r.memberStateCode === 'BG' && !('memberStateName' in r) && !('endDate' in r)));
    assert.ok(records.cereals.some((r) => /^€\d+,\d{2}$/.test(r.price)));
    assert.ok(records.pigmeat.some((r) => r.price === '') && records.oilseeds.some((r) => r.price === null));
  });

  test('every planted move shows in the changes and the anomalies', async () => {
    const anomalies = (await app.get('/api/v1/anomalies?limit=500')).body;
    assert.equal(anomalies.total, anomalies.items.length, 'all anomalies fit in one page');
    for (const move of PLANTED_MOVES) {
      const source = move.dataset === 'cereals_prices' ? records.cereals : move.dataset === 'oilseeds_prices' ? records.oilseeds : records.pigmeat;
      const name = move.commodityId.slice(move.commodityId.indexOf(':') + 1);
      const series = source
        .filter((r) => r.memberStateCode === move.state && (r.productName ?? (r.product ? `${r.product}|${r.productType}` : r.pigClass)) === name && r.price)
        .map((r) => ({ date: iso(r.beginDate), price: Number(String(r.price).replace('€', '').replace(',', '.')) }))
        .sort((a, b) => a.date.localeCompare(b.date));
      const at = series.findIndex((p) => p.date >= move.begin);
      const percent = ((series[at].price - series[at - 1].price) / series[at - 1].price) * 100;
      assert.ok(Math.abs(percent) >= 25, `${move.commodityId} ${move.state}: planted move of ${percent.toFixed(1)} %`);
      const found = anomalies.items.find((r: any) => r.commodity_id === move.commodityId && r.member_state_code === move.state && r.begin_date === series[at].date);
      assert.ok(found, `${move.commodityId} ${move.state} ${series[at].date} among the anomalies`);
      assert.equal(found.percent_change, percent.toFixed(2));
      const changes = (await app.get(`/api/v1/prices/changes?country=${move.state}&dataset=${move.dataset}&limit=500`)).body;
      assert.ok(changes.items.length > 0);
    }
  });

  test('two cereals versions; the markets products have prices in every sample country that reports them', async () => {
    const detail = (await app.get('/api/v1/datasets/cereals_prices')).body;
    assert.deepEqual(detail.results.map((r: any) => [r.source_file, r.version, r.is_current]), [
      [SAMPLE_FILES.cereals, 2, true],
      [SAMPLE_FILES.cerealsOld, 1, false],
    ]);
    for (const product of ['Breadmaking common wheat', 'Feed barley', 'Feed maize']) {
      const latest = (await app.get(`/api/v1/prices?commodity=${encodeURIComponent(product)}&country=FR&limit=1`)).body;
      assert.equal(latest.items[0].begin_date, '2026-11-09', product);
    }
  });
});
