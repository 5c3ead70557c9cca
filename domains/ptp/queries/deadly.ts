// getMostDeadlyLocations: the location clusters (2 km, computed at ingest) ranked by the deaths of
// their accidents inside the window, then by accident count, then by location_id (a total order).
// Each cluster's window totals are two lookups in its running totals (deadlyIndex.ts); clusters
// without a death in the window are left out.
import type { Row } from '../../../engine/json.ts';
import { defineRoute } from '../../../queries/catalog.ts';
import type { Resolved } from '../../../queries/kinds/index.ts';
import { clusterIndex, deadlyClusters } from './deadlyIndex.ts';
import { DEADLY_LIMIT_DEFAULT, deadlyLimit, deadlyWindow, windowBindings, windowFilters } from './params.ts';
import { deadlyResponse } from './schemas.ts';

const deadlyInputs = { window: deadlyWindow, clusters: deadlyLimit };

export const getMostDeadlyLocations = defineRoute<Resolved<typeof deadlyInputs>>({
  id: 'getMostDeadlyLocations',
  method: 'GET',
  tag: 'ptp',
  paths: ['/api/ptp/getMostDeadlyLocations', '/api/ptp/getMostDeadlyLocations/{year}'],
  examples: [
    '/api/ptp/getMostDeadlyLocations?from=01-2024&to=12-2025&limit=10',
    '/api/ptp/getMostDeadlyLocations/2025',
  ],
  summary: 'Crash locations (2 km clusters) with the most road deaths in a window',
  description:
    'Accident locations are grouped once, at ingest, into clusters of radius 2 km around a centre (greedy, densest ' +
    'first; see docs/ptp-clusters.md). For the window (a year or from/to, required) each cluster sums the deaths, ' +
    'injuries and accidents reported inside it; clusters without a death are left out. Sorted by deaths, then ' +
    `accidents, then location_id. limit: default ${DEADLY_LIMIT_DEFAULT}, at most 200.`,
  paid: true,
  params: {},
  inputs: deadlyInputs,
  response: deadlyResponse,
  listRows: (body) => body.items as Row[],
  async handle(params, { db }) {
    const limit = params.clusters.limit ?? DEADLY_LIMIT_DEFAULT;
    const { from, to } = windowBindings(params.window);
    const ranked = deadlyClusters(await clusterIndex(db), from, to).slice(0, limit);
    const items: Row[] = ranked.map(({ cluster, crashCount, diedCount, injuredCount }) => ({
      ...cluster.location,
      crash_count: crashCount,
      died_count: diedCount,
      injured_count: injuredCount,
    }));
    return {
      endpoint: 'getMostDeadlyLocations',
      filters: { ...windowFilters(params.window), limit },
      count: items.length,
      items,
    };
  },
});
