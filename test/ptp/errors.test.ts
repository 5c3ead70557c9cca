// Every 400 of the specification's Errors table for the PTP operations (both path forms), the limits
// table (deadly locations: limit max 200), and the 404s this service chose: an unknown city or oblast.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError as expectApiError, startTestApp, type TestApp } from '../helpers/app.ts';
import { fixtureSnapshot } from './fixture.ts';

let app: TestApp;
before(async () => {
  app = await startTestApp(await fixtureSnapshot());
});
after(() => app?.close());

const expectError = async (path: string, status: 400 | 404, param: string | null): Promise<string> =>
  (await expectApiError(app, path, status, param)).message;

function table(name: string, cases: Array<[path: string, param: string]>): void {
  describe(name, () => {
    for (const [path, param] of cases) test(`${path} -> 400 naming ${param}`, async () => void (await expectError(path, 400, param)));
  });
}

/** The time and limit conditions shared by the city and region rows of the table. */
function windowAndLimitCases(base: string): Array<[string, string]> {
  return [
    [`${base}year=abc`, 'year'],
    [`${base}year=1800`, 'year'],
    [`${base}year=2025.5`, 'year'],
    [`${base}year=2025&from=01-2025`, 'year'],
    [`${base}year=2025&to=12-2025`, 'year'],
    [`${base}year=2025&from=01-01-2025&to=31-12-2025`, 'year'],
    [`${base}from=32-01-2024`, 'from'],
    [`${base}from=2024/01/01`, 'from'],
    [`${base}from=29-02-2023`, 'from'],
    [`${base}from=`, 'from'],
    [`${base}to=13-2024`, 'to'],
    [`${base}to=31-04-2024`, 'to'],
    [`${base}from=01-02-2024&to=31-01-2024`, 'from'],
    [`${base}from=03-2024&to=02-2024`, 'from'],
    [`${base}limit=0`, 'limit'],
    [`${base}limit=-5`, 'limit'],
    [`${base}limit=abc`, 'limit'],
    [`${base}limit=1e3`, 'limit'],
  ];
}

// Errors table, getPtpPerCity: city missing; invalid year; year with from/to; invalid from/to; limit < 1.
table('getPtpPerCity', [
  ['/api/ptp/getPtpPerCity', 'city'],
  ['/api/ptp/getPtpPerCity?year=2025', 'city'],
  ['/api/ptp/getPtpPerCity?city=', 'city'],
  ['/api/ptp/getPtpPerCity?city=%20%20', 'city'],
  ['/api/ptp/getPtpPerCity?city=Sofia&city=Varna', 'city'],
  ['/api/ptp/getPtpPerCity?city=Sofia&region=Sofia', 'region'],
  ['/api/ptp/getPtpPerCity/Sofia?city=Varna', 'city'],
  ...windowAndLimitCases('/api/ptp/getPtpPerCity?city=Sofia&'),
  ...windowAndLimitCases('/api/ptp/getPtpPerCity/Sofia?'),
]);

// Errors table, getPtpPerRegion: region missing; the same time and limit conditions.
table('getPtpPerRegion', [
  ['/api/ptp/getPtpPerRegion', 'region'],
  ['/api/ptp/getPtpPerRegion?from=01-2025', 'region'],
  ['/api/ptp/getPtpPerRegion?region=', 'region'],
  ['/api/ptp/getPtpPerRegion?region=%20', 'region'],
  ['/api/ptp/getPtpPerRegion?city=Sofia', 'city'],
  ...windowAndLimitCases('/api/ptp/getPtpPerRegion?region=Sofia&'),
  ...windowAndLimitCases(`/api/ptp/getPtpPerRegion/${encodeURIComponent('Софийска')}?`),
]);

// Errors table, getMostDeadlyLocations: no year and no from/to; invalid year; year with from/to;
// invalid from/to; invalid limit (Limits: default 20, max 200).
const D = '/api/ptp/getMostDeadlyLocations';
table('getMostDeadlyLocations', [
  [D, 'year'],
  [`${D}?limit=5`, 'year'],
  [`${D}?year=abc`, 'year'],
  [`${D}?year=0`, 'year'],
  [`${D}?year=2025&from=01-2025`, 'year'],
  [`${D}?year=2025&to=06-2025`, 'year'],
  [`${D}?from=31-02-2025`, 'from'],
  [`${D}?from=2025`, 'from'],
  [`${D}?to=00-2025`, 'to'],
  [`${D}?from=01-07-2025&to=30-06-2025`, 'from'],
  [`${D}?year=2025&limit=0`, 'limit'],
  [`${D}?year=2025&limit=201`, 'limit'],
  [`${D}?year=2025&limit=x`, 'limit'],
  [`${D}/abc`, 'year'],
  [`${D}/1800`, 'year'],
  [`${D}/2025?from=01-2025`, 'year'],
  [`${D}/2025?to=01-2025`, 'year'],
  [`${D}/2025?year=2024`, 'year'],
  [`${D}/2025?limit=0`, 'limit'],
  [`${D}/2025?limit=500`, 'limit'],
]);

describe('404: unknown places', () => {
  test('an unknown city, query and path forms, names the city', async () => {
    assert.match(await expectError('/api/ptp/getPtpPerCity?city=Atlantis', 404, null), /"Atlantis"/);
    assert.match(await expectError(`/api/ptp/getPtpPerCity/${encodeURIComponent('Атлантида')}?year=2025`, 404, null), /"Атлантида"/);
  });

  test('an unknown oblast, query and path forms, names it and lists the known ones', async () => {
    const message = await expectError('/api/ptp/getPtpPerRegion?region=Narnia', 404, null);
    assert.match(message, /"Narnia"/);
    assert.match(message, /София-град \(Sofia City\)/);
    assert.match(await expectError(`/api/ptp/getPtpPerRegion/${encodeURIComponent('Нарния')}`, 404, null), /"Нарния"/);
  });

  test('limits at their bounds are accepted: 1 and 200', async () => {
    for (const path of [`${D}/2025?limit=1`, `${D}/2025?limit=200`, '/api/ptp/getPtpPerCity?city=Sofia&limit=1']) {
      assert.equal((await app.get(path)).status, 200, path);
    }
  });
});
