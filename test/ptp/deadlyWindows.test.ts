// getMostDeadlyLocations ranks clusters from held running totals (domains/ptp/queries/deadlyIndex.ts):
// every answer must be the plain scan's, the window's accidents summed per cluster, clusters without a
// death dropped, ordered by deaths, accidents, location_id, cut at the limit, for windows whose bounds
// fall on days with and without accidents, before, inside and after the data.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TestApp } from '../helpers/app.ts';
import { sampleApp } from './fixture.ts';

let app: TestApp;
before(async () => {
  app = await sampleApp('ptp-deadly-');
});
after(() => app?.close());

const PLAIN_SQL = `
  WITH sums AS (
    SELECT location_id, count(*)::INTEGER AS crash_count, sum(died_count)::INTEGER AS died_count,
           sum(injured_count)::INTEGER AS injured_count
      FROM ptp_crashes
     WHERE location_id IS NOT NULL AND CAST(crash_datetime AS DATE) BETWEEN CAST($from AS DATE) AND CAST($to AS DATE)
     GROUP BY location_id
    HAVING sum(died_count) > 0
  )
  SELECT l.location_id, l.latitude, l.longitude, l.radius_m, l.region, l.location, s.crash_count, s.died_count, s.injured_count
    FROM sums s JOIN ptp_locations l USING (location_id)
   ORDER BY s.died_count DESC, s.crash_count DESC, l.location_id
   LIMIT $limit`;

const iso = (day: string) => `${day.slice(6)}-${day.slice(3, 5)}-${day.slice(0, 2)}`;

test('every window and limit: the clusters of the plain scan, in rank order', async () => {
  const windows: Array<[string | null, string | null]> = [
    [null, null], ['01-01-2023', '31-12-2023'], ['15-03-2024', '20-03-2024'], ['01-01-2025', '01-01-2025'], ['29-02-2024', '01-03-2024'],
    ['01-06-2026', null], [null, '30-06-2024'], ['01-01-2030', '31-12-2031'], [null, '01-01-2000'], ['07-07-2025', '07-07-2025'],
    ['01-01-2024', '31-12-2025'], ['01-10-2026', '31-10-2026'],
  ];
  let nonEmpty = 0;
  for (const [from, to] of windows) {
    for (const limit of [1, 3, 20, 200]) {
      const query = new URLSearchParams({ from: from ?? '01-01-0001', to: to ?? '31-12-9999', limit: String(limit) });
      const { status, body } = await app.get(`/api/ptp/getMostDeadlyLocations?${query}`);
      assert.equal(status, 200, query.toString());
      const expected = await app.db.all(PLAIN_SQL, { from: iso(query.get('from')!), to: iso(query.get('to')!), limit });
      assert.deepEqual(body.items, expected, query.toString());
      assert.equal(body.count, expected.length);
      if (expected.length > 0) nonEmpty++;
    }
  }
  // The windows must exercise real rankings, not only empty answers.
  assert.ok(nonEmpty >= 30, `${nonEmpty} non-empty answers`);
});

test('the full ranking has ties on deaths, broken by accidents then location_id', async () => {
  const { body } = await app.get('/api/ptp/getMostDeadlyLocations?from=01-01-0001&to=31-12-9999&limit=200');
  const items = body.items as Array<{ location_id: number; died_count: number; crash_count: number }>;
  const tiedOnDeaths = items.filter((item, i) => i > 0 && items[i - 1].died_count === item.died_count);
  assert.ok(tiedOnDeaths.length > 0, 'the sample must contain clusters tied on deaths');
  for (let i = 1; i < items.length; i++) {
    const [a, b] = [items[i - 1], items[i]];
    const ordered = a.died_count > b.died_count || (a.died_count === b.died_count && (a.crash_count > b.crash_count ||
      (a.crash_count === b.crash_count && a.location_id < b.location_id)));
    assert.ok(ordered, `items ${i - 1} and ${i} out of order`);
  }
});
