// The 15 energy endpoints on the hand-made fixture of fixtures.ts. Expected values worked out by hand:
//
// Balance (nrg_bal_s, TOTAL KTOE): DE 2021 complete (PPRD 100, GIC 300, FC_E 200, IMP 260, EXP 40, GAE 320),
//   2022 lacks FC_E -> latest complete year 2021; import dependency (260 - 40) / 320 * 100 = 68.75 -> high.
//   Mix 2021: solid 120 / 300 = 40.00 %, gas 90 / 300 = 30.00, renewables 60 / 300 = 20.00, electricity -5 / 300 = -1.67.
//   FR 2022: (130 - 30) / 250 * 100 = 40.00 -> moderate. EL 2022: (30 - 10) / 21 * 100 = 95.238 -> 95.24 -> high (planted > 90 %).
// Electricity (E7000 GWH 2022): FR 500 / (500 + 20 - 100) * 100 = 119.048 -> 119.05 surplus (planted), trade 100 - 20 = 80;
//   DE 400 / (400 + 60 - 10) = 88.89 deficit, trade -50, final consumption under code FC; EL 50 / 50 = 100.00 balanced.
// Renewables (REN PC): 2021 = 10 + EU27 index (BE 12 ties BG), AT only 2019 (9).
//   DE 16, 16.5, 15, 14 (2019-2022): slope sxy / sxx = -3.75 / 5 = -0.75 -> reversing (planted fall); card 14 vs 15: -1, -6.67 %.
//   FR 17, 18, 21, 22: slope 9 / 5 = 1.8 -> accelerating. EL 2020 ": c" (null, flag c), 2021 18, 2022 18.2: two values -> pace unknown.
//   Rankings 2021 (26 EU27 values >= 20): SK 36 rank 1, percentile 26/26 = 100; SI 35: 25/26 = 96.15; DE 15: rank 22
//   (21 values above), 5/26 = 19.23; BE and BG 12 tie at rank 25, 2/26 = 7.69; AT missing.
// Intensity DE: CLV20 (newest base) 100 -> 95: -5, -5.00 %. Price DE (I_TAX): 2022-S2 0.40 vs 2021-S2 0.32: +0.08, +25.00 %.
// ETS: DE 2021 900 + 900 (DE_3 blank) = 1800 in 2 installations, allocation 0 + 5 + 10 = 15; FR 2021 300; GR 2018 800.
//   Carbon DE 2021: 1800 / 300 = 6.00 t per ktoe; share 1800 / 2100 * 100 = 85.71; only EU27 value that year -> percentile 100 -> high.
// Completeness (6 x 27 = 162 cells): pass 3 + 3 + 1 + 26 + 2 + 2 = 37, warn 1 (AT ren 2019 < 2020) + 1 (EL ets 2018 < 2019) = 2, fail 123.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError, expectOk, pick, type TestApp } from '../helpers/app.ts';
import { startEnergyApp, writeEnergyFixture } from './fixtures.ts';

let app: TestApp;
before(async () => {
  const { root, dataDir } = await writeEnergyFixture();
  app = await startEnergyApp(dataDir, root);
});
after(() => app?.close());

const ok = (url: string) => expectOk(app, url);
const fails = (url: string, status: number, param?: string) => expectError(app, url, status, param);

describe('datasets, dataset, countries', () => {
  test('datasets with sizes and period ranges; q prefix; limit', async () => {
    const body = await ok('/api/v1/energy/datasets');
    assert.deepEqual(body.datasets.map((d: any) => d.dataset_id), ['nrg_bal_s', 'nrg_cb_e', 'nrg_ind_ei', 'nrg_ind_ren', 'nrg_pc_204']);
    const ren = body.datasets.find((d: any) => d.dataset_id === 'nrg_ind_ren');
    // 26 (2021) + AT + DE 3 + FR 3 + EL 2 + REN_ELC 1 = 36 rows; 26 REN geos + DE REN_ELC = 28 series... (27 geos incl. AT)
    assert.deepEqual(ren, { dataset_id: 'nrg_ind_ren', row_count: 36, series_count: 28, geo_count: 27, period_min: '2019', period_max: '2022' });
    const pc = body.datasets.find((d: any) => d.dataset_id === 'nrg_pc_204');
    assert.deepEqual([pc.period_min, pc.period_max], ['2021-S2', '2022-S2']);
    const q = await ok('/api/v1/energy/datasets?q=NRG_IND');
    assert.deepEqual(q.datasets.map((d: any) => d.dataset_id), ['nrg_ind_ei', 'nrg_ind_ren']);
    assert.equal((await ok('/api/v1/energy/datasets?limit=1')).count, 1);
    await fails('/api/v1/energy/datasets?limit=0', 400, 'limit');
  });

  test('one dataset: freqs, units, dimension keys; unknown 404, malformed 400', async () => {
    const body = await ok('/api/v1/energy/datasets/NRG_BAL_S');
    assert.deepEqual([body.dataset_id, body.freqs, body.units, body.dimension_keys], ['nrg_bal_s', ['A'], ['KTOE', 'TJ'], ['freq', 'nrg_bal', 'siec', 'unit', 'geo']]);
    await fails('/api/v1/energy/datasets/nrg_xyz', 404);
    await fails('/api/v1/energy/datasets/bad-id!', 400, 'dataset_id');
  });

  test('countries with row counts and names', async () => {
    const body = await ok('/api/v1/energy/countries?limit=100');
    const de = body.countries.find((c: any) => c.geo === 'DE');
    // DE: balance 6 + 5 + 4 mix + 1 TJ = 16, electricity 5, ren 4 + REN_ELC 1, ei 3, prices 4 = 33
    assert.deepEqual(de, { geo: 'DE', name: 'Germany', row_count: 33, dataset_count: 5 });
    assert.equal(body.countries.find((c: any) => c.geo === 'EL').name, 'Greece');
  });
});

describe('series, latest, compare', () => {
  test('series with dim filters, unit, period window; values as published', async () => {
    const body = await ok('/api/v1/energy/series?dataset_id=nrg_bal_s&geo=de&unit=ktoe&dim.siec=TOTAL&dim.nrg_bal=gic');
    assert.equal(body.geo, 'DE');
    assert.deepEqual(pick(body.observations, 'time_period', 'obs_value', 'series_key'), [
      { time_period: '2021', obs_value: 300, series_key: 'A.GIC.TOTAL.KTOE.DE' },
      { time_period: '2022', obs_value: 290, series_key: 'A.GIC.TOTAL.KTOE.DE' },
    ]);
    assert.deepEqual(body.observations[0].dims, { freq: 'A', nrg_bal: 'GIC', siec: 'TOTAL', unit: 'KTOE', geo: 'DE' });
    const window = await ok('/api/v1/energy/series?dataset_id=nrg_ind_ren&geo=DE&dim.nrg_bal=REN&period_from=2020&period_to=2021');
    assert.deepEqual(pick(window.observations, 'time_period', 'obs_value'), [{ time_period: '2020', obs_value: 16.5 }, { time_period: '2021', obs_value: 15 }]);
    const flagged = await ok('/api/v1/energy/series?dataset_id=nrg_ind_ren&geo=gr&dim.nrg_bal=REN');
    assert.equal(flagged.geo, 'EL');
    assert.deepEqual(pick(flagged.observations, 'time_period', 'obs_value', 'obs_flag'), [
      { time_period: '2020', obs_value: null, obs_flag: 'c' },
      { time_period: '2021', obs_value: 18, obs_flag: null },
      { time_period: '2022', obs_value: 18.2, obs_flag: null },
    ]);
    const half = await ok('/api/v1/energy/series?dataset_id=nrg_pc_204&geo=DE&freq=s&dim.tax=I_TAX&period_to=2022');
    assert.deepEqual(half.observations.map((o: any) => o.time_period), ['2021-S2', '2022-S1', '2022-S2']);
    const limited = await ok('/api/v1/energy/series?dataset_id=nrg_ind_ren&geo=DE&limit=2');
    assert.deepEqual([limited.count, limited.total], [2, 5]);
    const none = await ok('/api/v1/energy/series?dataset_id=nrg_ind_ren&geo=NO');
    assert.deepEqual([none.count, none.geo, none.geo_name], [0, 'NO', 'Norway']);
  });

  test('series 400s and 404s', async () => {
    await fails('/api/v1/energy/series?geo=DE', 400, 'dataset_id');
    await fails('/api/v1/energy/series?dataset_id=nrg_ind_ren', 400, 'geo');
    await fails('/api/v1/energy/series?dataset_id=nrg_ind_ren&geo=D3', 400, 'geo');
    await fails('/api/v1/energy/series?dataset_id=nrg_ind_ren&geo=DE&freq=X', 400, 'freq');
    await fails('/api/v1/energy/series?dataset_id=nrg_ind_ren&geo=DE&limit=2001', 400, 'limit');
    await fails('/api/v1/energy/series?dataset_id=nrg_ind_ren&geo=DE&period_from=2022&period_to=2020', 400, 'period_from');
    await fails('/api/v1/energy/series?dataset_id=nrg_ind_ren&geo=DE&period_from=20x', 400, 'period_from');
    await fails('/api/v1/energy/series?dataset_id=nrg_ind_ren&geo=DE&dim.Bad-Key=1', 400, 'dim.Bad-Key');
    await fails('/api/v1/energy/series?dataset_id=nrg_ind_ren&geo=DE&other=1', 400, 'other');
    await fails('/api/v1/energy/series?dataset_id=nrg_ind_ren&geo=DE&dim.nrg_bal=REN&dim.nrg_bal=REN_ELC', 400, 'dim.nrg_bal');
    const eleven = Array.from({ length: 11 }, (_, i) => `dim.k${i}=x`).join('&');
    await fails(`/api/v1/energy/series?dataset_id=nrg_ind_ren&geo=DE&${eleven}`, 400, 'dim.*');
    // A dimension the dataset lacks matches nothing (not an error).
    assert.equal((await ok('/api/v1/energy/series?dataset_id=nrg_ind_ren&geo=DE&dim.siec=TOTAL')).count, 0);
    await fails('/api/v1/energy/series?dataset_id=nrg_nope&geo=DE', 404);
  });

  test('latest: the newest period under the filters', async () => {
    const body = await ok('/api/v1/energy/latest?dataset_id=nrg_ind_ren&dim.nrg_bal=REN');
    assert.equal(body.period, '2022');
    assert.deepEqual(pick(body.observations, 'geo', 'obs_value', 'obs_flag'), [
      { geo: 'DE', obs_value: 14, obs_flag: 'p' }, { geo: 'EL', obs_value: 18.2, obs_flag: null }, { geo: 'FR', obs_value: 22, obs_flag: null },
    ]);
    const at = await ok('/api/v1/energy/latest?dataset_id=nrg_ind_ren&geo=AT');
    assert.deepEqual([at.period, at.observations[0].obs_value], ['2019', 9]);
    const none = await ok('/api/v1/energy/latest?dataset_id=nrg_ind_ren&geo=NO');
    assert.deepEqual([none.period, none.count], [null, 0]);
  });

  test('compare: ranks within a series, ties share, missing geos, default latest period', async () => {
    const body = await ok('/api/v1/energy/compare?dataset_id=nrg_ind_ren&geos=DE,FR,gr,MT&dim.nrg_bal=REN');
    assert.equal(body.period, '2022');
    assert.deepEqual(body.geos, ['DE', 'FR', 'EL', 'MT']);
    assert.deepEqual(body.missing_geos, ['MT']);
    assert.deepEqual(pick(body.observations, 'geo', 'obs_value', 'rank'), [
      { geo: 'FR', obs_value: 22, rank: 1 }, { geo: 'EL', obs_value: 18.2, rank: 2 }, { geo: 'DE', obs_value: 14, rank: 3 },
    ]);
    const ties = await ok('/api/v1/energy/compare?dataset_id=nrg_ind_ren&geos=BE,BG,CY,AT&period=2021&dim.nrg_bal=REN');
    assert.deepEqual(pick(ties.observations, 'geo', 'obs_value', 'rank'), [
      { geo: 'CY', obs_value: 13, rank: 1 }, { geo: 'BE', obs_value: 12, rank: 2 }, { geo: 'BG', obs_value: 12, rank: 2 },
    ]);
    assert.deepEqual(ties.missing_geos, ['AT']);
    const sixteen = 'AT,BE,BG,CY,CZ,DE,DK,EE,EL,ES,FI,FR,HR,HU,IE,IT';
    await fails(`/api/v1/energy/compare?dataset_id=nrg_ind_ren&geos=${sixteen}`, 400, 'geos');
    await fails('/api/v1/energy/compare?dataset_id=nrg_ind_ren', 400, 'geos');
    await fails('/api/v1/energy/compare?dataset_id=nrg_ind_ren&geos=DE,ZZ', 400, 'geos');
  });
});

describe('country cards', () => {
  test('indicator card with year-over-year changes; missing parts are unavailable', async () => {
    const body = await ok('/api/v1/energy/indicator/de');
    assert.equal(body.available, true);
    assert.deepEqual(body.indicators.energy_intensity, {
      available: true, value: 95, unit: 'KGOE_TEUR_CLV20', period: '2022', previous_value: 100, previous_period: '2021', yoy_change: -5, yoy_change_pct: -5,
    });
    assert.deepEqual(body.indicators.renewables_share, {
      available: true, value: 14, unit: 'PC', period: '2022', previous_value: 15, previous_period: '2021', yoy_change: -1, yoy_change_pct: -6.67,
    });
    assert.deepEqual(body.indicators.electricity_price, {
      available: true, value: 0.4, unit: 'EUR/KWH', period: '2022-S2', previous_value: 0.32, previous_period: '2021-S2', yoy_change: 0.08, yoy_change_pct: 25,
    });
    const fr = await ok('/api/v1/energy/indicator/FR');
    assert.deepEqual(fr.indicators.electricity_price, { available: true, value: 0.2, unit: 'EUR/KWH', period: '2022-S1' });
    assert.deepEqual(fr.indicators.energy_intensity, { available: false, value: null, unit: null, period: null });
    const no = await ok('/api/v1/energy/indicator/no');
    assert.deepEqual([no.geo, no.available], ['NO', false]);
    await fails('/api/v1/energy/indicator/DEU', 400, 'geo');
    await fails('/api/v1/energy/indicator/QQ', 400, 'geo');
  });

  test('profile: statsoffice and devbank parts with their own available', async () => {
    const no = await ok('/api/v1/energy/profile/NO');
    assert.deepEqual([no.available, no.statsoffice.available, no.devbank.available], [false, false, false]);
    assert.equal(no.devbank.energy_imports_pct.indicator_code, 'EG.IMP.CONS.ZS');
    // WDI (ISO3): DEU imports 2021 blank -> 2020 63.5; renewables 2021 19.4; GRC -> EL 81.2 (2021), no renewables.
    const de = await ok('/api/v1/energy/profile/DE');
    assert.deepEqual([de.available, de.statsoffice.available], [true, true]);
    assert.deepEqual(de.devbank, {
      available: true,
      energy_imports_pct: { available: true, value: 63.5, year: 2020, indicator_code: 'EG.IMP.CONS.ZS' },
      renewable_share_pct: { available: true, value: 19.4, year: 2021, indicator_code: 'EG.FEC.RNEW.ZS' },
    });
    const el = await ok('/api/v1/energy/profile/gr');
    assert.deepEqual([el.geo, el.devbank.available, el.devbank.energy_imports_pct.value, el.devbank.renewable_share_pct.available], ['EL', true, 81.2, false]);
  });

  test('balance: latest complete year, import dependency on GAE, mix; GR names EL', async () => {
    const de = await ok('/api/v1/energy/balance/DE?view=mix');
    assert.deepEqual([de.period, de.complete, de.unit, de.siec], [2021, true, 'KTOE', 'TOTAL']);
    assert.deepEqual(Object.fromEntries(Object.entries(de.metrics).map(([k, v]: [string, any]) => [k, v.value])), {
      primary_production: 100, gross_inland_consumption: 300, final_energy_consumption: 200, imports: 260, exports: 40,
    });
    assert.deepEqual(de.derived, { import_dependency_pct: 68.75, gross_available_energy_ktoe: 320, period: 2021 });
    assert.deepEqual(pick(de.mix, 'siec', 'share_pct', 'label'), [
      { siec: 'C0000X0350-0370', share_pct: 40, label: 'Solid fossil fuels' },
      { siec: 'G3000', share_pct: 30, label: 'Natural gas' },
      { siec: 'RA000', share_pct: 20, label: 'Renewables and biofuels' },
      { siec: 'E7000', share_pct: -1.67, label: 'Electricity' },
    ]);
    const el = await ok('/api/v1/energy/balance/gr');
    assert.deepEqual([el.geo, el.geo_name, el.derived.import_dependency_pct], ['EL', 'Greece', 95.24]);
    assert.equal(el.mix, undefined);
    // TJ: only GIC exists -> the latest year with any metric, not complete; dependency still on TOTAL KTOE
    const tj = await ok('/api/v1/energy/balance/DE?unit=tj');
    assert.deepEqual([tj.period, tj.complete, tj.metrics.gross_inland_consumption.value, tj.metrics.imports.value, tj.derived.import_dependency_pct], [2021, false, 12560.4, null, 68.75]);
    const y2022 = await ok('/api/v1/energy/balance/DE?period=2022');
    assert.deepEqual([y2022.complete, y2022.metrics.final_energy_consumption.value, y2022.derived.import_dependency_pct], [false, null, 70.97]); // (250 - 30) / 310
    const none = await ok('/api/v1/energy/balance/NO');
    assert.deepEqual([none.available, none.period, none.metrics.imports.value, none.derived.import_dependency_pct], [false, null, null, null]);
    await fails('/api/v1/energy/balance/DE?unit=MWH', 400, 'unit');
    await fails('/api/v1/energy/balance/DE?view=table', 400, 'view');
    await fails('/api/v1/energy/balance/DE?period=20', 400, 'period');
    await fails('/api/v1/energy/balance/DE?dim.siec=TOTAL', 400, 'dim.siec'); // no dim.<key> family on this route
  });

  test('electricity: self-sufficiency and trade balance; FC code', async () => {
    const fr = await ok('/api/v1/energy/electricity/FR');
    assert.deepEqual([fr.period, fr.derived], [2022, { self_sufficiency_pct: 119.05, trade_balance: 80 }]);
    const de = await ok('/api/v1/energy/electricity/de');
    assert.deepEqual([de.derived, de.metrics.final_consumption], [{ self_sufficiency_pct: 88.89, trade_balance: -50 }, { value: 450, unit: 'GWH', period: 2022, code: 'FC' }]);
    const el = await ok('/api/v1/energy/electricity/EL');
    assert.deepEqual([el.derived.self_sufficiency_pct, el.metrics.net_production.value], [100, null]);
    const none = await ok('/api/v1/energy/electricity/MT');
    assert.deepEqual([none.available, none.derived.self_sufficiency_pct], [false, null]);
  });

  test('scorecard: signals, carbon, coverage', async () => {
    const de = await ok('/api/v1/energy/scorecard/DE');
    assert.deepEqual(de.signals, { import_dependency: 'high', power_self_sufficiency: 'deficit', renewables_pace: 'reversing', ets_pressure: 'high' });
    assert.deepEqual(de.carbon, { available: true, year: 2021, ets_emissions: 1800, ets_emissions_per_gic: 6, ets_share_of_eu27: 85.71, eu27_percentile: 100 });
    assert.deepEqual(de.renewables, { available: true, slope_pp_per_year: -0.75, points: 4 });
    assert.deepEqual(de.coverage, { nrg_bal_s: true, nrg_cb_e: true, nrg_ind_ei: true, nrg_ind_ren: true, nrg_pc_204: true, ets: true });
    const fr = await ok('/api/v1/energy/scorecard/fr');
    assert.deepEqual(fr.signals, { import_dependency: 'moderate', power_self_sufficiency: 'surplus', renewables_pace: 'accelerating', ets_pressure: 'unknown' });
    const el = await ok('/api/v1/energy/scorecard/GR');
    assert.deepEqual([el.geo, el.signals], ['EL', { import_dependency: 'high', power_self_sufficiency: 'balanced', renewables_pace: 'unknown', ets_pressure: 'unknown' }]);
    const no = await ok('/api/v1/energy/scorecard/NO');
    assert.deepEqual([no.available, no.signals.import_dependency, no.carbon.available], [false, 'unknown', false]);
  });
});

describe('rankings and completeness', () => {
  test('renewables_share at the latest year with >= 20 EU27 values; ties; percentile vs EU27', async () => {
    const body = await ok('/api/v1/energy/rankings?metric=renewables_share');
    assert.deepEqual([body.period, body.count, body.missing_geos, body.order], [2021, 26, ['AT'], 'highest_first']);
    assert.deepEqual(body.rankings.slice(0, 2), [
      { rank: 1, geo: 'SK', value: 36, period: 2021, percentile: 100 },
      { rank: 2, geo: 'SI', value: 35, period: 2021, percentile: 96.15 },
    ]);
    assert.deepEqual(body.rankings.find((r: any) => r.geo === 'DE'), { rank: 22, geo: 'DE', value: 15, period: 2021, percentile: 19.23 });
    assert.deepEqual(pick(body.rankings.slice(-2), 'rank', 'geo', 'percentile'), [{ rank: 25, geo: 'BE', percentile: 7.69 }, { rank: 25, geo: 'BG', percentile: 7.69 }]);
    const some = await ok('/api/v1/energy/rankings?metric=renewables_share&geos=de,FR,gr&limit=2');
    assert.deepEqual(pick(some.rankings, 'rank', 'geo'), [{ rank: 1, geo: 'FR' }, { rank: 2, geo: 'EL' }]);
    // Fewer than 20 EU27 countries: no qualifying year.
    const ets = await ok('/api/v1/energy/rankings?metric=ets_emissions');
    assert.deepEqual([ets.period, ets.count, ets.order], [null, 0, 'highest_first']);
    assert.equal((await ok('/api/v1/energy/rankings?metric=import_dependency_pct')).order, 'lowest_first');
    await fails('/api/v1/energy/rankings', 400, 'metric');
    await fails('/api/v1/energy/rankings?metric=gdp', 400, 'metric');
  });

  test('completeness counts and status', async () => {
    const body = await ok('/api/v1/energy/completeness');
    assert.deepEqual([body.status, body.summary], ['incomplete', { fail_count: 123, warn_count: 2, pass_count: 37 }]);
    assert.deepEqual(body.details.filter((d: any) => d.status === 'warn'), [
      { dataset_id: 'ets', geo: 'EL', status: 'warn', latest_period: '2018' },
      { dataset_id: 'nrg_ind_ren', geo: 'AT', status: 'warn', latest_period: '2019' },
    ]);
    assert.deepEqual(body.datasets.find((d: any) => d.dataset_id === 'nrg_pc_204'), { dataset_id: 'nrg_pc_204', newest_period: '2022-S2', pass_count: 2, warn_count: 0, fail_count: 25 });
  });
});

describe('ETS', () => {
  test('summary by registry, default latest year; registry EL = GR', async () => {
    const body = await ok('/api/v1/energy/ets/summary');
    assert.deepEqual([body.year, body.total_verified_emissions], [2021, 2100]);
    assert.deepEqual(body.registries, [
      { registry_code: 'DE', geo: 'DE', installation_count: 2, verified_emissions_sum: 1800, allocation_sum: 15 },
      { registry_code: 'FR', geo: 'FR', installation_count: 1, verified_emissions_sum: 300, allocation_sum: 0 },
    ]);
    const el = await ok('/api/v1/energy/ets/summary?registry=el');
    assert.deepEqual([el.registry_code, el.year, el.registries[0].verified_emissions_sum, el.registries[0].geo], ['GR', 2018, 800, 'EL']);
    const y2020 = await ok('/api/v1/energy/ets/summary?year=2020&limit=1');
    assert.deepEqual(y2020.registries, [{ registry_code: 'DE', geo: 'DE', installation_count: 2, verified_emissions_sum: 1500, allocation_sum: 5 }]);
    await fails('/api/v1/energy/ets/summary?registry=Germany', 400, 'registry');
    await fails('/api/v1/energy/ets/summary?year=abc', 400, 'year');
  });

  test('installations: largest first, ties by identifier, blanks left out; 404 for a registry without data', async () => {
    const body = await ok('/api/v1/energy/ets/installations?registry=de');
    assert.deepEqual([body.registry_code, body.year], ['DE', 2021]);
    assert.deepEqual(pick(body.installations, 'rank', 'installation_identifier', 'installation_name', 'verified_emissions'), [
      { rank: 1, installation_identifier: '1', installation_name: 'Kraftwerk A', verified_emissions: 900 },
      { rank: 2, installation_identifier: '2', installation_name: 'Werk B', verified_emissions: 900 },
    ]);
    const y2020 = await ok('/api/v1/energy/ets/installations?registry=DE&year=2020&limit=1');
    assert.deepEqual(pick(y2020.installations, 'installation_identifier', 'verified_emissions'), [{ installation_identifier: '1', verified_emissions: 1000 }]);
    const gr = await ok('/api/v1/energy/ets/installations?registry=GR');
    assert.deepEqual([gr.year, gr.geo, gr.installations[0].city], [2018, 'EL', 'Kozani']);
    const empty = await ok('/api/v1/energy/ets/installations?registry=DE&year=2015');
    assert.equal(empty.count, 0);
    await fails('/api/v1/energy/ets/installations', 400, 'registry');
    await fails('/api/v1/energy/ets/installations?registry=GB', 404);
    await fails('/api/v1/energy/ets/installations?registry=1', 400, 'registry');
  });
});
