// EU ETS verified emissions: totals per registry and the largest installations of one registry.
import type { Database } from '../../../engine/database.ts';
import type { Row } from '../../../engine/json.ts';
import { defineRoute } from '../../../queries/catalog.ts';
import { invalidParameter, notFound } from '../../../queries/shared/errors.ts';
import { integer, listOf, nullable, object, text } from '../../../queries/shared/schema.ts';
import { REGISTRY_TO_GEO } from './constants.ts';
import { etsSummaryOfHeld, heldEtsYears, type EtsSummaryPage } from './heldEts.ts';
import { limitParam, yearParam } from './params.ts';
import { findIsoCountryByAlpha2 } from '../../../reference/countries.ts';

/** Registry codes that are not ISO countries of their own. */
const SPECIAL_REGISTRIES: Readonly<Record<string, string>> = { XI: 'Northern Ireland', EU: 'European Union' };

/** A registry from a registry code or the country's ISO2 (any case): EL and GR are Greece's registry GR, UK is GB. */
export function parseRegistry(raw: string, param = 'registry'): { code: string; name: string | null } {
  const text = raw.trim().toUpperCase();
  if (Object.hasOwn(SPECIAL_REGISTRIES, text)) return { code: text, name: SPECIAL_REGISTRIES[text] };
  const country = /^[A-Z]{2}$/.test(text) ? findIsoCountryByAlpha2(text) : null;
  if (!country) throw invalidParameter(param, `${param} must be a registry code or ISO 3166-1 alpha-2 country code such as DE, EL/GR or XI (got "${raw}")`);
  return { code: country.iso2, name: country.name };
}

const geoOfRegistry = (code: string) => (Object.hasOwn(REGISTRY_TO_GEO, code) ? REGISTRY_TO_GEO[code] : code === 'XI' ? null : code);

const summaryItem = object({
  registry_code: text, geo: nullable(text), installation_count: integer, verified_emissions_sum: integer, allocation_sum: nullable(integer),
});

export const getEtsSummary = defineRoute<{ registry?: string; year?: number; limit: number }>({
  id: 'getEtsSummary',
  method: 'GET',
  tag: 'ets',
  paths: ['/api/v1/energy/ets/summary'],
  examples: ['/api/v1/energy/ets/summary', '/api/v1/energy/ets/summary?registry=el', '/api/v1/energy/ets/summary?year=2019&limit=10'],
  summary: 'EU ETS verified emissions grouped by registry',
  description:
    'Per registry (the country\'s Union Registry section; GR = Greece, EL accepted; XI = Northern Ireland; GB until 2020) for one year: ' +
    'installation_count = installations with verified emissions that year, verified_emissions_sum in t CO2e, allocation_sum = free allocation ' +
    '(null when none published). `year` defaults to the latest year with verified emissions in the data (over all registries, or the one asked for). ' +
    '`registry` (a registry code or ISO2 country code, any case) keeps one registry. Ordered by verified_emissions_sum descending, then ' +
    'registry_code; `limit` default 50 (at most 1000). geo is the Eurostat code of the registry\'s country (EL, UK; null for XI).',
  paid: true,
  params: {
    registry: { in: ['query'], description: 'Registry code or ISO2 country code, any case (EL and GR are one registry).', schema: { type: 'string', minLength: 1, maxLength: 4, examples: ['DE'] } },
    year: yearParam('Year (default the latest with verified emissions).'),
    limit: limitParam(50),
  },
  response: object({
    endpoint: { const: 'ets_summary' }, registry_code: nullable(text), year: nullable(integer), count: integer,
    total_verified_emissions: nullable(integer), registries: listOf(summaryItem),
  }),
  listRows: (body) => body.registries as Row[],
  listColumns: () => Object.keys(summaryItem.properties!),
  async handle({ registry, year, limit }, { db }) {
    const reg = registry === undefined ? null : parseRegistry(registry).code;
    const held = await heldEtsYears(db);
    const { year: chosen, total, registries } = held ? etsSummaryOfHeld(held, reg, year ?? null, limit) : await etsSummaryByStatement(db, reg, year ?? null, limit);
    return { endpoint: 'ets_summary', registry_code: reg, year: chosen, count: registries.length, total_verified_emissions: total, registries };
  },
});

/** The summary as one statement: the year (given, else the latest with verified emissions), its total and the page (heldEts.ts holds the same). */
export async function etsSummaryByStatement(db: Database, reg: string | null, year: number | null, limit: number): Promise<EtsSummaryPage> {
  const rows = await db.all(
    `WITH chosen AS (
       SELECT coalesce(CAST($year AS INTEGER),
                       (SELECT max(year) FROM ets_registry_years WHERE CAST($reg AS VARCHAR) IS NULL OR registry_code = $reg)) AS year),
     matching AS (
       SELECT r.* FROM ets_registry_years r JOIN chosen c ON r.year = c.year WHERE CAST($reg AS VARCHAR) IS NULL OR r.registry_code = $reg)
     SELECT c.year AS chosen_year, (SELECT sum(verified_emissions_sum)::BIGINT FROM matching) AS total,
            m.registry_code, m.geo, m.installation_count, m.verified_emissions_sum, m.allocation_sum
       FROM chosen c LEFT JOIN (SELECT * FROM matching ORDER BY verified_emissions_sum DESC, registry_code LIMIT $limit) m ON true
      ORDER BY m.verified_emissions_sum DESC, m.registry_code`,
    { year, reg, limit },
  );
  const [{ chosen_year: chosen, total }] = rows;
  return {
    year: (chosen as number | null) ?? null,
    total: (total as number | string | null) ?? null,
    registries: rows
      .filter((r) => r.registry_code !== null)
      .map(({ registry_code, geo, installation_count, verified_emissions_sum, allocation_sum }) => ({ registry_code, geo, installation_count, verified_emissions_sum, allocation_sum })),
  };
}

/** The registry's latest year with verified emissions (null: no ETS data): held, else a statement. */
async function latestEtsYear(db: Database, reg: string): Promise<number | null> {
  const held = await heldEtsYears(db);
  if (held) return held.latestYear.get(reg) ?? null;
  const [{ y }] = await db.all('SELECT max(year) AS y FROM ets_registry_years WHERE registry_code = $reg', { reg });
  return (y as number | null) ?? null;
}

const installationItem = object({
  rank: integer, installation_identifier: text, installation_name: nullable(text), main_activity_code: nullable(integer), city: nullable(text),
  verified_emissions: integer, allocation: nullable(integer),
});

export const getEtsInstallations = defineRoute<{ registry: string; year?: number; limit: number }>({
  id: 'getEtsInstallations',
  method: 'GET',
  tag: 'ets',
  paths: ['/api/v1/energy/ets/installations'],
  examples: ['/api/v1/energy/ets/installations?registry=DE', '/api/v1/energy/ets/installations?registry=gr&year=2019&limit=5'],
  summary: 'The largest installations of one registry by verified emissions',
  description:
    'Installations of the registry (registry code or ISO2 country code, any case; EL and GR are Greece) ranked by verified emissions (t CO2e) ' +
    'in `year` (default: the registry\'s latest year with verified emissions, so GB stops at 2020), largest first, ties by installation_identifier; ' +
    'rank is 1-based. Installations without verified emissions that year (blank or a marker such as "Excluded" in the source) are not listed. ' +
    'Identifiers are strings, unique within a registry. `limit` default 50 (at most 1000). A registry with no ETS data is a 404; a year without ' +
    'data for it gives an empty list.',
  paid: true,
  params: {
    registry: { in: ['query'], required: true, description: 'Registry code or ISO2 country code, any case.', schema: { type: 'string', minLength: 1, maxLength: 4, examples: ['DE'] } },
    year: yearParam('Year (default the registry\'s latest with verified emissions).'),
    limit: limitParam(50),
  },
  response: object({
    endpoint: { const: 'ets_installations' }, registry_code: text, geo: nullable(text), year: integer, count: integer, installations: listOf(installationItem),
  }),
  listRows: (body) => body.installations as Row[],
  listColumns: () => Object.keys(installationItem.properties!),
  async handle({ registry, year, limit }, { db }) {
    const reg = parseRegistry(registry).code;
    const latest = await latestEtsYear(db, reg);
    if (latest === null) throw notFound(`no ETS verified emissions for registry ${reg}`);
    const chosen = year ?? latest;
    // ets_ranked is ranked per registry and year (row_number: distinct ranks); ordered here, a sort in DuckDB costs more than the rows.
    const installations = (await db.all(
      `SELECT rank::INTEGER AS rank, installation_identifier, installation_name, main_activity_code, city, verified_emissions, allocation
         FROM ets_ranked WHERE registry_code = $reg AND year = $year AND rank <= $limit`,
      { reg, year: chosen, limit },
    )).sort((a, b) => Number(a.rank) - Number(b.rank));
    return { endpoint: 'ets_installations', registry_code: reg, geo: geoOfRegistry(reg), year: chosen, count: installations.length, installations };
  },
});
