// The 2 km clustering on hand-made sites: distances, seeds, membership, ids, and independence from
// the input order.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CLUSTER_RADIUS_M, clusterSites, distanceM, locationIdOf, type Site } from '../../domains/ptp/ingest/clusters.ts';

const site = (latitude: string, longitude: string, crashes = 1, died = 0): Site => ({ latitude, longitude, crashes, died });

test('distance: 0.01 degree of latitude is 1111.95 m on the mean sphere; symmetric', () => {
  // 6371008.8 * 0.01 * pi / 180 = 1111.950...
  assert.ok(Math.abs(distanceM(42.1, 24.75, 42.11, 24.75) - 1111.95) < 0.01);
  // Along a parallel at 42 N a degree of longitude is cos(42°) of that: 0.01° = 826.34 m.
  assert.ok(Math.abs(distanceM(42, 24, 42, 24.01) - 1111.95 * Math.cos((42 * Math.PI) / 180)) < 0.01);
  assert.equal(distanceM(42.1, 24.75, 43.2, 27.9), distanceM(43.2, 27.9, 42.1, 24.75));
});

test('location ids come from the centre: latitude and longitude in 1e-4 degree units', () => {
  assert.equal(locationIdOf(42.6977, 23.3219), 426977233219);
  assert.equal(locationIdOf(41.75824500, 23.16115200), 417582231612);
});

test('the densest site seeds first and takes every unclustered site within 2 km', () => {
  // A row of sites 0.015 degree (1667.9 m) apart on one meridian: 0 -- 1 -- 2 -- 3.
  // Neighbourhoods: 0:{0,1}=2, 1:{0,1,2}=3, 2:{1,2,3}=3, 3:{2,3}=2 accidents.
  // Sites 1 and 2 tie on 3; deaths decide: site 3 has a death, so 2's neighbourhood has 1, 1's has 0.
  // Seed 2 takes {1, 2, 3}; then 0 is alone.
  const sites = [site('42.10000000', '24.75000000'), site('42.11500000', '24.75000000'), site('42.13000000', '24.75000000'), site('42.14500000', '24.75000000', 1, 1)];
  const clusters = clusterSites(sites);
  assert.deepEqual(clusters.map((c) => [c.locationId, c.latitude, c.longitude, c.members]), [
    [421300247500, '42.13000000', '24.75000000', [1, 2, 3]],
    [421000247500, '42.10000000', '24.75000000', [0]],
  ]);
});

test('exactly 2000 m belongs to the cluster; just beyond does not', () => {
  const step = CLUSTER_RADIUS_M / 111195.0797; // degrees of latitude for 2000 m (R * pi / 180 = 111195.08 m)
  const inside = (Math.floor((42 + step) * 1e8) / 1e8).toFixed(8); // up to 1 mm short of 2000 m
  const outside = (Math.ceil((42 + step) * 1e8) / 1e8 + 1e-7).toFixed(8); // about 1 cm beyond
  const near = clusterSites([site('42.00000000', '25.00000000', 2), site(inside, '25.00000000')]);
  assert.equal(near.length, 1);
  const far = clusterSites([site('42.00000000', '25.00000000', 2), site(outside, '25.00000000')]);
  assert.equal(far.length, 2);
});

test('the result does not depend on the order of the sites', () => {
  const sites: Site[] = [];
  // A deterministic scatter of 300 sites around two cities.
  let state = 7;
  const next = () => ((state = (state * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let i = 0; i < 300; i++) {
    const [lat, lon] = i % 2 ? [42.6977, 23.3219] : [42.1354, 24.7453];
    sites.push(site((lat + (next() - 0.5) * 0.1).toFixed(8), (lon + (next() - 0.5) * 0.1).toFixed(8), 1 + Math.floor(next() * 3), next() < 0.1 ? 1 : 0));
  }
  const canonical = (list: Site[]) =>
    clusterSites(list)
      .map((c) => `${c.locationId}:${c.members.map((i) => `${list[i].latitude},${list[i].longitude}`).sort().join(';')}`)
      .sort();
  const reversed = [...sites].reverse();
  const rotated = [...sites.slice(137), ...sites.slice(0, 137)];
  assert.deepEqual(canonical(reversed), canonical(sites));
  assert.deepEqual(canonical(rotated), canonical(sites));
  // Every member is within 2 km of its centre, and every site is in exactly one cluster.
  const clusters = clusterSites(sites);
  const seen = new Set<number>();
  for (const c of clusters) {
    for (const i of c.members) {
      assert.ok(distanceM(Number(c.latitude), Number(c.longitude), Number(sites[i].latitude), Number(sites[i].longitude)) <= CLUSTER_RADIUS_M);
      assert.ok(!seen.has(i));
      seen.add(i);
    }
  }
  assert.equal(seen.size, sites.length);
});
