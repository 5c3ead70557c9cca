// Every 400 condition of the specification's Errors table for the five SEBRA operations, plus the
// conventions of DESIGN.md (unknown and duplicated parameters, format, bare-flag conflicts).
// Each row reads like the table: the request, and the parameter the error must name.
// The error body is always {"error": {"status": 400, "code": "invalid_parameter", "message", "param"}}.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { writeSebraSnapshot } from '../helpers/snapshot.ts';
import { fixtureDays, fixturePayments } from '../queries/sebra-fixture.ts';

const S = '/api/sebra';

interface Case {
  path: string;
  param: string;
}

let app: TestApp;
before(async () => {
  app = await startTestApp(await writeSebraSnapshot(fixturePayments, fixtureDays));
});
after(() => app.close());

async function expect400(path: string, param: string, headers: Record<string, string> = {}): Promise<void> {
  const response = await app.get(path, headers);
  assert.equal(response.status, 400, `${path}: expected 400, got ${response.status} ${JSON.stringify(response.body)}`);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  const body = response.body;
  assert.deepEqual(Object.keys(body), ['error'], `${path}: only an "error" member`);
  assert.deepEqual(Object.keys(body.error).sort(), ['code', 'message', 'param', 'request_id', 'status']);
  assert.equal(body.error.request_id, response.headers.get('x-request-id'), `${path}: the answer's request id`);
  assert.equal(body.error.status, 400);
  assert.equal(body.error.code, 'invalid_parameter');
  assert.equal(typeof body.error.message, 'string');
  assert.ok(body.error.message.length > 0, `${path}: empty message`);
  assert.equal(body.error.param, param, `${path}: ${body.error.message}`);
}

function table(name: string, cases: Case[]): void {
  describe(name, () => {
    for (const { path, param } of cases) {
      test(`${path} -> 400 naming ${param}`, () => expect400(path, param));
    }
  });
}

// Errors table, row "getPeriodsWithMostPayments": period missing or invalid; invalid currency;
// invalid from or to; from after to; limit < 1. (year is an integer parameter too.)
const P = `${S}/getPeriodsWithMostPayments`;
table('getPeriodsWithMostPayments', [
  { path: P, param: 'period' },
  { path: `${P}?from=01-2024`, param: 'period' },
  { path: `${P}?period=years`, param: 'period' },
  { path: `${P}?period=`, param: 'period' },
  { path: `${P}?days&currency=USD`, param: 'currency' },
  { path: `${P}?days&currency=`, param: 'currency' },
  { path: `${P}?days&from=32-01-2024`, param: 'from' },
  { path: `${P}?days&from=2024/01/01`, param: 'from' },
  { path: `${P}?days&from=31-02-2024`, param: 'from' },
  { path: `${P}?days&from=29-02-2023`, param: 'from' },
  { path: `${P}?days&from=00-2024`, param: 'from' },
  { path: `${P}?days&to=13-2024`, param: 'to' },
  { path: `${P}?days&to=32-01-2024`, param: 'to' },
  { path: `${P}?days&to=2024-02-30`, param: 'to' },
  // 01-02-2024 > 31-01-2024; MM-YYYY: from=02-2024 is 2024-02-01, to=01-2024 is 2024-01-31.
  { path: `${P}?days&from=01-02-2024&to=31-01-2024`, param: 'from' },
  { path: `${P}?months&from=02-2024&to=01-2024`, param: 'from' },
  { path: `${P}?days&limit=0`, param: 'limit' },
  { path: `${P}?days&limit=-1`, param: 'limit' },
  { path: `${P}?days&limit=abc`, param: 'limit' },
  { path: `${P}?days&year=abc`, param: 'year' },
  { path: `${P}?days&year=1800`, param: 'year' },
  // bare flags: two different flags, or a flag that contradicts period=
  { path: `${P}?days&months`, param: 'period' },
  { path: `${P}?weekdays&days`, param: 'period' },
  { path: `${P}?days&period=months`, param: 'period' },
  { path: `${P}?period=weekdays&months`, param: 'period' },
]);

// Errors table, row "getTaxonomyForYear (both forms)": year missing or invalid; invalid currency.
const TY = `${S}/getTaxonomyForYear`;
table('getTaxonomyForYear (query form and path form)', [
  { path: TY, param: 'year' },
  { path: `${TY}?currency=BGN`, param: 'year' },
  { path: `${TY}?year=abc`, param: 'year' },
  { path: `${TY}?year=20x4`, param: 'year' },
  { path: `${TY}?year=1800`, param: 'year' },
  { path: `${TY}?year=`, param: 'year' },
  { path: `${TY}?year=2024&currency=USD`, param: 'currency' },
  { path: `${TY}/abc`, param: 'year' },
  { path: `${TY}/20x4`, param: 'year' },
  { path: `${TY}/1800`, param: 'year' },
  { path: `${TY}/2024?currency=USD`, param: 'currency' },
  // a 400 comes before the 404 of a year without data (2025 has no payment day)
  { path: `${TY}/2025?currency=USD`, param: 'currency' },
]);

// Errors table, row "getTaxonomyForPeriod": from missing or invalid; invalid to; from after to; invalid currency.
const TP = `${S}/getTaxonomyForPeriod`;
table('getTaxonomyForPeriod', [
  { path: TP, param: 'from' },
  { path: `${TP}?to=31-12-2024`, param: 'from' },
  { path: `${TP}?currency=BGN`, param: 'from' },
  { path: `${TP}?from=32-01-2024`, param: 'from' },
  { path: `${TP}?from=2024/01/01`, param: 'from' },
  { path: `${TP}?from=31-02-2024`, param: 'from' },
  { path: `${TP}?from=01-2024&to=13-2024`, param: 'to' },
  { path: `${TP}?from=01-2024&to=31-02-2024`, param: 'to' },
  { path: `${TP}?from=02-2024&to=01-2024`, param: 'from' },
  // from alone: to is today (2026-11-22 in tests), so a future from is after to
  { path: `${TP}?from=01-01-2030`, param: 'from' },
  { path: `${TP}?from=01-2024&currency=USD`, param: 'currency' },
]);

// Errors table, row "getMostSponsoredProgramme, getUnusualPayments (both forms)": invalid year;
// year together with from/to; invalid from/to; invalid currency; limit < 1.
function windowedRows(name: string): Case[] {
  const Q = `${S}/${name}`;
  return [
    { path: `${Q}?year=abc`, param: 'year' },
    { path: `${Q}?year=20x4`, param: 'year' },
    { path: `${Q}?year=1800`, param: 'year' },
    { path: `${Q}/abc`, param: 'year' },
    { path: `${Q}/20x4`, param: 'year' },
    { path: `${Q}/1800`, param: 'year' },
    { path: `${Q}?year=2024&from=01-2024`, param: 'year' },
    { path: `${Q}?year=2024&to=12-2024`, param: 'year' },
    { path: `${Q}?year=2024&from=01-2024&to=12-2024`, param: 'year' },
    { path: `${Q}/2024?from=01-2024`, param: 'year' },
    { path: `${Q}/2024?to=12-2024`, param: 'year' },
    { path: `${Q}?from=32-01-2024`, param: 'from' },
    { path: `${Q}?from=2024/01/01`, param: 'from' },
    { path: `${Q}?from=31-02-2024`, param: 'from' },
    { path: `${Q}?to=13-2024`, param: 'to' },
    { path: `${Q}?from=02-2024&to=01-2024`, param: 'from' },
    { path: `${Q}?currency=USD`, param: 'currency' },
    { path: `${Q}/2024?currency=USD`, param: 'currency' },
    { path: `${Q}?limit=0`, param: 'limit' },
    { path: `${Q}?limit=-1`, param: 'limit' },
    { path: `${Q}?limit=abc`, param: 'limit' },
    { path: `${Q}/2024?limit=0`, param: 'limit' },
    { path: `${Q}/2024?limit=-1`, param: 'limit' },
    { path: `${Q}/2024?limit=abc`, param: 'limit' },
  ];
}
table('getMostSponsoredProgramme (query form and path form)', windowedRows('getMostSponsoredProgramme'));
table('getUnusualPayments (query form and path form)', windowedRows('getUnusualPayments'));

// DESIGN.md conventions that apply to every route.
table('unknown and duplicated parameters, output format', [
  { path: `${P}?days&foo=1`, param: 'foo' },
  { path: `${P}?days&Currency=BGN`, param: 'Currency' },
  { path: `${TY}/2024?bar`, param: 'bar' },
  // in the path form, year is in the path: a query year is not a parameter of that form
  { path: `${TY}/2024?year=2024`, param: 'year' },
  { path: `${S}/getMostSponsoredProgramme/2024?year=2024`, param: 'year' },
  // getTaxonomyForYear and getTaxonomyForPeriod take no from/to or year respectively
  { path: `${TY}?year=2024&from=01-2024`, param: 'from' },
  { path: `${TP}?from=01-2024&year=2024`, param: 'year' },
  { path: `${TP}?from=01-2024&limit=5`, param: 'limit' },
  { path: `${P}?days&currency=BGN&currency=EUR`, param: 'currency' },
  { path: `${P}?period=days&period=days`, param: 'period' },
  { path: `${TY}?year=2024&year=2025`, param: 'year' },
  { path: `${TY}/2024?currency=BGN&currency=BGN`, param: 'currency' },
  { path: `${TP}?from=01-2024&from=02-2024`, param: 'from' },
  { path: `${S}/getUnusualPayments?limit=1&limit=2`, param: 'limit' },
  { path: `${P}?days&format=xml`, param: 'format' },
  { path: `${TY}/2024?format=xml`, param: 'format' },
  { path: `${S}/getUnusualPayments/2024?format=csv&format=json`, param: 'format' },
]);

describe('error bodies stay JSON whatever output was asked for', () => {
  test('Accept: text/csv on an invalid request -> JSON 400', () => expect400(`${TY}/abc`, 'year', { Accept: 'text/csv' }));
  test('Accept: Arrow stream on an invalid request -> JSON 400', () =>
    expect400(`${P}?period=years`, 'period', { Accept: 'application/vnd.apache.arrow.stream' }));
  test('?format=csv on an invalid request -> JSON 400', () => expect400(`${P}?days&limit=0&format=csv`, 'limit'));
});
