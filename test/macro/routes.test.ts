// Every macro route on the hand-made fixture (fixture.ts), values worked out by hand; every 400 and 404.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { expectError, expectOk, type TestApp } from '../helpers/app.ts';
import { buildFixtureSnapshot } from './fixture.ts';
import { startMacroApp, tempRoot } from './helpers.ts';

let app: TestApp;
let empty: TestApp;
let cleanup: () => Promise<void>;
before(async () => {
  const temp = await tempRoot('macro-routes-');
  cleanup = temp.cleanup;
  app = await startMacroApp(await buildFixtureSnapshot(temp.root));
  empty = await startMacroApp(path.join(temp.root, 'nothing'));
});
after(async () => {
  await app?.close();
  await empty?.close();
  await cleanup?.();
});

describe('eu-inflation-divergence', () => {
  it('default period: the latest month with the benchmark and >= 20 EU27 countries (2025-10 has 19)', async () => {
    const body = await expectOk(app, '/api/v1/macro/eu-inflation-divergence');
    assert.equal(body.period, '2025-09');
    assert.deepEqual(body.benchmark, { geo: 'EA20', yoy_pct: 2.2 }); // no EA that month; EA20 before EA19
    assert.equal(body.count, 20);
    assert.deepEqual(body.missing, ['NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK']);
    // |gap| descending, ties by geo.
    assert.deepEqual(body.results.map((r: any) => [r.rank, r.geo, r.yoy_pct, r.gap_vs_benchmark_pp]), [
      [1, 'HR', 4.6, 2.4], [2, 'HU', 4.3, 2.1], [3, 'BG', 4, 1.8], [4, 'EE', 4, 1.8], [5, 'CY', 0.5, -1.7], [6, 'LV', 3.9, 1.7],
      [7, 'LT', 3.5, 1.3], [8, 'FR', 1.1, -1.1], [9, 'IT', 3.3, 1.1], [10, 'CZ', 2.9, 0.7], [11, 'LU', 2.6, 0.4], [12, 'FI', 1.9, -0.3],
      [13, 'DE', 2.4, 0.2], [14, 'IE', 2, -0.2], [15, 'MT', 2.4, 0.2], [16, 'BE', 2.3, 0.1], [17, 'DK', 2.1, -0.1], [18, 'AT', 2.2, 0],
      [19, 'EL', 2.2, 0], [20, 'ES', 2.2, 0],
    ]);
  });
  it('an explicit period with fewer countries; all items CP00 before TOTAL', async () => {
    const oct = await expectOk(app, '/api/v1/macro/eu-inflation-divergence?period=2025-10');
    assert.deepEqual(oct.benchmark, { geo: 'EA', yoy_pct: 2.1 });
    assert.equal(oct.count, 19);
    const jul = await expectOk(app, '/api/v1/macro/eu-inflation-divergence?period=2025-07');
    assert.deepEqual(jul.benchmark, { geo: 'EA', yoy_pct: 2 });
    assert.deepEqual(jul.results, [{ rank: 1, geo: 'DE', yoy_pct: 1.5, gap_vs_benchmark_pp: -0.5 }]);
  });
  it('CSV of the results', async () => {
    const response = await app.get('/api/v1/macro/eu-inflation-divergence?format=csv');
    assert.equal(response.status, 200);
    assert.match(String(response.body).split('\n')[1], /^1,HR,4.6,2.4/);
  });
  it('404 for a month without data, 400 for a malformed period', async () => {
    await expectError(app, '/api/v1/macro/eu-inflation-divergence?period=2025-11', 404);
    await expectError(app, '/api/v1/macro/eu-inflation-divergence?period=2025-08', 404);
    await expectError(app, '/api/v1/macro/eu-inflation-divergence?period=2025-13', 400, 'period');
    await expectError(app, '/api/v1/macro/eu-inflation-divergence?period=2025', 400, 'period');
    await expectError(empty, '/api/v1/macro/eu-inflation-divergence', 404);
  });
});

describe('ecb-stance', () => {
  it('key rates forward-filled to the latest €STR date; corridor, spread and the neutral edge', async () => {
    const body = await expectOk(app, '/api/v1/rates/ecb-stance');
    assert.deepEqual(body, {
      endpoint: 'ecb-stance',
      date: '2024-09-20',
      rates: {
        main_refinancing: { value: 3.65, effective_date: '2024-09-18' },
        deposit_facility: { value: 3.5, effective_date: '2024-09-18' },
        marginal_lending: { value: 3.9, effective_date: '2024-09-18' },
      },
      estr: { value: 3.45, date: '2024-09-20' },
      derived: { corridor_width_pp: 0.4, estr_minus_dfr_pp: -0.05, liquidity_stance: 'neutral' }, // -0.05 belongs to neutral
    });
  });
  it('404 on an empty snapshot', async () => {
    await expectError(empty, '/api/v1/rates/ecb-stance', 404);
  });
});

describe('eu-curve-slope', () => {
  it('the latest date with all three maturities; slope exactly 0.5 is normal', async () => {
    const body = await expectOk(app, '/api/v1/rates/eu-curve-slope');
    assert.deepEqual(body, {
      endpoint: 'eu-curve-slope',
      date: '2024-09-19', // 2024-09-20 has no 30Y
      levels: { sr_2y: 2.1235, sr_10y: 2.6235, sr_30y: 2.9 },
      derived: { slope_10y_2y_pp: 0.5, slope_30y_10y_pp: 0.2765, butterfly_pp: 0.2235, regime: 'normal' },
    });
  });
  it('404 on an empty snapshot', async () => {
    await expectError(empty, '/api/v1/rates/eu-curve-slope', 404);
  });
});

describe('eurusd-analytics', () => {
  it('both sources joined (eurofxref first); a 6-fixing window by hand', async () => {
    const body = await expectOk(app, '/api/v1/fx/eurusd-analytics?lookback_days=6');
    assert.equal(body.spot, 1.2);
    assert.equal(body.spot_date, '2026-01-07');
    assert.deepEqual(body.window, { from: '2026-01-02', to: '2026-01-07' });
    assert.deepEqual(body.sources, { eurofxref: 6, ecb_data_api: 1 });
    const d = body.derived;
    assert.equal(d.return_1w_pct, 9.09); // 1.2 / 1.1 - 1
    assert.equal(d.return_1m_pct, null);
    assert.equal(d.vol_21d_annualized_pct, null);
    assert.equal(d.percentile, 100);
    assert.equal(d.zscore, 1.13); // 0.12 / sqrt(0.068 / 6) = 1.1272
    assert.equal(d.max_drawdown_pct, 18.18); // 1.10 -> 0.90
    assert.equal(d.max_drawdown_peak_date, '2026-01-02');
    assert.equal(d.max_drawdown_trough_date, '2026-01-04');
  });
  it('lookback_days: 400 below 2, above 2000 or not an integer; 404 when fewer fixings are held', async () => {
    await expectError(app, '/api/v1/fx/eurusd-analytics?lookback_days=1', 400, 'lookback_days');
    await expectError(app, '/api/v1/fx/eurusd-analytics?lookback_days=2001', 400, 'lookback_days');
    await expectError(app, '/api/v1/fx/eurusd-analytics?lookback_days=abc', 400, 'lookback_days');
    await expectError(app, '/api/v1/fx/eurusd-analytics?lookback_days=8', 404);
    await expectError(app, '/api/v1/fx/eurusd-analytics', 404);
    await expectOk(app, '/api/v1/fx/eurusd-analytics?lookback_days=2');
  });
});

describe('US routes (approved)', () => {
  it('yield curve: the latest date where both exist (DGS2 missing on 2025-12-30)', async () => {
    assert.deepEqual(await expectOk(app, '/api/analytics/us/yield-curve'), {
      indicator: 'US_10Y_2Y_SPREAD', date: '2025-12-29', value: 0.65, unit: 'percentage_points', regime: 'normal',
    });
  });
  it('us-eu inflation: CPI yoy 107/103 - 1 against EA20 2.2 in 2025-09', async () => {
    assert.deepEqual(await expectOk(app, '/api/analytics/us-eu/inflation'), {
      indicator: 'US_EU_INFLATION_DIFFERENTIAL', month: '2025-09', us_inflation: 3.88, eu_inflation: 2.2, eu_geo: 'EA20',
      differential: 1.68, unit: 'percentage_points',
    });
  });
  it('us macro: each figure with its month; UNRATE up exactly 0.3 with CPI >= 3 is stagflation_risk', async () => {
    assert.deepEqual(await expectOk(app, '/api/analytics/us/macro'), {
      endpoint: 'us-macro',
      inflation: { month: '2025-09', cpi_yoy_pct: 3.88, change_3m_pp: -0.12 }, // 3.8835 - 4.0000
      unemployment: { month: '2025-09', change_3m_pp: 0.3 }, // 4.4 - 4.1; the level is not returned
      policy_rate: { month: '2025-09', change_6m_pp: -0.25 }, // 4.08 - 4.33
      regime: 'stagflation_risk',
    });
  });
  it('volatility regime: 20 is elevated; percentile and z-score over the window', async () => {
    assert.deepEqual(await expectOk(app, '/api/analytics/market/volatility-regime?lookback_days=5'), {
      indicator: 'VIX_REGIME', date: '2025-12-30', lookback_days: 5, window_from: '2025-12-23', regime: 'elevated', percentile: 100, zscore: 1.41,
    });
    const three = await expectOk(app, '/api/analytics/market/volatility-regime?lookback_days=3');
    assert.equal(three.zscore, 1.22); // (20 - 18) / sqrt(8/3)
    await expectError(app, '/api/analytics/market/volatility-regime?lookback_days=6', 404);
    await expectError(app, '/api/analytics/market/volatility-regime?lookback_days=1', 400, 'lookback_days');
    await expectError(app, '/api/analytics/market/volatility-regime?lookback_days=2001', 400, 'lookback_days');
  });
  it('no response carries a raw observation series', async () => {
    for (const url of ['/api/analytics/us/yield-curve', '/api/analytics/us-eu/inflation', '/api/analytics/us/macro', '/api/analytics/market/volatility-regime?lookback_days=5']) {
      const text = JSON.stringify(await expectOk(app, url));
      assert.ok(!text.includes('['), `${url} has an array: ${text}`);
    }
  });
  it('on an empty snapshot the US routes are refused by the licence gate (no status) before anything else', async () => {
    for (const url of ['/api/analytics/us/yield-curve', '/api/analytics/us-eu/inflation', '/api/analytics/us/macro', '/api/analytics/market/volatility-regime']) {
      const response = await empty.get(url);
      assert.equal(response.status, 451, url);
      assert.equal(response.body.error.code, 'license_not_approved');
      assert.match(response.body.error.message, /not ingested/);
    }
  });
});
