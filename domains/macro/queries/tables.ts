// Macro tables, built once at load from the snapshot (empty when a source was never ingested), and the
// in-memory shapes every macro route reads (a few thousand points per series; no request scans SQL):
//   macro_ecb_observations, macro_eurofxref, macro_fred_observations, macro_fred_licenses  (as ingested)
//   (in memory) key rates MRR_FR / DFR / MLFR: change dates only (a step function; the B and D
//                     frequency variants merged, consecutive equal values dropped)
//   macro_estr        (date, value): €STR fixings
//   macro_curve       (date, sr_2y, sr_10y, sr_30y): AAA spot curve dates with all three maturities
//   macro_eurusd      (date, rate, source): the EUR/USD reference rate: eurofxref-hist where it has the
//                     date, else the Data API series EXR.D.USD.EUR.SP00.A (the two agree; see docs/macro.md)
//   macro_hicp        (geo, month, value, coicop): HICP annual rate of change, all items (from Eurostat
//                     prc_hicp_manr rows loaded by the Eurostat reader, when present)
import type { Database } from '../../../engine/database.ts';
import { loadDataset } from '../../../engine/dataset.ts';
import { MACRO_ECB, MACRO_EUROFXREF, MACRO_FRED, MACRO_FRED_LICENSES } from '../datasets.ts';
import { ECB_DATASET, EUROFXREF_DATASET, FRED_DATASET, FRED_LICENSE_DATASET, type LicenseStatus } from '../ingest/types.ts';
import { stepChanges, type Point } from './analytics.ts';
import { loadEurostat } from '../../../ingest/eurostat/load.ts';
import { loadHicp } from './hicp.ts';

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

/** The same rules as SQL regular expressions (DuckDB regexp_full_match). */
const sqlPattern = (code: EcbCode) => ECB_SERIES[code].source.replace(/^\^/, '').replace(/\$$/, '').replaceAll('\\.', '[.]');

export interface CurvePoint {
  date: string;
  sr2y: number;
  sr10y: number;
  sr30y: number;
}

export interface MacroData {
  keyRates: Record<'MRR_FR' | 'DFR' | 'MLFR', Point[]>;
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

const loaded = new WeakMap<Database, MacroData>();

/** The shapes built by loadMacro for this database. */
export function macroData(db: Database): MacroData {
  const data = loaded.get(db);
  if (!data) throw new Error('the macro tables are not loaded (loadMacro)');
  return data;
}

const points = (rows: Array<Record<string, unknown>>): Point[] => rows.map((r) => ({ date: String(r.date), value: Number(r.value) }));

export async function loadMacro(db: Database, dataDir: string): Promise<void> {
  for (const dataset of [MACRO_ECB, MACRO_EUROFXREF, MACRO_FRED, MACRO_FRED_LICENSES]) await loadDataset(db, dataset, dataDir);

  const code = (c: EcbCode) => `regexp_full_match(series_key, '${sqlPattern(c)}')`;
  const keyRates = {} as MacroData['keyRates'];
  for (const c of ['MRR_FR', 'DFR', 'MLFR'] as const) {
    // B and D variants: one value per date (the B series wins when both have the date).
    const rows = await db.all(`SELECT CAST(date AS VARCHAR) AS date, arg_min(value, series_key) AS value FROM ${ECB_DATASET}
      WHERE ${code(c)} AND value IS NOT NULL GROUP BY date ORDER BY date`);
    keyRates[c] = stepChanges(points(rows));
  }
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
  await loadEurostat(db, dataDir); // idempotent: whichever domain loads first creates the tables
  await loadHicp(db);

  const fred = new Map<string, Point[]>();
  const fredRows = await db.all(`SELECT series_id, CAST(date AS VARCHAR) AS date, value FROM ${FRED_DATASET} WHERE value IS NOT NULL ORDER BY series_id, date`);
  for (const r of fredRows) {
    const id = String(r.series_id);
    if (!fred.has(id)) fred.set(id, []);
    fred.get(id)!.push({ date: String(r.date), value: Number(r.value) });
  }
  const licenseRows = await db.all(`SELECT series_id, status, strftime(changed_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS changed_at FROM (
      SELECT *, row_number() OVER (PARTITION BY series_id ORDER BY changed_at DESC, seq DESC) AS pick FROM ${FRED_LICENSE_DATASET})
    WHERE pick = 1`);
  const hicp = new Map<string, Map<string, number>>();
  for (const r of await db.all(`SELECT geo, month, value FROM macro_hicp ORDER BY geo, month`)) {
    const geo = String(r.geo);
    if (!hicp.has(geo)) hicp.set(geo, new Map());
    hicp.get(geo)!.set(String(r.month), Number(r.value));
  }
  const eurusdRows = await db.all(`SELECT CAST(date AS VARCHAR) AS date, rate AS value, source FROM macro_eurusd ORDER BY date`);
  loaded.set(db, {
    keyRates,
    estr: points(await db.all(`SELECT CAST(date AS VARCHAR) AS date, value FROM macro_estr ORDER BY date`)),
    curve: (await db.all(`SELECT CAST(date AS VARCHAR) AS date, sr_2y, sr_10y, sr_30y FROM macro_curve ORDER BY date`)).map((r) => ({
      date: String(r.date), sr2y: Number(r.sr_2y), sr10y: Number(r.sr_10y), sr30y: Number(r.sr_30y),
    })),
    eurusd: points(eurusdRows),
    eurusdSources: {
      eurofxref: eurusdRows.filter((r) => r.source === 'eurofxref').length,
      ecb_data_api: eurusdRows.filter((r) => r.source === 'ecb_data_api').length,
    },
    fred,
    licenses: new Map(licenseRows.map((r) => [String(r.series_id), { status: String(r.status) as LicenseStatus, changedAt: String(r.changed_at) }])),
    hicp,
  });
}
