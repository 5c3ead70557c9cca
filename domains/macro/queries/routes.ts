// The eight macro, rates, FX and US routes. Every figure is derived (reference/analytics.md, "Macro,
// rates, FX, US") from the precomputed shapes of tables.ts (one row, or one window of at most
// RECENT_POINTS rows, per request); the reserve-bank (FRED) routes answer only derived values with the
// dates they refer to, never an observation series, and pass the licence gate first (451
// license_not_approved, before any payment).
import type { Database } from '../../../engine/database.ts';
import type { Row } from '../../../engine/json.ts';
import { requiredHeldView } from '../../../engine/held.ts';
import { defineRoute, type JsonSchema, type ParamSpec, type RouteGate } from '../../../queries/catalog.ts';
import { licenseNotApproved, notFound } from '../../../queries/shared/errors.ts';
import {
  curveRegime, DECIMALS, eurusdAnalytics, EURUSD_HORIZONS, liquidityStance, macroRegime, percentileOf, round, volatilityRegime, zscore,
  type Point,
} from './analytics.ts';
import { BENCHMARK_GEOS, EU27, MIN_COUNTRIES } from './hicp.ts';
import { RECENT_POINTS, type KeyRate } from './tables.ts';

export { EU27, MIN_COUNTRIES };
export const MACRO_TAG = 'macro';
export const LOOKBACK_DEFAULT = 252;
export const LOOKBACK_MIN = 2;
/** The windows fit in the precomputed recent points of tables.ts. */
export const LOOKBACK_MAX = RECENT_POINTS;

const num = (description: string): JsonSchema => ({ type: 'number', description });
const numOrNull = (description: string): JsonSchema => ({ type: ['number', 'null'], description });
const str = (description: string, extra: JsonSchema = {}): JsonSchema => ({ type: 'string', description, ...extra });
const date = (description: string): JsonSchema => str(description, { pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
const month = (description: string): JsonSchema => str(description, { pattern: '^\\d{4}-\\d{2}$' });
const obj = (properties: Record<string, JsonSchema>, description?: string): JsonSchema => ({
  type: 'object', ...(description ? { description } : {}), properties, required: Object.keys(properties), additionalProperties: false,
});

// -----------------------------------------------------------------------------------------------
// Licence gate

export const GATE_DESCRIPTION =
  'a reserve-bank (FRED) series this route needs does not carry license_status APPROVED in the operator\'s configuration; ' +
  'answered before any payment is asked, so never charged; the message names the series and their status';

/**
 * Every series' licence status in force, read once per loaded database: a status changes only through
 * an ingest or `npm run license`, which publish a new snapshot generation (a new database), so the gate
 * of every request to a reserve-bank route costs no statement.
 */
const heldLicenseStatuses = requiredHeldView<ReadonlyMap<string, string>>({
  name: 'macro.licenseStatuses',
  sql: { rows: 'SELECT series_id, status FROM macro_fred_license_status' },
  key: ['series_id'],
  order: '',
  rowsMax: 100_000,
  bytesMax: 16 * 2 ** 20,
  build: ({ rows }) => new Map(rows.map((row) => [String(row.series_id), String(row.status)])),
  parity: {
    probes: `SELECT series_id FROM (SELECT DISTINCT series_id FROM macro_fred_license_status UNION ALL SELECT 'NOT-A-SERIES') ORDER BY series_id`,
    keyed: 'SELECT status FROM macro_fred_license_status WHERE series_id = $series_id',
    answer: (held, probe) => (held.has(String(probe.series_id)) ? [{ status: held.get(String(probe.series_id))! }] : []),
  },
});

/** The licence status in force of each of `series` that has one. */
export async function licenseStatuses(db: Database, series: readonly string[]): Promise<Map<string, string>> {
  const held = await heldLicenseStatuses(db);
  return new Map(series.flatMap((id) => (held.has(id) ? [[id, held.get(id)!] as const] : [])));
}

/** 451 license_not_approved unless every series is APPROVED (a series never ingested has no status: refused). */
export function licenseGate(series: readonly string[]): RouteGate<unknown> {
  return {
    status: 451,
    code: 'license_not_approved',
    description: `${GATE_DESCRIPTION} (needs ${series.join(', ')})`,
    async check(_params, { db }) {
      const licenses = await licenseStatuses(db, series);
      const refused = series.filter((id) => licenses.get(id) !== 'APPROVED');
      if (refused.length === 0) return null;
      const named = refused.map((id) => `${id} (license_status ${licenses.get(id) ?? 'none: not ingested'})`);
      return licenseNotApproved(`reserve-bank series not approved by the operator: ${named.join(', ')}; this analytic needs ${series.join(', ')} APPROVED. Nothing was charged.`);
    },
  };
}

const gateSentence = (series: readonly string[]) =>
  ` Requires license_status=APPROVED for ${series.join(' and ')}: otherwise 451 license_not_approved naming the series, ` +
  'before any payment challenge (never charged). Derived values only: no reserve-bank observation is returned.';

// -----------------------------------------------------------------------------------------------
// eu-inflation-divergence

interface DivergenceParams {
  period?: string;
}

/** The HICP rates of one month, geo -> value. */
type MonthRates = ReadonlyMap<string, number>;

function benchmarkOf(rates: MonthRates): { geo: string; value: number } | null {
  for (const geo of BENCHMARK_GEOS) {
    const value = rates.get(geo);
    if (value !== undefined) return { geo, value };
  }
  return null;
}

const countriesIn = (rates: MonthRates) => EU27.filter((geo) => rates.has(geo));

export const getEuInflationDivergence = defineRoute<DivergenceParams>({
  id: 'getEuInflationDivergence',
  method: 'GET',
  tag: MACRO_TAG,
  paths: ['/api/v1/macro/eu-inflation-divergence'],
  examples: ['/api/v1/macro/eu-inflation-divergence', '/api/v1/macro/eu-inflation-divergence?period=2026-03'],
  summary: 'HICP inflation of each EU27 country against the euro-area benchmark, ranked by the size of the gap',
  description:
    'Eurostat prc_hicp_manr: the HICP annual rate of change (unit RCH_A), all items (coicop CP00; TOTAL where a file from after ' +
    'the 2026 COICOP 2018 change carries only that), per EU27 country for `period` (YYYY-MM). Default period: the latest month ' +
    `in which at least ${MIN_COUNTRIES} EU27 countries and the benchmark are published. benchmark = the euro-area aggregate of the ` +
    'data for that month: EA, else EA20, else EA19 (benchmark.geo says which). gap_vs_benchmark_pp = country - benchmark, in ' +
    'percentage points, rounded to 1 decimal (the rates are published with 1). Ranked by |gap| descending (on the rounded gap), ' +
    'ties by geo ascending; rank is 1-based. Countries without a value for the month are listed in `missing`, never filled. ' +
    'A period with no benchmark or no EU27 country is a 404.',
  paid: true,
  params: {
    period: {
      in: ['query'],
      schema: { type: 'string', pattern: '^\\d{4}-(0[1-9]|1[0-2])$' },
      description: 'Month YYYY-MM (default: the latest month with the benchmark and at least 20 EU27 countries).',
    },
  },
  response: obj({
    endpoint: { type: 'string', const: 'eu-inflation-divergence' },
    period: month('The month (YYYY-MM).'),
    benchmark: obj({ geo: str('EA, EA20 or EA19.'), yoy_pct: num('Annual rate of change, %.') }),
    count: { type: 'integer' },
    missing: { type: 'array', items: { type: 'string' }, description: 'EU27 countries without a value for the month.' },
    results: {
      type: 'array',
      items: obj({
        rank: { type: 'integer' },
        geo: str('Eurostat country code (Greece EL).'),
        yoy_pct: num('Annual rate of change, %, as published (1 decimal).'),
        gap_vs_benchmark_pp: num('Country - benchmark, percentage points, 1 decimal.'),
      }),
    },
  }),
  listRows: (body) => body.results as Row[],
  listColumns: () => ['rank', 'geo', 'yoy_pct', 'gap_vs_benchmark_pp'],
  async handle(params, { db }) {
    // One statement: the month asked for (else the precomputed default) and every rate of that month.
    const rows = await db.all(
      `WITH chosen AS (SELECT coalesce(CAST($period AS VARCHAR), (SELECT month FROM macro_hicp_default_period)) AS month)
       SELECT c.month, h.geo, h.value FROM chosen c LEFT JOIN macro_hicp h ON h.month = c.month`,
      { period: params.period ?? null },
    );
    const period = (rows[0]?.month ?? null) as string | null;
    if (period === null) throw notFound(`no month has HICP annual rates for the euro-area benchmark (EA, EA20 or EA19) and at least ${MIN_COUNTRIES} EU27 countries`);
    const rates: MonthRates = new Map(rows.filter((row) => row.geo !== null).map((row) => [String(row.geo), Number(row.value)]));
    const benchmark = benchmarkOf(rates);
    if (benchmark === null) throw notFound(`no HICP annual rate of the euro-area benchmark (EA, EA20 or EA19) for period ${period}`);
    const geos = countriesIn(rates);
    if (geos.length === 0) throw notFound(`no HICP annual rate of any EU27 country for period ${period}`);
    const results = geos
      .map((geo) => {
        const value = rates.get(geo)!;
        return { geo, yoy_pct: round(value, DECIMALS.hicp), gap_vs_benchmark_pp: round(value - benchmark.value, DECIMALS.hicp) };
      })
      .sort((a, b) => Math.abs(b.gap_vs_benchmark_pp) - Math.abs(a.gap_vs_benchmark_pp) || (a.geo < b.geo ? -1 : 1))
      .map((row, i) => ({ rank: i + 1, ...row }));
    return {
      endpoint: 'eu-inflation-divergence',
      period,
      benchmark: { geo: benchmark.geo, yoy_pct: round(benchmark.value, DECIMALS.hicp) },
      count: results.length,
      missing: EU27.filter((geo) => !geos.includes(geo)),
      results,
    };
  },
});

// -----------------------------------------------------------------------------------------------
// ecb-stance

const rateSchema = (name: string) => obj({ value: num(`${name}, % (3 decimals).`), effective_date: date('The decision\'s effective date (the step in force).') });

export const getEcbStance = defineRoute<Record<string, never>>({
  id: 'getEcbStance',
  method: 'GET',
  tag: MACRO_TAG,
  paths: ['/api/v1/rates/ecb-stance'],
  examples: ['/api/v1/rates/ecb-stance'],
  summary: 'ECB policy corridor, €STR minus deposit rate and the liquidity stance',
  description:
    'The ECB key rates (main refinancing MRR_FR, deposit facility DFR, marginal lending MLFR; FM.B.U2.EUR.4F.KR.*.LEV) are step ' +
    'functions published on decision dates, forward-filled to the date of the latest €STR fixing (EST.B.EU000A2X2A25.WT). ' +
    'corridor_width_pp = MLFR - DFR; estr_minus_dfr_pp = €STR - DFR; both in percentage points rounded to 3 decimals. ' +
    'liquidity_stance by the rounded estr_minus_dfr_pp: ample < -0.05 <= neutral <= 0.05 < tight (both ends of neutral included). ' +
    'Each rate is given with the effective date of the decision in force. 404 when no €STR fixing or a key rate with no decision ' +
    'on or before it is held.',
  paid: true,
  params: {},
  response: obj({
    endpoint: { type: 'string', const: 'ecb-stance' },
    date: date('The latest €STR fixing date; the key rates are those in force on it.'),
    rates: obj({ main_refinancing: rateSchema('MRR_FR'), deposit_facility: rateSchema('DFR'), marginal_lending: rateSchema('MLFR') }),
    estr: obj({ value: num('€STR, % (3 decimals).'), date: date('Fixing date.') }),
    derived: obj({
      corridor_width_pp: num('MLFR - DFR, pp, 3 decimals.'),
      estr_minus_dfr_pp: num('€STR - DFR, pp, 3 decimals.'),
      liquidity_stance: str('ample, neutral or tight.', { enum: ['ample', 'neutral', 'tight'] }),
    }),
  }),
  async handle(_params, { db }) {
    const stance = await ecbStance(db);
    if (!stance) throw notFound('no €STR fixing is held (ingest the ECB series EST.B.EU000A2X2A25.WT)');
    const { estr } = stance;
    const at = (code: KeyRate): Point => {
      const step = stance.rates[code];
      if (!step) throw notFound(`no ECB ${code} decision on or before the latest €STR date ${estr.date}`);
      return step;
    };
    const [mro, dfr, mlf] = [at('MRR_FR'), at('DFR'), at('MLFR')];
    const spread = round(estr.value - dfr.value, DECIMALS.rate);
    const rate = (p: Point) => ({ value: round(p.value, DECIMALS.rate), effective_date: p.date });
    return {
      endpoint: 'ecb-stance',
      date: estr.date,
      rates: { main_refinancing: rate(mro), deposit_facility: rate(dfr), marginal_lending: rate(mlf) },
      estr: { value: round(estr.value, DECIMALS.rate), date: estr.date },
      derived: { corridor_width_pp: round(mlf.value - dfr.value, DECIMALS.rate), estr_minus_dfr_pp: spread, liquidity_stance: liquidityStance(spread) },
    };
  },
});

// -----------------------------------------------------------------------------------------------
// eu-curve-slope

export const getEuCurveSlope = defineRoute<Record<string, never>>({
  id: 'getEuCurveSlope',
  method: 'GET',
  tag: MACRO_TAG,
  paths: ['/api/v1/rates/eu-curve-slope'],
  examples: ['/api/v1/rates/eu-curve-slope'],
  summary: 'Euro-area AAA yield curve: 2Y, 10Y, 30Y levels, slopes, butterfly and regime',
  description:
    'ECB AAA euro-area government spot curve (YC.B.U2.EUR.4F.G_N_A.SV_C_YM.SR_2Y / SR_10Y / SR_30Y) on the latest date with ' +
    'all three maturities. slope_10y_2y_pp = 10Y - 2Y; slope_30y_10y_pp = 30Y - 10Y; butterfly_pp = 2*10Y - 2Y - 30Y; levels ' +
    'and derived values in % / percentage points computed from the published values and rounded to 4 decimals. regime by ' +
    'the rounded slope_10y_2y_pp: inverted < 0 <= flat < 0.5 <= normal < 1.5 <= steep. 404 when no date has all three.',
  paid: true,
  params: {},
  response: obj({
    endpoint: { type: 'string', const: 'eu-curve-slope' },
    date: date('The curve date.'),
    levels: obj({ sr_2y: num('2-year spot rate, %, 4 decimals.'), sr_10y: num('10-year, %.'), sr_30y: num('30-year, %.') }),
    derived: obj({
      slope_10y_2y_pp: num('10Y - 2Y, pp, 4 decimals.'),
      slope_30y_10y_pp: num('30Y - 10Y, pp, 4 decimals.'),
      butterfly_pp: num('2*10Y - 2Y - 30Y, pp, 4 decimals.'),
      regime: str('inverted, flat, normal or steep.', { enum: ['inverted', 'flat', 'normal', 'steep'] }),
    }),
  }),
  async handle(_params, { db }) {
    const [row] = await db.all('SELECT date, sr_2y, sr_10y, sr_30y FROM macro_curve_latest');
    const last = row && { date: String(row.date), sr2y: Number(row.sr_2y), sr10y: Number(row.sr_10y), sr30y: Number(row.sr_30y) };
    if (!last) throw notFound('no date of the AAA spot curve has all of SR_2Y, SR_10Y and SR_30Y');
    const slope = round(last.sr10y - last.sr2y, DECIMALS.curve);
    return {
      endpoint: 'eu-curve-slope',
      date: last.date,
      levels: { sr_2y: round(last.sr2y, DECIMALS.curve), sr_10y: round(last.sr10y, DECIMALS.curve), sr_30y: round(last.sr30y, DECIMALS.curve) },
      derived: {
        slope_10y_2y_pp: slope,
        slope_30y_10y_pp: round(last.sr30y - last.sr10y, DECIMALS.curve),
        butterfly_pp: round(2 * last.sr10y - last.sr2y - last.sr30y, DECIMALS.curve),
        regime: curveRegime(slope),
      },
    };
  },
});

// -----------------------------------------------------------------------------------------------
// eurusd-analytics

interface LookbackParams {
  lookback_days?: number;
}

const lookbackParam = (what: string): ParamSpec => ({
  in: ['query'],
  schema: { type: 'integer', minimum: LOOKBACK_MIN, maximum: LOOKBACK_MAX, default: LOOKBACK_DEFAULT },
  description: `Number of ${what} in the window, ${LOOKBACK_MIN}..${LOOKBACK_MAX} (default ${LOOKBACK_DEFAULT}).`,
});

export const getEurusdAnalytics = defineRoute<LookbackParams>({
  id: 'getEurusdAnalytics',
  method: 'GET',
  tag: MACRO_TAG,
  paths: ['/api/v1/fx/eurusd-analytics'],
  examples: ['/api/v1/fx/eurusd-analytics', '/api/v1/fx/eurusd-analytics?lookback_days=63'],
  summary: 'EUR/USD reference rate: spot, multi-horizon returns, 21-day volatility, percentile, z-score, drawdown',
  description:
    'The ECB euro reference rate for USD (USD per EUR): from eurofxref-hist where it has the date, else the Data API series ' +
    'EXR.D.USD.EUR.SP00.A (the two publish the same fixing; `sources` counts the fixings taken from each). The window is the ' +
    'last `lookback_days` fixings, spot = the newest (with its date, 4 decimals as published). return_<h>_pct = (spot / the ' +
    'fixing h fixings earlier - 1) * 100 for h = 5 (1w), 21 (1m), 63 (3m), 126 (6m), 252 (1y); null when h > lookback_days. ' +
    'vol_21d_annualized_pct = population stdev of the last 21 daily log returns * sqrt(252) * 100 (null when lookback_days < 21). ' +
    'percentile = share of the window\'s fixings <= spot * 100; zscore = (spot - mean) / population stdev over the window ' +
    '(null when the stdev is 0); max_drawdown_pct = the largest peak-to-trough fall within the window, in % of the peak ' +
    '(>= 0; 0 when the rate never fell), with its peak and trough dates. Percentages and the z-score are rounded to 2 decimals. ' +
    'Fewer fixings held than the window (and the longest return) needs is a 404, never a figure from a shorter history.',
  paid: true,
  params: { lookback_days: lookbackParam('ECB reference-rate fixing days') },
  response: obj({
    endpoint: { type: 'string', const: 'eurusd-analytics' },
    lookback_days: { type: 'integer' },
    window: obj({ from: date('First fixing of the window.'), to: date('Spot date.') }),
    spot: num('USD per EUR, the newest fixing (as published).'),
    spot_date: date('Date of the spot fixing.'),
    sources: obj({ eurofxref: { type: 'integer' }, ecb_data_api: { type: 'integer' } }, 'Fixings held from each source.'),
    derived: obj({
      ...Object.fromEntries(EURUSD_HORIZONS.map(([name, n]) => [name, numOrNull(`Return over ${n} fixings, %, 2 decimals.`)])),
      vol_21d_annualized_pct: numOrNull('Annualised 21-day volatility, %, 2 decimals.'),
      percentile: num('Share of the window <= spot, 0..100, 2 decimals.'),
      zscore: numOrNull('(spot - mean) / population stdev, 2 decimals.'),
      max_drawdown_pct: num('Largest peak-to-trough fall, % of the peak, 2 decimals.'),
      max_drawdown_peak_date: { type: ['string', 'null'], description: 'Date of the peak (null when no fall).' },
      max_drawdown_trough_date: { type: ['string', 'null'], description: 'Date of the trough (null when no fall).' },
    }),
  }),
  async handle(params, { db }) {
    const lookback = params.lookback_days ?? LOOKBACK_DEFAULT;
    // A window of `lookback` fixings, plus the base of the longest return that fits in it: the newest `needed`
    // fixings are all the analytics read (every return base and the 22 fixings of the volatility lie within them).
    const longest = Math.max(0, ...EURUSD_HORIZONS.map(([, n]) => n).filter((n) => n <= lookback));
    const needed = Math.max(lookback, longest + 1);
    const rows = await db.all(
      `SELECT s.fixings, s.eurofxref, s.ecb_data_api, r.date, r.value
         FROM macro_eurusd_sources s LEFT JOIN macro_eurusd_recent r ON r.back < $needed ORDER BY r.back DESC`,
      { needed },
    );
    const held = Number(rows[0].fixings);
    if (held < needed) throw notFound(`${held} EUR/USD reference-rate fixing(s) held; lookback_days=${lookback} needs ${needed}`);
    const a = eurusdAnalytics(rows.map((row) => ({ date: String(row.date), value: Number(row.value) })), lookback);
    const r2 = (x: number | null) => (x === null ? null : round(x, DECIMALS.pct));
    return {
      endpoint: 'eurusd-analytics',
      lookback_days: lookback,
      window: { from: a.windowStart, to: a.spotDate },
      spot: a.spot,
      spot_date: a.spotDate,
      sources: { eurofxref: Number(rows[0].eurofxref), ecb_data_api: Number(rows[0].ecb_data_api) },
      derived: {
        ...Object.fromEntries(Object.entries(a.returns).map(([k, v]) => [k, r2(v)])),
        vol_21d_annualized_pct: r2(a.vol21dAnnualizedPct),
        percentile: round(a.percentile, DECIMALS.pct),
        zscore: r2(a.zscore),
        max_drawdown_pct: round(a.maxDrawdown.pct, DECIMALS.pct),
        max_drawdown_peak_date: a.maxDrawdown.peakDate,
        max_drawdown_trough_date: a.maxDrawdown.troughDate,
      },
    };
  },
});

// -----------------------------------------------------------------------------------------------
// US (FRED) routes

const YIELD_SERIES = ['DGS10', 'DGS2'] as const;

export const getUsYieldCurve = defineRoute<Record<string, never>>({
  id: 'getUsYieldCurve',
  method: 'GET',
  tag: MACRO_TAG,
  paths: ['/api/analytics/us/yield-curve'],
  examples: ['/api/analytics/us/yield-curve'],
  summary: 'US 10-year minus 2-year Treasury spread (derived)',
  description:
    'DGS10 - DGS2 (FRED, constant-maturity Treasury yields, %) on the latest date where both are published, in percentage ' +
    'points rounded to 2 decimals (FRED\'s own T10Y2Y is the same difference). regime uses the curve bands: ' +
    'inverted < 0 <= flat < 0.5 <= normal < 1.5 <= steep, on the rounded value. 404 when no date has both.' + gateSentence(YIELD_SERIES),
  paid: true,
  params: {},
  gate: licenseGate(YIELD_SERIES),
  response: obj({
    indicator: { type: 'string', const: 'US_10Y_2Y_SPREAD' },
    date: date('The date both yields refer to.'),
    value: num('DGS10 - DGS2, pp, 2 decimals.'),
    unit: { type: 'string', const: 'percentage_points' },
    regime: str('inverted, flat, normal or steep.', { enum: ['inverted', 'flat', 'normal', 'steep'] }),
  }),
  async handle(_params, { db }) {
    const spread = await usSpread(db);
    if (!spread) throw notFound('no date has both DGS10 and DGS2');
    return { indicator: 'US_10Y_2Y_SPREAD', date: spread.date, value: spread.value, unit: 'percentage_points', regime: curveRegime(spread.value) };
  },
});

/** Year-over-year percent change of a monthly index: (index(t) / index(t-12 months) - 1) * 100. */
const yoy = (index: unknown, yearBefore: unknown) => (Number(index) / Number(yearBefore) - 1) * 100;

const INFLATION_SERIES = ['CPIAUCSL'] as const;

export const getUsEuInflation = defineRoute<Record<string, never>>({
  id: 'getUsEuInflation',
  method: 'GET',
  tag: MACRO_TAG,
  paths: ['/api/analytics/us-eu/inflation'],
  examples: ['/api/analytics/us-eu/inflation'],
  summary: 'US CPI inflation minus euro-area HICP inflation (derived)',
  description:
    'us_inflation = CPIAUCSL year over year, (index(t) / index(t-12 months) - 1) * 100, rounded to 2 decimals; eu_inflation = ' +
    'the euro-area HICP annual rate of change, all items (Eurostat prc_hicp_manr; EA, else EA20, else EA19: eu_geo says which), ' +
    'as published (1 decimal); differential = us_inflation - eu_inflation as shown, 2 decimals; all for the latest month where ' +
    'both exist (`month`). 404 when no month has both.' + gateSentence(INFLATION_SERIES),
  paid: true,
  params: {},
  gate: licenseGate(INFLATION_SERIES),
  response: obj({
    indicator: { type: 'string', const: 'US_EU_INFLATION_DIFFERENTIAL' },
    month: month('The month both rates refer to.'),
    us_inflation: num('CPIAUCSL yoy, %, 2 decimals.'),
    eu_inflation: num('Euro-area HICP annual rate, %, 1 decimal.'),
    eu_geo: str('EA, EA20 or EA19.'),
    differential: num('us_inflation - eu_inflation, pp, 2 decimals.'),
    unit: { type: 'string', const: 'percentage_points' },
  }),
  async handle(_params, { db }) {
    const [row] = await db.all('SELECT month, cpi, cpi_12m_before, eu_geo, eu_value FROM macro_us_eu_inflation');
    if (!row) throw notFound('no month has both a CPIAUCSL year-over-year rate and a euro-area HICP annual rate');
    const us = round(yoy(row.cpi, row.cpi_12m_before), DECIMALS.us);
    const euValue = round(Number(row.eu_value), DECIMALS.hicp);
    return {
      indicator: 'US_EU_INFLATION_DIFFERENTIAL',
      month: String(row.month),
      us_inflation: us,
      eu_inflation: euValue,
      eu_geo: String(row.eu_geo),
      differential: round(us - euValue, DECIMALS.us),
      unit: 'percentage_points',
    };
  },
});

const MACRO_SERIES = ['CPIAUCSL', 'UNRATE', 'FEDFUNDS'] as const;

export const getUsMacro = defineRoute<Record<string, never>>({
  id: 'getUsMacro',
  method: 'GET',
  tag: MACRO_TAG,
  paths: ['/api/analytics/us/macro'],
  examples: ['/api/analytics/us/macro'],
  summary: 'US inflation, unemployment and policy-rate changes with a macro regime label (derived)',
  description:
    'cpi_yoy_pct = CPIAUCSL year over year (%) and its change over 3 months (pp), for the latest month where both exist ' +
    '(index at t, t-3, t-12 and t-15); the change of UNRATE over 3 months, for the latest month where t and t-3 exist; the ' +
    'change of FEDFUNDS over 6 months, likewise. Each with its month; rounded to 2 decimals (the labels use the rounded ' +
    'values). The UNRATE and FEDFUNDS levels themselves are not returned: reserve-bank observations are served as derived ' +
    'values only. regime, checked in this order: stagflation_risk (CPI yoy >= 3 and UNRATE rose >= 0.3), ' +
    'overheating (CPI yoy >= 3 and UNRATE did not rise, change <= 0), slowdown (UNRATE rose >= 0.3 and CPI yoy < 3), ' +
    'disinflation (CPI yoy fell over 3 months and UNRATE moved less than 0.3 either way), steady otherwise. A month missing in ' +
    'a source (e.g. the unpublished 2025-10) is skipped, never filled. 404 when a figure has no month with its inputs.' +
    gateSentence(MACRO_SERIES),
  paid: true,
  params: {},
  gate: licenseGate(MACRO_SERIES),
  response: obj({
    endpoint: { type: 'string', const: 'us-macro' },
    inflation: obj({ month: month('Month.'), cpi_yoy_pct: num('%, 2 decimals.'), change_3m_pp: num('pp, 2 decimals.') }),
    unemployment: obj({ month: month('Month.'), change_3m_pp: num('UNRATE(t) - UNRATE(t-3), pp, 2 decimals.') }),
    policy_rate: obj({ month: month('Month.'), change_6m_pp: num('FEDFUNDS(t) - FEDFUNDS(t-6), pp, 2 decimals.') }),
    regime: str('stagflation_risk, overheating, slowdown, disinflation or steady.', {
      enum: ['stagflation_risk', 'overheating', 'slowdown', 'disinflation', 'steady'],
    }),
  }),
  async handle(_params, { db }) {
    // One row per figure: CPIAUCSL's four index values (t, t-12, t-3, t-15), UNRATE's and FEDFUNDS' two ends.
    const rows = await db.all(
      `SELECT 'CPIAUCSL' AS series_id, month, cpi AS value, cpi_12m_before AS base, cpi_3m_before AS earlier, cpi_15m_before AS earlier_base FROM macro_us_cpi
       UNION ALL SELECT series_id, month, value, NULL, earlier, NULL FROM macro_fred_changes`,
    );
    const figure = (series: string, n: number, what: string, transform: (row: Row) => { now: number; before: number }) => {
      const row = rows.find((r) => r.series_id === series);
      if (!row) throw notFound(`no month of ${what} has the value ${n} months earlier`);
      const { now, before } = transform(row);
      return { month: String(row.month), value: round(now, DECIMALS.us), change: round(now - before, DECIMALS.us) };
    };
    const cpi = figure('CPIAUCSL', 3, 'CPIAUCSL year-over-year', (r) => ({ now: yoy(r.value, r.base), before: yoy(r.earlier, r.earlier_base) }));
    const levels = (r: Row) => ({ now: Number(r.value), before: Number(r.earlier) });
    const un = figure('UNRATE', 3, 'UNRATE', levels);
    const ff = figure('FEDFUNDS', 6, 'FEDFUNDS', levels);
    return {
      endpoint: 'us-macro',
      inflation: { month: cpi.month, cpi_yoy_pct: cpi.value, change_3m_pp: cpi.change },
      unemployment: { month: un.month, change_3m_pp: un.change },
      policy_rate: { month: ff.month, change_6m_pp: ff.change },
      regime: macroRegime({ cpiYoy: cpi.value, cpiYoyChange3m: cpi.change, unrateChange3m: un.change }),
    };
  },
});

const VIX_SERIES = ['VIXCLS'] as const;

export const getVolatilityRegime = defineRoute<LookbackParams>({
  id: 'getVolatilityRegime',
  method: 'GET',
  tag: MACRO_TAG,
  paths: ['/api/analytics/market/volatility-regime'],
  examples: ['/api/analytics/market/volatility-regime', '/api/analytics/market/volatility-regime?lookback_days=63'],
  summary: 'Equity volatility regime from VIXCLS: label, percentile and z-score (derived)',
  description:
    'The latest VIXCLS close (FRED; Cboe data) labelled calm < 15 <= normal < 20 <= elevated < 30 <= stress; percentile = share ' +
    'of the last `lookback_days` published observations (the latest included; missing days skipped) <= the latest * 100; ' +
    'zscore = (latest - mean) / population stdev over them (null when the stdev is 0); both rounded to 2 decimals. The VIX ' +
    'level itself is not returned (derived values only). Fewer observations held than lookback_days is a 404.' + gateSentence(VIX_SERIES),
  paid: true,
  params: { lookback_days: lookbackParam('VIXCLS observations') },
  gate: licenseGate(VIX_SERIES),
  response: obj({
    indicator: { type: 'string', const: 'VIX_REGIME' },
    date: date('Date of the latest observation.'),
    lookback_days: { type: 'integer' },
    window_from: date('First observation of the window.'),
    regime: str('calm, normal, elevated or stress.', { enum: ['calm', 'normal', 'elevated', 'stress'] }),
    percentile: num('0..100, 2 decimals.'),
    zscore: numOrNull('2 decimals.'),
  }),
  async handle(params, { db }) {
    const lookback = params.lookback_days ?? LOOKBACK_DEFAULT;
    // The newest `lookback` observations, oldest first; fewer come back only when fewer are held.
    const window = points(await db.all(
      `SELECT date, value FROM macro_fred_recent WHERE series_id = 'VIXCLS' AND back < $lookback ORDER BY back DESC`,
      { lookback },
    ));
    if (window.length < lookback) throw notFound(`${window.length} VIXCLS observation(s) held; lookback_days=${lookback} needs ${lookback}`);
    const values = window.map((p) => p.value);
    const latest = window[window.length - 1];
    const z = zscore(values, latest.value);
    return {
      indicator: 'VIX_REGIME',
      date: latest.date,
      lookback_days: lookback,
      window_from: window[0].date,
      regime: volatilityRegime(latest.value),
      percentile: round(percentileOf(values, latest.value), DECIMALS.pct),
      zscore: z === null ? null : round(z, DECIMALS.pct),
    };
  },
});

const points = (rows: readonly Row[]): Point[] => rows.map((row) => ({ date: String(row.date), value: Number(row.value) }));

/** The step of `code` in force on the stance's €STR date (a row of macro_ecb_stance), or null without a decision by then. */
function keyRateInForce(stance: Row, code: KeyRate): Point | null {
  const date = stance[`${code.toLowerCase()}_date`];
  return date === null || date === undefined ? null : { date: String(date), value: Number(stance[`${code.toLowerCase()}_value`]) };
}

/** The key rates in force on the latest €STR date (the centralbank coverage reads the deposit rate). */
export async function ecbStance(db: Database): Promise<{ estr: Point; rates: Record<KeyRate, Point | null> } | null> {
  const [stance] = await db.all('SELECT * FROM macro_ecb_stance');
  if (!stance) return null;
  return {
    estr: { date: String(stance.estr_date), value: Number(stance.estr_value) },
    rates: { MRR_FR: keyRateInForce(stance, 'MRR_FR'), DFR: keyRateInForce(stance, 'DFR'), MLFR: keyRateInForce(stance, 'MLFR') },
  };
}

/** DGS10 - DGS2 on the latest date with both, rounded, or null; with `approvedOnly`, null too unless both series are APPROVED. */
export async function usSpread(db: Database, approvedOnly = false): Promise<{ date: string; value: number } | null> {
  const [row] = await db.all(
    `SELECT date, dgs10, dgs2 FROM macro_us_spread
      WHERE NOT $approvedOnly
         OR (SELECT count(*) FROM macro_fred_license_status WHERE series_id IN ('DGS10', 'DGS2') AND status = 'APPROVED') = 2`,
    { approvedOnly },
  );
  return row ? { date: String(row.date), value: round(Number(row.dgs10) - Number(row.dgs2), DECIMALS.us) } : null;
}

export const macroRoutes = [
  getEuInflationDivergence, getEcbStance, getEuCurveSlope, getEurusdAnalytics,
  getUsYieldCurve, getUsEuInflation, getUsMacro, getVolatilityRegime,
];
