// Recorded answers for the stand-in publisher, in the publishers' own packaging: the real extracts of
// ../shared/data/real where they exist (eurofxref-hist.csv in a zip, FRED copies given fredgraph.csv's
// `observation_date,<ID>` header, Eurostat nrg_ind_ren gzipped, the World Bank bulk CSV in a zip), and
// small hand-written files in the official layouts where none exists (ECB csvdata, the other Eurostat
// datasets, the other WDI indicators, HICP annual rates derived from the real HICP index copy).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import JSZip from 'jszip';
import { ECB_REQUESTS, EUROSTAT_DATASETS, FRED_SERIES, WDI_INDICATORS } from '../../ingest/fetch/sources.ts';
import type { Recorded } from '../../bench/standInPublisher.ts';

export const REAL = path.resolve(import.meta.dirname, '../../../shared/data/real');
export const REAL_FILES = {
  eurofxref: path.join(REAL, 'ecb_eurofxref', 'eurofxref-hist.csv'),
  fred: path.join(REAL, 'fred'),
  hicpIndex: path.join(REAL, 'ecb_via_fred', 'CP0000EZ19M086NEST.csv.orig'),
  dfr: path.join(REAL, 'ecb_via_fred', 'ECBDFR.csv.orig'),
  eurusd: path.join(REAL, 'ecb_via_fred', 'ECB_EURUSD.csv'),
  renewables: path.join(REAL, 'eurostat_nrg_ind_ren', 'estat_nrg_ind_ren.tsv'),
  worldbank: path.join(REAL, 'worldbank', 'API_NE.EXP.GNFS.ZS_DS2_en_csv_v2_5995190.csv'),
};

/** Why the real-data tests cannot run (an extract is absent), else null. */
export function missingRealFiles(): string | null {
  const absent = Object.values(REAL_FILES).filter((file) => !existsSync(file));
  return absent.length === 0 ? null : `real extracts absent: ${absent.join(', ')}`;
}

async function zipOf(entries: Record<string, string | Buffer>): Promise<Buffer> {
  const zip = new JSZip();
  for (const [name, content] of Object.entries(entries)) zip.file(name, content, { date: new Date('2026-01-01T00:00:00Z') });
  // Deflated, as the publishers' zips are; at the fastest level (JSZip's deflate is JavaScript), the size being no part of any check.
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 1 } });
}

export async function eurofxrefZip(csv: string = readFileSync(REAL_FILES.eurofxref, 'utf8')): Promise<Buffer> {
  return zipOf({ 'eurofxref-hist.csv': csv });
}

/** A FRED `date,value` copy in fredgraph.csv's layout: `observation_date,<ID>`, missing values empty. */
export function fredGraphCsv(id: string, extraLines: readonly string[] = []): string {
  const lines = readFileSync(path.join(REAL_FILES.fred, `${id}.csv`), 'utf8').trim().split('\n').slice(1);
  return [`observation_date,${id}`, ...lines, ...extraLines].join('\n') + '\n';
}

/** ECB key-rate decisions (effective dates; the published FM series), DFR / MRR_FR / MLFR. */
export const KEY_RATE_DECISIONS: ReadonlyArray<[string, number, number, number]> = [
  ['2023-09-20', 4.0, 4.5, 4.75],
  ['2024-06-12', 3.75, 4.25, 4.5],
  ['2024-09-18', 3.5, 3.65, 3.9],
  ['2024-10-23', 3.25, 3.4, 3.65],
  ['2024-12-18', 3.0, 3.15, 3.4],
  ['2025-02-05', 2.75, 2.9, 3.15],
  ['2025-03-12', 2.5, 2.65, 2.9],
  ['2025-04-23', 2.25, 2.4, 2.65],
  ['2025-06-11', 2.0, 2.15, 2.4],
];
/** Hand-written €STR fixings (layout of the EST flow, dataonly). */
export const ESTR_FIXINGS: ReadonlyArray<[string, number]> = [
  ['2025-09-24', 1.925], ['2025-09-25', 1.926], ['2025-09-26', 1.924], ['2025-09-29', 1.927], ['2025-09-30', 1.929],
];
export const CURVE_POINTS: ReadonlyArray<[string, number, number, number]> = [
  ['2025-09-29', 1.98, 2.67, 3.21], ['2025-09-30', 1.99, 2.69, 3.24],
];

function ecbKeyRates(): string {
  const lines = ['KEY,FREQ,REF_AREA,CURRENCY,PROVIDER_FM,INSTRUMENT_FM,PROVIDER_FM_ID,DATA_TYPE_FM,TIME_PERIOD,OBS_VALUE,TITLE'];
  for (const [code, column] of [['MRR_FR', 2], ['DFR', 1], ['MLFR', 3]] as const) {
    for (const decision of KEY_RATE_DECISIONS) {
      lines.push(`FM.B.U2.EUR.4F.KR.${code}.LEV,B,U2,EUR,4F,KR,${code},LEV,${decision[0]},${decision[column]},"Euro area, ${code} - date of changes (raw data) - Level"`);
    }
  }
  return lines.join('\n') + '\n';
}

function ecbEstr(): string {
  return ['KEY,FREQ,BENCHMARK_ITEM,DATA_TYPE_EST,TIME_PERIOD,OBS_VALUE', ...ESTR_FIXINGS.map(([day, value]) => `EST.B.EU000A2X2A25.WT,B,EU000A2X2A25,WT,${day},${value}`)].join('\n') + '\n';
}

function ecbCurve(): string {
  const lines = ['KEY,FREQ,REF_AREA,CURRENCY,PROVIDER_FM,INSTRUMENT_FM,PROVIDER_FM_ID,DATA_TYPE_FM,TIME_PERIOD,OBS_VALUE'];
  for (const [maturity, column] of [['SR_2Y', 1], ['SR_10Y', 2], ['SR_30Y', 3]] as const) {
    for (const point of CURVE_POINTS) lines.push(`YC.B.U2.EUR.4F.G_N_A.SV_C_YM.${maturity},B,U2,EUR,4F,G_N_A,SV_C_YM,${maturity},${point[0]},${point[column]}`);
  }
  return lines.join('\n') + '\n';
}

/** Five fixings of the real ECB USD reference-rate copy (the last ones within the eurofxref extract), as the EXR flow's dataonly csvdata. */
function ecbExr(): string {
  const rows = readFileSync(REAL_FILES.eurusd, 'utf8').trim().split(/\r?\n/).slice(1).map((line) => line.split(',')).filter(([day]) => day! <= '2024-01-19').slice(-5);
  return ['KEY,FREQ,CURRENCY,CURRENCY_DENOM,EXR_TYPE,EXR_SUFFIX,TIME_PERIOD,OBS_VALUE', ...rows.map(([day, rate]) => `EXR.D.USD.EUR.SP00.A,D,USD,EUR,SP00,A,${day},${rate}`)].join('\n') + '\n';
}

/** HICP annual rates of change of the euro area (EA19) from the real index copy: (I(t) / I(t-12) - 1) * 100, 1 decimal. */
export function hicpRates(months: number): Array<[string, number]> {
  const index = new Map(readFileSync(REAL_FILES.hicpIndex, 'utf8').trim().split('\n').slice(1).map((line) => {
    const [day, value] = line.split(',');
    return [day!.slice(0, 7), Number(value)] as const;
  }));
  const keys = [...index.keys()].sort().slice(-months);
  return keys.map((month) => {
    const [y, m] = month.split('-');
    const before = index.get(`${Number(y) - 1}-${m}`)!;
    return [month, Math.round((index.get(month)! / before - 1) * 1000) / 10];
  });
}

function eurostatTsv(header: string, periods: readonly string[], rows: ReadonlyArray<[string, readonly string[]]>): string {
  return [`${header}\\TIME_PERIOD\t${periods.map((p) => `${p} `).join('\t')}`, ...rows.map(([key, cells]) => `${key}\t${cells.join('\t')}`)].join('\n') + '\n';
}

/** The Eurostat answers (TSV, gzipped as `compressed=true` sends them), by dataset code. */
export function eurostatAnswers(): Map<string, Buffer> {
  const hicp = hicpRates(12);
  const tsv = new Map<string, string>([
    ['nrg_ind_ren', readFileSync(REAL_FILES.renewables, 'utf8')],
    ['prc_hicp_manr', eurostatTsv('freq,unit,coicop,geo', hicp.map(([m]) => m), [['M,RCH_A,CP00,EA19', hicp.map(([, v]) => `${v.toFixed(1)} `)]])],
    ['nrg_bal_s', eurostatTsv('freq,nrg_bal,siec,unit,geo', ['2022', '2023'], [['A,GIC,TOTAL,KTOE,AT', ['31519.2 ', '30411.7 ']], ['A,IMP,TOTAL,KTOE,AT', ['22840.1 ', '21003.5 ']]])],
    ['nrg_cb_e', eurostatTsv('freq,nrg_bal,siec,unit,geo', ['2022', '2023'], [['A,GEP,E7000,GWH,AT', ['70011.3 ', '74201.9 ']]])],
    ['nrg_ind_ei', eurostatTsv('freq,nrg_bal,unit,geo', ['2022', '2023'], [['A,EI_GDP_CLV20,KGOE_TEUR_CLV20,AT', ['77.61 ', '74.03 ']]])],
    ['nrg_pc_204', eurostatTsv('freq,product,nrg_cons,unit,tax,currency,geo', ['2024-S1', '2024-S2'], [['S,6000,KWH2500-4999,KWH,I_TAX,EUR,AT', ['0.2611 ', '0.2483 ']]])],
  ]);
  if ([...tsv.keys()].sort().join() !== [...EUROSTAT_DATASETS].sort().join()) throw new Error('the recorded Eurostat answers do not match the fetched datasets');
  return new Map([...tsv].map(([code, text]) => [code, gzipSync(Buffer.from(text))]));
}

/** A WDI bulk CSV in the World Bank layout (BOM, CRLF, four preamble lines, every cell quoted, trailing comma). */
function wdiCsv(id: string): string {
  const lines = [
    '"Data Source","World Development Indicators",', '', '"Last Updated Date","2026-10-28",', '',
    '"Country Name","Country Code","Indicator Name","Indicator Code","2021","2022","2023",',
    `"Austria","AUT","Indicator ${id}","${id}","1.5","2.5","3.5",`,
    `"Bulgaria","BGR","Indicator ${id}","${id}","4.5","","6.5",`,
  ];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** The World Bank bulk zips by indicator: the real NE.EXP.GNFS.ZS file, small ones for the others. */
export async function worldBankAnswers(): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const id of WDI_INDICATORS) {
    const data = id === 'NE.EXP.GNFS.ZS' ? readFileSync(REAL_FILES.worldbank) : Buffer.from(wdiCsv(id));
    out.set(id, await zipOf({ [`API_${id}_DS2_en_csv_v2_1.csv`]: data, [`Metadata_Indicator_API_${id}_DS2_en_csv_v2_1.csv`]: `"INDICATOR_CODE","INDICATOR_NAME",\r\n"${id}","x",\r\n` }));
  }
  return out;
}

export function ecbAnswers(): Map<string, string> {
  const bodies = new Map([['key_rates', ecbKeyRates()], ['estr', ecbEstr()], ['yield_curve', ecbCurve()], ['exr_usd', ecbExr()]]);
  if (ECB_REQUESTS.some((r) => !bodies.has(r.dataset))) throw new Error('the recorded ECB answers do not match the fetched requests');
  return bodies;
}

export const FRED_IDS = FRED_SERIES;

export type { Recorded };
