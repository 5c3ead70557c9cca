// The rankings held in JavaScript (heldRankings.ts) rank as the statement over energy_rankings does:
// by hand on a small table with ties, a NULL value and a geo without a row; then every metric, in both
// orders, for several geo lists and limits, against a window statement written here, over the energy
// and ETS samples served through the app.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { energyEurostatSampleSource, energyWorldBankSampleSource, etsSampleSource } from '../../domains/energy/ingest/sampleSource.ts';
import { EU27, RANKING_METRICS } from '../../domains/energy/queries/constants.ts';
import { heldRankings, rankHeld } from '../../domains/energy/queries/heldRankings.ts';
import { Database } from '../../engine/database.ts';
import { startSampleApp, type TestApp } from '../helpers/app.ts';
import { withScratchDatabase } from '../helpers/scratchDatabase.ts';

describe('by hand', () => {
  let db: Database;
  before(async () => {
    db = await Database.open({ connections: 1 });
    await db.run(`CREATE TABLE energy_rankings AS SELECT * FROM (VALUES
      ('m', 'AT', 5.5::DOUBLE, 2021, 50.0::DOUBLE), ('m', 'BE', 7.25, 2021, 75.0), ('m', 'BG', 7.25, 2021, 75.0),
      ('m', 'CY', NULL, 2021, NULL), ('m', 'CZ', 1.0, 2021, 25.0), ('m', 'DE', NULL, 2021, NULL),
      ('other', 'AT', 100.0, 2020, 100.0)) t(metric, geo, value, period, percentile)`);
    await db.run(`CREATE TABLE energy_metric_periods AS SELECT * FROM (VALUES ('m', 2021), ('other', 2020), ('none', NULL)) t(metric, period)`);
  });
  after(() => db?.close());

  test('highest first: ties share a rank and are listed by geo, NULL last (tied), the limit cuts the list', async () => {
    const held = (await heldRankings(db))!;
    assert.ok(held, 'held');
    const page = rankHeld(held, 'm', ['DE', 'CZ', 'BG', 'BE', 'AT', 'CY', 'FR'], false, 40);
    assert.deepEqual(page.rankings.map((r) => [r.rank, r.geo, r.value]), [
      [1, 'BE', 7.25], [1, 'BG', 7.25], [3, 'AT', 5.5], [4, 'CZ', 1], [5, 'CY', null], [5, 'DE', null],
    ]);
    assert.equal(page.period, 2021);
    assert.deepEqual([...page.present].sort(), ['AT', 'BE', 'BG', 'CY', 'CZ', 'DE'], 'FR has no row');
    assert.deepEqual(rankHeld(held, 'm', ['BE', 'BG', 'AT'], false, 2).rankings, [
      { rank: 1, geo: 'BE', value: 7.25, period: 2021, percentile: 75 }, { rank: 1, geo: 'BG', value: 7.25, period: 2021, percentile: 75 },
    ]);
  });

  test('lowest first: NULL still last; ranks over the requested geos only; a metric without rows or period', async () => {
    const held = (await heldRankings(db))!;
    assert.deepEqual(rankHeld(held, 'm', ['AT', 'BE', 'BG', 'CY', 'CZ'], true, 40).rankings.map((r) => [r.rank, r.geo]), [
      [1, 'CZ'], [2, 'AT'], [3, 'BE'], [3, 'BG'], [5, 'CY'],
    ]);
    assert.deepEqual(rankHeld(held, 'm', ['BG', 'AT'], true, 40).rankings.map((r) => [r.rank, r.geo]), [[1, 'AT'], [2, 'BG']]);
    const none = rankHeld(held, 'none', ['AT'], false, 40);
    assert.deepEqual([none.period, none.rankings, none.present.size], [null, [], 0]);
    assert.equal(rankHeld(held, 'unknown', ['AT'], false, 40).period, null);
  });

  test('a value JavaScript could order differently (-0) leaves the rankings to the statement', async () => {
    await withScratchDatabase([
      `CREATE TABLE energy_rankings AS SELECT 'm' AS metric, 'AT' AS geo, -0.0::DOUBLE AS value, 2021 AS period, 1.0::DOUBLE AS percentile`,
      `CREATE TABLE energy_metric_periods AS SELECT 'm' AS metric, 2021 AS period`,
    ], async (other) => assert.equal(await heldRankings(other), null));
  });
});

describe('over the samples, against a statement', () => {
  let app: TestApp;
  before(async () => {
    app = await startSampleApp('held-rankings-', [energyEurostatSampleSource, energyWorldBankSampleSource, etsSampleSource]);
  });
  after(() => app?.close());

  test('every metric, both orders, geo lists and limits', async () => {
    const held = await heldRankings(app.db);
    assert.ok(held, 'the rankings are held');
    const geoLists = [[...EU27], ['DE', 'PL', 'FR', 'SE'], ['DE'], ['XX', 'DE', 'DE'], [...EU27, 'NO', 'UK', 'EU27_2020']];
    let withRows = 0;
    for (const metric of RANKING_METRICS) {
      for (const lowerFirst of [false, true]) {
        for (const geos of geoLists) {
          for (const limit of [1, 3, 40, 1000]) {
            const bindings = { metric, geos: geos.join(','), limit };
            const expected = await app.db.all(
              `SELECT * FROM (SELECT rank() OVER (ORDER BY value ${lowerFirst ? 'ASC' : 'DESC'})::INTEGER AS rank, geo, value, period, percentile
                 FROM energy_rankings WHERE metric = $metric AND geo IN (SELECT unnest(string_split($geos, ','))))
               ORDER BY rank, geo LIMIT $limit`,
              bindings,
            );
            const present = await app.db.all(`SELECT geo FROM energy_rankings WHERE metric = $metric AND geo IN (SELECT unnest(string_split($geos, ','))) ORDER BY geo`, { metric, geos: geos.join(',') });
            const [{ period }] = await app.db.all('SELECT (SELECT period FROM energy_metric_periods WHERE metric = $metric) AS period', { metric });
            const page = rankHeld(held, metric, geos, lowerFirst, limit);
            assert.deepEqual(page.rankings, expected, JSON.stringify({ metric, lowerFirst, geos, limit }));
            assert.equal(page.period, period);
            assert.deepEqual([...page.present].sort(), present.map((row) => row.geo));
            if (expected.length > 1) withRows++;
          }
        }
      }
    }
    assert.ok(withRows >= 80, `${withRows} comparisons with several rows`);
  });
});
