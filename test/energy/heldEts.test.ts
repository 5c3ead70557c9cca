// The ETS registry totals held in JavaScript (heldEts.ts) give the summary that statements over
// ets_registry_years give, and the installations route its ranked rows: by hand on a small table (ties,
// a year without rows, a total past 2^53), then registries, years and limits against statements
// written here over the ETS sample, and the installations through HTTP.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { etsSampleSource } from '../../domains/energy/ingest/sampleSource.ts';
import { etsSummaryOfHeld, heldEtsYears } from '../../domains/energy/queries/heldEts.ts';
import { Database } from '../../engine/database.ts';
import { expectOk, startSampleApp, type TestApp } from '../helpers/app.ts';
import { withScratchDatabase } from '../helpers/scratchDatabase.ts';

const TABLE = 'CREATE TABLE ets_registry_years (registry_code VARCHAR, geo VARCHAR, year INTEGER, installation_count INTEGER, verified_emissions_sum BIGINT, allocation_sum BIGINT)';

describe('by hand', () => {
  let db: Database;
  before(async () => {
    db = await Database.open({ connections: 1 });
    await db.run(TABLE);
    await db.run(`INSERT INTO ets_registry_years VALUES
      ('DE', 'DE', 2021, 2, 1800, 15), ('FR', 'FR', 2021, 1, 300, NULL), ('AT', 'AT', 2021, 1, 300, 7),
      ('GR', 'EL', 2018, 1, 800, NULL), ('XI', NULL, 2020, 3, 4503599627370496, NULL), ('XX', NULL, 2020, 1, 4503599627370496, 1)`);
  });
  after(() => db?.close());

  test('the latest year, its total, ties by registry code, the limit', async () => {
    const held = (await heldEtsYears(db))!;
    assert.ok(held, 'held');
    const all = etsSummaryOfHeld(held, null, null, 50);
    assert.equal(all.year, 2021);
    assert.equal(all.total, 1800 + 300 + 300);
    assert.deepEqual(all.registries.map((r) => r.registry_code), ['DE', 'AT', 'FR'], 'AT and FR tie at 300: by code');
    assert.deepEqual(all.registries[2], { registry_code: 'FR', geo: 'FR', installation_count: 1, verified_emissions_sum: 300, allocation_sum: null });
    assert.deepEqual(etsSummaryOfHeld(held, null, 2021, 2).registries.map((r) => r.registry_code), ['DE', 'AT']);
    assert.equal(etsSummaryOfHeld(held, null, 2021, 2).total, 2400, 'the total is over every registry of the year, not the page');
  });

  test('one registry: its own latest year; a year without rows; an unknown registry', async () => {
    const held = (await heldEtsYears(db))!;
    const gr = etsSummaryOfHeld(held, 'GR', null, 50);
    assert.deepEqual([gr.year, gr.total, gr.registries.length], [2018, 800, 1]);
    assert.deepEqual(etsSummaryOfHeld(held, 'GR', 2021, 50), { year: 2021, total: null, registries: [] });
    assert.deepEqual(etsSummaryOfHeld(held, 'ZZ', null, 50), { year: null, total: null, registries: [] });
  });

  test('a total past 2^53 is given as its digits, as the BIGINT converter gives it', async () => {
    const held = (await heldEtsYears(db))!;
    assert.equal(etsSummaryOfHeld(held, null, 2020, 50).total, '9007199254740992');
    assert.equal(etsSummaryOfHeld(held, 'XI', 2020, 50).total, 4503599627370496);
  });

  test('a sum the converter gives as text leaves the summary to the statement', async () => {
    await withScratchDatabase([TABLE, `INSERT INTO ets_registry_years VALUES ('DE', 'DE', 2021, 1, 9007199254740993, NULL)`],
      async (other) => assert.equal(await heldEtsYears(other), null));
  });
});

describe('over the ETS sample, against statements', () => {
  let app: TestApp;
  before(async () => {
    app = await startSampleApp('held-ets-', [etsSampleSource]);
  });
  after(() => app?.close());

  test('summary: registries, years and limits', async () => {
    const held = await heldEtsYears(app.db);
    assert.ok(held, 'the registry totals are held');
    const registries = (await app.db.all('SELECT DISTINCT registry_code AS r FROM ets_registry_years ORDER BY r')).map((row) => String(row.r));
    const years = (await app.db.all('SELECT DISTINCT year AS y FROM ets_registry_years ORDER BY y')).map((row) => Number(row.y));
    assert.ok(registries.length >= 5 && years.length >= 5, 'a sample with several registries and years');
    let compared = 0;
    for (const reg of [null, registries[0]!, 'GB', registries.at(-1)!, 'ZZ']) {
      for (const year of [null, years[0]!, years[3]!, years.at(-1)!, 1990]) {
        for (const limit of [1, 3, 1000]) {
          const filter = 'CAST($reg AS VARCHAR) IS NULL OR registry_code = $reg';
          const y = (await app.db.all(`SELECT coalesce(CAST($year AS INTEGER), (SELECT max(year) FROM ets_registry_years WHERE ${filter})) AS y`, { reg, year }))[0]!.y as number | null;
          const [{ total }] = await app.db.all(`SELECT sum(verified_emissions_sum)::BIGINT AS total FROM ets_registry_years WHERE year = $y AND (${filter})`, { reg, y });
          const rows = await app.db.all(
            `SELECT registry_code, geo, installation_count, verified_emissions_sum, allocation_sum FROM ets_registry_years
              WHERE year = $y AND (${filter}) ORDER BY verified_emissions_sum DESC, registry_code LIMIT $limit`,
            { reg, y, limit },
          );
          assert.deepEqual(etsSummaryOfHeld(held, reg, year, limit), { year: y, total, registries: rows }, JSON.stringify({ reg, year, limit }));
          compared++;
        }
      }
    }
    assert.equal(compared, 75);
  });

  test('installations through HTTP: the ranked rows of the registry\'s latest year, or of the year asked for', async () => {
    const registries = (await app.db.all('SELECT registry_code AS r, max(year) AS y FROM ets_registry_years GROUP BY r ORDER BY r LIMIT 4'));
    for (const { r, y } of registries) {
      for (const [query, year] of [['', Number(y)], ['&year=2019', 2019]] as const) {
        const body = await expectOk(app, `/api/v1/energy/ets/installations?registry=${r}&limit=1000${query}`);
        const expected = await app.db.all(
          `SELECT row_number() OVER (ORDER BY e.verified_emissions DESC, e.installation_identifier)::INTEGER AS rank, e.installation_identifier,
                  i.installation_name, i.main_activity_code, i.city, e.verified_emissions, e.allocation
             FROM ets_emissions e LEFT JOIN ets_installations i USING (registry_code, installation_identifier)
            WHERE e.registry_code = $r AND e.year = $year AND e.verified_emissions IS NOT NULL ORDER BY rank LIMIT 1000`,
          { r: String(r), year },
        );
        assert.ok(year === 2019 || expected.length > 0, `${r} has installations in its latest year`);
        assert.equal(body.year, year);
        assert.deepEqual(body.installations, JSON.parse(JSON.stringify(expected)), `${r} ${year}`);
      }
    }
  });
});
