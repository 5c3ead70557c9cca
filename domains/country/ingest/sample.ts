// Deterministic sample of the country domain's sources, in their real layouts:
//   oecd/2019-04/DP_LIVE_CLI.csv                 legacy data.oecd.org export (BOM, quoted, CRLF), CLI 2015-01..2019-02,
//                                                an old vintage (2019-04) that the newer one revises from 2018-01 on
//   oecd/<vintage>/DF_CLI.csv                     Data Explorer csvfilewithlabels: CLI (LI), BCI (BCICP), CCI (CCICP), 2018-01..2026-09
//   oecd/<vintage>/DF_INDSERV.csv                 Data Explorer format=csv: INDPRO (PRVM, BTE), RETAIL (TOVM, G47), 2018-01..2026-08
//   oecd/<vintage>/DF_IALFS_UNE_M.csv             Data Explorer format=csv: UNEMP (UNE_LF_M); CHE and NZL quarterly only
//   worldbank/API_<ID>_DS2_en_csv_v2_1.csv        WDI bulk CSV (BOM, preamble, trailing comma) for every WDI series of the domain
//                                                but EG.IMP.CONS.ZS and EG.FEC.RNEW.ZS, which the energy domain's sample writes (a
//                                                WDI ingest replaces every value of an indicator it carries: two samples writing
//                                                one indicator would overwrite each other on a fresh start), for the
//                                                same economies (ingest/worldbank/sampleEconomies.ts)
//   worldbank/Metadata_Country_..._1.csv          WDI country metadata (blank Region = aggregate)
// The folder name under oecd/ is the vintage the sample ingest gives each file (the newest is SAMPLE_VINTAGE).
// scale > 1 adds (scale - 1) older monthly vintages of the Data Explorer files, each a slightly different
// revision: the OECD republishes its whole history every month and every vintage is kept, so the rows
// grow with the number of vintages while the served rows stay the same (the newest vintage is byte-identical).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { Random } from '../../../ingest/random.ts';
import { findIsoCountryByAlpha3 } from '../../../reference/countries.ts';
import { writeWdiBulkCsv, writeWdiCountryMetadata, type WdiWriteRow } from '../../../ingest/worldbank/write.ts';
import { SAMPLE_OECD_COUNTRIES, SAMPLE_WDI_ONLY, SAMPLE_WDI_OWNED_BY_ENERGY } from '../../../ingest/worldbank/sampleEconomies.ts';
import { DEVBANK_INDICATORS } from '../indicators.ts';

export const SAMPLE_VINTAGE = '2026-10';
export const LEGACY_VINTAGE = '2019-04';

/** OECD members and partners in the sample (every one also in the WDI sample), and the WDI-only economies (no OECD data; overview: devbank only). */
export { SAMPLE_OECD_COUNTRIES, SAMPLE_WDI_ONLY } from '../../../ingest/worldbank/sampleEconomies.ts';
/** OECD aggregates of the Data Explorer files, with their labels. */
export const SAMPLE_OECD_AGGREGATES: ReadonlyArray<readonly [string, string]> = [['OECD', 'OECD'], ['G7', 'G7'], ['EA20', 'Euro area (20 countries)']];
/** The legacy export writes the aggregates as it did in 2019. */
const LEGACY_AGGREGATES = ['OECD', 'G-7', 'EA19'] as const;
/** WDI aggregates with their WDI names (flagged by the metadata file's blank Region). */
export const SAMPLE_WDI_AGGREGATES: ReadonlyArray<readonly [string, string]> = [
  ['EUU', 'European Union'], ['EMU', 'Euro area'], ['OED', 'OECD members'], ['HIC', 'High income'], ['WLD', 'World'],
];
/** Quarterly-only unemployment (as in the real LFS dataflow). */
const QUARTERLY_UNEMPLOYMENT = new Set(['CHE', 'NZL']);
/** Only the retired CO2 intensity series (EN.ATM.CO2E.KD.GD) exists for these: the fallback is used. */
export const SAMPLE_CO2_FALLBACK_ONLY = new Set(['IND', 'ZAF']);

/**
 * Facts the tests and the docs check (planted, not random):
 * - COOP_CLI_USA 2019-01: 99.1 in the 2019-04 legacy vintage, revised to 99.6 in the newest vintage (served);
 *   2017-06 exists only in the legacy vintage: 100.8, served with vintage 2019-04-01.
 * - COOP_CLI_DEU latest (2026-09): 101.25. COOP_UNEMP_CHE is quarterly: latest 2026-Q2 = 4.4.
 * - DEU exports 2023 = 43.2 (and 2024) but imports 2023 and 2024 blank: trade openness uses 2022 = 50.3 + 46.7 = 97.0.
 * - DEU government debt: 2023 and 2024 blank, 2022 = 66.1 (the latest).
 * - IND CO2 intensity only from EN.ATM.CO2E.KD.GD.
 */
export const PLANTED = {
  usaCli201901Legacy: 99.1,
  usaCli201901: 99.6,
  usaCli201706: 100.8,
  deuCliLatest: { period: '2026-09', value: 101.25 },
  cheUnempLatest: { period: '2026-Q2', value: 4.4 },
  deuExports: { 2022: 50.3, 2023: 43.2 } as Record<number, number>,
  deuImports: { 2022: 46.7 } as Record<number, number>,
  deuOpenness: { year: 2022, value: 97 },
  deuDebt: { year: 2022, value: 66.1 },
} as const;

const round = (value: number, decimals: number) => Number(value.toFixed(decimals));

function months(first: string, last: string): string[] {
  const out: string[] = [];
  let [y, m] = first.split('-').map(Number);
  const [ly, lm] = last.split('-').map(Number);
  while (y < ly || (y === ly && m <= lm)) {
    out.push(`${y}-${String(m).padStart(2, '0')}`);
    m++;
    if (m > 12) {
      m = 1;
      y++;
    }
  }
  return out;
}

/** An index around `level` with a business cycle of the area's own phase and seeded noise. */
function cycle(key: string, periods: readonly string[], level: number, amplitude: number, noise: number, decimals: number): Map<string, number> {
  const random = new Random(key);
  const phase = random.between(0, 2 * Math.PI);
  const length = random.between(36, 60);
  let drift = 0;
  const out = new Map<string, number>();
  periods.forEach((period, i) => {
    drift = 0.8 * drift + noise * (random.next() - 0.5);
    out.set(period, round(level + amplitude * Math.sin(phase + (2 * Math.PI * i) / length) + drift, decimals));
  });
  return out;
}

/** Revision of an older vintage: a small seeded change of every value (none at age 0). */
function revise(value: number, key: string, age: number, decimals: number): number {
  if (age === 0) return value;
  return round(value + (new Random(`${key}|rev|${age}`).next() - 0.5) * 0.2 * Math.min(age, 6), decimals);
}

const label = (iso3: string) => findIsoCountryByAlpha3(iso3)?.name ?? iso3;

/** The monthly vintage `age` months before SAMPLE_VINTAGE. */
export function vintageMonth(age: number): string {
  const [y, m] = SAMPLE_VINTAGE.split('-').map(Number);
  const index = y * 12 + (m - 1) - age;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

const SDMX_FIRST = '2018-01';
const CLI_LAST = '2026-09';
const STES_LAST = '2026-08';

function cliSeries(indicator: 'CLI' | 'BCI' | 'CCI', area: string): Map<string, number> {
  const series = cycle(`coop|${indicator}|${area}`, months('2015-01', CLI_LAST), 100, indicator === 'CLI' ? 1.2 : 1.6, 0.5, 4);
  if (indicator === 'CLI' && area === 'USA') series.set('2019-01', PLANTED.usaCli201901);
  if (indicator === 'CLI' && area === 'DEU') series.set(PLANTED.deuCliLatest.period, PLANTED.deuCliLatest.value);
  return series;
}

function writeCsv(file: string, rows: ReadonlyArray<ReadonlyArray<string>>, options: { bom?: boolean; quoted?: boolean; crlf?: boolean } = {}) {
  const text = stringify(rows as string[][], { quoted: options.quoted ?? false, record_delimiter: options.crlf ? '\r\n' : '\n' });
  return writeFile(file, (options.bom ? '\uFEFF' : '') + text);
}

async function writeLegacy(dir: string): Promise<void> {
  const rows: string[][] = [['LOCATION', 'INDICATOR', 'SUBJECT', 'MEASURE', 'FREQUENCY', 'TIME', 'Value', 'Flag Codes']];
  const periods = months('2015-01', '2019-02');
  for (const area of [...SAMPLE_OECD_COUNTRIES, ...LEGACY_AGGREGATES]) {
    const series = cliSeries('CLI', area === 'G-7' ? 'G7' : area === 'EA19' ? 'EA20' : area);
    for (const period of periods) {
      let value = revise(series.get(period)!, `legacy|${area}|${period}`, 3, 4);
      if (area === 'USA' && period === '2019-01') value = PLANTED.usaCli201901Legacy;
      if (area === 'USA' && period === '2017-06') value = PLANTED.usaCli201706;
      rows.push([area, 'CLI', 'AMPLITUD', 'LTRENDIDX', 'M', period, String(value), '']);
    }
  }
  // data.oecd.org quotes every cell but the value: write the values unquoted as it does.
  const text = rows.map((r, i) => (i === 0 ? r.map((c) => `"${c}"`).join(',') : `${r.slice(0, 6).map((c) => `"${c}"`).join(',')},${r[6]},`)).join('\r\n') + '\r\n';
  await writeFile(join(dir, 'DP_LIVE_CLI.csv'), '\uFEFF' + text);
}

async function writeDataExplorer(dir: string, age: number): Promise<number> {
  let count = 0;
  const cliPeriods = months(SDMX_FIRST, CLI_LAST);
  const cliRows: string[][] = [[
    'STRUCTURE', 'STRUCTURE_ID', 'STRUCTURE_NAME', 'ACTION', 'REF_AREA', 'Reference area', 'FREQ', 'Frequency of observation', 'MEASURE', 'Measure',
    'UNIT_MEASURE', 'Unit of measure', 'ACTIVITY', 'Economic activity', 'ADJUSTMENT', 'Adjustment', 'TRANSFORMATION', 'Transformation',
    'TIME_HORIZ', 'Time horizon', 'METHODOLOGY', 'Calculation methodology', 'TIME_PERIOD', 'Time period', 'OBS_VALUE', 'Observation value',
    'OBS_STATUS', 'Observation status', 'UNIT_MULT', 'Unit multiplier', 'DECIMALS', 'Decimals',
  ]];
  const measures = [['CLI', 'LI', 'Composite leading indicator (CLI)'], ['BCI', 'BCICP', 'Business confidence indicator (BCI)'], ['CCI', 'CCICP', 'Consumer confidence indicator (CCI)']] as const;
  const areas: Array<readonly [string, string]> = [...SAMPLE_OECD_COUNTRIES.map((c) => [c, label(c)] as const), ...SAMPLE_OECD_AGGREGATES];
  for (const [indicator, measure, measureLabel] of measures) {
    for (const [area, areaLabel] of areas) {
      // China and India publish no confidence indicators in the sample.
      if (indicator !== 'CLI' && (area === 'CHN' || area === 'IND')) continue;
      const series = cliSeries(indicator, area);
      // The newest vintage has every month; an older vintage ends `age` months earlier.
      for (const period of cliPeriods.slice(0, cliPeriods.length - age)) {
        const value = revise(series.get(period)!, `${indicator}|${area}|${period}`, age, 4);
        cliRows.push([
          'DATAFLOW', 'OECD.SDD.STES:DSD_STES@DF_CLI(4.1)', 'Composite leading indicators', 'I', area, areaLabel, 'M', 'Monthly', measure, measureLabel,
          'IX', 'Index', '_Z', 'Not applicable', 'AA', 'Amplitude adjusted', 'IX', 'Index', '_Z', 'Not applicable', 'H', 'OECD harmonised',
          period, '', String(value), '', 'A', 'Normal value', '0', 'Units', '4', 'Four',
        ]);
        count++;
      }
    }
  }
  await writeCsv(join(dir, 'DF_CLI.csv'), cliRows);

  const stesHeader = ['DATAFLOW', 'REF_AREA', 'FREQ', 'MEASURE', 'UNIT_MEASURE', 'ACTIVITY', 'ADJUSTMENT', 'TRANSFORMATION', 'TIME_HORIZ', 'METHODOLOGY', 'TIME_PERIOD', 'OBS_VALUE', 'OBS_STATUS', 'UNIT_MULT', 'DECIMALS'];
  const stesRows: string[][] = [stesHeader];
  const stesPeriods = months(SDMX_FIRST, STES_LAST);
  for (const [indicator, measure, activity] of [['INDPRO', 'PRVM', 'BTE'], ['RETAIL', 'TOVM', 'G47']] as const) {
    for (const area of [...SAMPLE_OECD_COUNTRIES, 'OECD', 'EA20']) {
      const series = cycle(`coop|${indicator}|${area}`, stesPeriods, 100, 3, 2, 1);
      for (const period of stesPeriods.slice(0, stesPeriods.length - age)) {
        const value = revise(series.get(period)!, `${indicator}|${area}|${period}`, age, 1);
        stesRows.push(['OECD.SDD.STES:DSD_STES@DF_INDSERV(4.0)', area, 'M', measure, 'IX', activity, 'Y', '_Z', '_Z', 'N', period, String(value), 'A', '0', '1']);
        count++;
      }
      // A growth-rate row per area: a transformation the reader skips.
      stesRows.push(['OECD.SDD.STES:DSD_STES@DF_INDSERV(4.0)', area, 'M', measure, 'PC', activity, 'Y', 'G1', '_Z', 'N', STES_LAST, '0.3', 'A', '0', '1']);
    }
  }
  await writeCsv(join(dir, 'DF_INDSERV.csv'), stesRows);

  const uneRows: string[][] = [['DATAFLOW', 'REF_AREA', 'FREQ', 'MEASURE', 'UNIT_MEASURE', 'SEX', 'AGE', 'ADJUSTMENT', 'TRANSFORMATION', 'TIME_PERIOD', 'OBS_VALUE', 'OBS_STATUS']];
  const flow = 'OECD.SDD.TPS:DSD_LFS@DF_IALFS_UNE_M(1.0)';
  for (const area of [...SAMPLE_OECD_COUNTRIES, 'OECD', 'EA20']) {
    const level = new Random(`unemp-level|${area}`).between(3, 11);
    if (QUARTERLY_UNEMPLOYMENT.has(area)) {
      const quarters = months('2018-01', '2026-06').filter((_, i) => i % 3 === 0).map((p) => `${p.slice(0, 4)}-Q${(Number(p.slice(5)) + 2) / 3}`);
      const series = cycle(`coop|UNEMP|${area}`, quarters, level, 0.6, 0.3, 1);
      if (area === 'CHE') series.set(PLANTED.cheUnempLatest.period, PLANTED.cheUnempLatest.value);
      for (const period of quarters.slice(0, quarters.length - Math.floor(age / 3))) {
        uneRows.push([flow, area, 'Q', 'UNE_LF_M', 'PT_LF_SUB', '_T', 'Y_GE15', 'Y', '_Z', period, String(revise(series.get(period)!, `UNEMP|${area}|${period}`, age, 1)), 'A']);
        count++;
      }
      continue;
    }
    const periods = months(SDMX_FIRST, STES_LAST);
    const series = cycle(`coop|UNEMP|${area}`, periods, level, 0.6, 0.3, 1);
    for (const period of periods.slice(0, periods.length - age)) {
      uneRows.push([flow, area, 'M', 'UNE_LF_M', 'PT_LF_SUB', '_T', 'Y_GE15', 'Y', '_Z', period, String(revise(series.get(period)!, `UNEMP|${area}|${period}`, age, 1)), 'A']);
      // The same month by sex: a breakdown the reader skips.
      uneRows.push([flow, area, 'M', 'UNE_LF_M', 'PT_LF_SUB', 'F', 'Y_GE15', 'Y', '_Z', period, String(revise(series.get(period)! + 0.2, `UNEMPF|${area}|${period}`, age, 1)), 'A']);
      count++;
    }
  }
  await writeCsv(join(dir, 'DF_IALFS_UNE_M.csv'), uneRows);
  return count;
}

const WDI_FIRST = 2000;
const WDI_LAST = 2024;
const LAST_UPDATED = '2025-07-01';

/** Level and yearly step of a WDI series for an area, and how its values are rounded. */
function wdiValue(wdi: string, area: string, year: number): number | null {
  const random = new Random(`wdi|${wdi}|${area}`);
  const t = year - WDI_FIRST;
  const jitter = () => random.next() - 0.5;
  const base = random.next();
  switch (wdi) {
    case 'NY.GDP.PCAP.CD': return round((5000 + base * 70000) * (1 + 0.03 * t) + 800 * jitter(), 2);
    case 'NY.GDP.MKTP.KD.ZG': return round(2 + 3 * Math.sin(base * 6 + t) + 2 * jitter() - (year === 2020 ? 7 : 0), 6);
    case 'FP.CPI.TOTL.ZG': return round(1.5 + 2 * base + (year === 2022 ? 6 : 0) + jitter(), 6);
    case 'SL.UEM.TOTL.ZS': return round(3 + 8 * base + 1.5 * Math.sin(t / 3) + 0.5 * jitter(), 3);
    case 'NE.EXP.GNFS.ZS': return round(20 + 60 * base + 0.4 * t + 2 * jitter(), 6);
    case 'NE.IMP.GNFS.ZS': return round(22 + 55 * base + 0.4 * t + 2 * jitter(), 6);
    case 'GC.DOD.TOTL.GD.ZS': return round(30 + 90 * base + 0.8 * t + 3 * jitter(), 6);
    case 'EG.IMP.CONS.ZS': return round(-40 + 130 * base - 0.3 * t + 2 * jitter(), 6);
    case 'EG.FEC.RNEW.ZS': return round(5 + 40 * base + 0.5 * t + jitter(), 2);
    case 'BX.KLT.DINV.WD.GD.ZS': return round(1 + 5 * base + 3 * jitter(), 6);
    case 'SP.POP.TOTL': return Math.round((1e6 + base * 3e8) * (1 + 0.004 * t));
    case 'SP.POP.GROW': return round(0.2 + base * 1.5 + 0.2 * jitter(), 6);
    case 'EN.GHG.CO2.RT.GDP.PP.KD': return round(0.1 + base * 0.4 - 0.005 * t, 6);
    case 'EN.ATM.CO2E.KD.GD': return year > 2020 ? null : round(0.15 + base * 0.5 - 0.006 * t, 6);
    default: throw new Error(`no sample values for ${wdi}`);
  }
}

/** A blank year (missing in the source), planted and seeded: about 5 % of the cells, and the latest years of debt. */
function blank(wdi: string, area: string, year: number): boolean {
  if (wdi === 'GC.DOD.TOTL.GD.ZS' && year >= 2023) return true;
  if (wdi === 'NE.IMP.GNFS.ZS' && area === 'DEU' && year >= 2023) return true;
  if (wdi === 'EN.GHG.CO2.RT.GDP.PP.KD' && SAMPLE_CO2_FALLBACK_ONLY.has(area)) return true;
  if ((wdi === 'EG.IMP.CONS.ZS' || wdi === 'EG.FEC.RNEW.ZS') && year >= 2023) return true;
  return new Random(`blank|${wdi}|${area}|${year}`).chance(0.05);
}

function plantedWdi(wdi: string, area: string, year: number): number | undefined {
  if (area !== 'DEU') return undefined;
  if (wdi === 'NE.EXP.GNFS.ZS') return PLANTED.deuExports[year];
  if (wdi === 'NE.IMP.GNFS.ZS') return PLANTED.deuImports[year];
  if (wdi === 'GC.DOD.TOTL.GD.ZS' && year === PLANTED.deuDebt.year) return PLANTED.deuDebt.value;
  return undefined;
}

async function writeWorldBank(dir: string): Promise<number> {
  let count = 0;
  const economies = [...SAMPLE_OECD_COUNTRIES, ...SAMPLE_WDI_ONLY].map((code) => [code, label(code)] as const);
  const areas = [...economies, ...SAMPLE_WDI_AGGREGATES];
  for (const indicator of DEVBANK_INDICATORS) {
    for (const wdi of indicator.wdi) {
      if (SAMPLE_WDI_OWNED_BY_ENERGY.has(wdi)) continue;
      const rows: WdiWriteRow[] = [];
      for (const [code, name] of areas) {
        for (let year = WDI_FIRST; year <= WDI_LAST; year++) {
          const planted = plantedWdi(wdi, code, year);
          const value = planted ?? (blank(wdi, code, year) ? null : wdiValue(wdi, code, year));
          rows.push({ country_code: code, country_name: name, year, value });
          if (value !== null) count++;
        }
      }
      await writeWdiBulkCsv(join(dir, `API_${wdi}_DS2_en_csv_v2_1.csv`), { code: wdi, name: wdiName(wdi, indicator.name), lastUpdated: LAST_UPDATED, firstYear: 1960, lastYear: WDI_LAST }, rows);
    }
  }
  await writeWdiCountryMetadata(join(dir, 'Metadata_Country_API_NY.GDP.PCAP.CD_DS2_en_csv_v2_1.csv'), [
    ...economies.map(([code, name]) => ({ code, name, region: code === 'USA' || code === 'CAN' || code === 'MEX' ? 'North America' : 'Europe & Central Asia', income_group: 'High income' })),
    ...SAMPLE_WDI_AGGREGATES.map(([code, name]) => ({ code, name, region: null, income_group: null })),
  ]);
  return count;
}

function wdiName(wdi: string, fallback: string): string {
  if (wdi === 'EN.ATM.CO2E.KD.GD') return 'CO2 emissions (kg per 2015 US$ of GDP)';
  if (wdi === 'EN.GHG.CO2.RT.GDP.PP.KD') return 'Carbon intensity of GDP (kg CO2e per 2021 PPP $ of GDP)';
  return fallback;
}

export interface CountrySampleOptions {
  /** >= 1: the number of Data Explorer vintages (1: the newest only). */
  scale?: number;
}

/** Writes the sample into sampleDir (oecd/<vintage>/..., worldbank/...). Returns the observations written. */
export async function generateCountrySample(sampleDir: string, options: CountrySampleOptions = {}): Promise<{ oecd: number; worldbank: number }> {
  const scale = Math.max(1, Math.floor(options.scale ?? 1));
  const legacyDir = join(sampleDir, 'oecd', LEGACY_VINTAGE);
  await mkdir(legacyDir, { recursive: true });
  await writeLegacy(legacyDir);
  let oecd = 0;
  for (let age = scale - 1; age >= 0; age--) {
    const dir = join(sampleDir, 'oecd', vintageMonth(age));
    await mkdir(dir, { recursive: true });
    oecd += await writeDataExplorer(dir, age);
  }
  const wbDir = join(sampleDir, 'worldbank');
  await mkdir(wbDir, { recursive: true });
  const worldbank = await writeWorldBank(wbDir);
  return { oecd, worldbank };
}
