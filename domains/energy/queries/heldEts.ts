// The ETS registry totals (ets_registry_years: one row per registry and year, 372 rows at x10 and at
// x100 alike) held in JavaScript per database. The summary's statement (the chosen year, its total and
// the ordered page, joined) cost 5-7 ms of DuckDB's per-operator work for a few dozen rows; the
// installations' statement spent 1-2 ms of its cost on the registry's latest year. The rows are the
// statement's own (db.all, the same converter). Held only where JavaScript reads them as SQL does:
// printable ASCII registry codes (byte order), sums that are exact numbers (a BIGINT past 2^53 comes
// back as text). Above ROWS_MAX rows the statements are kept.
import type { Row } from '../../../engine/json.ts';
import { heldView } from '../../../engine/held.ts';
import { integerAsJson, ordersAlike } from '../../../engine/heldGuards.ts';

const ROWS_MAX = 100_000;

export interface RegistryYear {
  registry_code: string;
  geo: string | null;
  year: number;
  installation_count: number;
  verified_emissions_sum: number;
  allocation_sum: number | string | null;
}

export interface HeldEtsYears {
  rows: readonly RegistryYear[];
  /** Per registry, its latest year with verified emissions. */
  latestYear: ReadonlyMap<string, number>;
  /** The latest year over every registry (null: no rows). */
  latestOverall: number | null;
}

const ETS_SQL = 'SELECT registry_code, geo, year, installation_count, verified_emissions_sum, allocation_sum FROM ets_registry_years';

/** The held registry totals, or null when too many or not exactly representable. */
export const heldEtsYears = heldView<HeldEtsYears>({
  name: 'energy.etsYears',
  sql: { rows: ETS_SQL },
  count: 'SELECT count(*)::INTEGER AS n FROM ets_registry_years',
  key: ['registry_code', 'year'],
  order: '(any: the routes order them)',
  rowsMax: ROWS_MAX,
  bytesMax: 32 * 2 ** 20,
  build: ({ rows: read }) => {
    const rows: RegistryYear[] = [];
    const latestYear = new Map<string, number>();
    let latestOverall: number | null = null;
    for (const row of read) {
      const { registry_code: code, year, verified_emissions_sum: sum } = row;
      if (!ordersAlike(code) || typeof sum !== 'number' || typeof year !== 'number') return null;
      rows.push(row as unknown as RegistryYear);
      latestYear.set(code, Math.max(year, latestYear.get(code) ?? year));
      latestOverall = Math.max(year, latestOverall ?? year);
    }
    return { rows, latestYear, latestOverall };
  },
  parity: [
    {
      part: 'years of a registry',
      probes: 'SELECT DISTINCT registry_code FROM ets_registry_years ORDER BY hash(registry_code), registry_code LIMIT 30',
      keyed: `${ETS_SQL} WHERE registry_code = $registry_code ORDER BY year`,
      answer: (held, probe) => held.rows.filter((row) => row.registry_code === probe.registry_code).sort((a, b) => a.year - b.year) as unknown as Row[],
    },
    {
      part: 'latest year of a registry',
      probes: 'SELECT DISTINCT registry_code FROM ets_registry_years ORDER BY hash(registry_code), registry_code LIMIT 30',
      keyed: 'SELECT max(year) AS latest FROM ets_registry_years WHERE registry_code = $registry_code',
      answer: (held, probe) => [{ latest: held.latestYear.get(String(probe.registry_code)) ?? null }],
    },
  ],
});

/** A BIGINT sum as the engine's converter gives it: a number where a double holds it exactly, else its digits. */
const bigintJson = integerAsJson;

export interface EtsSummaryPage {
  year: number | null;
  /** Sum of the year's verified emissions over the matching registries (null: none). */
  total: number | string | null;
  registries: Row[];
}

/**
 * The year (`year`, else the latest of the registry asked for or of all), the total of its verified
 * emissions and its registries by verified_emissions_sum descending, then registry_code, the first `limit`.
 */
export function etsSummaryOfHeld(held: HeldEtsYears, registry: string | null, year: number | null, limit: number): EtsSummaryPage {
  const chosen = year ?? (registry === null ? held.latestOverall : held.latestYear.get(registry) ?? null);
  const matching = held.rows.filter((row) => row.year === chosen && (registry === null || row.registry_code === registry));
  matching.sort((a, b) => b.verified_emissions_sum - a.verified_emissions_sum || (a.registry_code < b.registry_code ? -1 : a.registry_code > b.registry_code ? 1 : 0));
  const total = matching.length === 0 ? null : bigintJson(matching.reduce((sum, row) => sum + BigInt(row.verified_emissions_sum), 0n));
  const registries = matching.slice(0, limit).map(({ registry_code, geo, installation_count, verified_emissions_sum, allocation_sum }) =>
    ({ registry_code, geo, installation_count, verified_emissions_sum, allocation_sum }));
  return { year: chosen, total, registries };
}
