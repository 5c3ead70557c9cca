// The routes on the real files (FRED copies, eurofxref-hist.csv), each figure recomputed here from
// the raw lines by an independent pass. Skipped when ../shared/data/real is absent.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ingestEurofxrefFiles, ingestFredFiles } from '../../domains/macro/ingest/snapshot.ts';
import { expectOk, type TestApp } from '../helpers/app.ts';
import { startMacroApp, tempRoot } from './helpers.ts';

const REAL = path.resolve(import.meta.dirname, '../../../shared/data/real');
const FRED = path.join(REAL, 'fred');
const FX = path.join(REAL, 'ecb_eurofxref', 'eurofxref-hist.csv');
const present = existsSync(FRED) && existsSync(FX);

/** date -> value of a `date,value` copy, missing values left out. */
function series(id: string): Map<string, number> {
  const lines = readFileSync(path.join(FRED, `${id}.csv`), 'utf8').trim().split('\n').slice(1);
  return new Map(lines.map((l) => l.split(',')).filter(([, v]) => v !== '').map(([d, v]) => [d, Number(v)]));
}
const r2 = (x: number) => Math.round(x * 100) / 100;

describe('macro routes on the real files', { skip: present ? false : `no ${FRED} or ${FX}` }, () => {
  let app: TestApp;
  let cleanup: () => Promise<void>;
  before(async () => {
    const temp = await tempRoot('macro-real-');
    cleanup = temp.cleanup;
    const dataDir = path.join(temp.root, 'parquet');
    const ids = ['DGS10', 'DGS2', 'CPIAUCSL', 'UNRATE', 'FEDFUNDS', 'VIXCLS'];
    await ingestFredFiles(ids.map((id) => path.join(FRED, `${id}.csv`)), { dataDir, license: 'APPROVED' });
    await ingestEurofxrefFiles([FX], { dataDir });
    app = await startMacroApp(dataDir);
  });
  after(async () => {
    await app?.close();
    await cleanup?.();
  });

  it('US 10Y-2Y: the latest common date, equal to FRED\'s T10Y2Y there', async () => {
    const d10 = series('DGS10');
    const d2 = series('DGS2');
    const latest = [...d10.keys()].filter((d) => d2.has(d)).sort().pop()!;
    const body = await expectOk(app, '/api/analytics/us/yield-curve');
    assert.equal(body.date, latest);
    assert.equal(body.value, r2(d10.get(latest)! - d2.get(latest)!));
    assert.ok(Math.abs(body.value - series('T10Y2Y').get(latest)!) <= 0.01 + 1e-9);
  });

  it('US macro: the unpublished 2025-10 is skipped, never filled', async () => {
    const cpi = series('CPIAUCSL');
    const un = series('UNRATE');
    const ff = series('FEDFUNDS');
    const yoy = (m: string) => {
      const [y, mm] = m.split('-');
      const base = cpi.get(`${Number(y) - 1}-${mm}-01`);
      const now = cpi.get(`${m}-01`);
      return base === undefined || now === undefined ? undefined : (now / base - 1) * 100;
    };
    const body = await expectOk(app, '/api/analytics/us/macro');
    assert.equal(body.inflation.month, '2025-11'); // 2025-11 vs 2024-11, and 2025-08 vs 2024-08
    assert.equal(body.inflation.cpi_yoy_pct, r2(yoy('2025-11')!));
    assert.equal(body.inflation.change_3m_pp, r2(yoy('2025-11')! - yoy('2025-08')!));
    assert.equal(body.unemployment.month, '2025-11');
    assert.equal(body.unemployment.change_3m_pp, r2(un.get('2025-11-01')! - un.get('2025-08-01')!));
    assert.equal(body.policy_rate.month, '2025-11');
    assert.equal(body.policy_rate.change_6m_pp, r2(ff.get('2025-11-01')! - ff.get('2025-05-01')!));
  });

  it('VIX: percentile and z-score of the last 252 published closes', async () => {
    const closes = [...series('VIXCLS').entries()].sort(([a], [b]) => (a < b ? -1 : 1)).slice(-252).map(([, v]) => v);
    const last = closes[closes.length - 1]!;
    const mean = closes.reduce((s, v) => s + v, 0) / closes.length;
    const sd = Math.sqrt(closes.reduce((s, v) => s + (v - mean) ** 2, 0) / closes.length);
    const body = await expectOk(app, '/api/analytics/market/volatility-regime');
    assert.equal(body.percentile, r2((closes.filter((v) => v <= last).length / closes.length) * 100));
    assert.equal(body.zscore, r2((last - mean) / sd));
    assert.equal(body.regime, last < 15 ? 'calm' : last < 20 ? 'normal' : last < 30 ? 'elevated' : 'stress');
  });

  it('EUR/USD: spot 1.0887 on 2024-01-19 and the 1-week return from the raw file', async () => {
    const rows = readFileSync(FX, 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    const usd = rows.map(([date, rate]) => [date, Number(rate)] as const); // newest first
    const body = await expectOk(app, '/api/v1/fx/eurusd-analytics?lookback_days=2000');
    assert.equal(body.spot, 1.0887);
    assert.equal(body.spot_date, '2024-01-19');
    assert.equal(body.sources.ecb_data_api, 0);
    assert.equal(body.derived.return_1w_pct, r2((1.0887 / usd[5]![1] - 1) * 100));
    assert.equal(body.derived.return_1y_pct, r2((1.0887 / usd[252]![1] - 1) * 100));
    assert.equal(body.window.from, usd[1999]![0]);
  });
});
