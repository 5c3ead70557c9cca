// Values of the three PTP endpoints against the hand-made fixture (see fixture.ts for the rows and
// the clusters worked out by hand). Expected values come from the fixture rows, not from output.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { CLUSTER_A, CLUSTER_B, fixtureSnapshot } from './fixture.ts';

let app: TestApp;
before(async () => {
  app = await startTestApp(await fixtureSnapshot());
});
after(() => app?.close());

async function ok(path: string) {
  const response = await app.get(path);
  assert.equal(response.status, 200, `${path}: ${JSON.stringify(response.body)}`);
  return response.body;
}

const times = (body: { items: Array<{ crash_datetime: string }> }) => body.items.map((item) => item.crash_datetime);

describe('getPtpPerCity', () => {
  test('Plovdiv: a4, a2, a1 newest first (a3 is in с. Труд); the full item of a4', async () => {
    const body = await ok('/api/ptp/getPtpPerCity?city=Plovdiv');
    assert.equal(body.endpoint, 'getPtpPerCity');
    assert.deepEqual(body.filters, { city: 'Plovdiv', matched_as: ['гр. Пловдив'], year: null, from: null, to: null, limit: null });
    assert.equal(body.count, 3);
    assert.deepEqual(times(body), ['2025-07-10T22:05:00', '2024-06-20T17:30:00', '2024-03-15T08:00:00']);
    assert.deepEqual(body.items[0], {
      crash_datetime: '2025-07-10T22:05:00',
      crash_type: 'Челен удар',
      ptp_place: 'Извън населено място',
      region: 'Пловдив',
      municipality: 'Пловдив',
      location: 'гр. Пловдив',
      latitude: '42.12500000',
      longitude: '24.75000000',
      died_count: 2,
      injured_count: 1,
      participant_count: 3,
      is_major: true,
    });
    // a1 was written "ГР.ПЛОВДИВ": re-cased, and its decimal commas read as points.
    assert.equal(body.items[2].location, 'гр. Пловдив');
    assert.equal(body.items[2].latitude, '42.10000000');
  });

  test('the same city by Cyrillic, upper-case, prefixed and path forms', async () => {
    for (const path of [
      `/api/ptp/getPtpPerCity?city=${encodeURIComponent('Пловдив')}`,
      `/api/ptp/getPtpPerCity?city=${encodeURIComponent('ПЛОВДИВ')}`,
      `/api/ptp/getPtpPerCity?city=${encodeURIComponent('гр. Пловдив')}`,
      '/api/ptp/getPtpPerCity?city=PLOVDIV',
      '/api/ptp/getPtpPerCity/plovdiv',
      `/api/ptp/getPtpPerCity/${encodeURIComponent('Пловдив')}`,
    ]) {
      const body = await ok(path);
      assert.deepEqual(body.filters.matched_as, ['гр. Пловдив'], path);
      assert.equal(body.count, 3, path);
    }
  });

  test('Sofia and София: c1 (no coordinates) and d1 (swapped coordinates put right)', async () => {
    for (const city of ['Sofia', 'София', 'sofiya']) {
      const body = await ok(`/api/ptp/getPtpPerCity?city=${encodeURIComponent(city)}`);
      assert.deepEqual(body.filters.matched_as, ['гр. София'], city);
      assert.deepEqual(times(body), ['2025-03-03T07:45:00', '2025-02-14T10:00:00']);
      assert.deepEqual([body.items[0].latitude, body.items[0].longitude], ['42.69000000', '23.32000000']);
      assert.deepEqual([body.items[1].latitude, body.items[1].longitude, body.items[1].participant_count], [null, null, null]);
      assert.equal(body.items[1].died_count, 3);
    }
  });

  test('a settlement outside the places table is found by its transliteration (с. Труд = Trud)', async () => {
    const body = await ok('/api/ptp/getPtpPerCity?city=Trud');
    assert.deepEqual(body.filters.matched_as, ['с. Труд']);
    assert.deepEqual(times(body), ['2025-02-01T09:15:00']);
  });

  test('a city of the places table without accidents: 200, no items, nothing matched', async () => {
    const body = await ok('/api/ptp/getPtpPerCity?city=Kresna');
    assert.deepEqual(body.filters.matched_as, []);
    assert.equal(body.count, 0);
    assert.deepEqual(body.items, []);
  });

  test('windows: year, from alone (to = today 2026-11-22), to alone (MM-YYYY = month end), limit', async () => {
    let body = await ok('/api/ptp/getPtpPerCity?city=Plovdiv&year=2024');
    assert.deepEqual(times(body), ['2024-06-20T17:30:00', '2024-03-15T08:00:00']);
    assert.deepEqual(body.filters, { city: 'Plovdiv', matched_as: ['гр. Пловдив'], year: 2024, from: null, to: null, limit: null });
    body = await ok('/api/ptp/getPtpPerCity?city=Plovdiv&from=01-06-2024');
    assert.deepEqual(times(body), ['2025-07-10T22:05:00', '2024-06-20T17:30:00']);
    assert.deepEqual([body.filters.from, body.filters.to], ['2024-06-01', '2026-11-22']);
    body = await ok('/api/ptp/getPtpPerCity?city=Plovdiv&to=03-2024');
    assert.deepEqual(times(body), ['2024-03-15T08:00:00']);
    assert.deepEqual([body.filters.from, body.filters.to], [null, '2024-03-31']);
    // Inclusive bounds: exactly the day of a2.
    body = await ok('/api/ptp/getPtpPerCity?city=Plovdiv&from=20-06-2024&to=20-06-2024');
    assert.deepEqual(times(body), ['2024-06-20T17:30:00']);
    body = await ok('/api/ptp/getPtpPerCity?city=Plovdiv&limit=1');
    assert.deepEqual(times(body), ['2025-07-10T22:05:00']);
    assert.equal(body.filters.limit, 1);
  });

  test('equal times are ordered by the remaining fields: b1 (with coordinates) before b4 (none)', async () => {
    const body = await ok('/api/ptp/getPtpPerCity?city=Varna&year=2024');
    assert.deepEqual(
      body.items.map((i: { crash_datetime: string; crash_type: string }) => [i.crash_datetime, i.crash_type]),
      [
        ['2024-05-06T12:00:00', 'Блъскане в неподвижно МПС'],
        ['2024-05-05T12:00:00', 'Блъскане между МПС'],
        ['2024-05-05T12:00:00', 'Самокатастрофа'],
      ],
    );
    // b2 has a blank serious flag: derived from its 1 injured. b4's flag "0".
    assert.deepEqual(body.items.map((i: { is_major: boolean }) => i.is_major), [true, true, false]);
  });
});

describe('getPtpPerRegion', () => {
  test('Sofia / София / СОФИЯ / Sofia City are the capital (c1, d1), not the district', async () => {
    for (const region of ['Sofia', 'София', 'СОФИЯ', 'sofia city', 'София-град']) {
      const body = await ok(`/api/ptp/getPtpPerRegion?region=${encodeURIComponent(region)}`);
      assert.equal(body.endpoint, 'getPtpPerRegion');
      assert.deepEqual(body.filters, { region, year: null, from: null, to: null, limit: null });
      assert.deepEqual(times(body), ['2025-03-03T07:45:00', '2025-02-14T10:00:00'], region);
      assert.ok(body.items.every((i: { region: string }) => i.region === 'София-град'));
    }
  });

  test('Софийска / Sofia Province is the district (e1 in Ботевград)', async () => {
    for (const region of ['Софийска', 'СОФИЙСКА', 'Sofia Province']) {
      const body = await ok(`/api/ptp/getPtpPerRegion/${encodeURIComponent(region)}`);
      assert.deepEqual(times(body), ['2025-10-10T06:10:00'], region);
      assert.equal(body.items[0].region, 'Софийска');
      assert.equal(body.items[0].location, 'гр. Ботевград');
    }
  });

  test('Plovdiv oblast holds a1..a4 (с. Труд included); year and limit', async () => {
    let body = await ok('/api/ptp/getPtpPerRegion?region=plovdiv');
    assert.deepEqual(times(body), ['2025-07-10T22:05:00', '2025-02-01T09:15:00', '2024-06-20T17:30:00', '2024-03-15T08:00:00']);
    body = await ok(`/api/ptp/getPtpPerRegion/${encodeURIComponent('Пловдив')}?year=2025&limit=1`);
    assert.deepEqual(times(body), ['2025-07-10T22:05:00']);
    assert.deepEqual(body.filters, { region: 'Пловдив', year: 2025, from: null, to: null, limit: 1 });
    body = await ok('/api/ptp/getPtpPerRegion?region=Plovdiv&year=2023');
    assert.equal(body.count, 0);
  });
});

describe('getMostDeadlyLocations', () => {
  const A = { location_id: CLUSTER_A, latitude: '42.11000000', longitude: '24.75000000', radius_m: 2000, region: 'Пловдив', location: 'гр. Пловдив' };
  const B = { location_id: CLUSTER_B, latitude: '43.20000000', longitude: '27.90000000', radius_m: 2000, region: 'Варна', location: 'гр. Варна' };

  test('2024: A (a1, a2) and B (b1, b2) both 1 death and 2 accidents; ties by location_id', async () => {
    const body = await ok('/api/ptp/getMostDeadlyLocations/2024');
    assert.equal(body.endpoint, 'getMostDeadlyLocations');
    assert.deepEqual(body.filters, { year: 2024, from: null, to: null, limit: 20 });
    // A: died 1+0, injured 0+2. B: died 1+0, injured 3+1 (b4 has no coordinates).
    assert.deepEqual(body.items, [
      { ...A, crash_count: 2, died_count: 1, injured_count: 2 },
      { ...B, crash_count: 2, died_count: 1, injured_count: 4 },
    ]);
    assert.equal(body.count, 2);
  });

  test('2025: only A (a3, a4: 2 deaths); B (b3) and C (d1) have no deaths; c1 has no coordinates', async () => {
    const body = await ok('/api/ptp/getMostDeadlyLocations?year=2025');
    assert.deepEqual(body.items, [{ ...A, crash_count: 2, died_count: 2, injured_count: 2 }]);
  });

  test('01-2024..12-2025: A 4 accidents, 3 deaths, 4 injured; B 3 accidents, 1 death, 4 injured; limit', async () => {
    const body = await ok('/api/ptp/getMostDeadlyLocations?from=01-2024&to=12-2025');
    assert.deepEqual(body.filters, { year: null, from: '2024-01-01', to: '2025-12-31', limit: 20 });
    assert.deepEqual(body.items, [
      { ...A, crash_count: 4, died_count: 3, injured_count: 4 },
      { ...B, crash_count: 3, died_count: 1, injured_count: 4 },
    ]);
    const one = await ok('/api/ptp/getMostDeadlyLocations?from=01-2024&to=12-2025&limit=1');
    assert.deepEqual(one.items.map((i: { location_id: number }) => i.location_id), [CLUSTER_A]);
    assert.equal(one.filters.limit, 1);
  });

  test('a window whose accidents have no deaths: no clusters', async () => {
    // 06-05-2024..31-12-2024 holds a2 (A) and b2 (B), neither with a death.
    const body = await ok('/api/ptp/getMostDeadlyLocations?from=06-05-2024&to=31-12-2024');
    assert.deepEqual(body.items, []);
    assert.equal(body.count, 0);
  });

  test('from alone runs to today; to alone covers everything before it', async () => {
    const fromOnly = await ok('/api/ptp/getMostDeadlyLocations?from=01-2025');
    assert.deepEqual([fromOnly.filters.from, fromOnly.filters.to], ['2025-01-01', '2026-11-22']);
    assert.deepEqual(fromOnly.items.map((i: { location_id: number }) => i.location_id), [CLUSTER_A]);
    const toOnly = await ok('/api/ptp/getMostDeadlyLocations?to=15-03-2024');
    // Only a1 (15.03.2024 08:00, 1 death) is on or before 15-03-2024.
    assert.deepEqual(toOnly.items, [{ ...A, crash_count: 1, died_count: 1, injured_count: 0 }]);
  });
});

describe('CSV output', () => {
  test('the city list as CSV keeps the item columns and values', async () => {
    const response = await app.get('/api/ptp/getPtpPerCity?city=Sofia&format=csv');
    assert.equal(response.status, 200);
    const lines = String(response.body).trim().split(/\r?\n/);
    assert.equal(lines[0], 'crash_datetime,crash_type,ptp_place,region,municipality,location,latitude,longitude,died_count,injured_count,participant_count,is_major');
    assert.equal(lines.length, 3);
    assert.equal(lines[1], '2025-03-03T07:45:00,Блъскане между МПС,В населено място,София-град,Столична,гр. София,42.69000000,23.32000000,0,1,2,true');
  });
});
