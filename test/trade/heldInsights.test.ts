// The market insight rows held per database (markets.ts over queries/shared/heldGroups.ts) are the rows
// the statement over trade_market_insights gives, for every market of the trade sample (and one without
// rows) at z 2, and at every third pairing of market and the other z thresholds (0, 1.5, 3, above every
// score); and the anomaly test reads NULL, NaN and infinities as DuckDB's comparison does.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { agrifoodSampleSource } from '../../domains/agrifood/ingest/sampleSource.ts';
import { tradeSampleSource } from '../../domains/trade/ingest/sampleSource.ts';
import { anomalyAt, insightRows } from '../../domains/trade/queries/markets.ts';
import { startSampleApp, type TestApp } from '../helpers/app.ts';
import { combinations, strided } from '../helpers/sample.ts';

let app: TestApp;
before(async () => {
  app = await startSampleApp('held-insights-', [tradeSampleSource, agrifoodSampleSource]);
});
after(() => app?.close());

test('the anomaly test is DuckDB\'s coalesce(abs_zscore >= z, false)', async () => {
  const values = [null, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0, 2.5, 3, 3.0000001];
  for (const z of [0, 2, 3, 1e9]) {
    const [row] = await app.db.all(
      `SELECT list(coalesce(v >= $z, false) ORDER BY i) AS flags FROM (VALUES ${values.map((_, i) => `(${i}, $v${i}::DOUBLE)`).join(', ')}) t(i, v)`,
      { z, ...Object.fromEntries(values.map((v, i) => [`v${i}`, v === null ? null : Number.isNaN(v) ? 'nan' : String(v)])) },
    );
    assert.deepEqual(values.map((v) => anomalyAt(v, z)), row.flags, `z ${z}`);
  }
});

test('every market\'s rows and flags as the statement gives them', async () => {
  const markets = await app.db.all('SELECT DISTINCT country, product FROM trade_market_insights ORDER BY ALL');
  assert.ok(markets.length >= 10, `${markets.length} markets`);
  let anomalies = 0;
  const all = combinations<[Record<string, unknown>, number]>([...markets, { country: 'XX', product: '1001' }], [0, 1.5, 2, 3, 100]);
  for (const [market, z] of strided(all, 3, ([, z]) => z === 2)) {
    const [country, product] = [String(market.country), String(market.product)];
    const expected = await app.db.all(
      `SELECT metric, period, value, previous_period, previous_value, yoy_percent, zscore, coalesce(abs_zscore >= $z, false) AS is_anomaly, raw_percent, series_mean
         FROM trade_market_insights WHERE country = $country AND product = $product ORDER BY pos`,
      { country, product, z },
    );
    const actual = await insightRows(app.db, country, product, z);
    assert.deepEqual(actual, expected, JSON.stringify({ country, product, z }));
    assert.deepEqual(actual.map((row) => Object.keys(row)), expected.map((row) => Object.keys(row)), 'the same key order');
    if (z === 2) anomalies += expected.filter((row) => row.is_anomaly).length;
  }
  assert.ok(anomalies > 0, 'some anomalies at z 2');
});
