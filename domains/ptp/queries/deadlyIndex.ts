// The location clusters' accidents held as running totals in JavaScript, read once per database on
// first use (one row per cluster and day of ptp_location_days: about 420 000 at x100, 7 MB of typed
// arrays). A window's totals of a cluster are then two binary searches, whatever the window's length,
// so the deadly ranking costs O(clusters) (1 800 at x100) instead of a scan of the window's accidents.
import type { Row } from '../../../engine/json.ts';
import { estimatedRowBytes, requiredHeldView, type HeldRows } from '../../../engine/held.ts';
import { firstAtOrAfter } from '../../../queries/shared/sortedDays.ts';
import { dayNumber } from './runIndex.ts';

interface ClusterDays {
  locationId: number;
  /** The cluster as served (location_id .. location), read through the same conversion as any answer. */
  location: Row;
  /** Days (yyyymmdd) with accidents of the cluster, oldest first. */
  days: Int32Array;
  /** Running totals: [i] = the sum over days[0 .. i-1]; [days.length] = the cluster's whole total. */
  crashes: Int32Array;
  died: Int32Array;
  injured: Int32Array;
}

/** A cluster's totals over a window. */
export interface ClusterTotals {
  cluster: ClusterDays;
  crashCount: number;
  diedCount: number;
  injuredCount: number;
}

const LOCATION_FIELDS = 'location_id, latitude, longitude, radius_m, region, location';

function buildClusters({ locations: locationRows, days }: HeldRows): ClusterDays[] {
  const locations = new Map<number, Row>();
  for (const row of locationRows) locations.set(Number(row.location_id), row);
  const numbers = (text: unknown) => String(text).split(',').map(Number);
  const running = (values: number[]) => {
    const totals = new Int32Array(values.length + 1);
    for (let i = 0; i < values.length; i++) totals[i + 1] = totals[i] + values[i];
    return totals;
  };
  const clusters: ClusterDays[] = [];
  for (const row of days) {
    const locationId = Number(row.location_id);
    const location = locations.get(locationId);
    // The ranking joined the clusters table: an accident's cluster without a row there is not served.
    if (!location) continue;
    clusters.push({
      locationId,
      location,
      days: Int32Array.from(numbers(row.days)),
      crashes: running(numbers(row.crashes)),
      died: running(numbers(row.died)),
      injured: running(numbers(row.injured)),
    });
  }
  return clusters;
}

/** The clusters of this database (required: the deadly ranking has no other statement). */
export const clusterIndex = requiredHeldView<ClusterDays[]>({
  name: 'ptp.clusterIndex',
  sql: {
    locations: `SELECT ${LOCATION_FIELDS} FROM ptp_locations`,
    // One row per cluster, its days' columns as comma-separated text (1 800 rows instead of 420 000).
    days: `SELECT location_id,
        string_agg(CAST(day AS VARCHAR), ',' ORDER BY day) AS days, string_agg(CAST(crashes AS VARCHAR), ',' ORDER BY day) AS crashes,
        string_agg(CAST(died AS VARCHAR), ',' ORDER BY day) AS died, string_agg(CAST(injured AS VARCHAR), ',' ORDER BY day) AS injured
      FROM ptp_location_days GROUP BY location_id ORDER BY location_id`,
  },
  key: ['location_id'],
  order: 'day',
  rowsMax: 1_000_000,
  bytesMax: 256 * 2 ** 20,
  build: buildClusters,
  bytesOf: (clusters, { locations }) => clusters.reduce((bytes, cluster) => bytes + 64 + cluster.days.byteLength + cluster.crashes.byteLength
    + cluster.died.byteLength + cluster.injured.byteLength, 0) + locations.reduce((bytes, row) => bytes + estimatedRowBytes(row), 0),
  parity: [
    {
      part: 'days of a cluster',
      probes: `SELECT DISTINCT location_id FROM ptp_location_days ORDER BY hash(location_id), location_id LIMIT 30`,
      keyed: `SELECT day, crashes, died, injured FROM ptp_location_days
        WHERE location_id = $location_id AND location_id IN (SELECT location_id FROM ptp_locations) ORDER BY day`,
      answer: (clusters, probe) => {
        const cluster = clusters.find((entry) => entry.locationId === Number(probe.location_id));
        if (!cluster) return [];
        const step = (totals: Int32Array, i: number) => totals[i + 1] - totals[i];
        return Array.from(cluster.days, (day, i) => ({ day, crashes: step(cluster.crashes, i), died: step(cluster.died, i), injured: step(cluster.injured, i) }));
      },
    },
    {
      part: 'the cluster as served',
      probes: `SELECT DISTINCT location_id FROM ptp_location_days ORDER BY hash(location_id), location_id LIMIT 30`,
      keyed: `SELECT ${LOCATION_FIELDS} FROM ptp_locations WHERE location_id = $location_id AND location_id IN (SELECT location_id FROM ptp_location_days)`,
      answer: (clusters, probe) => clusters.filter((entry) => entry.locationId === Number(probe.location_id)).map((entry) => entry.location),
    },
  ],
});

/**
 * Every cluster with at least one death in the window [from, to] (ISO dates), with its totals there,
 * ordered by deaths, then accidents (both descending), then location_id: a total order.
 */
export function deadlyClusters(clusters: readonly ClusterDays[], from: string, to: string): ClusterTotals[] {
  const first = dayNumber(from);
  const after = dayNumber(to) + 1;
  const found: ClusterTotals[] = [];
  for (const cluster of clusters) {
    const lo = firstAtOrAfter(cluster.days, first);
    const hi = Math.max(lo, firstAtOrAfter(cluster.days, after));
    const diedCount = cluster.died[hi] - cluster.died[lo];
    if (diedCount <= 0) continue;
    found.push({
      cluster,
      diedCount,
      crashCount: cluster.crashes[hi] - cluster.crashes[lo],
      injuredCount: cluster.injured[hi] - cluster.injured[lo],
    });
  }
  return found.sort(
    (a, b) => b.diedCount - a.diedCount || b.crashCount - a.crashCount || a.cluster.locationId - b.cluster.locationId,
  );
}
