// A hand-made macro snapshot: small files in every real format, each value chosen so the expected
// answers can be worked out by hand (see routes.test.ts).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { writeEurostatTsv, type EurostatWriteRow } from '../../ingest/eurostat/write.ts';
import { ingestEurostatFiles } from '../../ingest/eurostat/snapshot.ts';
import { ingestEcbFiles, ingestEurofxrefFiles, ingestFredFiles } from '../../domains/macro/ingest/snapshot.ts';
import type { LicenseStatus } from '../../domains/macro/ingest/types.ts';

export const FIXTURE_NOW = () => new Date('2026-01-10T09:00:00Z');

const ECB_HEADER = 'KEY,FREQ,REF_AREA,CURRENCY,PROVIDER_FM,INSTRUMENT_FM,PROVIDER_FM_ID,DATA_TYPE_FM,TIME_PERIOD,OBS_VALUE,OBS_STATUS,OBS_CONF,TITLE,TITLE_COMPL,UNIT,UNIT_MULT';
const kr = (code: string, date: string, value: string) =>
  `FM.B.U2.EUR.4F.KR.${code}.LEV,B,U2,EUR,4F,KR,${code},LEV,${date},${value},A,F,"${code}, date of changes (raw data), Level","Euro area (changing composition), Key interest rate, ${code} - Level, Euro, provided by ECB",PCPA,0`;
const yc = (m: string, date: string, value: string) =>
  `YC.B.U2.EUR.4F.G_N_A.SV_C_YM.SR_${m},B,U2,EUR,4F,G_N_A,SV_C_YM,SR_${m},${date},${value},A,F,"Yield curve spot rate, ${m} maturity - Government bond, nominal, all issuers whose rating is triple A","a, b",PCPA,0`;

/** HICP 2025-09: 20 EU27 countries against EA20 = 2.2 (no EA that month). */
export const HICP_SEPT: Record<string, number> = {
  AT: 2.2, BE: 2.3, BG: 4.0, CY: 0.5, CZ: 2.9, DE: 2.4, DK: 2.1, EE: 4.0, EL: 2.2, ES: 2.2,
  FI: 1.9, FR: 1.1, HR: 4.6, HU: 4.3, IE: 2.0, IT: 3.3, LT: 3.5, LU: 2.6, LV: 3.9, MT: 2.4,
};

export async function writeFixtureFiles(dir: string): Promise<{ ecb: string; fx: string; fred: string; hicp: string }> {
  const ecb = path.join(dir, 'ecb');
  const fx = path.join(dir, 'fx');
  const fred = path.join(dir, 'fred');
  const hicp = path.join(dir, 'hicp');
  for (const d of [ecb, fx, fred, hicp]) await mkdir(d, { recursive: true });

  await writeFile(path.join(ecb, 'key_rates.csv'), [
    ECB_HEADER,
    kr('DFR', '2024-06-12', '3.75'), kr('DFR', '2024-09-18', '3.50'),
    kr('MRR_FR', '2024-06-12', '4.25'), kr('MRR_FR', '2024-09-18', '3.65'),
    kr('MLFR', '2024-06-12', '4.50'), kr('MLFR', '2024-09-18', '3.90'),
  ].join('\n') + '\n');
  await writeFile(path.join(ecb, 'estr.csv'), 'KEY,FREQ,BENCHMARK_ITEM,DATA_TYPE_EST,TIME_PERIOD,OBS_VALUE\n' +
    'EST.B.EU000A2X2A25.WT,B,EU000A2X2A25,WT,2024-09-17,3.663\nEST.B.EU000A2X2A25.WT,B,EU000A2X2A25,WT,2024-09-20,3.450\n');
  await writeFile(path.join(ecb, 'curve.csv'), [
    ECB_HEADER,
    yc('2Y', '2024-09-19', '2.1234567891'), yc('10Y', '2024-09-19', '2.6234567891'), yc('30Y', '2024-09-19', '2.9000000000'),
    yc('2Y', '2024-09-20', '2.2'), yc('10Y', '2024-09-20', '2.1'),
  ].join('\n') + '\n');
  // EXR: the last two fixings; 2026-01-06 is also in eurofxref (same value), 2026-01-07 only here.
  await writeFile(path.join(ecb, 'exr.csv'), 'KEY,FREQ,CURRENCY,CURRENCY_DENOM,EXR_TYPE,EXR_SUFFIX,TIME_PERIOD,OBS_VALUE\n' +
    'EXR.D.USD.EUR.SP00.A,D,USD,EUR,SP00,A,2026-01-06,1.08\nEXR.D.USD.EUR.SP00.A,D,USD,EUR,SP00,A,2026-01-07,1.2\n');

  await writeFile(path.join(fx, 'eurofxref-hist.csv'), [
    'Date,USD,JPY,CYP,',
    '2026-01-06,1.08,160.1,N/A,', '2026-01-05,1.2,160.2,N/A,', '2026-01-04,0.9,160.3,N/A,',
    '2026-01-03,1.0,160.4,N/A,', '2026-01-02,1.1,160.5,N/A,', '2026-01-01,1.0,160.6,N/A,',
  ].join('\n') + '\n');

  await writeFile(path.join(fred, 'DGS10.csv'), 'observation_date,DGS10\n2025-12-26,4.10\n2025-12-29,4.12\n2025-12-30,4.14\n');
  await writeFile(path.join(fred, 'DGS2.csv'), 'DATE,DGS2\n2025-12-26,3.50\n2025-12-29,3.47\n2025-12-30,.\n');
  await writeFile(path.join(fred, 'CPIAUCSL.csv'), 'observation_date,CPIAUCSL\n' + [
    ['2024-06-01', 100], ['2024-07-01', 101], ['2024-08-01', 102], ['2024-09-01', 103],
    ['2025-06-01', 104], ['2025-07-01', 105], ['2025-08-01', 106], ['2025-09-01', 107], ['2025-10-01', ''],
  ].map(([d, v]) => `${d},${v}`).join('\n') + '\n');
  await writeFile(path.join(fred, 'UNRATE.csv'), 'DATE,UNRATE\n2025-06-01,4.1\n2025-07-01,4.2\n2025-08-01,4.3\n2025-09-01,4.4\n2025-10-01,.\n');
  await writeFile(path.join(fred, 'FEDFUNDS.json'), JSON.stringify({ observations: [
    { date: '2025-03-01', value: '4.33' }, { date: '2025-04-01', value: '.' }, { date: '2025-09-01', value: '4.08' }, { date: '2025-10-01', value: '.' },
  ] }));
  await writeFile(path.join(fred, 'VIXCLS.csv'), 'observation_date,VIXCLS\n2025-12-23,12\n2025-12-24,14\n2025-12-25,\n2025-12-26,16\n2025-12-29,18\n2025-12-30,20\n');

  const rows: EurostatWriteRow[] = [];
  const add = (geo: string, month: string, value: number, coicop = 'CP00') => rows.push({ dims: { freq: 'M', unit: 'RCH_A', coicop, geo }, time_period: month, obs_value: value });
  for (const [geo, value] of Object.entries(HICP_SEPT)) add(geo, '2025-09', value);
  add('EA20', '2025-09', 2.2);
  add('EA19', '2025-09', 2.1); // EA20 comes first
  // 2025-10: the benchmark EA and only 19 countries -> not the default period.
  for (const geo of Object.keys(HICP_SEPT).slice(0, 19)) add(geo, '2025-10', 2.0);
  add('EA', '2025-10', 2.1);
  // 2025-07: a file after the COICOP 2018 change carries TOTAL; CP00 wins where both exist.
  add('EA', '2025-07', 2.0, 'TOTAL');
  add('DE', '2025-07', 1.0, 'TOTAL');
  add('DE', '2025-07', 1.5);
  // Another unit and the EU aggregate are ignored.
  rows.push({ dims: { freq: 'M', unit: 'I15', coicop: 'CP00', geo: 'DE' }, time_period: '2025-09', obs_value: 130.1 });
  add('EU27_2020', '2025-09', 2.5);
  await writeEurostatTsv(path.join(hicp, 'estat_prc_hicp_manr.tsv'), 'prc_hicp_manr', rows);
  return { ecb, fx, fred, hicp };
}

/** Ingests the fixture files into dataDir (FRED with the given licence, default APPROVED). */
export async function buildFixtureSnapshot(root: string, license: LicenseStatus = 'APPROVED'): Promise<string> {
  const files = await writeFixtureFiles(path.join(root, 'files'));
  const dataDir = path.join(root, 'parquet');
  const list = async (dir: string) => (await import('node:fs/promises')).readdir(dir).then((names) => names.sort().map((n) => path.join(dir, n)));
  await ingestEcbFiles(await list(files.ecb), { dataDir, now: FIXTURE_NOW });
  await ingestEurofxrefFiles(await list(files.fx), { dataDir, now: FIXTURE_NOW });
  await ingestFredFiles(await list(files.fred), { dataDir, now: FIXTURE_NOW, license });
  await ingestEurostatFiles({ dataDir, path: files.hicp, now: FIXTURE_NOW, log: () => undefined });
  return dataDir;
}
