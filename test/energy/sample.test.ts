// The generated energy sample: deterministic text files, ingested by the domain's sample sources, every
// route's examples answer 200, and the planted facts hold (import dependency > 90 %, an electricity
// surplus, a falling renewables share), with magnitudes in range.
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import { readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { energyDomain } from '../../domains/energy/index.ts';
import { generateEtsSample, generateEurostatEnergySample, generateWorldBankEnergySample } from '../../domains/energy/ingest/sample.ts';
import { expectOk, type TestApp } from '../helpers/app.ts';
import { startEnergyApp, tempDir } from './fixtures.ts';

let root: string;
let app: TestApp;
before(async () => {
  root = await tempDir('energy-sample-');
  const dataDir = path.join(root, 'parquet');
  for (const source of energyDomain.sources) {
    const sampleDir = path.join(root, 'sample', source.sample.name);
    assert.equal(await source.sample.isLoaded(dataDir), false);
    await source.sample.generate(sampleDir);
    const { files, rows } = await source.sample.ingest({ dataDir, sampleDir, log: () => undefined });
    assert.ok(files > 0 && rows > 0, source.sample.name);
    assert.equal(await source.sample.isLoaded(dataDir), true);
  }
  app = await startEnergyApp(dataDir, root);
});
after(() => app?.close());

describe('energy sample', () => {
  test('the text files are deterministic', async () => {
    const again = await tempDir('energy-sample-again-');
    try {
      await generateEurostatEnergySample(path.join(again, 'e'));
      await generateWorldBankEnergySample(path.join(again, 'w'));
      await generateEtsSample(path.join(again, 't'));
      for (const [sub, name] of [['e', 'energy-eurostat'], ['w', 'energy-worldbank'], ['t', 'ets']]) {
        for (const file of (await readdir(path.join(again, sub))).filter((f) => !f.endsWith('.xlsx'))) {
          assert.deepEqual(await readFile(path.join(again, sub, file)), await readFile(path.join(root, 'sample', name, file)), file);
        }
      }
    } finally {
      await rm(again, { recursive: true, force: true });
    }
  });

  test('every example of every energy route answers 200 with a body matching its response schema', async () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    for (const route of energyDomain.routes) {
      const validate = ajv.compile(route.response);
      for (const example of route.examples) {
        const body = await expectOk(app, example);
        assert.ok(validate(body), `${example}: ${ajv.errorsText(validate.errors)}`);
      }
    }
  });

  test('planted: MT import dependency > 90 %, FR electricity surplus, SI renewables reversing', async () => {
    const mt = await expectOk(app, '/api/v1/energy/balance/MT');
    assert.ok(mt.derived.import_dependency_pct > 90, String(mt.derived.import_dependency_pct));
    const fr = await expectOk(app, '/api/v1/energy/scorecard/FR');
    assert.equal(fr.signals.power_self_sufficiency, 'surplus');
    assert.ok(fr.electricity.self_sufficiency_pct > 110);
    const si = await expectOk(app, '/api/v1/energy/scorecard/SI');
    assert.equal(si.signals.renewables_pace, 'reversing');
    const ranking = await expectOk(app, '/api/v1/energy/rankings?metric=import_dependency_pct&limit=40');
    assert.equal(ranking.count, 27);
    assert.ok(ranking.rankings.find((r: any) => r.geo === 'MT').value > 90);
    assert.ok(ranking.rankings.find((r: any) => r.geo === 'EE').rank <= 3, 'Estonia depends least on imports');
  });

  test('magnitudes: DE GIC in the hundreds of thousands of ktoe, shares in 0..100, prices below 1 EUR/kWh, ETS totals in Mt', async () => {
    const de = await expectOk(app, '/api/v1/energy/balance/DE?view=mix');
    assert.ok(de.metrics.gross_inland_consumption.value > 200_000 && de.metrics.gross_inland_consumption.value < 400_000);
    const shares = de.mix.reduce((s: number, m: any) => s + m.share_pct, 0);
    assert.ok(Math.abs(shares - 100) < 0.1, String(shares));
    const card = await expectOk(app, '/api/v1/energy/indicator/DE');
    assert.ok(card.indicators.electricity_price.value > 0.05 && card.indicators.electricity_price.value < 1);
    assert.ok(card.indicators.renewables_share.value > 5 && card.indicators.renewables_share.value < 60);
    const ets = await expectOk(app, '/api/v1/energy/ets/summary?registry=DE');
    const sum = ets.registries[0].verified_emissions_sum;
    assert.ok(sum > 100e6 && sum < 1000e6, String(sum));
    const gb = await expectOk(app, '/api/v1/energy/ets/installations?registry=GB&limit=1');
    assert.equal(gb.year, 2020);
    const xi = await expectOk(app, '/api/v1/energy/ets/installations?registry=XI&limit=1');
    assert.equal(xi.year, 2024);
    const profile = await expectOk(app, '/api/v1/energy/profile/EL');
    assert.equal(profile.devbank.available, true);
    const eu = await expectOk(app, '/api/v1/energy/profile/eu27_2020');
    assert.deepEqual([eu.geo, eu.devbank.energy_imports_pct.value, eu.devbank.energy_imports_pct.year], ['EU27_2020', 58, 2022]);
    const completeness = await expectOk(app, '/api/v1/energy/completeness');
    assert.equal(completeness.summary.fail_count, 0);
  });
});
