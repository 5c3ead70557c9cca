// The real files in ../shared/data/real (skipped with a message when absent):
// - eurostat_nrg_ind_ren/estat_nrg_ind_ren.tsv: the published values come back unchanged through
//   series, latest and compare (expected values read from the TSV here, by a separate split);
// - eutl/installation.csv + compliance.csv: yearly totals per registry and the largest installations,
//   computed here from the CSV independently.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ingestEurostatFiles } from '../../ingest/eurostat/snapshot.ts';
import { ingestEtsFiles } from '../../domains/energy/ingest/etsSnapshot.ts';
import { expectOk, type TestApp } from '../helpers/app.ts';
import { startEnergyApp } from './fixtures.ts';

const REAL = path.resolve(import.meta.dirname, '../../../shared/data/real');
const REN = path.join(REAL, 'eurostat_nrg_ind_ren', 'estat_nrg_ind_ren.tsv');
const EUTL = path.join(REAL, 'eutl');
const present = existsSync(REN) && existsSync(path.join(EUTL, 'compliance.csv')) && existsSync(path.join(EUTL, 'installation.csv'));
const skip = present ? false : `real extracts absent under ${REAL}`;

/** nrg_bal -> geo -> period -> value (null for ':'), read with a plain split. */
function readRen(): Map<string, Map<string, Map<string, number | null>>> {
  const [header, ...lines] = readFileSync(REN, 'utf8').split(/\r?\n/).filter((l) => l !== '');
  const periods = header.split('\t').slice(1).map((p) => p.trim());
  const out = new Map<string, Map<string, Map<string, number | null>>>();
  for (const line of lines) {
    const [key, ...cells] = line.split('\t');
    const [, nrgBal, , geo] = key.split(',');
    const byPeriod = new Map<string, number | null>();
    cells.forEach((cell, i) => {
      const text = cell.trim().split(/\s+/)[0];
      byPeriod.set(periods[i], text === ':' ? null : Number(text));
    });
    if (!out.has(nrgBal)) out.set(nrgBal, new Map());
    out.get(nrgBal)!.set(geo, byPeriod);
  }
  return out;
}

let app: TestApp;
let root: string;
before(async () => {
  if (!present) return;
  root = await mkdtemp(path.join(os.tmpdir(), 'energy-real-'));
  const dataDir = path.join(root, 'parquet');
  await ingestEurostatFiles({ dataDir, path: REN });
  await ingestEtsFiles([path.join(EUTL, 'installation.csv'), path.join(EUTL, 'compliance.csv')], { dataDir });
  app = await startEnergyApp(dataDir, root);
});
after(async () => {
  await app?.close();
  // Also when the ingest failed before the app (which removes it on close) was started.
  if (root) await rm(root, { recursive: true, force: true });
});

describe('real nrg_ind_ren TSV', { skip }, () => {
  test('series: every REN value of AT, DE, EL, EU27_2020 unchanged', async () => {
    const ren = readRen().get('REN')!;
    for (const geo of ['AT', 'DE', 'EL', 'EU27_2020']) {
      const body = await expectOk(app, `/api/v1/energy/series?dataset_id=nrg_ind_ren&geo=${geo}&dim.nrg_bal=REN&limit=2000`);
      const expected = [...ren.get(geo)!].filter(([, v]) => v !== null).map(([time_period, obs_value]) => ({ time_period, obs_value }));
      assert.deepEqual(body.observations.map((o: any) => ({ time_period: o.time_period, obs_value: o.obs_value })), expected, geo);
    }
  });

  test('latest: 2024 values of every geo unchanged', async () => {
    const ren = readRen().get('REN')!;
    const body = await expectOk(app, '/api/v1/energy/latest?dataset_id=nrg_ind_ren&dim.nrg_bal=REN&limit=1000');
    assert.equal(body.period, '2024');
    const expected = [...ren].filter(([, byPeriod]) => byPeriod.get('2024') !== null && byPeriod.get('2024') !== undefined)
      .map(([geo, byPeriod]) => ({ geo, obs_value: byPeriod.get('2024') })).sort((a, b) => (a.geo < b.geo ? -1 : 1));
    assert.deepEqual(body.observations.map((o: any) => ({ geo: o.geo, obs_value: o.obs_value })), expected);
  });

  test('compare: SE, FI, DE, NL in 2015, values and ranks', async () => {
    const ren = readRen().get('REN')!;
    const body = await expectOk(app, '/api/v1/energy/compare?dataset_id=nrg_ind_ren&geos=SE,FI,DE,NL&period=2015&dim.nrg_bal=REN');
    const expected = ['SE', 'FI', 'DE', 'NL'].map((geo) => ({ geo, obs_value: ren.get(geo)!.get('2015')! }))
      .sort((a, b) => b.obs_value - a.obs_value).map((o, i) => ({ ...o, rank: i + 1 }));
    assert.deepEqual(body.observations.map((o: any) => ({ geo: o.geo, obs_value: o.obs_value, rank: o.rank })), expected);
  });
});

describe('real EUTL CSVs', { skip }, () => {
  /** registry -> year -> [sum, count]; and (registry, year) -> rows, from a plain split of compliance.csv. */
  function readCompliance() {
    const lines = readFileSync(path.join(EUTL, 'compliance.csv'), 'utf8').split(/\r?\n/).slice(1).filter((l) => l !== '');
    const rows = lines.map((l) => {
      const [id, year, , emission] = l.split(',');
      const cut = id.indexOf('_');
      return { registry: id.slice(0, cut), identifier: id.slice(cut + 1), year: Number(year), emission: emission === '' ? null : Number(emission) };
    });
    return rows;
  }

  test('summary: every registry total of 2020 and 2013', async () => {
    const rows = readCompliance();
    for (const year of [2020, 2013]) {
      const sums = new Map<string, { sum: number; count: number }>();
      for (const r of rows.filter((r) => r.year === year && r.emission !== null)) {
        const entry = sums.get(r.registry) ?? { sum: 0, count: 0 };
        entry.sum += r.emission!;
        entry.count += 1;
        sums.set(r.registry, entry);
      }
      const expected = [...sums].map(([registry_code, { sum, count }]) => ({ registry_code, installation_count: count, verified_emissions_sum: sum }))
        .sort((a, b) => b.verified_emissions_sum - a.verified_emissions_sum || (a.registry_code < b.registry_code ? -1 : 1));
      const body = await expectOk(app, `/api/v1/energy/ets/summary?year=${year}&limit=100`);
      assert.deepEqual(body.registries.map((r: any) => ({ registry_code: r.registry_code, installation_count: r.installation_count, verified_emissions_sum: r.verified_emissions_sum })), expected, String(year));
      assert.equal(body.total_verified_emissions, expected.reduce((s, r) => s + r.verified_emissions_sum, 0));
    }
    const latest = await expectOk(app, '/api/v1/energy/ets/summary');
    assert.equal(latest.year, 2020);
  });

  test('installations: the 10 largest of DE 2019 and of GR (via EL) in its latest year', async () => {
    const rows = readCompliance();
    const top = (registry: string, year: number) => rows.filter((r) => r.registry === registry && r.year === year && r.emission !== null)
      .sort((a, b) => b.emission! - a.emission! || (a.identifier < b.identifier ? -1 : 1)).slice(0, 10)
      .map((r, i) => ({ rank: i + 1, installation_identifier: r.identifier, verified_emissions: r.emission }));
    const de = await expectOk(app, '/api/v1/energy/ets/installations?registry=DE&year=2019&limit=10');
    assert.deepEqual(de.installations.map((i: any) => ({ rank: i.rank, installation_identifier: i.installation_identifier, verified_emissions: i.verified_emissions })), top('DE', 2019));
    const grYear = Math.max(...rows.filter((r) => r.registry === 'GR' && r.emission !== null).map((r) => r.year));
    const gr = await expectOk(app, '/api/v1/energy/ets/installations?registry=el&limit=10');
    assert.deepEqual([gr.registry_code, gr.year], ['GR', grYear]);
    assert.deepEqual(gr.installations.map((i: any) => ({ rank: i.rank, installation_identifier: i.installation_identifier, verified_emissions: i.verified_emissions })), top('GR', grYear));
    // GB ends in 2020; XI (Northern Ireland) is a registry of its own.
    const gb = await expectOk(app, '/api/v1/energy/ets/installations?registry=uk&limit=1');
    assert.deepEqual([gb.registry_code, gb.year], ['GB', 2020]);
    const xi = await expectOk(app, '/api/v1/energy/ets/summary?registry=XI&limit=1');
    assert.equal(xi.registries[0].registry_code, 'XI');
  });
});
