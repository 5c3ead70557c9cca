// The macro formulas and every band edge, on values computed by hand.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  addMonths, curveRegime, eurusdAnalytics, latestMonth, liquidityStance, macroRegime, maxDrawdown, percentileOf, pstdev, round,
  stepAt, stepChanges, volatilityRegime, yoyByMonth, zscore,
} from '../../domains/macro/queries/analytics.ts';

const close = (actual: number | null, expected: number, eps = 1e-9) => assert.ok(actual !== null && Math.abs(actual - expected) < eps, `${actual} vs ${expected}`);

describe('bands (half-open, lower bound belongs to the band)', () => {
  it('liquidity stance: ample < -0.05 <= neutral <= 0.05 < tight', () => {
    assert.equal(liquidityStance(-0.051), 'ample');
    assert.equal(liquidityStance(-0.05), 'neutral');
    assert.equal(liquidityStance(0), 'neutral');
    assert.equal(liquidityStance(0.05), 'neutral');
    assert.equal(liquidityStance(0.051), 'tight');
  });
  it('curve regime: inverted < 0 <= flat < 0.5 <= normal < 1.5 <= steep', () => {
    assert.equal(curveRegime(-0.0001), 'inverted');
    assert.equal(curveRegime(0), 'flat');
    assert.equal(curveRegime(0.4999), 'flat');
    assert.equal(curveRegime(0.5), 'normal');
    assert.equal(curveRegime(1.4999), 'normal');
    assert.equal(curveRegime(1.5), 'steep');
  });
  it('volatility regime: calm < 15 <= normal < 20 <= elevated < 30 <= stress', () => {
    assert.equal(volatilityRegime(14.99), 'calm');
    assert.equal(volatilityRegime(15), 'normal');
    assert.equal(volatilityRegime(19.99), 'normal');
    assert.equal(volatilityRegime(20), 'elevated');
    assert.equal(volatilityRegime(29.99), 'elevated');
    assert.equal(volatilityRegime(30), 'stress');
  });
  it('macro regime, checked in order, at each threshold', () => {
    assert.equal(macroRegime({ cpiYoy: 3, cpiYoyChange3m: 0, unrateChange3m: 0.3 }), 'stagflation_risk');
    assert.equal(macroRegime({ cpiYoy: 3, cpiYoyChange3m: -1, unrateChange3m: 0 }), 'overheating');
    assert.equal(macroRegime({ cpiYoy: 3.5, cpiYoyChange3m: 0, unrateChange3m: -0.2 }), 'overheating');
    // CPI high, UNRATE rose a little (0.1): neither stagflation nor overheating; did not fall -> steady.
    assert.equal(macroRegime({ cpiYoy: 3.5, cpiYoyChange3m: 0.2, unrateChange3m: 0.1 }), 'steady');
    assert.equal(macroRegime({ cpiYoy: 3.5, cpiYoyChange3m: -0.2, unrateChange3m: 0.1 }), 'disinflation');
    assert.equal(macroRegime({ cpiYoy: 2.99, cpiYoyChange3m: -0.5, unrateChange3m: 0.3 }), 'slowdown');
    assert.equal(macroRegime({ cpiYoy: 2.5, cpiYoyChange3m: -0.01, unrateChange3m: 0.29 }), 'disinflation');
    assert.equal(macroRegime({ cpiYoy: 2.5, cpiYoyChange3m: -0.01, unrateChange3m: -0.3 }), 'steady');
    assert.equal(macroRegime({ cpiYoy: 2.5, cpiYoyChange3m: 0, unrateChange3m: 0 }), 'steady');
  });
});

describe('helpers', () => {
  it('round: half away from zero, through the decimal text', () => {
    assert.equal(round(1.005, 2), 1.01);
    assert.equal(round(-1.005, 2), -1.01);
    assert.equal(round(2.184 - 2, 3), 0.184);
    assert.equal(round(-0.0001, 2), 0);
    assert.equal(round(0.58231, 4), 0.5823);
  });
  it('step functions: change dates only, forward fill', () => {
    const daily = [
      { date: '2024-06-10', value: 4 }, { date: '2024-06-11', value: 4 }, { date: '2024-06-12', value: 3.75 }, { date: '2024-06-13', value: 3.75 },
    ];
    const steps = stepChanges(daily);
    assert.deepEqual(steps, [{ date: '2024-06-10', value: 4 }, { date: '2024-06-12', value: 3.75 }]);
    assert.equal(stepAt(steps, '2024-06-09'), null);
    assert.deepEqual(stepAt(steps, '2024-06-11'), { date: '2024-06-10', value: 4 });
    assert.deepEqual(stepAt(steps, '2024-06-12'), { date: '2024-06-12', value: 3.75 });
    assert.deepEqual(stepAt(steps, '2030-01-01'), { date: '2024-06-12', value: 3.75 });
  });
  it('percentile, population stdev and z-score', () => {
    assert.equal(percentileOf([1, 2, 3, 4], 2), 50);
    assert.equal(pstdev([2, 4, 4, 4, 5, 5, 7, 9]), 2);
    assert.equal(zscore([2, 4, 4, 4, 5, 5, 7, 9], 9), 2);
    assert.equal(zscore([3, 3, 3], 3), null);
  });
  it('months and year over year', () => {
    assert.equal(addMonths('2025-01', -1), '2024-12');
    assert.equal(addMonths('2025-11', 3), '2026-02');
    assert.equal(addMonths('2025-10', -12), '2024-10');
    const yoy = yoyByMonth(new Map([['2024-10', 200], ['2025-09', 205], ['2025-10', 206]]));
    assert.deepEqual([...yoy.keys()], ['2025-10']);
    close(yoy.get('2025-10')!, 3);
    assert.equal(latestMonth(['2025-01', '2025-03', '2025-02'], (m) => m !== '2025-03'), '2025-02');
    assert.equal(latestMonth([], () => true), null);
  });
});

describe('EUR/USD analytics', () => {
  const days = (values: number[]) => values.map((value, i) => ({ date: `2026-01-${String(i + 1).padStart(2, '0')}`, value }));
  it('a 6-fixing window by hand', () => {
    const a = eurusdAnalytics(days([1.0, 1.1, 1.0, 0.9, 1.2, 1.08, 1.2]), 6);
    assert.equal(a.spot, 1.2);
    assert.equal(a.spotDate, '2026-01-07');
    assert.equal(a.windowStart, '2026-01-02');
    close(a.returns.return_1w_pct, (1.2 / 1.1 - 1) * 100); // 5 fixings back: 2026-01-02
    assert.equal(a.returns.return_1m_pct, null); // 21 > lookback
    assert.equal(a.vol21dAnnualizedPct, null);
    assert.equal(a.percentile, 100);
    // mean 1.08; squared deviations .0004 .0064 .0324 .0144 0 .0144 = .068; /6
    close(a.zscore, 0.12 / Math.sqrt(0.068 / 6));
    close(a.maxDrawdown.pct, (0.2 / 1.1) * 100); // 1.10 -> 0.90
    assert.equal(a.maxDrawdown.peakDate, '2026-01-02');
    assert.equal(a.maxDrawdown.troughDate, '2026-01-04');
  });
  it('21-day volatility: log returns alternating +a and -a', () => {
    const a = 0.01;
    const values = Array.from({ length: 22 }, (_, i) => Math.exp(i % 2 === 0 ? 0 : a));
    const result = eurusdAnalytics(values.map((value, i) => ({ date: `2026-02-${String(i + 1).padStart(2, '0')}`, value })), 21);
    // 21 returns: 11 of +a, 10 of -a; mean a/21; variance a^2 - a^2/441.
    close(result.vol21dAnnualizedPct, a * Math.sqrt(440 / 441) * Math.sqrt(252) * 100, 1e-9);
    close(result.returns.return_1w_pct, (Math.exp(a) / Math.exp(0) - 1) * 100); // spot index 21 (odd), base index 16 (even)
  });
  it('drawdown is 0 with no dates when the rate never falls', () => {
    assert.deepEqual(maxDrawdown(days([1, 1.1, 1.2])), { pct: 0, peakDate: null, troughDate: null });
  });
});
