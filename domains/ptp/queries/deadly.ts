// getMostDeadlyLocations: the location clusters (2 km, computed at ingest) ranked by the deaths of
// their accidents inside the window, then by accident count, then by location_id (a total order).
import type { Row } from '../../../engine/json.ts';
import { defineRoute } from '../../../queries/catalog.ts';
import type { Resolved } from '../../../queries/kinds/index.ts';
import { DEADLY_LIMIT_DEFAULT, deadlyLimit, deadlyWindow, WINDOW_SQL, windowBindings, windowFilters } from './params.ts';
import { deadlyResponse } from './schemas.ts';

// Sums only the window's accidents of each cluster; clusters without a death in it are left out.
const DEADLY_SQL = `
  WITH sums AS (
    SELECT location_id, count(*)::INTEGER AS crash_count, sum(died_count)::INTEGER AS died_count,
           sum(injured_count)::INTEGER AS injured_count
      FROM ptp_crashes
     WHERE location_id IS NOT NULL AND ${WINDOW_SQL}
     GROUP BY location_id
    HAVING sum(died_count) > 0
  )
  SELECT l.location_id, l.latitude, l.longitude, l.radius_m, l.region, l.location, s.crash_count, s.died_count, s.injured_count
    FROM sums s JOIN ptp_locations l USING (location_id)
   ORDER BY s.died_count DESC, s.crash_count DESC, l.location_id
   LIMIT $limit`;

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
    const items = await db.all(DEADLY_SQL, { ...windowBindings(params.window), limit });
    return {
      endpoint: 'getMostDeadlyLocations',
      filters: { ...windowFilters(params.window), limit },
      count: items.length,
      items,
    };
  },
});
