// Query values that loose coercion would have let through, and two messages that must make sense.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { writeSebraSnapshot } from '../helpers/snapshot.ts';
import { fixtureDays, fixturePayments } from '../queries/sebra-fixture.ts';

let app: TestApp;
before(async () => {
  app = await startTestApp(await writeSebraSnapshot(fixturePayments, fixtureDays));
});
after(() => app.close());

const PERIODS = '/api/sebra/getPeriodsWithMostPayments?days&';
const rejected: Array<[string, string]> = [
  [`${PERIODS}limit=1e400`, 'limit'], // would coerce to Infinity
  [`${PERIODS}limit=1e3`, 'limit'],
  [`${PERIODS}limit=0x10`, 'limit'], // would coerce to 16
  [`${PERIODS}limit=%205`, 'limit'], // " 5"
  [`${PERIODS}limit=5.0`, 'limit'],
  ['/api/sebra/getTaxonomyForYear?year=2024.0', 'year'],
  ['/api/sebra/getTaxonomyForYear?year=%2B2024', 'year'], // "+2024"
  ['/api/sebra/getTaxonomyForYear/0x7E8', 'year'],
];

for (const [path, param] of rejected) {
  test(`400 ${path}`, async () => {
    const { status, body } = await app.get(path);
    assert.equal(status, 400);
    assert.equal(body.error.param, param);
  });
}

test('plain decimals are still read as numbers', async () => {
  const { status, body } = await app.get(`${PERIODS}limit=2&year=2024`);
  assert.equal(status, 200);
  assert.deepEqual([body.filters.limit, body.filters.year, body.count], [2, 2024, 2]);
});

test('a path parameter repeated in the query is named as such', async () => {
  const { status, body } = await app.get('/api/sebra/getTaxonomyForYear/2024?year=2024');
  assert.equal(status, 400);
  assert.equal(body.error.param, 'year');
  assert.match(body.error.message, /given in the path/);
});

test('year and from/to that do not overlap: 404 saying the window is empty', async () => {
  const { status, body } = await app.get(`${PERIODS}year=2024&from=01-01-2026`);
  assert.equal(status, 404);
  assert.equal(body.error.code, 'not_found');
  assert.match(body.error.message, /window is empty/);
});
