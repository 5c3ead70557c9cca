// Macro tables, built once at load from the snapshot (empty when a source was never ingested), in SQL
// only: every macro route reads one small precomputed shape, whatever the length of the histories.
//   macro_ecb_observations, macro_eurofxref, macro_fred_observations, macro_fred_licenses  (as ingested)
//   macro_key_rates    (code, date, value): key rates MRR_FR / DFR / MLFR at their change dates only (a
//                      step function; the B and D frequency variants merged, consecutive equal values dropped)
//   macro_estr         (date, value): €STR fixings
//   macro_curve        (date, sr_2y, sr_10y, sr_30y): AAA spot curve dates with all three maturities
//   macro_eurusd       (date, rate, source): the EUR/USD reference rate: eurofxref-hist where it has the
//                      date, else the Data API series EXR.D.USD.EUR.SP00.A (the two agree; see docs/macro.md)
//   macro_hicp         (geo, month, value, coicop): HICP annual rate of change, all items (from Eurostat
//                      prc_hicp_manr rows loaded by the Eurostat reader, when present), sorted by month
// The shapes the routes read (one row, or at most RECENT_POINTS rows, each):
//   macro_ecb_stance           the latest €STR fixing and the key rates in force on its date
//   macro_curve_latest         the latest curve date with all three maturities
//   macro_eurusd_recent        the newest RECENT_POINTS fixings, back = 0 for the newest
//   macro_eurusd_sources       fixings held in all and from each source
//   macro_fred_recent          per FRED series its newest RECENT_POINTS non-missing observations, back = 0 for the newest
//   macro_fred_license_status  per FRED series the licence status in force (newest changed_at, then seq)
//   macro_fred_monthly         CPIAUCSL, UNRATE, FEDFUNDS per month (the month's last observation)
//   macro_us_spread            the latest date with both DGS10 and DGS2
//   macro_us_cpi               the latest month with CPIAUCSL year-over-year inputs at t and t-3
//   macro_us_eu_inflation      the latest month with CPIAUCSL year-over-year inputs and a euro-area HICP rate
//   macro_fred_changes         UNRATE (3 months) and FEDFUNDS (6 months): the latest month with both ends
//   macro_hicp_default_period  the divergence's default month
//   macro_hicp_latest          per geo its latest HICP month
import type { Database } from '../../../engine/database.ts';
import { loadDataset } from '../../../engine/dataset.ts';
import { MACRO_ECB, MACRO_EUROFXREF, MACRO_FRED, MACRO_FRED_LICENSES } from '../datasets.ts';
import { ECB_DATASET, EUROFXREF_DATASET, FRED_DATASET, FRED_LICENSE_DATASET, type LicenseStatus } from '../ingest/types.ts';
import type { Point } from './analytics.ts';
import { loadEurostat } from '../../../ingest/eurostat/load.ts';
import { BENCHMARK_GEOS, loadHicp } from './hicp.ts';

/** ECB series keys (regular expressions on KEY) and the codes the routes use. */
export const ECB_SERIES = {
  MRR_FR: /^FM\.[BD]\.U2\.EUR\.4F\.KR\.MRR_FR\.LEV$/,
  DFR: /^FM\.[BD]\.U2\.EUR\.4F\.KR\.DFR\.LEV$/,
  MLFR: /^FM\.[BD]\.U2\.EUR\.4F\.KR\.MLFR\.LEV$/,
  ESTR: /^EST\.B\.EU000A2X2A25\.WT$/,
  SR_2Y: /^YC\.B\.U2\.EUR\.4F\.G_N_A\.SV_C_YM\.SR_2Y$/,
  SR_10Y: /^YC\.B\.U2\.EUR\.4F\.G_N_A\.SV_C_YM\.SR_10Y$/,
  SR_30Y: /^YC\.B\.U2\.EUR\.4F\.G_N_A\.SV_C_YM\.SR_30Y$/,
  EURUSD: /^EXR\.D\.USD\.EUR\.SP00\.A$/,
} as const;
export type EcbCode = keyof typeof ECB_SERIES;
export const KEY_RATES = ['MRR_FR', 'DFR', 'MLFR'] as const;
export type KeyRate = (typeof KEY_RATES)[number];

/** The longest window a route reads (lookback_days at most this; the longest EUR/USD return, 252, fits in it). */
export const RECENT_POINTS = 2000;

/** The same rules as SQL regular expressions (DuckDB regexp_full_match). */
const sqlPattern = (code: EcbCode) => ECB_SERIES[code].source.replace(/^\^/, '').replace(/\$$/, '').replaceAll('\\.', '[.]');
const code = (c: EcbCode) => `regexp_full_match(series_key, '${sqlPattern(c)}')`;

/** A preference order over the benchmark geos (EA first), for arg_min. */
const BENCHMARK_RANK = `CASE geo ${BENCHMARK_GEOS.map((g, i) => `WHEN '${g}' THEN ${i}`).join(' ')} END`;
const BENCHMARK_LIST = BENCHMARK_GEOS.map((g) => `'${g}'`).join(', ');

export async function loadMacro(db: Database, dataDir: string): Promise<void> {
  for (const dataset of [MACRO_ECB, MACRO_EUROFXREF, MACRO_FRED, MACRO_FRED_LICENSES]) await loadDataset(db, dataset, dataDir);
  await buildEcbTables(db);
  await loadEurostat(db, dataDir); // idempotent: whichever domain loads first creates the tables
  await loadHicp(db);
  await buildFredTables(db);
}

async function buildEcbTables(db: Database): Promise<void> {
  // B and D variants: one value per date (the B series wins when both have the date); a change = a value unlike the day before.
  await db.run(`CREATE TABLE macro_key_rates AS
    WITH daily AS (
      SELECT code, date, arg_min(value, series_key) AS value FROM (
        SELECT CASE ${KEY_RATES.map((c) => `WHEN ${code(c)} THEN '${c}'`).join(' ')} END AS code, series_key, date, value
          FROM ${ECB_DATASET} WHERE value IS NOT NULL)
       WHERE code IS NOT NULL GROUP BY code, date)
    SELECT code, date, value FROM (SELECT *, lag(value) OVER (PARTITION BY code ORDER BY date) AS previous FROM daily)
     WHERE previous IS NULL OR previous <> value
     ORDER BY code, date`);
  await db.run(`CREATE TABLE macro_estr AS SELECT date, value FROM ${ECB_DATASET} WHERE ${code('ESTR')} AND value IS NOT NULL ORDER BY date`);
  await db.run(`CREATE TABLE macro_curve AS SELECT date,
      max(value) FILTER (WHERE ${code('SR_2Y')}) AS sr_2y, max(value) FILTER (WHERE ${code('SR_10Y')}) AS sr_10y,
      max(value) FILTER (WHERE ${code('SR_30Y')}) AS sr_30y
    FROM ${ECB_DATASET} WHERE value IS NOT NULL GROUP BY date
    HAVING sr_2y IS NOT NULL AND sr_10y IS NOT NULL AND sr_30y IS NOT NULL ORDER BY date`);
  await db.run(`CREATE TABLE macro_eurusd AS
    SELECT date, rate, 'eurofxref' AS source FROM ${EUROFXREF_DATASET} WHERE currency = 'USD' AND rate IS NOT NULL
    UNION ALL
    SELECT date, value, 'ecb_data_api' FROM ${ECB_DATASET} e WHERE ${code('EURUSD')} AND value IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM ${EUROFXREF_DATASET} x WHERE x.currency = 'USD' AND x.date = e.date AND x.rate IS NOT NULL)
    ORDER BY date`);

  // One row (none without a €STR fixing): the rates in force = each rate's last change dated on or before the fixing.
  const inForce = (c: KeyRate) =>
    `CAST(max(k.date) FILTER (WHERE k.code = '${c}') AS VARCHAR) AS ${c.toLowerCase()}_date, ` +
    `arg_max(k.value, k.date) FILTER (WHERE k.code = '${c}') AS ${c.toLowerCase()}_value`;
  await db.run(`CREATE TABLE macro_ecb_stance AS
    WITH estr AS (SELECT date, value FROM macro_estr ORDER BY date DESC LIMIT 1)
    SELECT CAST(e.date AS VARCHAR) AS estr_date, e.value AS estr_value, ${KEY_RATES.map(inForce).join(', ')}
      FROM estr e LEFT JOIN macro_key_rates k ON k.date <= e.date
     GROUP BY e.date, e.value`);
  await db.run(`CREATE TABLE macro_curve_latest AS
    SELECT CAST(date AS VARCHAR) AS date, sr_2y, sr_10y, sr_30y FROM macro_curve ORDER BY date DESC LIMIT 1`);
  await db.run(`CREATE TABLE macro_eurusd_recent AS
    SELECT back, CAST(date AS VARCHAR) AS date, rate AS value FROM (
      SELECT date, rate, (row_number() OVER (ORDER BY date DESC) - 1)::INTEGER AS back FROM macro_eurusd)
     WHERE back < ${RECENT_POINTS} ORDER BY back`);
  await db.run(`CREATE TABLE macro_eurusd_sources AS
    SELECT count(*)::INTEGER AS fixings, count(*) FILTER (WHERE source = 'eurofxref')::INTEGER AS eurofxref,
           count(*) FILTER (WHERE source = 'ecb_data_api')::INTEGER AS ecb_data_api
      FROM macro_eurusd`);
}

async function buildFredTables(db: Database): Promise<void> {
  await db.run(`CREATE TABLE macro_fred_recent AS
    SELECT series_id, back, CAST(date AS VARCHAR) AS date, value FROM (
      SELECT series_id, date, value, (row_number() OVER (PARTITION BY series_id ORDER BY date DESC) - 1)::INTEGER AS back
        FROM ${FRED_DATASET} WHERE value IS NOT NULL)
     WHERE back < ${RECENT_POINTS} ORDER BY series_id, back`);
  await db.run(`CREATE TABLE macro_fred_license_status AS
    SELECT series_id, status, strftime(changed_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS changed_at FROM (
      SELECT *, row_number() OVER (PARTITION BY series_id ORDER BY changed_at DESC, seq DESC) AS pick FROM ${FRED_LICENSE_DATASET})
     WHERE pick = 1 ORDER BY series_id`);
  // A month's value is its last observation (daily series included); month_index counts months, so t - n is a subtraction.
  await db.run(`CREATE TABLE macro_fred_monthly AS
    SELECT series_id, (year(date) * 12 + month(date) - 1)::INTEGER AS month_index, strftime(date, '%Y-%m') AS month, arg_max(value, date) AS value
      FROM ${FRED_DATASET} WHERE value IS NOT NULL AND series_id IN ('CPIAUCSL', 'UNRATE', 'FEDFUNDS')
     GROUP BY ALL ORDER BY series_id, month_index`);
  await db.run(`CREATE TABLE macro_us_spread AS
    SELECT CAST(t.date AS VARCHAR) AS date, t.value AS dgs10, w.value AS dgs2
      FROM ${FRED_DATASET} t JOIN ${FRED_DATASET} w ON w.date = t.date AND w.series_id = 'DGS2' AND w.value IS NOT NULL
     WHERE t.series_id = 'DGS10' AND t.value IS NOT NULL ORDER BY t.date DESC LIMIT 1`);
  // Year-over-year inputs: the index at t and at t - 12 (non-zero), as the routes compute (index / base - 1) * 100.
  const yoyInputs = `yoy AS (
      SELECT c.month_index, c.month, c.value, b.value AS base FROM macro_fred_monthly c
        JOIN macro_fred_monthly b ON b.series_id = c.series_id AND b.month_index = c.month_index - 12
       WHERE c.series_id = 'CPIAUCSL' AND b.value <> 0)`;
  await db.run(`CREATE TABLE macro_us_cpi AS
    WITH ${yoyInputs}
    SELECT y.month, y.value AS cpi, y.base AS cpi_12m_before, p.value AS cpi_3m_before, p.base AS cpi_15m_before
      FROM yoy y JOIN yoy p ON p.month_index = y.month_index - 3 ORDER BY y.month_index DESC LIMIT 1`);
  await db.run(`CREATE TABLE macro_us_eu_inflation AS
    WITH ${yoyInputs},
    benchmark AS (
      SELECT month, arg_min(geo, ${BENCHMARK_RANK}) AS eu_geo, arg_min(value, ${BENCHMARK_RANK}) AS eu_value
        FROM macro_hicp WHERE geo IN (${BENCHMARK_LIST}) GROUP BY month)
    SELECT y.month, y.value AS cpi, y.base AS cpi_12m_before, b.eu_geo, b.eu_value
      FROM yoy y JOIN benchmark b USING (month) ORDER BY y.month_index DESC LIMIT 1`);
  await db.run(`CREATE TABLE macro_fred_changes AS
    WITH spans(series_id, months) AS (VALUES ('UNRATE', 3), ('FEDFUNDS', 6)),
    pairs AS (
      SELECT s.series_id, s.months, m.month_index, m.month, m.value, e.value AS earlier
        FROM spans s JOIN macro_fred_monthly m ON m.series_id = s.series_id
        JOIN macro_fred_monthly e ON e.series_id = s.series_id AND e.month_index = m.month_index - s.months)
    SELECT series_id, months, month, value, earlier FROM (
      SELECT *, row_number() OVER (PARTITION BY series_id ORDER BY month_index DESC) AS pick FROM pairs)
     WHERE pick = 1 ORDER BY series_id`);
}

// -----------------------------------------------------------------------------------------------
// Reading the shapes back whole (tests and tools; the routes read single rows of the tables above)

export interface CurvePoint {
  date: string;
  sr2y: number;
  sr10y: number;
  sr30y: number;
}

export interface MacroData {
  keyRates: Record<KeyRate, Point[]>;
  estr: Point[];
  curve: CurvePoint[];
  eurusd: Point[];
  /** Fixings taken from each source. */
  eurusdSources: { eurofxref: number; ecb_data_api: number };
  /** FRED series, non-missing observations, ascending. Never returned raw. */
  fred: Map<string, Point[]>;
  licenses: Map<string, { status: LicenseStatus; changedAt: string }>;
  /** geo -> month (YYYY-MM) -> annual rate of change (%). */
  hicp: Map<string, Map<string, number>>;
}

const points = (rows: Array<Record<string, unknown>>): Point[] => rows.map((r) => ({ date: String(r.date), value: Number(r.value) }));

function grouped<V>(rows: Array<Record<string, unknown>>, key: string, value: (row: Record<string, unknown>) => V): Map<string, V[]> {
  const out = new Map<string, V[]>();
  for (const row of rows) {
    const k = String(row[key]);
    if (!out.has(k)) out.set(k, []);
    out.get(k)!.push(value(row));
  }
  return out;
}

/** Every macro shape of a loaded database as plain values, read from its tables. */
export async function readMacroData(db: Database): Promise<MacroData> {
  const rates = grouped(
    await db.all('SELECT code, CAST(date AS VARCHAR) AS date, value FROM macro_key_rates ORDER BY code, date'), 'code',
    (r): Point => ({ date: String(r.date), value: Number(r.value) }),
  );
  const [sources] = await db.all('SELECT eurofxref, ecb_data_api FROM macro_eurusd_sources');
  const hicp = new Map<string, Map<string, number>>();
  for (const [geo, months] of grouped(await db.all('SELECT geo, month, value FROM macro_hicp ORDER BY geo, month'), 'geo', (r) => [String(r.month), Number(r.value)] as const)) {
    hicp.set(geo, new Map(months));
  }
  const licenseRows = await db.all('SELECT series_id, status, changed_at FROM macro_fred_license_status ORDER BY series_id');
  return {
    keyRates: Object.fromEntries(KEY_RATES.map((c) => [c, rates.get(c) ?? []])) as Record<KeyRate, Point[]>,
    estr: points(await db.all('SELECT CAST(date AS VARCHAR) AS date, value FROM macro_estr ORDER BY date')),
    curve: (await db.all('SELECT CAST(date AS VARCHAR) AS date, sr_2y, sr_10y, sr_30y FROM macro_curve ORDER BY date')).map((r) => ({
      date: String(r.date), sr2y: Number(r.sr_2y), sr10y: Number(r.sr_10y), sr30y: Number(r.sr_30y),
    })),
    eurusd: points(await db.all('SELECT CAST(date AS VARCHAR) AS date, rate AS value FROM macro_eurusd ORDER BY date')),
    eurusdSources: { eurofxref: Number(sources.eurofxref), ecb_data_api: Number(sources.ecb_data_api) },
    fred: grouped(
      await db.all(`SELECT series_id, CAST(date AS VARCHAR) AS date, value FROM ${FRED_DATASET} WHERE value IS NOT NULL ORDER BY series_id, date`), 'series_id',
      (r): Point => ({ date: String(r.date), value: Number(r.value) }),
    ),
    licenses: new Map(licenseRows.map((r) => [String(r.series_id), { status: String(r.status) as LicenseStatus, changedAt: String(r.changed_at) }])),
    hicp,
  };
}
