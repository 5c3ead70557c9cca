// The generated macro sample: deterministic bytes in the real formats, every route answering on it,
// and the planted facts (a rate decision, an inverted curve period, a volatility spike, the regimes).
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ensureSnapshot } from '../../ingest/bootstrap.ts';
import { ecbSampleSource, eurofxrefSampleSource, fredSampleSource, hicpSampleSource } from '../../domains/macro/ingest/sampleSource.ts';
import { DECISION_DATE, HICP_LAST_MONTH, INVERTED_FROM, INVERTED_TO } from '../../domains/macro/ingest/sample.ts';
import { macroRoutes } from '../../domains/macro/queries/routes.ts';
import { expectOk, type TestApp } from '../helpers/app.ts';
import { startMacroApp, tempRoot } from './helpers.ts';

const SOURCES = [ecbSampleSource, eurofxrefSampleSource, fredSampleSource, hicpSampleSource];
let app: TestApp;
let root: string;
let cleanup: () => Promise<void>;
before(async () => {
  const temp = await tempRoot('macro-sample-');
  root = temp.root;
  cleanup = temp.cleanup;
  await ensureSnapshot({ dataDir: path.join(root, 'parquet'), sampleDir: path.join(root, 'sample'), sources: SOURCES, log: () => undefined });
  app = await startMacroApp(path.join(root, 'parquet'));
});
after(async () => {
  await app?.close();
  await cleanup?.();
});

describe('macro sample', () => {
  it('the same bytes every time', async () => {
    for (const source of SOURCES) {
      const again = path.join(root, 'again', source.name);
      await source.generate(again);
      const names = (await readdir(again)).sort();
      assert.deepEqual(names, (await readdir(path.join(root, 'sample', source.name))).sort(), source.name);
      for (const name of names) {
        assert.deepEqual(await readFile(path.join(again, name)), await readFile(path.join(root, 'sample', source.name, name)), `${source.name}/${name}`);
      }
    }
  });

  it('every example of every route answers 200', async () => {
    for (const route of macroRoutes) for (const example of route.examples) await expectOk(app, example);
  });

  it('the planted rate decision and the ample liquidity of the last €STR fixing', async () => {
    const body = await expectOk(app, '/api/v1/rates/ecb-stance');
    assert.deepEqual(body.rates, {
      main_refinancing: { value: 2.15, effective_date: DECISION_DATE },
      deposit_facility: { value: 2, effective_date: DECISION_DATE },
      marginal_lending: { value: 2.4, effective_date: DECISION_DATE },
    });
    assert.deepEqual(body.derived, { corridor_width_pp: 0.4, estr_minus_dfr_pp: -0.072, liquidity_stance: 'ample' });
  });

  it('the inverted period: 10Y below 2Y on every day of the window and on no other, in both curves', async () => {
    const curve = await app.db.all(`SELECT CAST(date AS VARCHAR) AS date, sr_10y < sr_2y AS inverted FROM macro_curve ORDER BY date`);
    const treasury = await app.db.all(`SELECT CAST(a.date AS VARCHAR) AS date, a.value < b.value AS inverted
      FROM macro_fred_observations a JOIN macro_fred_observations b ON a.date = b.date AND a.series_id = 'DGS10' AND b.series_id = 'DGS2'
      WHERE a.value IS NOT NULL AND b.value IS NOT NULL ORDER BY a.date`);
    for (const rows of [curve, treasury]) {
      assert.ok(rows.some((r) => r.inverted));
      for (const r of rows) assert.equal(r.inverted, String(r.date) >= INVERTED_FROM && String(r.date) <= INVERTED_TO, String(r.date));
    }
    assert.notEqual((await expectOk(app, '/api/v1/rates/eu-curve-slope')).derived.regime, 'inverted');
  });

  it('the volatility spike: stress, the highest of the window, a large z-score', async () => {
    const body = await expectOk(app, '/api/analytics/market/volatility-regime');
    assert.equal(body.regime, 'stress');
    assert.equal(body.percentile, 100);
    assert.ok(body.zscore > 5, String(body.zscore));
  });

  it('US macro regime and the HICP default period', async () => {
    const macro = await expectOk(app, '/api/analytics/us/macro');
    assert.equal(macro.regime, 'stagflation_risk');
    assert.equal(macro.unemployment.change_3m_pp, 0.4);
    // CPI 2025-10 is missing, so the yoy of 2026-10 cannot be computed: the latest figure is 2026-09.
    assert.equal(macro.inflation.month, '2026-09');
    const divergence = await expectOk(app, '/api/v1/macro/eu-inflation-divergence');
    assert.notEqual(divergence.period, HICP_LAST_MONTH); // only 15 countries there
    assert.equal(divergence.period, '2026-09');
    assert.equal(divergence.count, 27);
  });
});
