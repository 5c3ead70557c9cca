// Deterministic sample files in each real format (fixed end date, seeded randomness), with planted
// facts the tests check:
//   ECB key rates: a rate decision on 2026-06-11 (DFR 2.25 -> 2.00, MRO 2.40 -> 2.15, MLF 2.65 -> 2.40);
//     the latest €STR fixing is DFR - 0.072 (liquidity stance `ample`);
//   AAA curve (ECB) and DGS10/DGS2 (FRED): inverted (10Y below 2Y) on every day of 2024-01-01..2024-06-30,
//     and not inverted outside it;
//   VIXCLS: a volatility spike on the last 5 observation days (to 38.5 on the last: regime `stress`);
//   UNRATE rises 0.4 over the last 3 months and CPI runs at ~3.7% a year (regime `stagflation_risk`);
//   CPIAUCSL and UNRATE have no value for 2025-10 (as in the real files);
//   HICP: the last month (2026-10) is published for only 15 EU27 countries, so the default period of
//     the divergence is 2026-09.
// Formats: ECB csvdata (full columns with quoted TITLE commas for key rates and the curve; dataonly for
// €STR and EXR), eurofxref-hist.zip (41 currencies, trailing comma, N/A, newest first), FRED CSV with
// both headers and `.`/empty missing, the FRED API JSON, and the Eurostat TSV (the Eurostat writer).
// `scale` lengthens the daily history (3 years x scale) for benchmarks.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import JSZip from 'jszip';
import { writeEurostatTsv, type EurostatWriteRow } from '../../../ingest/eurostat/write.ts';
import { Random } from '../../../ingest/random.ts';

export const SAMPLE_END = '2026-11-20';
export const DECISION_DATE = '2026-06-11';
export const INVERTED_FROM = '2024-01-01';
export const INVERTED_TO = '2024-06-30';
export const SPIKE_DAYS = 5;
export const HICP_LAST_MONTH = '2026-10';
export const HICP_SPARSE_COUNTRIES = 15;

/** Key-rate decisions (effective dates): DFR, MRR_FR, MLFR. The first applies from the start of the sample. */
export const DECISIONS: ReadonlyArray<{ date: string; DFR: number; MRR_FR: number; MLFR: number }> = [
  { date: '0000-01-01', DFR: 3.0, MRR_FR: 3.15, MLFR: 3.4 },
  { date: '2025-03-12', DFR: 2.5, MRR_FR: 2.65, MLFR: 2.9 },
  { date: '2025-06-11', DFR: 2.25, MRR_FR: 2.4, MLFR: 2.65 },
  { date: DECISION_DATE, DFR: 2.0, MRR_FR: 2.15, MLFR: 2.4 },
];

const EU27 = ['AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'EL', 'ES', 'FI', 'FR', 'HR', 'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK'];

/** The 41 currency columns of eurofxref-hist.csv, in the real file's order. */
const FX_CURRENCIES = ['USD', 'JPY', 'BGN', 'CYP', 'CZK', 'DKK', 'EEK', 'GBP', 'HUF', 'LTL', 'LVL', 'MTL', 'PLN', 'ROL', 'RON', 'SEK', 'SIT', 'SKK', 'CHF', 'ISK', 'NOK', 'HRK', 'RUB', 'TRL', 'TRY', 'AUD', 'BRL', 'CAD', 'CNY', 'HKD', 'IDR', 'ILS', 'INR', 'KRW', 'MXN', 'MYR', 'NZD', 'PHP', 'SGD', 'THB', 'ZAR'];
const FX_LEGACY = new Set(['CYP', 'EEK', 'LTL', 'LVL', 'MTL', 'ROL', 'SIT', 'SKK', 'TRL', 'HRK', 'RUB']);
const FX_LEVEL: Record<string, number> = { JPY: 160, BGN: 1.9558, CZK: 24.8, DKK: 7.46, GBP: 0.86, HUF: 390, PLN: 4.3, RON: 4.97, SEK: 11.2, CHF: 0.94, ISK: 148, NOK: 11.4, TRY: 35, AUD: 1.65, BRL: 5.9, CAD: 1.48, CNY: 7.8, HKD: 8.5, IDR: 17500, ILS: 4.0, INR: 92, KRW: 1480, MXN: 20, MYR: 4.9, NZD: 1.8, PHP: 62, SGD: 1.46, THB: 37, ZAR: 20 };

function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** Weekdays from (end - years) to end, without 25 December and 1 January (TARGET holidays). */
export function businessDays(end: string, years: number): string[] {
  const last = new Date(`${end}T00:00:00Z`);
  const first = new Date(last);
  first.setUTCFullYear(first.getUTCFullYear() - years);
  const days: string[] = [];
  for (const d = new Date(first); d <= last; d.setUTCDate(d.getUTCDate() + 1)) {
    const dow = d.getUTCDay();
    const md = isoDate(d).slice(5);
    if (dow === 0 || dow === 6 || md === '12-25' || md === '01-01') continue;
    days.push(isoDate(d));
  }
  return days;
}

const inverted = (day: string) => day >= INVERTED_FROM && day <= INVERTED_TO;
const fixed = (x: number, n: number) => Number(x.toFixed(n));

function csvField(text: string): string {
  return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const ECB_FULL_HEADER = ['KEY', 'FREQ', 'REF_AREA', 'CURRENCY', 'PROVIDER_FM', 'INSTRUMENT_FM', 'PROVIDER_FM_ID', 'DATA_TYPE_FM', 'TIME_PERIOD', 'OBS_VALUE', 'OBS_STATUS', 'OBS_CONF', 'OBS_PRE_BREAK', 'OBS_COM', 'TIME_FORMAT', 'COLLECTION', 'DECIMALS', 'SOURCE_AGENCY', 'TITLE', 'TITLE_COMPL', 'UNIT', 'UNIT_MULT'];

function ecbFullRow(key: string, day: string, value: string, title: string, titleCompl: string, unit: string, decimals: number): string {
  const [, freq, area, currency, provider, instrument, providerId, dataType] = key.split('.');
  return [key, freq, area, currency, provider, instrument, providerId, dataType, day, value, 'A', 'F', '', '', 'P1D', 'E', String(decimals), '4F', title, titleCompl, unit, '0']
    .map(csvField).join(',');
}

export interface MacroSampleOptions {
  scale?: number;
}

export async function generateEcbSample(dir: string, options: MacroSampleOptions = {}): Promise<void> {
  const days = businessDays(SAMPLE_END, 3 * (options.scale ?? 1));
  await mkdir(dir, { recursive: true });
  // Key rates: one observation per decision (a step function), the first at the start of the sample.
  const names = { MRR_FR: 'Main refinancing operations - fixed rate tenders (fixed rate)', DFR: 'Deposit facility', MLFR: 'Marginal lending facility' };
  const rates: string[] = [ECB_FULL_HEADER.join(',')];
  for (const code of ['DFR', 'MLFR', 'MRR_FR'] as const) {
    const key = `FM.B.U2.EUR.4F.KR.${code}.LEV`;
    for (const d of DECISIONS) {
      const day = d.date < days[0] ? days[0] : d.date;
      rates.push(ecbFullRow(key, day, String(d[code]), `${names[code]} - date of changes (raw data), Level`,
        `Euro area (changing composition), Key interest rate, ECB ${names[code]} - date of changes (raw data) - Level, Euro, provided by ECB`, 'PCPA', 2));
    }
  }
  await writeFile(join(dir, 'ecb_key_rates.csv'), rates.join('\n') + '\n');

  // €STR (detail=dataonly, its own dimension columns): DFR in force - 0.07 +- 0.01; the last fixing DFR - 0.072.
  const estrRandom = new Random('macro-estr');
  const dfrOn = (day: string) => [...DECISIONS].reverse().find((d) => d.date <= day)!.DFR;
  const estr = ['KEY,FREQ,BENCHMARK_ITEM,DATA_TYPE_EST,TIME_PERIOD,OBS_VALUE'];
  days.forEach((day, i) => {
    const value = i === days.length - 1 ? dfrOn(day) - 0.072 : dfrOn(day) - 0.07 + Math.round(estrRandom.between(-10, 10)) / 1000;
    estr.push(`EST.B.EU000A2X2A25.WT,B,EU000A2X2A25,WT,${day},${value.toFixed(3)}`);
  });
  await writeFile(join(dir, 'ecb_estr.csv'), estr.join('\n') + '\n');

  // AAA spot curve, 10 decimals; the 10Y-2Y slope is -0.35 +- 0.1 in the inverted window, 0.85 +- 0.1 elsewhere.
  const curveRandom = new Random('macro-curve');
  const curve: string[] = [ECB_FULL_HEADER.join(',')];
  let two = 2.4;
  for (const day of days) {
    two = Math.min(4.5, Math.max(0.5, two + curveRandom.between(-0.03, 0.03)));
    const slope = (inverted(day) ? -0.35 : 0.85) + curveRandom.between(-0.1, 0.1);
    const ten = two + slope;
    const thirty = ten + 0.3 + curveRandom.between(-0.05, 0.05);
    for (const [m, v] of [['2Y', two], ['10Y', ten], ['30Y', thirty]] as const) {
      curve.push(ecbFullRow(`YC.B.U2.EUR.4F.G_N_A.SV_C_YM.SR_${m}`, day, v.toFixed(10),
        `Yield curve spot rate, ${m.replace('Y', '-year')} maturity - Government bond, nominal, all issuers whose rating is triple A - Euro area (changing composition)`,
        `Euro area (changing composition) - Government bond, nominal, all issuers whose rating is triple A - Svensson model - continuous compounding - yield error minimisation - Yield curve spot rate, ${m} maturity - Euro, provided by ECB`,
        'PCPA', 10));
    }
  }
  await writeFile(join(dir, 'ecb_yield_curve.csv'), curve.join('\n') + '\n');

  // EXR EUR/USD (dataonly): the same fixings as the reference-rate file (the two sources agree).
  const exr = ['KEY,FREQ,CURRENCY,CURRENCY_DENOM,EXR_TYPE,EXR_SUFFIX,TIME_PERIOD,OBS_VALUE'];
  for (const [day, rate] of eurusdPath(days)) exr.push(`EXR.D.USD.EUR.SP00.A,D,USD,EUR,SP00,A,${day},${rate}`);
  await writeFile(join(dir, 'ecb_exr_usd.csv'), exr.join('\n') + '\n');
}

/** EUR/USD reference rates, 4 decimals: a seeded random walk of daily log returns (sigma 0.4%), pulled back towards 1.10. */
export function eurusdPath(days: readonly string[]): Array<[string, number]> {
  const random = new Random('macro-eurusd');
  let rate = 1.08;
  return days.map((day) => {
    const [g] = random.gaussianPair();
    rate = Math.min(1.35, Math.max(0.95, rate * Math.exp(0.004 * g + 0.01 * Math.log(1.1 / rate))));
    return [day, fixed(rate, 4)];
  });
}

export async function generateEurofxrefSample(dir: string, options: MacroSampleOptions = {}): Promise<void> {
  const days = businessDays(SAMPLE_END, 3 * (options.scale ?? 1));
  const usd = new Map(eurusdPath(days));
  const random = new Random('macro-eurofxref');
  const lines = [`Date,${FX_CURRENCIES.join(',')},`];
  for (const day of [...days].reverse()) {
    const cells = FX_CURRENCIES.map((c) => {
      if (c === 'USD') return String(usd.get(day));
      if (FX_LEGACY.has(c)) return 'N/A';
      if (c === 'BGN') return '1.9558';
      return String(fixed(FX_LEVEL[c] * (1 + random.between(-0.02, 0.02)), FX_LEVEL[c] > 100 ? 2 : 4));
    });
    lines.push(`${day},${cells.join(',')},`);
  }
  await mkdir(dir, { recursive: true });
  const zip = new JSZip();
  zip.file('eurofxref-hist.csv', lines.join('\n') + '\n', { date: new Date('2026-11-20T16:00:00Z') });
  await writeFile(join(dir, 'eurofxref-hist.zip'), await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }));
}

/** Months YYYY-MM from `from` to `to` inclusive. */
function months(from: string, to: string): string[] {
  const out: string[] = [];
  for (let [y, m] = from.split('-').map(Number); `${y}-${String(m).padStart(2, '0')}` <= to; m === 12 ? ((y += 1), (m = 1)) : (m += 1)) {
    out.push(`${y}-${String(m).padStart(2, '0')}`);
  }
  return out;
}

export const FRED_LAST_MONTH = '2026-10';
const FRED_FIRST_MONTH = '2019-01';
const SHUTDOWN_MONTH = '2025-10';

export async function generateFredSample(dir: string, options: MacroSampleOptions = {}): Promise<void> {
  const days = businessDays(SAMPLE_END, 3 * (options.scale ?? 1));
  await mkdir(dir, { recursive: true });
  // DGS2 / DGS10: 2 decimals; the 10Y-2Y spread is -0.4 +- 0.1 in the inverted window, 0.55 +- 0.1 elsewhere; a
  // few holidays missing ('.' in the older DATE file, empty in the current observation_date file).
  const random = new Random('macro-treasury');
  let two = 4.0;
  const dgs2 = ['DATE,DGS2'];
  const dgs10 = ['observation_date,DGS10'];
  for (const day of days) {
    const missing = day.endsWith('-07-04') || day.endsWith('-11-11');
    two = Math.min(5.5, Math.max(1, two + random.between(-0.04, 0.04)));
    const spread = (inverted(day) ? -0.4 : 0.55) + random.between(-0.1, 0.1);
    dgs2.push(`${day},${missing ? '.' : two.toFixed(2)}`);
    dgs10.push(`${day},${missing ? '' : (two + spread).toFixed(2)}`);
  }
  await writeFile(join(dir, 'DGS2.csv'), dgs2.join('\n') + '\n');
  await writeFile(join(dir, 'DGS10.csv'), dgs10.join('\n') + '\n');

  // VIXCLS: around 16 (+-2); the last SPIKE_DAYS observations climb to 38.5.
  const vixRandom = new Random('macro-vix');
  const vix = ['observation_date,VIXCLS'];
  const spike = [24.1, 27.8, 31.2, 35.6, 38.5];
  days.forEach((day, i) => {
    const fromEnd = days.length - i;
    const value = fromEnd <= SPIKE_DAYS ? spike[SPIKE_DAYS - fromEnd] : 16 + vixRandom.between(-2, 2);
    vix.push(`${day},${value.toFixed(2)}`);
  });
  await writeFile(join(dir, 'VIXCLS.csv'), vix.join('\n') + '\n');

  // Monthly: CPIAUCSL (+0.3% a month, ~3.7% a year), UNRATE (4.1, rising 0.4 over the last 3 months), both missing
  // in 2025-10; FEDFUNDS as API JSON, cut by 0.25 every 4 months from 2025.
  const ms = months(FRED_FIRST_MONTH, FRED_LAST_MONTH);
  let index = 250;
  const cpi = ['observation_date,CPIAUCSL'];
  const unrate = ['DATE,UNRATE'];
  const unrateTail: Record<string, number> = { '2026-08': 4.2, '2026-09': 4.3, '2026-10': 4.5 };
  const observations: Array<{ realtime_start: string; realtime_end: string; date: string; value: string }> = [];
  let fedfunds = 5.33;
  ms.forEach((m, i) => {
    index *= 1.003;
    const gap = m === SHUTDOWN_MONTH;
    cpi.push(`${m}-01,${gap ? '' : index.toFixed(3)}`);
    unrate.push(`${m}-01,${gap ? '.' : (unrateTail[m] ?? 4.1).toFixed(1)}`);
    if (m >= '2025-01' && i % 4 === 0) fedfunds -= 0.25;
    observations.push({ realtime_start: '2026-11-20', realtime_end: '2026-11-20', date: `${m}-01`, value: fedfunds.toFixed(2) });
  });
  await writeFile(join(dir, 'CPIAUCSL.csv'), cpi.join('\n') + '\n');
  await writeFile(join(dir, 'UNRATE.csv'), unrate.join('\n') + '\n');
  await writeFile(join(dir, 'FEDFUNDS.json'), JSON.stringify({
    realtime_start: '2026-11-20', realtime_end: '2026-11-20', observation_start: '1600-01-01', observation_end: '9999-12-31',
    units: 'lin', output_type: 1, file_type: 'json', order_by: 'observation_date', sort_order: 'asc',
    count: observations.length, offset: 0, limit: 100000, observations,
  }, null, 1) + '\n');
}

export const HICP_FILE = 'estat_prc_hicp_manr.tsv';

export async function generateHicpSample(dir: string): Promise<void> {
  const random = new Random('macro-hicp');
  const rows: EurostatWriteRow[] = [];
  const ms = months('2024-01', HICP_LAST_MONTH);
  const geos = [...EU27, 'EA', 'EA20', 'EU27_2020'];
  for (const geo of geos) {
    const country = EU27.includes(geo);
    const level = country ? 1 + random.between(0, 4) : 2.2;
    ms.forEach((m, i) => {
      const published = m !== HICP_LAST_MONTH || !country || EU27.indexOf(geo) < HICP_SPARSE_COUNTRIES;
      if (!published) return;
      const value = fixed(level + Math.sin(i / 4) * 0.6 + random.between(-0.3, 0.3), 1);
      rows.push({ dims: { freq: 'M', unit: 'RCH_A', coicop: 'CP00', geo }, time_period: m, obs_value: value, obs_flag: m === HICP_LAST_MONTH ? 'p' : null });
    });
  }
  await mkdir(dir, { recursive: true });
  await writeEurostatTsv(join(dir, HICP_FILE), 'prc_hicp_manr', rows);
}
