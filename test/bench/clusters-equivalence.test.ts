// The PTP clustering was rewritten for scale (bench: a million accidents); this checks it gives the
// same clusters as the plain definition: every pair of sites tested with distanceM, neighbourhood
// weights summed from those lists, the same total order and greedy assignment.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CLUSTER_RADIUS_M, clusterSites, distanceM, locationIdOf, type Cluster, type Site } from '../../domains/ptp/ingest/clusters.ts';
import { Random } from '../../ingest/random.ts';

/** The definition, quadratic: for each site every other site is measured. */
function referenceClusters(sites: readonly Site[]): Cluster[] {
  const lat = sites.map((s) => Number(s.latitude));
  const lon = sites.map((s) => Number(s.longitude));
  const neighbours = sites.map((_, i) => sites.map((_, j) => j).filter((j) => distanceM(lat[i], lon[i], lat[j], lon[j]) <= CLUSTER_RADIUS_M));
  const weight = neighbours.map((list) => [list.reduce((s, j) => s + sites[j].crashes, 0), list.reduce((s, j) => s + sites[j].died, 0)]);
  const order = sites.map((_, i) => i).sort((a, b) => weight[b][0] - weight[a][0] || weight[b][1] - weight[a][1] || lat[a] - lat[b] || lon[a] - lon[b]);
  const taken = new Array<boolean>(sites.length).fill(false);
  const clusters: Cluster[] = [];
  for (const seed of order) {
    if (taken[seed]) continue;
    const members = neighbours[seed].filter((j) => !taken[j]);
    for (const j of members) taken[j] = true;
    clusters.push({ locationId: locationIdOf(lat[seed], lon[seed]), latitude: sites[seed].latitude, longitude: sites[seed].longitude, members });
  }
  return clusters;
}

function randomSites(seed: string, count: number): Site[] {
  const random = new Random(seed);
  const centres = [[42.6977, 23.3219, 0.03], [42.1354, 24.7453, 0.02], [43.2141, 27.9147, 0.01], [41.7602, 23.1614, 0.2]];
  const seen = new Set<string>();
  const sites: Site[] = [];
  while (sites.length < count) {
    const [clat, clon, spread] = centres[Math.floor(random.next() * centres.length)];
    const [dx, dy] = random.gaussianPair();
    // 8 decimals as stored; a share of sites on one latitude or one longitude, to meet ties and cell edges.
    const latitude = (random.chance(0.1) ? clat : clat + dy * spread).toFixed(8);
    const longitude = (random.chance(0.1) ? clon : clon + dx * spread).toFixed(8);
    if (seen.has(`${latitude} ${longitude}`)) continue;
    seen.add(`${latitude} ${longitude}`);
    sites.push({ latitude, longitude, crashes: 1 + Math.floor(random.next() * 3), died: random.chance(0.2) ? 1 : 0 });
  }
  return sites;
}

test('the grid clustering equals the pairwise definition on dense and sparse random sites', () => {
  for (const [seed, count] of [['dense', 2500], ['sparse', 600]] as const) {
    const sites = randomSites(seed, count);
    assert.deepEqual(clusterSites(sites), referenceClusters(sites), seed);
  }
});

test('weights too large for one sort number each (the comparator order) and sites in any input order give the same clusters', () => {
  const sites = randomSites('heavy', 800);
  // 2^44 accidents at one site: (accidents + 1) * (deaths + 1) * sites passes 2^53.
  sites[17] = { ...sites[17]!, crashes: 2 ** 44 };
  assert.deepEqual(clusterSites(sites), referenceClusters(sites));
  const shuffled = randomSites('shuffled', 1500).reverse();
  assert.deepEqual(clusterSites(shuffled), referenceClusters(shuffled));
});

test('sites exactly 2 km apart along a meridian and a parallel are neighbours as distanceM says', () => {
  // 2000 m of latitude = 2000 / (6 371 008.8 * pi / 180) degrees = 0.0179864... degrees.
  const step = 2000 / ((6_371_008.8 * Math.PI) / 180);
  const sites: Site[] = [0, 1, 2, 3].flatMap((k) => [
    { latitude: (42.5 + k * step).toFixed(8), longitude: '23.50000000', crashes: k + 1, died: k % 2 },
    { latitude: '42.40000000', longitude: (23.6 + k * step * 1.36).toFixed(8), crashes: 4 - k, died: 0 },
  ]);
  assert.deepEqual(clusterSites(sites), referenceClusters(sites));
});
