// The energy sample: deterministic files in the real published formats, for the EU27, a few other
// countries (NO, IS, RS, UK until 2019) and the aggregates EU27_2020 and EA20, years 2013-2023, with values
// of the right magnitude (ktoe, GWh, %, EUR/kWh, t CO2e) and planted facts the tests check:
//   - MT, CY and LU import more than 90 % of their energy (import dependency > 90 %);
//   - FR (and NO, SE) produce more electricity than they use (self-sufficiency > 110 %: surplus);
//   - SI's renewables share falls over its last four years (renewables_pace: reversing).
// Eurostat: estat_nrg_bal_s.tsv, estat_nrg_cb_e.tsv, estat_nrg_ind_ei.tsv, estat_nrg_ind_ren.tsv, estat_nrg_pc_204.tsv
//   (written by the Eurostat writer of ingest/eurostat). WDI: the bulk CSVs of EG.IMP.CONS.ZS and EG.FEC.RNEW.ZS, for
//   these countries and every other economy of the WDI sample (ingest/worldbank/sampleEconomies.ts).
// ETS: installation.csv + compliance.csv (2013-2020, GB included) and verified_emissions_2024_en.xlsx (2021-2024,
//   title rows before the REGISTRY_CODE header, "Excluded" markers, XI for Northern Ireland).
// `scale` (bench): ETS installations x scale, and (scale > 1) the bench-only dataset nrg_bal_c with 5 x scale
// balance codes over 1990-2023, so both sources grow with the tier. Scale 1 is the sample (the text files byte for byte;
// the workbook's content, its zip container carries write times).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { Random } from '../../../ingest/random.ts';
import { writeEurostatTsv, type EurostatWriteRow } from '../../../ingest/eurostat/write.ts';
import { writeWdiBulkCsv, type WdiWriteRow } from '../../../ingest/worldbank/write.ts';
import { SAMPLE_WDI_ECONOMIES } from '../../../ingest/worldbank/sampleEconomies.ts';
import { findIsoCountryByAlpha3 } from '../../../reference/countries.ts';

export const SAMPLE_YEARS = Array.from({ length: 11 }, (_, i) => 2013 + i);
const LAST_YEAR = 2023;

interface Country {
  geo: string;
  iso3: string;
  name: string;
  /** Gross inland consumption 2022, ktoe. */
  gic: number;
  /** Import dependency, share of GAE. */
  dep: number;
  /** Renewables share 2022, %, and its yearly change in pp. */
  ren: number;
  renSlope: number;
  /** Electricity self-sufficiency (GEP / (GEP + IMP - EXP)). */
  ss: number;
  /** Energy intensity, kgoe per thousand euro (CLV20). */
  ei: number;
  /** Household electricity price 2022-S2, EUR/kWh with taxes. */
  price: number;
  /** Verified ETS emissions per ktoe of GIC (t CO2e). */
  carbon: number;
  nuclear: number;
  solid: number;
  gas: number;
  /** Last year with data (UK: 2019). */
  until?: number;
}

const c = (geo: string, iso3: string, name: string, gic: number, dep: number, ren: number, renSlope: number, ss: number, ei: number,
  price: number, carbon: number, nuclear: number, solid: number, gas: number, until?: number): Country =>
  ({ geo, iso3, name, gic, dep, ren, renSlope, ss, ei, price, carbon, nuclear, solid, gas, until });

export const COUNTRIES: readonly Country[] = [
  c('AT', 'AUT', 'Austria', 31000, 0.70, 34, 0.6, 0.95, 95, 0.27, 900, 0, 0.08, 0.22),
  c('BE', 'BEL', 'Belgium', 50000, 0.76, 13, 0.5, 1.00, 120, 0.40, 800, 0.18, 0.05, 0.27),
  c('BG', 'BGR', 'Bulgaria', 18000, 0.38, 19, 0.4, 1.08, 350, 0.12, 1900, 0.22, 0.28, 0.12),
  c('CY', 'CYP', 'Cyprus', 2500, 0.92, 19, 0.9, 1.00, 110, 0.30, 1600, 0, 0.01, 0),
  c('CZ', 'CZE', 'Czechia', 40000, 0.40, 18, 0.3, 1.05, 210, 0.35, 1500, 0.17, 0.32, 0.16),
  c('DE', 'DEU', 'Germany', 290000, 0.68, 20, 0.7, 0.96, 95, 0.40, 1200, 0.03, 0.19, 0.24),
  c('DK', 'DNK', 'Denmark', 16000, 0.40, 41, 1.2, 0.90, 55, 0.45, 600, 0, 0.06, 0.11),
  c('EE', 'EST', 'Estonia', 5000, 0.05, 38, 1.0, 0.85, 200, 0.22, 2500, 0, 0.50, 0.05),
  c('EL', 'GRC', 'Greece', 21000, 0.80, 22, 0.8, 0.88, 120, 0.26, 1300, 0, 0.10, 0.25),
  c('ES', 'ESP', 'Spain', 115000, 0.70, 22, 0.8, 1.04, 105, 0.28, 700, 0.11, 0.03, 0.24),
  c('FI', 'FIN', 'Finland', 32000, 0.40, 47, 1.0, 0.85, 160, 0.20, 600, 0.19, 0.08, 0.04),
  c('FR', 'FRA', 'France', 230000, 0.45, 20, 0.5, 1.15, 85, 0.22, 400, 0.38, 0.02, 0.16),
  c('HR', 'HRV', 'Croatia', 8000, 0.55, 29, 0.4, 0.70, 140, 0.15, 800, 0, 0.03, 0.26),
  c('HU', 'HUN', 'Hungary', 25000, 0.60, 15, 0.4, 0.70, 180, 0.11, 800, 0.16, 0.06, 0.32),
  c('IE', 'IRL', 'Ireland', 14000, 0.80, 13, 0.6, 0.95, 45, 0.43, 1000, 0, 0.05, 0.32),
  c('IT', 'ITA', 'Italy', 145000, 0.75, 19, 0.4, 0.87, 90, 0.45, 900, 0, 0.04, 0.39),
  c('LT', 'LTU', 'Lithuania', 7000, 0.70, 29, 0.7, 0.40, 130, 0.25, 900, 0, 0.02, 0.24),
  c('LU', 'LUX', 'Luxembourg', 4000, 0.92, 11, 0.5, 0.30, 60, 0.25, 400, 0, 0.01, 0.15),
  c('LV', 'LVA', 'Latvia', 4300, 0.45, 43, 0.5, 0.85, 150, 0.27, 500, 0, 0.01, 0.22),
  c('MT', 'MLT', 'Malta', 800, 0.97, 13, 0.9, 0.80, 70, 0.13, 1500, 0, 0, 0.40),
  c('NL', 'NLD', 'Netherlands', 60000, 0.65, 15, 1.0, 1.02, 95, 0.45, 1300, 0.01, 0.07, 0.38),
  c('PL', 'POL', 'Poland', 105000, 0.46, 17, 0.4, 0.98, 230, 0.17, 2000, 0, 0.40, 0.17),
  c('PT', 'PRT', 'Portugal', 21000, 0.67, 35, 0.6, 0.88, 110, 0.23, 700, 0, 0, 0.23),
  c('RO', 'ROU', 'Romania', 32000, 0.30, 24, 0.2, 1.03, 180, 0.22, 1000, 0.08, 0.12, 0.28),
  c('SE', 'SWE', 'Sweden', 48000, 0.35, 66, 0.8, 1.20, 90, 0.25, 400, 0.30, 0.04, 0.02),
  c('SI', 'SVN', 'Slovenia', 6500, 0.48, 22, -0.5, 0.95, 150, 0.21, 900, 0.20, 0.15, 0.12),
  c('SK', 'SVK', 'Slovakia', 16000, 0.60, 17, 0.3, 1.02, 190, 0.19, 1500, 0.22, 0.15, 0.23),
  c('NO', 'NOR', 'Norway', 28000, -6.0, 75, 0.3, 1.25, 70, 0.18, 600, 0, 0.02, 0.20),
  c('IS', 'ISL', 'Iceland', 6000, 0.10, 83, 0.2, 1.00, 250, 0.12, 300, 0, 0.02, 0),
  c('RS', 'SRB', 'Serbia', 15000, 0.30, 26, 0.3, 0.98, 320, 0.09, 0, 0, 0.45, 0.13),
  c('UK', 'GBR', 'United Kingdom', 170000, 0.35, 12, 1.0, 0.90, 80, 0.25, 900, 0.08, 0.05, 0.38, 2019),
];

const EU27_CODES = new Set(['AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'EL', 'ES', 'FI', 'FR', 'HR', 'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK']);
const EA20_CODES = new Set([...EU27_CODES].filter((g) => !['BG', 'CZ', 'DK', 'HU', 'PL', 'RO', 'SE'].includes(g)));

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
const years = (country: Country) => SAMPLE_YEARS.filter((y) => y <= (country.until ?? LAST_YEAR));

interface Balance {
  pprd: number; imp: number; exp: number; gae: number; gic: number; fc: number;
}

/** The TOTAL balance of a country-year, ktoe (consistent: GAE = PPRD + IMP - EXP, GIC = GAE - bunkers). */
function balanceOf(country: Country, year: number): Balance {
  const r = new Random(`energy-balance-${country.geo}-${year}`);
  const gic = country.gic * (1 - 0.008 * (year - 2022)) * r.noise(0.015);
  const bunkers = ['NL', 'BE', 'MT', 'CY'].includes(country.geo) ? 0.08 : 0.02;
  const gae = gic / (1 - bunkers);
  const dep = country.dep + (r.next() - 0.5) * 0.02;
  const net = dep * gae;
  const exp = gae * (country.dep < 0 ? -country.dep * 0.95 : 0.08 + 0.2 * r.next());
  const imp = net + exp;
  const pprd = gae - net;
  return { pprd: round(pprd, 3), imp: round(imp, 3), exp: round(exp, 3), gae: round(gae, 3), gic: round(gic, 3), fc: round(gic * 0.68, 3) };
}

const UNITS: ReadonlyArray<[string, number]> = [['KTOE', 1], ['TJ', 41.868], ['GWH', 11.63]];

function balanceRows(): EurostatWriteRow[] {
  const rows: EurostatWriteRow[] = [];
  const totals = new Map<string, Map<number, Balance>>();
  for (const country of COUNTRIES) {
    const byYear = new Map<number, Balance>();
    totals.set(country.geo, byYear);
    for (const year of years(country)) {
      const b = balanceOf(country, year);
      byYear.set(year, b);
      for (const [unit, factor] of UNITS) {
        const put = (nrg_bal: string, value: number | null, flag: string | null = null) =>
          rows.push({ dims: { freq: 'A', nrg_bal, siec: 'TOTAL', unit, geo: country.geo }, time_period: String(year), obs_value: value === null ? null : round(value * factor, 3), obs_flag: flag });
        // The latest year is provisional and lacks FC_E for a few countries (so the latest complete year is the one before).
        const late = year === LAST_YEAR && ['IT', 'PL', 'RO'].includes(country.geo);
        put('PPRD', b.pprd, year === LAST_YEAR ? 'p' : null);
        put('IMP', b.imp);
        put('EXP', b.exp);
        put('GAE', b.gae);
        put('GIC', b.gic);
        put('FC_E', late ? null : b.fc, late ? 'c' : null);
      }
      // Fuel mix of GIC (KTOE only): shares of the country's profile.
      const renShare = Math.max(0.01, renewablesShare(country, year) / 100 * 0.9);
      const elecNet = (1 / country.ss - 1) * 0.1;
      const fixed = country.nuclear + country.solid + country.gas + renShare + 0.01 + elecNet;
      const oil = Math.max(0.05, 1 - fixed);
      const shares: Record<string, number> = {
        'C0000X0350-0370': country.solid, G3000: country.gas, O4000XBIO: oil, RA000: renShare, N900H: country.nuclear,
        W6100_6220: 0.01, E7000: elecNet,
      };
      const sum = Object.values(shares).reduce((s, v) => s + v, 0);
      for (const [siec, share] of Object.entries(shares)) {
        if (share === 0) continue;
        rows.push({ dims: { freq: 'A', nrg_bal: 'GIC', siec, unit: 'KTOE', geo: country.geo }, time_period: String(year), obs_value: round(b.gic * share / sum, 3), obs_flag: null });
      }
    }
  }
  // Aggregates: sums of their members' TOTAL balance (KTOE).
  for (const [geo, members] of [['EU27_2020', EU27_CODES], ['EA20', EA20_CODES]] as const) {
    for (const year of SAMPLE_YEARS) {
      const sum = (key: keyof Balance) => round(COUNTRIES.filter((k) => members.has(k.geo)).reduce((s, k) => s + totals.get(k.geo)!.get(year)![key], 0), 3);
      for (const [nrg_bal, key] of [['PPRD', 'pprd'], ['IMP', 'imp'], ['EXP', 'exp'], ['GAE', 'gae'], ['GIC', 'gic'], ['FC_E', 'fc']] as const) {
        rows.push({ dims: { freq: 'A', nrg_bal, siec: 'TOTAL', unit: 'KTOE', geo }, time_period: String(year), obs_value: sum(key), obs_flag: null });
      }
    }
  }
  return rows;
}

function renewablesShare(country: Country, year: number): number {
  const r = new Random(`energy-ren-${country.geo}-${year}`);
  return round(Math.max(0.5, country.ren + country.renSlope * (year - 2022) + (r.next() - 0.5) * 0.3), 3);
}

function electricityRows(): EurostatWriteRow[] {
  const rows: EurostatWriteRow[] = [];
  for (const country of COUNTRIES) {
    for (const year of years(country)) {
      const r = new Random(`energy-elec-${country.geo}-${year}`);
      const gep = round(balanceOf(country, year).gic * 2 * r.noise(0.02) * (country.nuclear > 0.2 ? 1.3 : 1), 1);
      const ss = country.ss + (r.next() - 0.5) * 0.02;
      const net = gep * (1 / ss - 1);
      const imp = round(Math.max(net, 0) + gep * 0.06, 1);
      const exp = round(imp - net, 1);
      const put = (nrg_bal: string, value: number) =>
        rows.push({ dims: { freq: 'A', nrg_bal, siec: 'E7000', unit: 'GWH', geo: country.geo }, time_period: String(year), obs_value: value, obs_flag: null });
      put('GEP', gep);
      put('NEP', round(gep * 0.95, 1));
      put('IMP', imp);
      put('EXP', exp);
      put('FC_E', round((gep + imp - exp) * 0.86, 1));
    }
  }
  return rows;
}

function renewablesRows(): EurostatWriteRow[] {
  const rows: EurostatWriteRow[] = [];
  const byYear = new Map<number, number[]>();
  for (const country of COUNTRIES) {
    for (const year of years(country)) {
      const value = renewablesShare(country, year);
      rows.push({ dims: { freq: 'A', nrg_bal: 'REN', unit: 'PC', geo: country.geo }, time_period: String(year), obs_value: value, obs_flag: year === LAST_YEAR ? 'p' : null });
      rows.push({ dims: { freq: 'A', nrg_bal: 'REN_ELC', unit: 'PC', geo: country.geo }, time_period: String(year), obs_value: round(Math.min(100, value * 1.7), 3), obs_flag: null });
      if (EU27_CODES.has(country.geo)) byYear.set(year, [...(byYear.get(year) ?? []), value * country.gic]);
    }
  }
  const eu27Gic = COUNTRIES.filter((k) => EU27_CODES.has(k.geo)).reduce((s, k) => s + k.gic, 0);
  for (const year of SAMPLE_YEARS) {
    rows.push({ dims: { freq: 'A', nrg_bal: 'REN', unit: 'PC', geo: 'EU27_2020' }, time_period: String(year), obs_value: round(byYear.get(year)!.reduce((s, v) => s + v, 0) / eu27Gic, 3), obs_flag: null });
  }
  return rows;
}

function intensityRows(): EurostatWriteRow[] {
  const rows: EurostatWriteRow[] = [];
  for (const country of COUNTRIES) {
    for (const year of years(country)) {
      const r = new Random(`energy-ei-${country.geo}-${year}`);
      const value = round(country.ei * (1 - 0.02 * (year - 2022)) * r.noise(0.01), 2);
      rows.push({ dims: { freq: 'A', nrg_bal: 'EI_GDP_CLV20', unit: 'KGOE_TEUR_CLV20', geo: country.geo }, time_period: String(year), obs_value: value, obs_flag: null });
      rows.push({ dims: { freq: 'A', nrg_bal: 'EI_GDP_PPS', unit: 'KGOE_TEUR_PPS', geo: country.geo }, time_period: String(year), obs_value: round(value * 0.9, 2), obs_flag: null });
    }
  }
  return rows;
}

function priceRows(): EurostatWriteRow[] {
  const rows: EurostatWriteRow[] = [];
  for (const country of COUNTRIES) {
    for (const year of years(country)) {
      for (const half of [1, 2]) {
        if (year === LAST_YEAR && half === 2 && country.geo === 'CY') continue;
        const r = new Random(`energy-price-${country.geo}-${year}-${half}`);
        // Prices rise with 2022's crisis and ease after.
        const crisis = year === 2022 ? 1 : year === 2023 ? 0.9 : 0.7 + 0.015 * (year - 2013);
        const itax = round(country.price * crisis * r.noise(0.03), 4);
        for (const [band, factor] of [['KWH1000-2499', 1.1], ['KWH2500-4999', 1]] as const) {
          for (const [tax, share] of [['X_TAX', 0.65], ['X_VAT', 0.82], ['I_TAX', 1]] as const) {
            rows.push({
              dims: { freq: 'S', product: '6000', nrg_cons: band, unit: 'KWH', tax, currency: 'EUR', geo: country.geo },
              time_period: `${year}-S${half}`, obs_value: round(itax * factor * share, 4), obs_flag: null,
            });
          }
        }
      }
    }
  }
  return rows;
}

/** Bench-only: nrg_bal_c with 5 x scale balance codes over 1990-2023 (TOTAL, KTOE). */
function completeBalanceRows(scale: number): EurostatWriteRow[] {
  const rows: EurostatWriteRow[] = [];
  const codes = Array.from({ length: Math.ceil(5 * scale) }, (_, i) => `B${String(i + 1).padStart(4, '0')}`);
  for (const country of COUNTRIES) {
    for (let year = 1990; year <= (country.until ?? LAST_YEAR); year++) {
      const r = new Random(`energy-balc-${country.geo}-${year}`);
      for (const code of codes) rows.push({ dims: { freq: 'A', nrg_bal: code, siec: 'TOTAL', unit: 'KTOE', geo: country.geo }, time_period: String(year), obs_value: round(country.gic * r.next() * 0.1, 3), obs_flag: null });
    }
  }
  return rows;
}

export async function generateEurostatEnergySample(dir: string, options: { scale?: number } = {}): Promise<void> {
  const scale = options.scale ?? 1;
  await mkdir(dir, { recursive: true });
  await writeEurostatTsv(join(dir, 'estat_nrg_bal_s.tsv'), 'nrg_bal_s', balanceRows());
  await writeEurostatTsv(join(dir, 'estat_nrg_cb_e.tsv'), 'nrg_cb_e', electricityRows());
  await writeEurostatTsv(join(dir, 'estat_nrg_ind_ei.tsv'), 'nrg_ind_ei', intensityRows());
  await writeEurostatTsv(join(dir, 'estat_nrg_ind_ren.tsv'), 'nrg_ind_ren', renewablesRows());
  await writeEurostatTsv(join(dir, 'estat_nrg_pc_204.tsv'), 'nrg_pc_204', priceRows());
  if (scale > 1) await writeEurostatTsv(join(dir, 'estat_nrg_bal_c.tsv'), 'nrg_bal_c', completeBalanceRows(scale));
}

// ---------- World Bank ----------

export async function generateWorldBankEnergySample(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const imports: WdiWriteRow[] = [];
  const renew: WdiWriteRow[] = [];
  for (const country of COUNTRIES) {
    for (const year of SAMPLE_YEARS) {
      const r = new Random(`energy-wdi-${country.geo}-${year}`);
      // WDI lags: the last year is blank, and the UK's imports stop with its Eurostat series.
      const blank = year === LAST_YEAR || year > (country.until ?? LAST_YEAR);
      imports.push({ country_code: country.iso3, country_name: country.name, year, value: blank ? null : round(country.dep * 100 * (1 + (r.next() - 0.5) * 0.04), 6) });
      renew.push({ country_code: country.iso3, country_name: country.name, year, value: year === LAST_YEAR ? null : round(renewablesShare(country, year) * 1.05, 6) });
    }
  }
  // The other economies of the WDI sample (the country domain's devbank): every one carries both series,
  // from a profile of its own (net exporters, as Canada or Australia, import less than nothing).
  const written = new Set(COUNTRIES.map((country) => country.iso3));
  for (const iso3 of SAMPLE_WDI_ECONOMIES.filter((code) => !written.has(code))) {
    const profile = new Random(`energy-wdi-profile-${iso3}`);
    const dep = -0.6 + 1.5 * profile.next();
    const ren = 5 + 40 * profile.next();
    const name = findIsoCountryByAlpha3(iso3)?.name ?? iso3;
    for (const year of SAMPLE_YEARS) {
      const r = new Random(`energy-wdi-${iso3}-${year}`);
      const blank = year === LAST_YEAR;
      imports.push({ country_code: iso3, country_name: name, year, value: blank ? null : round(dep * 100 * (1 + (r.next() - 0.5) * 0.04), 6) });
      renew.push({ country_code: iso3, country_name: name, year, value: blank ? null : round(Math.min(95, ren + 0.5 * (year - 2013) * r.noise(0.2)), 6) });
    }
  }
  for (const [iso3, name, dep, ren] of [['EUU', 'European Union', 58, 21], ['WLD', 'World', 0, 19]] as const) {
    for (const year of SAMPLE_YEARS) {
      imports.push({ country_code: iso3, country_name: name, year, value: year === LAST_YEAR ? null : dep });
      renew.push({ country_code: iso3, country_name: name, year, value: year === LAST_YEAR ? null : ren });
    }
  }
  await writeWdiBulkCsv(join(dir, 'API_EG.IMP.CONS.ZS_DS2_en_csv_v2_3012.csv'),
    { code: 'EG.IMP.CONS.ZS', name: 'Energy imports, net (% of energy use)', lastUpdated: '2025-07-01', firstYear: 1960, lastYear: LAST_YEAR }, imports);
  await writeWdiBulkCsv(join(dir, 'API_EG.FEC.RNEW.ZS_DS2_en_csv_v2_3013.csv'),
    { code: 'EG.FEC.RNEW.ZS', name: 'Renewable energy consumption (% of total final energy consumption)', lastUpdated: '2025-07-01', firstYear: 1960, lastYear: LAST_YEAR }, renew);
}

// ---------- ETS ----------

interface Registry {
  code: string;
  country: Country | null;
  /** Base emissions 2013, t CO2e. */
  total: number;
  first: number;
  last: number;
}

function registries(): Registry[] {
  const list: Registry[] = COUNTRIES.filter((k) => k.geo !== 'RS').map((k) => ({
    code: k.geo === 'EL' ? 'GR' : k.geo === 'UK' ? 'GB' : k.geo,
    country: k,
    total: k.gic * k.carbon * 1.25,
    first: 2013,
    last: k.geo === 'UK' ? 2020 : 2024,
  }));
  list.push({ code: 'LI', country: null, total: 20000, first: 2013, last: 2024 });
  list.push({ code: 'XI', country: null, total: 3_000_000, first: 2021, last: 2024 });
  return list.sort((a, b) => (a.code < b.code ? -1 : 1));
}

interface Installation {
  registry: string;
  id: string;
  name: string;
  city: string;
  activity: number;
  weight: number;
}

const ACTIVITIES = [20, 21, 22, 24, 25, 29, 31, 32, 36, 38] as const;

function installationsOf(registry: Registry, scale: number): Installation[] {
  const count = Math.max(2, Math.round((3 + 30 * Math.sqrt(registry.total / 350e6)) * scale));
  const r = new Random(`energy-ets-${registry.code}`);
  const list: Installation[] = [];
  for (let i = 0; i < count; i++) {
    list.push({
      registry: registry.code, id: String(200000 + i * 7 + 1), name: `${registry.code} installation ${i + 1}`, city: `${registry.country?.name ?? registry.code} city ${(i % 5) + 1}`,
      activity: ACTIVITIES[i % ACTIVITIES.length], weight: r.noise(1.2),
    });
  }
  const sum = list.reduce((s, x) => s + x.weight, 0);
  for (const x of list) x.weight /= sum;
  return list;
}

function emissionOf(registry: Registry, inst: Installation, year: number): number | null {
  const r = new Random(`energy-ets-${inst.registry}-${inst.id}-${year}`);
  if (r.chance(0.02)) return null;
  return Math.round(registry.total * inst.weight * (1 - 0.035 * (year - 2013)) * r.noise(0.05));
}

export async function generateEtsSample(dir: string, options: { scale?: number } = {}): Promise<void> {
  const scale = options.scale ?? 1;
  await mkdir(dir, { recursive: true });
  const installationLines = ['id,name,addressmain,postalcode,city,country_id,latitudegoogle,longitudegoogle'];
  const complianceLines = ['installation_id,year,free,emission'];
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: join(dir, 'verified_emissions_2024_en.xlsx'), useSharedStrings: false, useStyles: false });
  workbook.creator = 'public-data-service sample';
  workbook.created = new Date('2025-04-01T00:00:00Z');
  workbook.modified = new Date('2025-04-01T00:00:00Z');
  const sheet = workbook.addWorksheet('Verified emissions');
  sheet.addRow(['Verified emissions 2024']).commit();
  sheet.addRow(['EU ETS Union Registry - sample generated for this service']).commit();
  sheet.addRow([]).commit();
  const wideYears = [2021, 2022, 2023, 2024];
  sheet.addRow(['REGISTRY_CODE', 'INSTALLATION_NAME', 'INSTALLATION_IDENTIFIER', 'PERMIT_IDENTIFIER', 'MAIN_ACTIVITY_TYPE_CODE',
    ...wideYears.map((y) => `VERIFIED_EMISSIONS_${y}`), ...wideYears.map((y) => `ALLOCATION_${y}`)]).commit();
  for (const registry of registries()) {
    for (const inst of installationsOf(registry, scale)) {
      installationLines.push(`${inst.registry}_${inst.id},${inst.name},-,-,${inst.city},${inst.registry},,`);
      for (let year = Math.max(2013, registry.first); year <= Math.min(2020, registry.last); year++) {
        const e = emissionOf(registry, inst, year);
        complianceLines.push(`${inst.registry}_${inst.id},${year},${e === null ? '' : Math.round(e * 0.4)},${e === null ? '' : e}`);
      }
      if (registry.last >= 2021) {
        const verified = wideYears.map((y) => (y < registry.first ? null : emissionOf(registry, inst, y)));
        sheet.addRow([
          inst.registry, inst.name, Number(inst.id), `${inst.registry}-P${inst.id}`, inst.activity,
          ...verified.map((v) => (v === null ? 'Excluded' : v)), ...verified.map((v) => (v === null ? null : Math.round(v * 0.3))),
        ]).commit();
      }
    }
  }
  sheet.commit();
  await workbook.commit();
  await writeFile(join(dir, 'installation.csv'), installationLines.join('\r\n') + '\r\n');
  await writeFile(join(dir, 'compliance.csv'), complianceLines.join('\r\n') + '\r\n');
}
