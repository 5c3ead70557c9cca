// The generated country sample: deterministic, in the real layouts, ingested like real files; its
// planted facts come back through the endpoints, and every route's examples answer 200 on it.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import { countryDomain } from '../../domains/country/index.ts';
import { countrySampleSource } from '../../domains/country/ingest/sampleSource.ts';
import { energyWorldBankSampleSource } from '../../domains/energy/ingest/sampleSource.ts';
import { PLANTED, SAMPLE_OECD_COUNTRIES, SAMPLE_WDI_ONLY } from '../../domains/country/ingest/sample.ts';
import { DEVBANK_INDICATORS } from '../../domains/country/indicators.ts';
import { expectOk, type TestApp } from '../helpers/app.ts';
import { removeDir, startCountryApp, tempDir } from './helpers.ts';

async function filesOf(dir: string): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const file = path.join(entry.parentPath, entry.name);
      out.set(path.relative(dir, file), await readFile(file));
    }
  }
  return out;
}

describe('the country sample', () => {
  let dir: string;
  let app: TestApp;
  before(async () => {
    dir = await tempDir('sample');
    await countrySampleSource.generate(path.join(dir, 'sample'));
    const dataDir = path.join(dir, 'parquet');
    assert.equal(await countrySampleSource.isLoaded(dataDir), false);
    await countrySampleSource.ingest({ dataDir, sampleDir: path.join(dir, 'sample'), log: () => undefined });
    // As on a fresh start: the energy domain's sample brings the two WDI energy series.
    await energyWorldBankSampleSource.generate(path.join(dir, 'energy-wdi'));
    await energyWorldBankSampleSource.ingest({ dataDir, sampleDir: path.join(dir, 'energy-wdi'), log: () => undefined });
    assert.equal(await countrySampleSource.isLoaded(dataDir), true);
    app = await startCountryApp(dataDir);
  });
  after(async () => {
    await app?.close();
    await removeDir(dir);
  });

  test('deterministic: a second generation is byte-identical; at least 30 countries plus aggregates', async () => {
    const again = path.join(dir, 'again');
    await countrySampleSource.generate(again);
    const first = await filesOf(path.join(dir, 'sample'));
    const second = await filesOf(again);
    assert.deepEqual([...second.keys()].sort(), [...first.keys()].sort());
    for (const [name, bytes] of first) assert.ok(bytes.equals(second.get(name)!), name);
    assert.ok(SAMPLE_OECD_COUNTRIES.length + SAMPLE_WDI_ONLY.length >= 30);
  });

  test('the planted OECD facts: a revised vintage, a period only in the old vintage, quarterly unemployment', async () => {
    const usa = await expectOk(app, '/api/economic/coop/series/COOP_CLI_USA?limit=1000');
    const at = (period: string) => usa.observations.find((o: any) => o.period === period);
    assert.deepEqual(at('2019-01'), { period: '2019-01', value: PLANTED.usaCli201901, vintage: '2026-10-01' });
    assert.deepEqual(at('2017-06'), { period: '2017-06', value: PLANTED.usaCli201706, vintage: '2019-04-01' });
    const deu = await expectOk(app, '/api/economic/coop/country/DEU');
    assert.deepEqual([deu.indicators[0].period, deu.indicators[0].value], [PLANTED.deuCliLatest.period, PLANTED.deuCliLatest.value]);
    assert.ok(deu.indicators.every((i: any) => i.available));
    const che = await expectOk(app, '/api/economic/coop/series/COOP_UNEMP_CHE?limit=1');
    assert.deepEqual([che.frequency, che.observations[0].period, che.observations[0].value], ['Q', PLANTED.cheUnempLatest.period, PLANTED.cheUnempLatest.value]);
  });

  test('the planted WDI facts: openness from the latest year with both series, debt behind blank years, the CO2 fallback', async () => {
    const openness = await expectOk(app, '/api/analytics/trade-openness/DE');
    assert.deepEqual([openness.year, openness.trade_openness_pct, openness.exports_pct_gdp, openness.imports_pct_gdp], [2022, 97, 50.3, 46.7]);
    const exportsSeries = await expectOk(app, '/api/economic/devbank/series/DEVBANK_EXPORTS_PCT_GDP_DEU?limit=3');
    assert.deepEqual(exportsSeries.observations.map((o: any) => o.period), ['2024', '2023', '2022']);
    assert.equal(exportsSeries.observations[1].value, PLANTED.deuExports[2023]);
    const importsSeries = await expectOk(app, '/api/economic/devbank/series/DEVBANK_IMPORTS_PCT_GDP_DEU?limit=1');
    assert.deepEqual([importsSeries.observations[0].period, importsSeries.observations[0].value], ['2022', PLANTED.deuImports[2022]]);
    const debt = await expectOk(app, '/api/analytics/debt-burden/deu');
    assert.deepEqual([debt.gov_debt_pct_gdp.year, debt.gov_debt_pct_gdp.value], [PLANTED.deuDebt.year, PLANTED.deuDebt.value]);
    const india = await expectOk(app, '/api/analytics/country-structure/IN');
    assert.equal(india.parts.carbon_intensity.co2_intensity.wdi_code, 'EN.ATM.CO2E.KD.GD');
    const eu = await expectOk(app, '/api/economic/devbank/country/EUU');
    assert.equal(eu.country.aggregate, true);
    const bg = await expectOk(app, '/api/economic/country/BG/overview');
    assert.deepEqual(bg.sources.coop.available, false);
    assert.deepEqual(bg.sources.devbank.available, true);
    const malta = await expectOk(app, '/api/economic/country/MT/overview');
    assert.equal(malta.available, true, 'the energy sample has WDI energy figures of Malta');
    assert.deepEqual(malta.sources_present, ['devbank']);
    const japan = await expectOk(app, '/api/analytics/energy-dependency/JP');
    // The energy sample writes its WDI series for every economy of the WDI sample, not only Europe's.
    assert.equal(japan.available, true, 'Japan has the WDI energy figures like every sample economy');
    const germany = await expectOk(app, '/api/analytics/energy-dependency/DE');
    assert.equal(germany.available, true);
    const argentina = await expectOk(app, '/api/economic/country/ARG/overview');
    assert.deepEqual([argentina.available, argentina.sources_present], [false, []]);
  });

  test('every sample economy carries every devbank indicator; energy dependency has both series for each', async () => {
    const economies = [...SAMPLE_OECD_COUNTRIES, ...SAMPLE_WDI_ONLY];
    const missing: string[] = [];
    for (const iso3 of economies) {
      for (const indicator of DEVBANK_INDICATORS) {
        const response = await app.request(`/api/economic/devbank/series/DEVBANK_${indicator.code}_${iso3}?limit=1`);
        const body = await response.json() as { observations?: Array<{ value: number | null }> };
        if (response.status !== 200 || !body.observations?.some((o) => typeof o.value === 'number')) missing.push(`${indicator.code}_${iso3} (${response.status})`);
      }
      const energy = await expectOk(app, `/api/analytics/energy-dependency/${iso3}`);
      if (!(energy.available && typeof energy.energy_imports_pct.value === 'number' && typeof energy.renewable_share_pct.value === 'number')) missing.push(`energy-dependency ${iso3}`);
    }
    assert.deepEqual(missing, []);
  });

  test('every example of every country route answers 200 with a body matching its response schema', async () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    for (const route of countryDomain.routes) {
      assert.ok(route.examples.length >= 1, route.id);
      const validate = ajv.compile(route.response);
      for (const example of route.examples) {
        const body = await expectOk(app, example);
        assert.ok(validate(body), `${example}: ${JSON.stringify(validate.errors)}`);
      }
    }
  });

  test('CSV of a series: one row per observation', async () => {
    const response = await app.get('/api/economic/coop/series/COOP_CLI_USA?limit=3&format=csv');
    assert.equal(response.status, 200);
    const lines = String(response.body).trim().split(/\r?\n/);
    assert.equal(lines[0], 'period,value,vintage');
    assert.equal(lines.length, 4);
  });
});
