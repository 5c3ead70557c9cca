// isoToday keeps the last second it formatted per time zone: the day must still change exactly at
// the zone's midnight, and zones must not see each other's day.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isoToday } from '../../queries/shared/window.ts';

test('isoToday changes at the zone\'s midnight, also within a remembered second', () => {
  // Sofia is UTC+2 in November: its midnight is 22:00:00.000Z.
  assert.equal(isoToday(new Date('2026-11-24T21:59:59.000Z'), 'Europe/Sofia'), '2026-11-24');
  assert.equal(isoToday(new Date('2026-11-24T21:59:59.999Z'), 'Europe/Sofia'), '2026-11-24');
  assert.equal(isoToday(new Date('2026-11-24T22:00:00.000Z'), 'Europe/Sofia'), '2026-11-25');
  // The same instant in another zone, then back: each zone its own day.
  assert.equal(isoToday(new Date('2026-11-24T22:00:00.000Z'), 'UTC'), '2026-11-24');
  assert.equal(isoToday(new Date('2026-11-24T22:00:00.500Z'), 'Europe/Sofia'), '2026-11-25');
  // Going back in time (an injected clock may): the earlier day again.
  assert.equal(isoToday(new Date('2026-11-24T21:59:59.500Z'), 'Europe/Sofia'), '2026-11-24');
  assert.throws(() => isoToday(new Date(Number.NaN), 'Europe/Sofia'), RangeError);
});
