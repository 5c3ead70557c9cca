// Deadly-location clusters: crash sites grouped within a 2 km radius of a centre, computed once per
// ingest over every accident with coordinates. See docs/ptp-clusters.md for the algorithm and why it
// is deterministic. Pure functions: the snapshot writer feeds sites in and stores the assignment.

export const CLUSTER_RADIUS_M = 2000;
/** Mean Earth radius (IUGG), metres. */
const EARTH_RADIUS_M = 6_371_008.8;

/** One distinct coordinate pair of the data and the accidents reported there. */
export interface Site {
  /** The stored decimals (8 places), kept as text so identity is exact. */
  latitude: string;
  longitude: string;
  crashes: number;
  died: number;
}

export interface Cluster {
  locationId: number;
  /** The centre is the seed site: every member lies within CLUSTER_RADIUS_M of it. */
  latitude: string;
  longitude: string;
  /** Indexes into the input sites. */
  members: number[];
}

const RAD = Math.PI / 180;

/** Great-circle distance in metres (haversine on the mean sphere); symmetric in its arguments. */
export function distanceM(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = Math.sin(((lat2 - lat1) * RAD) / 2);
  const dLon = Math.sin(((lon2 - lon1) * RAD) / 2);
  const h = dLat * dLat + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * dLon * dLon;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * A stable id from the centre's coordinates: latitude and longitude in units of 1e-4 degree
 * (about 11 m), as latE4 * 1e6 + lonE4 (42.6977, 23.3219 -> 426977233219). Two centres are more
 * than 2 km apart, so ids never collide; the id survives any later ingest that keeps the centre.
 */
export function locationIdOf(latitude: number, longitude: number): number {
  return Math.round(latitude * 1e4) * 1e6 + Math.round(longitude * 1e4);
}

// Grid cells at least 2 km wide everywhere in 40..45 N, so a site's neighbours lie in the 3x3 block.
const CELL_LAT = CLUSTER_RADIUS_M / (EARTH_RADIUS_M * RAD);
const CELL_LON = CELL_LAT / Math.cos(45 * RAD);

class Grid {
  private readonly cells = new Map<string, number[]>();
  constructor(private readonly lat: number[], private readonly lon: number[]) {
    lat.forEach((_, i) => {
      const key = this.key(Math.floor(lat[i] / CELL_LAT), Math.floor(lon[i] / CELL_LON));
      const cell = this.cells.get(key);
      if (cell) cell.push(i);
      else this.cells.set(key, [i]);
    });
  }
  private key(row: number, column: number): string {
    return `${row}:${column}`;
  }
  /** Indexes of the sites within the radius of (lat, lon), ascending. */
  within(lat: number, lon: number): number[] {
    const row = Math.floor(lat / CELL_LAT);
    const column = Math.floor(lon / CELL_LON);
    const found: number[] = [];
    for (let r = row - 1; r <= row + 1; r++) {
      for (let c = column - 1; c <= column + 1; c++) {
        for (const i of this.cells.get(this.key(r, c)) ?? []) {
          if (distanceM(lat, lon, this.lat[i], this.lon[i]) <= CLUSTER_RADIUS_M) found.push(i);
        }
      }
    }
    return found.sort((a, b) => a - b);
  }
}

/**
 * Greedy density clustering:
 * 1. each site's neighbourhood = the sites within 2 km (itself included); its weight = the accidents
 *    there, then the deaths there;
 * 2. sites are taken by weight (most accidents, then most deaths, then latitude, then longitude:
 *    a total order, since two sites never share both coordinates);
 * 3. a site not yet in a cluster seeds a new one and takes every unclustered site within 2 km of it.
 * The seed is the centre. The result depends only on the set of sites, not on their input order.
 */
export function clusterSites(sites: readonly Site[]): Cluster[] {
  const lat = sites.map((s) => Number(s.latitude));
  const lon = sites.map((s) => Number(s.longitude));
  const grid = new Grid(lat, lon);
  const neighbours = sites.map((_, i) => grid.within(lat[i], lon[i]));
  const weight = neighbours.map((list) => [
    list.reduce((sum, j) => sum + sites[j].crashes, 0),
    list.reduce((sum, j) => sum + sites[j].died, 0),
  ]);
  const order = sites.map((_, i) => i).sort(
    (a, b) => weight[b][0] - weight[a][0] || weight[b][1] - weight[a][1] || lat[a] - lat[b] || lon[a] - lon[b],
  );
  const taken = new Array<boolean>(sites.length).fill(false);
  const clusters: Cluster[] = [];
  for (const seed of order) {
    if (taken[seed]) continue;
    const members = neighbours[seed].filter((j) => !taken[j]);
    for (const j of members) taken[j] = true;
    clusters.push({
      locationId: locationIdOf(lat[seed], lon[seed]),
      latitude: sites[seed].latitude,
      longitude: sites[seed].longitude,
      members,
    });
  }
  return clusters;
}
