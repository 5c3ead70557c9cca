// The bench's own table of sample sizes (bench/scales.ts): every sample source of the list of domains
// has an entry and no entry names a source that is not one, and the tiers derived from it are the
// sizes the bench has measured since 2026-11 (written out here, as the domains declared them before
// the table moved into the bench).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SCALE_NOTES, SCALED_SOURCES, TIERS } from '../../bench/data.ts';
import { scaleOf, SOURCE_SCALES } from '../../bench/scales.ts';
import { DOMAINS } from '../../domains/index.ts';
import { sampleSourcesOf } from '../../domains/registry.ts';

const samples = sampleSourcesOf(DOMAINS).map((source) => source.name);

test('every sample source has an entry, and every entry is a sample source', () => {
  assert.deepEqual([...samples].sort(), Object.keys(SOURCE_SCALES).sort());
  assert.throws(() => scaleOf('no-such-source'), /no entry for the sample source no-such-source/);
});

test('the tiers give each source the factors it had when the domains declared them', () => {
  assert.deepEqual(TIERS.map((tier) => tier.name), ['x1', 'x10', 'x100']);
  assert.deepEqual(TIERS[0]!.factors, {});
  assert.deepEqual(TIERS[1]!.factors, {
    sebra: 28.5, ptp: 17.6, agrifood: 10, trade: 10, ecb: 10, eurofxref: 10, fred: 10, 'energy-eurostat': 10, ets: 10, country: 10,
  });
  assert.deepEqual(TIERS[2]!.factors, {
    sebra: 285, ptp: 176, agrifood: 100, trade: 100, ecb: 30, eurofxref: 30, fred: 30, 'energy-eurostat': 100, ets: 100, country: 40,
  });
  // x100 >= 10 million SEBRA payment rows (the sample's 37 214) and >= 1 million accidents (the sample's 5 706).
  assert.ok(37_214 * TIERS[2]!.factors.sebra! >= 10_000_000);
  assert.ok(5_706 * TIERS[2]!.factors.ptp! >= 1_000_000);
  // The card catalogue, HICP and the WDI energy sample stay at x1.
  assert.deepEqual(samples.filter((name) => !SCALED_SOURCES.has(name)).sort(), ['cardgame', 'energy-worldbank', 'hicp']);
  assert.equal(SCALE_NOTES.get('cardgame'), 'a fixed catalogue of cards, not a series that grows: x1 at every scale');
  assert.equal(SCALE_NOTES.has('ptp'), false);
});

test('SEBRA above x1 is written in its portal-JSON form with an XLSX probe, and its floor reads a JSON copy: data, not a name test', async () => {
  const sebra = scaleOf('sebra');
  assert.ok(sebra.bulkForm && sebra.floorCopy);
  assert.match(sebra.bulkForm.note, /portal-JSON/);
  assert.match(sebra.floorCopy.note, /read_json of the portal-JSON copy/);
  // No other source has either.
  assert.deepEqual(Object.entries(SOURCE_SCALES).filter(([, scale]) => scale.bulkForm || scale.floorCopy).map(([name]) => name), ['sebra']);
});
