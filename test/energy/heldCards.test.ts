// The balance, mix and electricity rows held per database (cards.ts over queries/shared/heldGroups.ts)
// are the rows the keyed statements give: every geo, siec and unit of the energy sample, without a
// period and with several, against statements written here; and the routes' answers through HTTP.
// Every third key is compared, and always the first and last keys and the planted incomplete latest
// years (IT, PL, RO), each with every period (none, inside, the latest, before the data).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { energyEurostatSampleSource } from '../../domains/energy/ingest/sampleSource.ts';
import { BALANCE_CARD, ELECTRICITY_CARD, latestCardRow, mixRows } from '../../domains/energy/queries/cards.ts';
import { expectOk, startSampleApp, type TestApp } from '../helpers/app.ts';
import { strided } from '../helpers/sample.ts';

let app: TestApp;
before(async () => {
  app = await startSampleApp('held-energy-cards-', [energyEurostatSampleSource]);
});
after(() => app?.close());

for (const [table, card] of [['energy_balance_card', 'balance'], ['energy_electricity', 'electricity']] as const) {
  test(`${table}: the row of a period, else the latest complete year, else the latest`, async () => {
    const spec = card === 'balance' ? BALANCE_CARD : ELECTRICITY_CARD;
    const keys = await app.db.all(`SELECT DISTINCT geo, siec, unit FROM ${table} ORDER BY ALL`);
    assert.ok(keys.length >= 30, `${keys.length} keys`);
    let incompleteLatest = 0;
    const planted = new Set(['IT', 'PL', 'RO']);
    const compared = strided(keys, 3, (key) => planted.has(String(key.geo)) || key === keys.at(-1));
    for (const key of compared) {
      const [geo, siec, unit] = [String(key.geo), String(key.siec), String(key.unit)];
      for (const period of [null, 2013, 2019, 2023, 1990]) {
        const expected = await app.db.all(
          `SELECT * FROM ${table} WHERE geo = $geo AND siec = $siec AND unit = $unit AND (CAST($period AS INTEGER) IS NULL OR year = $period)
            ORDER BY complete DESC, year DESC LIMIT 1`,
          { geo, siec, unit, period },
        );
        const actual = await latestCardRow(app.db, spec, { geo, siec, unit, period });
        assert.deepEqual(actual, expected[0], JSON.stringify({ geo, siec, unit, period }));
        if (period !== null || !actual) continue;
        const [{ latest }] = await app.db.all(`SELECT max(year) AS latest FROM ${table} WHERE geo = $geo AND siec = $siec AND unit = $unit`, { geo, siec, unit });
        if (actual.year !== latest) incompleteLatest++;
      }
    }
    if (card === 'balance') assert.ok(incompleteLatest >= 3, 'the planted incomplete latest years (IT, PL, RO) pick an earlier complete year');
  });
}

test('energy_mix: the year\'s fuels, largest first, ties by siec', async () => {
  const keys = await app.db.all('SELECT DISTINCT geo, unit, year FROM energy_mix ORDER BY ALL');
  assert.ok(keys.length >= 100);
  for (const key of keys.filter((_, i) => i % 7 === 0)) {
    const [geo, unit, year] = [String(key.geo), String(key.unit), Number(key.year)];
    const expected = await app.db.all('SELECT siec, value, share_pct FROM energy_mix WHERE geo = $geo AND unit = $unit AND year = $year ORDER BY value DESC, siec', { geo, unit, year });
    assert.ok(expected.length >= 2);
    assert.deepEqual(await mixRows(app.db, geo, unit, year), expected);
  }
  assert.deepEqual(await mixRows(app.db, 'DE', 'KTOE', 1990), []);
});

test('the balance card with its mix through HTTP', async () => {
  const body = await expectOk(app, '/api/v1/energy/balance/pl?view=mix');
  const [row] = await app.db.all(`SELECT * FROM energy_balance_card WHERE geo = 'PL' AND siec = 'TOTAL' AND unit = 'KTOE' ORDER BY complete DESC, year DESC LIMIT 1`);
  assert.equal(body.period, row.year);
  assert.equal(body.metrics.gross_inland_consumption.value, row.gic);
  const mix = await app.db.all(`SELECT siec, value FROM energy_mix WHERE geo = 'PL' AND unit = 'KTOE' AND year = $year ORDER BY value DESC, siec`, { year: Number(row.year) });
  assert.deepEqual(body.mix.map((m: any) => [m.siec, m.value]), mix.map((m) => [m.siec, m.value]));
});
