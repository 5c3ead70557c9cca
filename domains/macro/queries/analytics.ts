// The macro, rates, FX and US formulas and bands (reference/analytics.md, "Macro, rates, FX, US"),
// as pure functions over small arrays, so each can be checked by hand. Bands are half-open: the
// lower bound belongs to the band, except where the definition closes both ends (ecb-stance neutral).
// Bands are applied to the values as rounded in the answer, so a label always agrees with the number shown.

/** Rounds half away from zero at `decimals` places, through the decimal text (no 1.005 -> 1.00 surprise). */
export function round(value: number, decimals: number): number {
  const scaled = Number(`${Math.abs(value)}e${decimals}`);
  const rounded = Number(`${Math.round(scaled)}e-${decimals}`);
  const result = value < 0 ? -rounded : rounded;
  return Object.is(result, -0) ? 0 : result;
}

/** Decimals of every rounded field (stated in the route descriptions). */
export const DECIMALS = {
  /** ECB key rates, €STR, corridor and spread (pp): 3 (the ECB publishes €STR with 3). */
  rate: 3,
  /** AAA curve levels and slopes (pp): 4. */
  curve: 4,
  /** HICP annual rates and gaps (pp): 1, as Eurostat publishes them. */
  hicp: 1,
  /** EUR/USD spot as published (4 decimals in the reference rates); returns, vol, drawdown, percentile: 2; z-score: 2. */
  pct: 2,
  /** US spreads, CPI yoy, differential, rate changes: 2. */
  us: 2,
} as const;

// -----------------------------------------------------------------------------------------------
// Bands

export const LIQUIDITY_BANDS = { ampleBelow: -0.05, tightAbove: 0.05 } as const;
export type LiquidityStance = 'ample' | 'neutral' | 'tight';
/** estr_minus_dfr_pp: ample < -0.05 <= neutral <= 0.05 < tight. */
export function liquidityStance(estrMinusDfrPp: number): LiquidityStance {
  if (estrMinusDfrPp < LIQUIDITY_BANDS.ampleBelow) return 'ample';
  if (estrMinusDfrPp > LIQUIDITY_BANDS.tightAbove) return 'tight';
  return 'neutral';
}

export const CURVE_BANDS = { flat: 0, normal: 0.5, steep: 1.5 } as const;
export type CurveRegime = 'inverted' | 'flat' | 'normal' | 'steep';
/** slope_10y_2y_pp: inverted < 0 <= flat < 0.5 <= normal < 1.5 <= steep. */
export function curveRegime(slopePp: number): CurveRegime {
  if (slopePp < CURVE_BANDS.flat) return 'inverted';
  if (slopePp < CURVE_BANDS.normal) return 'flat';
  if (slopePp < CURVE_BANDS.steep) return 'normal';
  return 'steep';
}

export const VIX_BANDS = { normal: 15, elevated: 20, stress: 30 } as const;
export type VolatilityRegime = 'calm' | 'normal' | 'elevated' | 'stress';
/** VIXCLS: calm < 15 <= normal < 20 <= elevated < 30 <= stress. */
export function volatilityRegime(vix: number): VolatilityRegime {
  if (vix < VIX_BANDS.normal) return 'calm';
  if (vix < VIX_BANDS.elevated) return 'normal';
  if (vix < VIX_BANDS.stress) return 'elevated';
  return 'stress';
}

export const MACRO_THRESHOLDS = { cpiHigh: 3, unrateRise: 0.3 } as const;
export type MacroRegime = 'stagflation_risk' | 'overheating' | 'slowdown' | 'disinflation' | 'steady';
/**
 * In this order: stagflation_risk (CPI yoy >= 3 and UNRATE rose >= 0.3), overheating (CPI yoy >= 3 and
 * UNRATE did not rise: change <= 0), slowdown (UNRATE rose >= 0.3 and CPI yoy < 3), disinflation (CPI
 * yoy fell over 3 months and |UNRATE change| < 0.3), steady otherwise.
 */
export function macroRegime(input: { cpiYoy: number; cpiYoyChange3m: number; unrateChange3m: number }): MacroRegime {
  const { cpiYoy, cpiYoyChange3m, unrateChange3m } = input;
  const high = cpiYoy >= MACRO_THRESHOLDS.cpiHigh;
  const rose = unrateChange3m >= MACRO_THRESHOLDS.unrateRise;
  if (high && rose) return 'stagflation_risk';
  if (high && unrateChange3m <= 0) return 'overheating';
  if (rose && !high) return 'slowdown';
  if (cpiYoyChange3m < 0 && Math.abs(unrateChange3m) < MACRO_THRESHOLDS.unrateRise) return 'disinflation';
  return 'steady';
}

// -----------------------------------------------------------------------------------------------
// Series helpers

export interface Point {
  date: string;
  value: number;
}

/** The change dates of a series (the first point and every point whose value differs from the previous one). */
export function stepChanges(points: readonly Point[]): Point[] {
  const changes: Point[] = [];
  for (const p of points) if (changes.length === 0 || changes[changes.length - 1].value !== p.value) changes.push(p);
  return changes;
}

/** The step in force on `date`: the last change dated on or before it (forward fill), or null. */
export function stepAt(changes: readonly Point[], date: string): Point | null {
  let found: Point | null = null;
  for (const c of changes) {
    if (c.date <= date) found = c;
    else break;
  }
  return found;
}

function mean(values: readonly number[]): number {
  return values.reduce((s, v) => s + v, 0) / values.length;
}

/** Population standard deviation. */
export function pstdev(values: readonly number[]): number {
  const m = mean(values);
  return Math.sqrt(values.reduce((s, v) => s + (v - m) * (v - m), 0) / values.length);
}

/** Share of values <= x, in percent. */
export function percentileOf(values: readonly number[], x: number): number {
  return (values.filter((v) => v <= x).length / values.length) * 100;
}

/** (x - mean) / population stdev; null when the stdev is 0. */
export function zscore(values: readonly number[], x: number): number | null {
  const sd = pstdev(values);
  return sd === 0 ? null : (x - mean(values)) / sd;
}

// -----------------------------------------------------------------------------------------------
// EUR/USD

export const EURUSD_HORIZONS = [
  ['return_1w_pct', 5], ['return_1m_pct', 21], ['return_3m_pct', 63], ['return_6m_pct', 126], ['return_1y_pct', 252],
] as const;
export const VOL_WINDOW = 21;

export interface DrawdownResult {
  pct: number;
  peakDate: string | null;
  troughDate: string | null;
}

/** The largest peak-to-trough fall within the points, in percent of the peak (0 when the series never falls). */
export function maxDrawdown(points: readonly Point[]): DrawdownResult {
  let peak = points[0];
  let best: DrawdownResult = { pct: 0, peakDate: null, troughDate: null };
  for (const p of points) {
    if (p.value > peak.value) peak = p;
    const fall = ((peak.value - p.value) / peak.value) * 100;
    if (fall > best.pct) best = { pct: fall, peakDate: peak.date, troughDate: p.date };
  }
  return best;
}

export interface EurusdAnalytics {
  spot: number;
  spotDate: string;
  windowStart: string;
  returns: Record<string, number | null>;
  vol21dAnnualizedPct: number | null;
  percentile: number;
  zscore: number | null;
  maxDrawdown: DrawdownResult;
}

/**
 * `history` ascending by date (every fixing held), `lookback` <= history.length. The window is the last
 * `lookback` fixings, spot the newest. A return over n fixings compares spot with the fixing n before it
 * (null when n > lookback); vol = population stdev of the last 21 daily log returns * sqrt(252) * 100
 * (null when lookback < 21); percentile, z-score and drawdown over the window.
 */
export function eurusdAnalytics(history: readonly Point[], lookback: number): EurusdAnalytics {
  const last = history.length - 1;
  const spot = history[last];
  const window = history.slice(history.length - lookback);
  const values = window.map((p) => p.value);
  const returns: Record<string, number | null> = {};
  for (const [name, n] of EURUSD_HORIZONS) {
    returns[name] = n <= lookback && last - n >= 0 ? (spot.value / history[last - n].value - 1) * 100 : null;
  }
  let vol: number | null = null;
  if (VOL_WINDOW <= lookback && last - VOL_WINDOW >= 0) {
    const logReturns: number[] = [];
    for (let i = last - VOL_WINDOW + 1; i <= last; i++) logReturns.push(Math.log(history[i].value / history[i - 1].value));
    vol = pstdev(logReturns) * Math.sqrt(252) * 100;
  }
  return {
    spot: spot.value,
    spotDate: spot.date,
    windowStart: window[0].date,
    returns,
    vol21dAnnualizedPct: vol,
    percentile: percentileOf(values, spot.value),
    zscore: zscore(values, spot.value),
    maxDrawdown: maxDrawdown(window),
  };
}

// -----------------------------------------------------------------------------------------------
// Months

/** `YYYY-MM` shifted by n months. */
export function addMonths(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number);
  const index = y * 12 + (m - 1) + n;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** Year-over-year percent change per month of a monthly index: (index(t) / index(t-12) - 1) * 100, where both exist. */
export function yoyByMonth(index: ReadonlyMap<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [month, value] of index) {
    const base = index.get(addMonths(month, -12));
    if (base !== undefined && base !== 0) out.set(month, (value / base - 1) * 100);
  }
  return out;
}

/** The latest month m (descending) where `ok(m)` holds; null when none. */
export function latestMonth(months: Iterable<string>, ok: (month: string) => boolean): string | null {
  const sorted = [...months].sort().reverse();
  return sorted.find(ok) ?? null;
}
