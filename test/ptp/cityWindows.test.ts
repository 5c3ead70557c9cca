// getPtpPerCity finds a settlement's window from per-settlement day counts (domains/ptp/queries/runIndex.ts)
// and reads its run of accidents by position: every answer must be the plain query's, the settlement's
// accidents inside the window in crash order, cut at the limit, for windows whose bounds fall on days
// with and without accidents, before, inside and after the data, and any limit. Through HTTP every third
// combination of settlement, window and limit is asked, and always the first settlement with every window
// and limit and every settlement over all time.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { cityIndex } from '../../domains/ptp/queries/runIndex.ts';
import { cityCrashes, type CrashParams } from '../../domains/ptp/queries/crashes.ts';
import type { TestApp } from '../helpers/app.ts';
import { combinations, strided } from '../helpers/sample.ts';
import { CRASH_ITEM_SQL, isoOfDay, sampleApp } from './fixture.ts';

let app: TestApp;
before(async () => {
  app = await sampleApp('ptp-city-');
});
after(() => app?.close());


test('settlements over a stride of windows and limits: the accidents of the plain scan, in crash order', async () => {
  const settlements = (await app.db.all('SELECT DISTINCT location FROM ptp_crashes WHERE location IS NOT NULL ORDER BY location')).map((r) => String(r.location));
  const windows: Array<[string | null, string | null]> = [
    [null, null], ['01-01-2023', '31-12-2023'], ['15-03-2024', '20-03-2024'], ['01-01-2025', '01-01-2025'], ['29-02-2024', '01-03-2024'],
    ['01-06-2026', null], [null, '30-06-2024'], ['01-01-2030', '31-12-2031'], [null, '01-01-2000'], ['07-07-2025', '07-07-2025'],
  ];
  let checked = 0;
  const all = combinations<[string, [string | null, string | null], number | null]>(settlements.slice(0, 12), windows, [null, 1, 3, 50]);
  const explicit = ([location, [from, to], limit]: (typeof all)[number]) => location === settlements[0] || (from === null && to === null && limit === null);
  for (const [location, [from, to], limit] of strided(all, 3, explicit)) {
    const query = new URLSearchParams({ city: location, ...(from ? { from } : {}), ...(to ? { to } : {}), ...(limit ? { limit: String(limit) } : {}) });
    const { status, body } = await app.get(`/api/ptp/getPtpPerCity?${query}`);
    assert.equal(status, 200, query.toString());
    const expected = await app.db.all(
      `SELECT ${CRASH_ITEM_SQL} FROM ptp_crashes WHERE location IN (SELECT unnest(string_split($locations, chr(31))))
         AND crash_date BETWEEN CAST($from AS DATE) AND CAST($to AS DATE) ORDER BY crash_order LIMIT $limit`,
      { locations: body.filters.matched_as.join('\u001f'), from: from ? isoOfDay(from) : '0001-01-01', to: to ? isoOfDay(to) : from ? '2026-11-22' : '9999-12-31', limit: limit ?? 1_000_000 },
    );
    assert.deepEqual(body.items, JSON.parse(JSON.stringify(expected)), query.toString());
    assert.equal(body.count, expected.length);
    checked++;
  }
  assert.ok(checked >= 180, `${checked} answers checked`);
});

test('several settlements (a name matching more than one): their runs merged in crash order and cut at the limit', async () => {
  const settlements = (await app.db.all('SELECT DISTINCT location FROM ptp_crashes WHERE location IS NOT NULL ORDER BY location')).map((r) => String(r.location));
  const index = await cityIndex(app.db);
  const windows: Array<[string, string]> = [['0001-01-01', '9999-12-31'], ['2024-03-15', '2024-03-20'], ['2025-01-01', '2025-12-31'], ['2030-01-01', '2030-12-31']];
  let checked = 0;
  for (let i = 0; i + 2 < settlements.length && i < 18; i += 3) {
    const group = settlements.slice(i, i + 3);
    for (const [from, to] of windows) {
      for (const limit of [null, 1, 7, 40]) {
        const params = { window: { window: { from, to }, year: null, requested: { from, to } }, newest: { limit } } as unknown as CrashParams;
        const items = await cityCrashes(app.db, index, group, params);
        const expected = await app.db.all(
          `SELECT ${CRASH_ITEM_SQL} FROM ptp_crashes WHERE location IN (SELECT unnest(string_split($locations, chr(31))))
             AND crash_date BETWEEN CAST($from AS DATE) AND CAST($to AS DATE) ORDER BY crash_order LIMIT $limit`,
          { locations: group.join('\u001f'), from, to, limit: limit ?? 1_000_000 },
        );
        assert.deepEqual(items, expected, `${group.join(', ')} ${from}..${to} limit ${limit}`);
        checked++;
      }
    }
  }
  assert.ok(checked >= 60, `${checked} answers checked`);
});
