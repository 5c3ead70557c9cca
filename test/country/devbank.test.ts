// The development bank (WDI) endpoints, the structural analytics and the country overview, on a
// hand-made set of WDI bulk CSVs (values below, results worked out by hand) and on the real WDI bulk
// file of NE.EXP.GNFS.ZS (skipped when ../shared/data is absent).
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ingestOecdFiles } from '../../domains/country/ingest/oecdSnapshot.ts';
import { ingestWorldBankFiles } from '../../ingest/worldbank/snapshot.ts';
import { writeWdiApiJson, writeWdiBulkCsv, type WdiWriteRow } from '../../ingest/worldbank/write.ts';
import { expectError, expectOk, type TestApp } from '../helpers/app.ts';
import { legacyCsv, removeDir, startCountryApp, tempDir, writeText } from './helpers.ts';

const REAL_WDI = path.resolve(import.meta.dirname, '../../../shared/data/real/worldbank/API_NE.EXP.GNFS.ZS_DS2_en_csv_v2_5995190.csv');

const NAMES: Record<string, string> = { DEU: 'Germany', FRA: 'France', EUU: 'European Union', USA: 'United States' };
const rows = (...values: Array<[string, number, number | null]>): WdiWriteRow[] =>
  values.map(([code, year, value]) => ({ country_code: code, country_name: NAMES[code], year, value }));

// Fixture (WDI, Last Updated 2024-06-28 unless said):
//   NE.EXP.GNFS.ZS    DEU 2021 47.5, 2022 50.25, 2023 blank;  FRA 2022 30;  EUU 2022 55.5
//   NE.IMP.GNFS.ZS    DEU 2021 42.125, 2022 46.5, 2023 48;     EUU 2022 50
//   GC.DOD.TOTL.GD.ZS DEU 2020 68.7, 2021 blank, 2022 66.1
//   EG.IMP.CONS.ZS    DEU 2015 61.2;  EG.FEC.RNEW.ZS DEU 2021 19
//   EN.ATM.CO2E.KD.GD DEU 2019 0.2, FRA 2019 0.13;  EN.GHG.CO2.RT.GDP.PP.KD (2025-01-28) FRA 2022 0.11
//   SP.POP.TOTL DEU 2022 83797985;  SP.POP.GROW DEU 2022 1.3;  NY.GDP.PCAP.CD DEU 2022 48717.99, USA 2022 76329.58
//   OECD CLI (vintage 2026-02): DEU 2025-12 99.4
// By hand: trade openness DEU = 50.25 + 46.5 = 96.75 (2022: 2023 lacks exports); EUU = 55.5 + 50 = 105.5 (2022);
// FRA has no imports: not available. Debt DEU 66.1 (2022). CO2: DEU falls back on EN.ATM (0.2, 2019), FRA has EN.GHG (0.11, 2022).
async function writeFixture(dir: string): Promise<void> {
  const wdi = (code: string, name: string, data: WdiWriteRow[], lastUpdated = '2024-06-28') =>
    writeWdiBulkCsv(path.join(dir, `API_${code}_DS2_en_csv_v2_1.csv`), { code, name, lastUpdated }, data);
  await wdi('NE.EXP.GNFS.ZS', 'Exports of goods and services (% of GDP)', rows(['DEU', 2021, 47.5], ['DEU', 2022, 50.25], ['DEU', 2023, null], ['FRA', 2022, 30], ['EUU', 2022, 55.5]));
  await wdi('NE.IMP.GNFS.ZS', 'Imports of goods and services (% of GDP)', rows(['DEU', 2021, 42.125], ['DEU', 2022, 46.5], ['DEU', 2023, 48], ['EUU', 2022, 50]));
  await wdi('GC.DOD.TOTL.GD.ZS', 'Central government debt, total (% of GDP)', rows(['DEU', 2020, 68.7], ['DEU', 2021, null], ['DEU', 2022, 66.1]));
  await wdi('EG.IMP.CONS.ZS', 'Energy imports, net (% of energy use)', rows(['DEU', 2015, 61.2]));
  await wdi('EG.FEC.RNEW.ZS', 'Renewable energy consumption (% of total final energy consumption)', rows(['DEU', 2021, 19]));
  await wdi('EN.ATM.CO2E.KD.GD', 'CO2 emissions (kg per 2015 US$ of GDP)', rows(['DEU', 2019, 0.2], ['FRA', 2019, 0.13]));
  await wdi('EN.GHG.CO2.RT.GDP.PP.KD', 'Carbon intensity of GDP (kg CO2e per 2021 PPP $ of GDP)', rows(['FRA', 2022, 0.11]), '2025-01-28');
  await wdi('SP.POP.TOTL', 'Population, total', rows(['DEU', 2022, 83797985]));
  await wdi('SP.POP.GROW', 'Population growth (annual %)', rows(['DEU', 2022, 1.3]));
  await wdi('NY.GDP.PCAP.CD', 'GDP per capita (current US$)', rows(['DEU', 2022, 48717.99], ['USA', 2022, 76329.58]));
}

describe('devbank, analytics and overview on a hand-made WDI set', () => {
  let dir: string;
  let app: TestApp;
  before(async () => {
    dir = await tempDir('wdi');
    const wdiDir = path.join(dir, 'wdi');
    const dataDir = path.join(dir, 'parquet');
    await import('node:fs/promises').then((fs) => fs.mkdir(wdiDir));
    await writeFixture(wdiDir);
    await ingestWorldBankFiles({ dataDir, path: wdiDir });
    const oecd = await writeText(dir, 'cli.csv', legacyCsv([['DEU', 'CLI', 'AMPLITUD', 'LTRENDIDX', 'M', '2025-12', '99.4']]));
    await ingestOecdFiles([oecd], { dataDir, vintage: '2026-02' });
    app = await startCountryApp(dataDir);
  });
  after(async () => {
    await app?.close();
    await removeDir(dir);
  });

  test('devbank series: newest year first, a blank year left out, the vintage of each value', async () => {
    const body = await expectOk(app, '/api/economic/devbank/series/devbank_exports_pct_gdp_deu');
    assert.equal(body.series_code, 'DEVBANK_EXPORTS_PCT_GDP_DEU');
    assert.equal(body.geo, 'DEU');
    assert.deepEqual(body.indicator, { code: 'EXPORTS_PCT_GDP', wdi_code: 'NE.EXP.GNFS.ZS', name: 'Exports of goods and services (% of GDP)', unit: 'percent of GDP' });
    assert.deepEqual(body.observations, [
      { period: '2022', value: 50.25, vintage: '2024-06-28' },
      { period: '2021', value: 47.5, vintage: '2024-06-28' },
    ]);
    assert.equal(body.limit, 120);
    const co2 = await expectOk(app, '/api/economic/devbank/series/DEVBANK_CO2_INTENSITY_FRA');
    assert.equal(co2.indicator.wdi_code, 'EN.GHG.CO2.RT.GDP.PP.KD');
    assert.deepEqual(co2.observations, [{ period: '2022', value: 0.11, vintage: '2025-01-28' }]);
    const eu = await expectOk(app, '/api/economic/devbank/series/DEVBANK_EXPORTS_PCT_GDP_EUU?limit=1');
    assert.deepEqual(eu.country, { iso2: null, iso3: 'EUU', name: 'European Union', aggregate: true });
  });

  test('devbank series errors', async () => {
    for (const code of ['COOP_CLI_USA', 'DEVBANK-GDP-USA', 'DEVBANK_USA']) {
      const error = await expectError(app, `/api/economic/devbank/series/${code}`, 400, 'series_code');
      assert.match(error.message, /DEVBANK_<INDICATOR>_<ISO3>, for example DEVBANK_GDP_PER_CAPITA_USA/);
    }
    assert.match((await expectError(app, '/api/economic/devbank/series/DEVBANK_GDP_PER_CAPITA_US', 400, 'series_code')).message, /DEVBANK_GDP_PER_CAPITA_USA/);
    assert.match((await expectError(app, '/api/economic/devbank/series/DEVBANK_GDP_USA', 404)).message, /DEVBANK_GDP_USA/);
    assert.match((await expectError(app, '/api/economic/devbank/series/DEVBANK_GDP_PER_CAPITA_ZZZ', 404)).message, /ZZZ/);
    assert.match((await expectError(app, '/api/economic/devbank/series/DEVBANK_GDP_PER_CAPITA_BGR', 404)).message, /DEVBANK_GDP_PER_CAPITA_BGR.*Bulgaria/);
    await expectError(app, '/api/economic/devbank/series/DEVBANK_GDP_PER_CAPITA_USA?limit=0', 400, 'limit');
    await expectError(app, '/api/economic/devbank/series/DEVBANK_GDP_PER_CAPITA_USA?limit=10001', 400, 'limit');
  });

  test('odd client input is a 400 or a 404, never a 5xx', async () => {
    const odd = ['%F0%9F%98%80', `DEVBANK_GDP_PER_CAPITA_${'A'.repeat(90)}`, "DEVBANK_GDP_PER_CAPITA_US'A", '%20', 'DEVBANK_GDP_PER_CAPITA_%3BDROP', '..'];
    for (const path of ['/api/economic/devbank/series/', '/api/economic/coop/series/', '/api/economic/devbank/country/', '/api/economic/coop/country/', '/api/analytics/trade-openness/', '/api/economic/country/']) {
      for (const value of odd) {
        const url = path.endsWith('country/') && path.startsWith('/api/economic/country') ? `${path}${value}/overview` : `${path}${value}`;
        const response = await app.get(url);
        assert.ok([400, 404].includes(response.status), `${url}: ${response.status} ${JSON.stringify(response.body)}`);
      }
    }
  });

  test('devbank country: every allowlisted indicator, the latest year of each, missing ones available: false', async () => {
    const body = await expectOk(app, '/api/economic/devbank/country/deu');
    assert.equal(body.available, true);
    assert.deepEqual(body.country, { iso2: 'DE', iso3: 'DEU', name: 'Germany', aggregate: false });
    assert.equal(Object.keys(body.indicators).length, 13);
    assert.deepEqual(body.indicators.gov_debt_pct_gdp, {
      canonical_code: 'DEVBANK_GOV_DEBT_PCT_GDP_DEU', name: 'Central government debt, total (% of GDP)', unit: 'percent of GDP',
      available: true, value: 66.1, year: 2022, period: '2022', wdi_code: 'GC.DOD.TOTL.GD.ZS', vintage: '2024-06-28',
    });
    assert.equal(body.indicators.imports_pct_gdp.value, 48);
    assert.equal(body.indicators.imports_pct_gdp.year, 2023);
    assert.equal(body.indicators.fdi_pct_gdp.available, false);
    assert.equal(body.indicators.fdi_pct_gdp.value, null);
    const bgr = await expectOk(app, '/api/economic/devbank/country/BGR');
    assert.equal(bgr.available, false);
    assert.ok(Object.values(bgr.indicators).every((i: any) => i.available === false));
    await expectError(app, '/api/economic/devbank/country/DE', 400, 'country');
    await expectError(app, '/api/economic/devbank/country/ABC', 400, 'country');
  });

  test('trade openness by hand: the latest year with both series; aggregates; no data; bad codes', async () => {
    const deu = await expectOk(app, '/api/analytics/trade-openness/de');
    assert.deepEqual([deu.available, deu.trade_openness_pct, deu.year, deu.exports_pct_gdp, deu.imports_pct_gdp, deu.vintage], [true, 96.75, 2022, 50.25, 46.5, '2024-06-28']);
    assert.deepEqual(deu.country, { iso2: 'DE', iso3: 'DEU', name: 'Germany', aggregate: false });
    const eu = await expectOk(app, '/api/analytics/trade-openness/EUU');
    assert.deepEqual([eu.trade_openness_pct, eu.year, eu.country.aggregate], [105.5, 2022, true]);
    const fra = await expectOk(app, '/api/analytics/trade-openness/FRA');
    assert.deepEqual([fra.available, fra.trade_openness_pct, fra.year], [false, null, null]);
    await expectError(app, '/api/analytics/trade-openness/XX', 400, 'code');
    await expectError(app, '/api/analytics/trade-openness/GERMANY', 400, 'code');
  });

  test('debt burden, energy dependency (years differ) and country structure', async () => {
    const debt = await expectOk(app, '/api/analytics/debt-burden/DEU');
    assert.deepEqual([debt.available, debt.gov_debt_pct_gdp.value, debt.gov_debt_pct_gdp.year], [true, 66.1, 2022]);
    const noDebt = await expectOk(app, '/api/analytics/debt-burden/fr');
    assert.equal(noDebt.available, false);
    const energy = await expectOk(app, '/api/analytics/energy-dependency/de');
    assert.deepEqual([energy.energy_imports_pct.value, energy.energy_imports_pct.year, energy.renewable_share_pct.value, energy.renewable_share_pct.year], [61.2, 2015, 19, 2021]);
    const structure = await expectOk(app, '/api/analytics/country-structure/DE');
    assert.equal(structure.available, true);
    assert.equal(structure.parts.trade_openness.value, 96.75);
    assert.equal(structure.parts.debt.gov_debt_pct_gdp.value, 66.1);
    assert.equal(structure.parts.fdi.available, false);
    assert.deepEqual([structure.parts.demographics.population.value, structure.parts.demographics.population_growth_pct.value], [83797985, 1.3]);
    assert.deepEqual([structure.parts.carbon_intensity.co2_intensity.wdi_code, structure.parts.carbon_intensity.co2_intensity.value, structure.parts.carbon_intensity.co2_intensity.year], ['EN.ATM.CO2E.KD.GD', 0.2, 2019]);
    const fra = await expectOk(app, '/api/analytics/country-structure/fra');
    assert.deepEqual([fra.parts.carbon_intensity.co2_intensity.wdi_code, fra.parts.carbon_intensity.co2_intensity.value], ['EN.GHG.CO2.RT.GDP.PP.KD', 0.11]);
    const bgr = await expectOk(app, '/api/analytics/country-structure/BG');
    assert.equal(bgr.available, false);
    assert.ok(Object.values(bgr.parts).every((part: any) => part.available === false));
  });

  test('overview: the sources declared and present, with their headlines', async () => {
    const deu = await expectOk(app, '/api/economic/country/de/overview');
    assert.deepEqual(deu.sources_present, ['coop', 'devbank']);
    assert.equal(deu.available, true);
    assert.deepEqual(deu.sources.coop, {
      available: true,
      headline: { series: 'COOP_CLI_DEU', label: 'Composite leading indicator, amplitude adjusted (long-term average = 100)', value: 99.4, unit: 'index', period: '2025-12', vintage: '2026-02-01' },
      declared_by: ['country'],
    });
    assert.deepEqual(deu.sources.devbank.headline, { series: 'DEVBANK_GDP_PER_CAPITA_DEU', label: 'GDP per capita (current US$)', value: 48717.99, unit: 'US$', period: '2022', vintage: '2024-06-28' });
    const usa = await expectOk(app, '/api/economic/country/USA/overview');
    assert.deepEqual(usa.sources_present, ['devbank']);
    const fra = await expectOk(app, '/api/economic/country/fr/overview');
    assert.deepEqual(fra.sources_present, ['devbank']);
    assert.equal(fra.sources.devbank.headline.series, 'DEVBANK_EXPORTS_PCT_GDP_FRA');
    const bgr = await expectOk(app, '/api/economic/country/bg/overview');
    assert.deepEqual([bgr.available, bgr.sources_present], [false, []]);
    const greece = await expectOk(app, '/api/economic/country/EL/overview');
    assert.deepEqual(greece.country, { iso2: 'GR', iso3: 'GRC', name: 'Greece', aggregate: false });
    await expectError(app, '/api/economic/country/EUU/overview', 400, 'code');
    await expectError(app, '/api/economic/country/Q/overview', 400, 'code');
  });
});

describe('devbank from a WDI JSON API page', () => {
  let dir: string;
  let app: TestApp;
  before(async () => {
    dir = await tempDir('wdi-json');
    const file = path.join(dir, 'SP.POP.TOTL.json');
    // The API lists every year, null where the source has no value.
    await writeWdiApiJson(file, { code: 'SP.POP.TOTL', name: 'Population, total', lastUpdated: '2025-07-01' },
      rows(['DEU', 2023, null], ['DEU', 2022, 83797985], ['DEU', 2021, 83196078], ['EUU', 2022, 448387872]));
    await ingestWorldBankFiles({ dataDir: path.join(dir, 'parquet'), path: file });
    app = await startCountryApp(path.join(dir, 'parquet'));
  });
  after(async () => {
    await app?.close();
    await removeDir(dir);
  });

  test('the values of the JSON page, a null year missing, with the page\'s lastupdated as vintage', async () => {
    const body = await expectOk(app, '/api/economic/devbank/series/DEVBANK_POPULATION_DEU');
    assert.deepEqual(body.observations, [
      { period: '2022', value: 83797985, vintage: '2025-07-01' },
      { period: '2021', value: 83196078, vintage: '2025-07-01' },
    ]);
    const structure = await expectOk(app, '/api/analytics/country-structure/EUU');
    assert.deepEqual([structure.country.aggregate, structure.parts.demographics.population.value, structure.parts.demographics.population.year], [true, 448387872, 2022]);
  });
});

/** An independent reading of a WDI bulk CSV: quoted cells, 4 preamble lines, then a header. */
function readBulk(file: string): { years: string[]; rows: Map<string, { name: string; cells: string[] }> } {
  const lines = readFileSync(file, 'utf8').replace(/^\uFEFF/, '').split(/\r?\n/);
  const cells = (line: string) => [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1].replaceAll('""', '"'));
  const headerAt = lines.findIndex((line) => line.startsWith('"Country Name"'));
  const years = cells(lines[headerAt]).slice(4);
  const rows = new Map<string, { name: string; cells: string[] }>();
  for (const line of lines.slice(headerAt + 1)) {
    if (!line.trim()) continue;
    const c = cells(line);
    rows.set(c[1], { name: c[0], cells: c.slice(4) });
  }
  return { years, rows };
}

describe('devbank on the real WDI bulk CSV', { skip: existsSync(REAL_WDI) ? false : `real file absent: ${REAL_WDI}` }, () => {
  let dir: string;
  let app: TestApp;
  const bulk = existsSync(REAL_WDI) ? readBulk(REAL_WDI) : { years: [], rows: new Map() };
  const expected = (code: string) => {
    const row = bulk.rows.get(code)!;
    return bulk.years.map((year, i) => ({ period: year, value: row.cells[i] === '' ? null : Number(row.cells[i]), vintage: '2023-10-26' }))
      .filter((o) => o.value !== null).reverse();
  };
  before(async () => {
    dir = await tempDir('wdi-real');
    await ingestWorldBankFiles({ dataDir: dir, path: REAL_WDI });
    app = await startCountryApp(dir);
  });
  after(async () => {
    await app?.close();
    await removeDir(dir);
  });

  test('values come back unchanged, newest first, blank years missing (not 0)', async () => {
    for (const code of ['DEU', 'USA', 'EUU', 'WLD']) {
      const body = await expectOk(app, `/api/economic/devbank/series/DEVBANK_EXPORTS_PCT_GDP_${code}?limit=1000`);
      assert.deepEqual(body.observations, expected(code), code);
      const blanks = bulk.rows.get(code)!.cells.filter((c: string) => c === '').length;
      assert.equal(body.total, bulk.years.length - blanks, code);
      assert.ok(body.observations.every((o: any) => o.value !== 0 || bulk.rows.get(code)!.cells.includes('0')));
    }
    // Germany's first years are blank in the file: the oldest served year is the first one with a value.
    const deu = await expectOk(app, '/api/economic/devbank/series/DEVBANK_EXPORTS_PCT_GDP_DEU?limit=1000');
    const firstWithValue = bulk.years[bulk.rows.get('DEU')!.cells.findIndex((c: string) => c !== '')];
    assert.equal(deu.observations.at(-1).period, firstWithValue);
  });

  test('aggregates are kept and flagged; countries are not', async () => {
    for (const code of ['EUU', 'WLD', 'HIC']) {
      const body = await expectOk(app, `/api/economic/devbank/country/${code}`);
      assert.equal(body.country.aggregate, true, code);
      assert.equal(body.country.name, bulk.rows.get(code)!.name, code);
      assert.equal(body.indicators.exports_pct_gdp.value, expected(code)[0].value, code);
    }
    const deu = await expectOk(app, '/api/economic/devbank/country/DEU');
    assert.equal(deu.country.aggregate, false);
    assert.deepEqual([deu.indicators.exports_pct_gdp.period, deu.indicators.exports_pct_gdp.value], [expected('DEU')[0].period, expected('DEU')[0].value]);
    // Only exports are loaded: trade openness is not available, and says so.
    const openness = await expectOk(app, '/api/analytics/trade-openness/DE');
    assert.equal(openness.available, false);
  });
});
