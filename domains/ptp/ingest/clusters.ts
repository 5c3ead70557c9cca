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

// ---------------------------------------------------------------------------------------------
// Neighbourhood weights without listing neighbourhoods. Listing every site's neighbours costs the
// number of pairs within 2 km, which grows with the square of the density: at a million accidents
// the dense cities alone give billions of pairs. A fine grid (FINE x FINE cells per grid cell) with
// per-row prefix sums adds the cells that lie wholly inside the circle at once and looks at single
// sites only in the cells the circle's edge crosses. The sums are exactly those of the definition:
// - near a site, the flat-earth distance with the site's own cos(latitude) is within 0.5 m of the
//   haversine distance (cos varies by under 2.3e-4 across 2 km at these latitudes), so a cell whose
//   far corner is within 1997 m on the flat map is inside the circle, and a cell nearer than 2003 m
//   may hold a neighbour;
// - a site of a crossed cell counts when its flat distance is under 1998 m, not when over 2002 m, and
//   otherwise when distanceM says so, the same test as everywhere else.
// Being within 2 km is symmetric, so each pair of rows is looked at once: a site reads its own row
// for itself only, and the rows north of it for both ends of each pair found there (it adds their
// weight to its own, and its weight to theirs: to the sites of whole cells through a per-row range
// sum, to crossed cells' neighbours directly), which halves the work. Each pair is still decided
// exactly as the definition decides it, from whichever end looks, so the sums are unchanged.
// The work per site is a few dozen rows: each row's sites lie contiguous in typed arrays, column by
// column, and a per-row table turns a column into its index without a search (its size is bounded by
// the map's width, not the data's). Rows of 1/8 of a grid cell and columns of 1/32 measured fastest:
// more rows add per-row work for every site, while narrower columns shrink the edge band the circle
// crosses at the cost of only a longer per-row table.

const FINE_LAT = CELL_LAT / 8;
const FINE_LON = CELL_LON / 32;
const METRES_PER_DEGREE = EARTH_RADIUS_M * RAD;
const WHOLE_CELL_M = CLUSTER_RADIUS_M - 3;
const MAYBE_CELL_M = CLUSTER_RADIUS_M + 3;
const SURELY_IN_M = CLUSTER_RADIUS_M - 2;
const SURELY_OUT_M = CLUSTER_RADIUS_M + 2;

interface FineRow {
  /** Occupied columns, ascending. */
  columns: Int32Array;
  /** firstAt[c - columns[0]]: index of the first occupied column >= c, for c from the first to one past the last occupied column. */
  firstAt: Int32Array;
  /** prefix[k] = sum over columns[0..k-1]. */
  crashPrefix: Float64Array;
  diedPrefix: Float64Array;
  /** The row's sites, column by column: those of columns[k] are at start[k] .. start[k + 1] - 1 of the arrays below. */
  start: Int32Array;
  lat: Float64Array;
  lon: Float64Array;
  crashes: Float64Array;
  died: Float64Array;
  /** The site index of each position. */
  site: Int32Array;
  /** Weight added to the sites of columns[k..]: a difference array, summed once every site has looked. */
  addCrashes: Float64Array;
  addDied: Float64Array;
}

/** The occupied fine rows, by row number - first (undefined: no site in the row). */
interface FineRows {
  first: number;
  rows: Array<FineRow | undefined>;
}

function buildFineRows(sites: readonly Site[], lat: Float64Array, lon: Float64Array): FineRows {
  const byRow = new Map<number, Map<number, number[]>>();
  lat.forEach((_, i) => {
    const row = Math.floor(lat[i] / FINE_LAT);
    const column = Math.floor(lon[i] / FINE_LON);
    let cells = byRow.get(row);
    if (!cells) byRow.set(row, (cells = new Map()));
    const cell = cells.get(column);
    if (cell) cell.push(i);
    else cells.set(column, [i]);
  });
  const numbers = [...byRow.keys()];
  const first = Math.min(...numbers);
  const rows: Array<FineRow | undefined> = new Array(numbers.length === 0 ? 0 : Math.max(...numbers) - first + 1);
  for (const [row, cells] of byRow) {
    const columns = Int32Array.from([...cells.keys()].sort((a, b) => a - b));
    const crashPrefix = new Float64Array(columns.length + 1);
    const diedPrefix = new Float64Array(columns.length + 1);
    const start = new Int32Array(columns.length + 1);
    const count = [...cells.values()].reduce((sum, cell) => sum + cell.length, 0);
    const firstAt = new Int32Array(columns[columns.length - 1]! - columns[0]! + 2);
    for (let k = 0, c = columns[0]!; c <= columns[columns.length - 1]! + 1; c++) {
      while (k < columns.length && columns[k]! < c) k++;
      firstAt[c - columns[0]!] = k;
    }
    const fine: FineRow = {
      columns, firstAt, crashPrefix, diedPrefix, start,
      lat: new Float64Array(count), lon: new Float64Array(count), crashes: new Float64Array(count), died: new Float64Array(count),
      site: new Int32Array(count), addCrashes: new Float64Array(columns.length + 1), addDied: new Float64Array(columns.length + 1),
    };
    let at = 0;
    columns.forEach((column, k) => {
      const cell = cells.get(column)!;
      start[k] = at;
      for (const j of cell) {
        fine.lat[at] = lat[j];
        fine.lon[at] = lon[j];
        fine.crashes[at] = sites[j].crashes;
        fine.died[at] = sites[j].died;
        fine.site[at] = j;
        at++;
      }
      crashPrefix[k + 1] = crashPrefix[k] + cell.reduce((sum, j) => sum + sites[j].crashes, 0);
      diedPrefix[k + 1] = diedPrefix[k] + cell.reduce((sum, j) => sum + sites[j].died, 0);
    });
    start[columns.length] = at;
    rows[row - first] = fine;
  }
  return { first, rows };
}

/** Index of the first occupied column >= column. */
function lowerBound(row: FineRow, column: number): number {
  const offset = column - row.columns[0]!;
  if (offset <= 0) return 0;
  return offset >= row.firstAt.length ? row.columns.length : row.firstAt[offset]!;
}

/** Accidents and deaths within CLUSTER_RADIUS_M of each site (itself included), by site. */
interface Weights {
  crashes: Float64Array;
  died: Float64Array;
}

function neighbourhoodWeights(sites: readonly Site[], lat: Float64Array, lon: Float64Array): Weights {
  const { first, rows } = buildFineRows(sites, lat, lon);
  const weights: Weights = { crashes: new Float64Array(sites.length), died: new Float64Array(sites.length) };
  for (let i = 0; i < sites.length; i++) {
    const lat0 = lat[i];
    const lon0 = lon[i];
    const ky = METRES_PER_DEGREE;
    const kx = METRES_PER_DEGREE * Math.cos(lat0 * RAD);
    const ownCrashes = sites[i].crashes;
    const ownDied = sites[i].died;
    let crashes = 0;
    let died = 0;
    // Rows below are read by their own sites (a neighbour is at most CELL_LAT north).
    const ownRow = Math.floor(lat0 / FINE_LAT);
    const lastRow = Math.floor((lat0 + CELL_LAT) / FINE_LAT) + 1;
    for (let r = ownRow; r <= lastRow; r++) {
      // North of its own row a site counts for both ends of a pair.
      const both = r > ownRow;
      const row = rows[r - first];
      if (row === undefined) continue;
      const low = (r * FINE_LAT - lat0) * ky;
      const high = ((r + 1) * FINE_LAT - lat0) * ky;
      const near = low > 0 ? low : high < 0 ? -high : 0;
      const far = Math.max(Math.abs(low), Math.abs(high));
      if (near > MAYBE_CELL_M) continue;
      const reach = Math.sqrt(MAYBE_CELL_M * MAYBE_CELL_M - near * near) / kx;
      const from = lowerBound(row, Math.floor((lon0 - reach) / FINE_LON));
      const to = lowerBound(row, Math.floor((lon0 + reach) / FINE_LON) + 1);
      // Whole cells: columns c with c * FINE_LON >= lon0 - inner and (c + 1) * FINE_LON <= lon0 + inner.
      let wholeFrom = to;
      let wholeTo = to;
      if (far < WHOLE_CELL_M) {
        const inner = Math.sqrt(WHOLE_CELL_M * WHOLE_CELL_M - far * far) / kx;
        wholeFrom = Math.max(from, lowerBound(row, Math.ceil((lon0 - inner) / FINE_LON)));
        wholeTo = Math.min(to, Math.max(wholeFrom, lowerBound(row, Math.floor((lon0 + inner) / FINE_LON))));
        crashes += row.crashPrefix[wholeTo] - row.crashPrefix[wholeFrom];
        died += row.diedPrefix[wholeTo] - row.diedPrefix[wholeFrom];
        if (both && wholeTo > wholeFrom) {
          row.addCrashes[wholeFrom] += ownCrashes;
          row.addCrashes[wholeTo] -= ownCrashes;
          row.addDied[wholeFrom] += ownDied;
          row.addDied[wholeTo] -= ownDied;
        }
      }
      // The sites of the cells the circle's edge may cross: before and after the whole ones.
      for (let part = 0; part < 2; part++) {
        const begin = part === 0 ? row.start[from]! : row.start[wholeTo > wholeFrom ? wholeTo : to]!;
        const end = part === 0 ? row.start[wholeTo > wholeFrom ? wholeFrom : to]! : row.start[to]!;
        for (let t = begin; t < end; t++) {
          const dx = (row.lon[t] - lon0) * kx;
          const dy = (row.lat[t] - lat0) * ky;
          const flat = dx * dx + dy * dy;
          const inside = flat < SURELY_IN_M * SURELY_IN_M
            || (flat <= SURELY_OUT_M * SURELY_OUT_M && distanceM(lat0, lon0, row.lat[t], row.lon[t]) <= CLUSTER_RADIUS_M);
          if (inside) {
            crashes += row.crashes[t];
            died += row.died[t];
            if (both) {
              weights.crashes[row.site[t]] += ownCrashes;
              weights.died[row.site[t]] += ownDied;
            }
          }
        }
      }
    }
    weights.crashes[i] += crashes;
    weights.died[i] += died;
  }
  for (const row of rows) {
    if (row === undefined) continue;
    let addCrashes = 0;
    let addDied = 0;
    for (let k = 0; k < row.columns.length; k++) {
      addCrashes += row.addCrashes[k];
      addDied += row.addDied[k];
      for (let t = row.start[k]; t < row.start[k + 1]; t++) {
        weights.crashes[row.site[t]] += addCrashes;
        weights.died[row.site[t]] += addDied;
      }
    }
  }
  return weights;
}

/** The 2 km grid for the greedy step: a site's unassigned neighbours, with assigned sites dropped as they go. */
class ShrinkingGrid {
  private readonly cells = new Map<string, number[]>();
  constructor(private readonly lat: Float64Array, private readonly lon: Float64Array) {
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
  /** Unassigned sites within the radius of site `seed`, ascending; they are marked assigned and leave the grid. */
  take(seed: number, taken: boolean[]): number[] {
    const row = Math.floor(this.lat[seed] / CELL_LAT);
    const column = Math.floor(this.lon[seed] / CELL_LON);
    const found: number[] = [];
    for (let r = row - 1; r <= row + 1; r++) {
      for (let c = column - 1; c <= column + 1; c++) {
        const key = this.key(r, c);
        const cell = this.cells.get(key);
        if (!cell) continue;
        const kept: number[] = [];
        for (const i of cell) {
          if (taken[i]) continue;
          if (distanceM(this.lat[seed], this.lon[seed], this.lat[i], this.lon[i]) <= CLUSTER_RADIUS_M) found.push(i);
          else kept.push(i);
        }
        this.cells.set(key, kept);
      }
    }
    for (const i of found) taken[i] = true;
    return found.sort((a, b) => a - b);
  }
}

/** Whether the sites come in ascending (latitude, longitude) order, as the snapshot reads them. */
function inPlaceOrder(lat: Float64Array, lon: Float64Array): boolean {
  for (let i = 1; i < lat.length; i++) {
    if (lat[i - 1] > lat[i] || (lat[i - 1] === lat[i] && lon[i - 1] >= lon[i])) return false;
  }
  return true;
}

/**
 * The sites in step 2's order: most accidents, then most deaths in the neighbourhood, then latitude,
 * then longitude. While the weights are small enough, one number per site sorts the same way:
 * (the weight's distance from the largest) * sites + the site's place in (latitude, longitude)
 * order, exact below 2^53; a numeric sort of those is several times faster than a comparator.
 */
function seedOrder(weight: Weights, lat: Float64Array, lon: Float64Array): Int32Array {
  const n = lat.length;
  const byPlace = new Int32Array(n);
  for (let i = 0; i < n; i++) byPlace[i] = i;
  if (!inPlaceOrder(lat, lon)) byPlace.sort((a, b) => lat[a] - lat[b] || lon[a] - lon[b]);
  let mostCrashes = 0;
  let mostDied = 0;
  for (let i = 0; i < n; i++) {
    mostCrashes = Math.max(mostCrashes, weight.crashes[i]);
    mostDied = Math.max(mostDied, weight.died[i]);
  }
  const span = (mostCrashes + 1) * (mostDied + 1);
  if (span * n >= 2 ** 53) {
    return byPlace.sort((a, b) => weight.crashes[b] - weight.crashes[a] || weight.died[b] - weight.died[a] || lat[a] - lat[b] || lon[a] - lon[b]);
  }
  const keys = new Float64Array(n);
  for (let place = 0; place < n; place++) {
    const i = byPlace[place];
    keys[place] = (span - 1 - (weight.crashes[i] * (mostDied + 1) + weight.died[i])) * n + place;
  }
  keys.sort();
  const order = new Int32Array(n);
  for (let k = 0; k < n; k++) order[k] = byPlace[keys[k] % n];
  return order;
}

/**
 * Greedy density clustering:
 * 1. each site's neighbourhood = the sites within 2 km (itself included); its weight = the accidents
 *    there, then the deaths there;
 * 2. sites are taken by weight (most accidents, then most deaths, then latitude, then longitude:
 *    a total order, since two sites never share both coordinates);
 * 3. a site not yet in a cluster seeds a new one and takes every unclustered site within 2 km of it.
 * The seed is the centre. The result depends only on the set of sites, not on their input order.
 * (Sites lie south of 45 N, where 2 km never spans more than one grid cell.)
 */
export function clusterSites(sites: readonly Site[]): Cluster[] {
  const lat = Float64Array.from(sites, (s) => Number(s.latitude));
  const lon = Float64Array.from(sites, (s) => Number(s.longitude));
  const weight = neighbourhoodWeights(sites, lat, lon);
  const order = seedOrder(weight, lat, lon);
  const grid = new ShrinkingGrid(lat, lon);
  const taken = new Array<boolean>(sites.length).fill(false);
  const clusters: Cluster[] = [];
  for (const seed of order) {
    if (taken[seed]) continue;
    const members = grid.take(seed, taken);
    clusters.push({
      locationId: locationIdOf(lat[seed], lon[seed]),
      latitude: sites[seed].latitude,
      longitude: sites[seed].longitude,
      members,
    });
  }
  return clusters;
}
