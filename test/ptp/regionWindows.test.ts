// getPtpPerRegion finds an oblast's window from per-oblast day counts (domains/ptp/queries/runIndex.ts)
// and reads its run of accidents by region_pos: every answer must be the plain query's, the oblast's
// accidents inside the window in crash order, cut at the limit, for every oblast (those without
// accidents too), windows whose bounds fall on days with and without accidents, before, inside and
// after the data, and any limit; through HTTP by the oblast's name. Every fifth combination of oblast,
// window and limit is asked, and always every oblast over all time and the first and last oblasts with
// every window and limit.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { OBLASTS } from '../../reference/places.ts';
import type { TestApp } from '../helpers/app.ts';
import { combinations, strided } from '../helpers/sample.ts';
import { CRASH_ITEM_SQL, isoOfDay, sampleApp } from './fixture.ts';

let app: TestApp;
before(async () => {
  app = await sampleApp('ptp-region-');
});
after(() => app?.close());


test('every oblast, over a stride of windows and limits: the accidents of the plain scan, in crash order', async () => {
  const windows: Array<[string | null, string | null]> = [
    [null, null], ['01-01-2023', '31-12-2023'], ['15-03-2024', '20-03-2024'], ['01-01-2025', '01-01-2025'], ['29-02-2024', '01-03-2024'],
    ['01-06-2026', null], [null, '30-06-2024'], ['01-01-2030', '31-12-2031'], [null, '01-01-2000'],
  ];
  let checked = 0;
  let withRows = 0;
  const all = combinations<[(typeof OBLASTS)[number], [string | null, string | null], number | null]>(OBLASTS, windows, [null, 1, 3, 50]);
  const explicit = ([oblast, [from, to], limit]: (typeof all)[number]) =>
    (from === null && to === null && limit === null) || oblast === OBLASTS[0] || oblast === OBLASTS.at(-1);
  for (const [oblast, [from, to], limit] of strided(all, 5, explicit)) {
    const query = new URLSearchParams({ region: oblast.nameEn, ...(from ? { from } : {}), ...(to ? { to } : {}), ...(limit ? { limit: String(limit) } : {}) });
    const { status, body } = await app.get(`/api/ptp/getPtpPerRegion?${query}`);
    assert.equal(status, 200, query.toString());
    const expected = await app.db.all(
      `SELECT ${CRASH_ITEM_SQL} FROM ptp_crashes WHERE region_code = $code
         AND crash_date BETWEEN CAST($from AS DATE) AND CAST($to AS DATE) ORDER BY crash_order LIMIT $limit`,
      { code: oblast.code, from: from ? isoOfDay(from) : '0001-01-01', to: to ? isoOfDay(to) : from ? '2026-11-22' : '9999-12-31', limit: limit ?? 1_000_000 },
    );
    assert.deepEqual(body.items, JSON.parse(JSON.stringify(expected)), query.toString());
    assert.equal(body.count, expected.length);
    checked++;
    if (expected.length > 1) withRows++;
  }
  assert.ok(checked >= 28 + 2 * 36 + 150 && withRows >= 50, `${checked} answers checked, ${withRows} with several accidents`);
});
