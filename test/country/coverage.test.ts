// The overview's statsoffice and centralbank sources come from the coverage the energy and macro
// domains declare; the expected headlines are read independently from the ingested Parquet files
// and from the sample's planted decisions.
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Database } from '../../engine/database.ts';
import { sqlStringLiteral } from '../../engine/parquet.ts';
import { energyEurostatSampleSource } from '../../domains/energy/ingest/sampleSource.ts';
import { DECISIONS } from '../../domains/macro/ingest/sample.ts';
import { ecbSampleSource, fredSampleSource, hicpSampleSource } from '../../domains/macro/ingest/sampleSource.ts';
import { ensureSnapshot } from '../../ingest/bootstrap.ts';
import { expectOk, startTestApp, type TestApp } from '../helpers/app.ts';
import { tempDir } from '../ingest/fixtures.ts';

describe('country overview: coverage declared by the energy and macro domains', () => {
  let app: TestApp;
  let dataDir: string;
  const parquet = (name: string) => sqlStringLiteral(path.join(dataDir, `${name}.parquet`));
  async function query(sql: string) {
    const db = await Database.open({ connections: 1 });
    try {
      return await db.all(sql);
    } finally {
      await db.close();
    }
  }

  before(async () => {
    const root = await tempDir();
    dataDir = path.join(root, 'parquet');
    await ensureSnapshot({
      dataDir, sampleDir: path.join(root, 'sample'), log: () => undefined,
      sources: [energyEurostatSampleSource, ecbSampleSource, fredSampleSource, hicpSampleSource],
    });
    app = await startTestApp(dataDir);
  });
  after(() => app?.close());

  test('a euro-area member: statsoffice from energy (renewables share), centralbank the deposit rate in force', async () => {
    const [renewables] = await query(`SELECT obs_value, time_period FROM read_parquet(${parquet('estat_observations')})
      WHERE dataset_id = 'nrg_ind_ren' AND geo = 'DE' AND unit = 'PC' AND dims['nrg_bal'] = 'REN' AND freq = 'A' AND obs_value IS NOT NULL
      ORDER BY period_start DESC LIMIT 1`);
    const [{ last_estr }] = await query(`SELECT CAST(max(date) AS VARCHAR) AS last_estr FROM read_parquet(${parquet('macro_ecb_observations')})
      WHERE series_key = 'EST.B.EU000A2X2A25.WT' AND value IS NOT NULL`);
    const decision = DECISIONS.filter((d) => d.date <= String(last_estr)).at(-1)!;

    const [hicp] = await query(`SELECT obs_value, time_period FROM read_parquet(${parquet('estat_observations')})
      WHERE dataset_id = 'prc_hicp_manr' AND geo = 'DE' AND dims['coicop'] = 'CP00' AND obs_value IS NOT NULL
      ORDER BY period_start DESC LIMIT 1`);

    const body = await expectOk(app, '/api/economic/country/DE/overview');
    assert.deepEqual(body.sources_present.slice(0, 2), ['statsoffice', 'centralbank']);
    // Both declare statsoffice; the first in load order that has a headline gives it.
    assert.deepEqual([...body.sources.statsoffice.declared_by].sort(), ['energy', 'macro']);
    const expected = body.sources.statsoffice.declared_by[0] === 'energy'
      ? { series: 'nrg_ind_ren', value: renewables.obs_value, period: renewables.time_period }
      : { series: 'prc_hicp_manr', value: hicp.obs_value, period: hicp.time_period };
    const { series, value, period } = body.sources.statsoffice.headline;
    assert.deepEqual({ series, value, period }, expected);
    assert.equal(body.sources.centralbank.headline.value, decision.DFR);
    assert.equal(body.sources.centralbank.headline.period, last_estr);
  });

  test('Greece is found under its Eurostat code EL; a non-member has no ECB headline', async () => {
    const greece = await expectOk(app, '/api/economic/country/GR/overview');
    assert.ok(greece.sources_present.includes('statsoffice'));
    assert.ok(greece.sources_present.includes('centralbank'));
    const norway = await expectOk(app, '/api/economic/country/NO/overview');
    assert.equal(norway.sources.centralbank.available, false);
  });

  test('the United States: centralbank is the derived 10Y-2Y spread of the approved sample series', async () => {
    const [spread] = await query(`SELECT CAST(t.date AS VARCHAR) AS date, round(t.value - w.value, 2) AS value
      FROM read_parquet(${parquet('macro_fred_observations')}) t JOIN read_parquet(${parquet('macro_fred_observations')}) w ON w.date = t.date
      WHERE t.series_id = 'DGS10' AND w.series_id = 'DGS2' AND t.value IS NOT NULL AND w.value IS NOT NULL ORDER BY t.date DESC LIMIT 1`);
    const usa = await expectOk(app, '/api/economic/country/USA/overview');
    assert.deepEqual(usa.sources.centralbank.headline, {
      series: 'US_10Y_2Y_SPREAD', label: 'US 10-year minus 2-year Treasury yield (derived)', value: spread.value, unit: 'percentage_points', period: spread.date, vintage: null,
    });
  });
});
