// EU ETS verified emissions: totals per registry and the largest installations of one registry.
import type { Row } from '../../../engine/json.ts';
import { defineRoute } from '../../../queries/catalog.ts';
import { invalidParameter, notFound } from '../../../queries/shared/errors.ts';
import { integer, listOf, nullable, object, text } from '../../../queries/shared/schema.ts';
import { REGISTRY_TO_GEO } from './constants.ts';
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
    // One statement: the year (given, else the latest with verified emissions), its total and the page of registries.
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
      { year: year ?? null, reg, limit },
    );
    const [{ chosen_year: chosen, total }] = rows;
    const registries = rows
      .filter((r) => r.registry_code !== null)
      .map(({ registry_code, geo, installation_count, verified_emissions_sum, allocation_sum }) => ({ registry_code, geo, installation_count, verified_emissions_sum, allocation_sum }));
    return {
      endpoint: 'ets_summary', registry_code: reg, year: (chosen as number | null) ?? null, count: registries.length,
      total_verified_emissions: (total as number | null) ?? null, registries,
    };
  },
});

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
    // One statement: the registry's latest year (null: no ETS data, a 404) and the ranked installations of the year asked for, else of that one.
    const rows = await db.all(
      `WITH latest AS (SELECT max(year) AS y FROM ets_registry_years WHERE registry_code = $reg)
       SELECT l.y AS latest_year, r.rank::INTEGER AS rank, r.installation_identifier, r.installation_name, r.main_activity_code, r.city,
              r.verified_emissions, r.allocation
         FROM latest l LEFT JOIN ets_ranked r
           ON r.registry_code = $reg AND r.year = coalesce(CAST($year AS INTEGER), l.y) AND r.rank <= $limit
        ORDER BY r.rank`,
      { reg, year: year ?? null, limit },
    );
    const latest = rows[0]?.latest_year ?? null;
    if (latest === null) throw notFound(`no ETS verified emissions for registry ${reg}`);
    const chosen = year ?? Number(latest);
    const installations = rows
      .filter((r) => r.rank !== null)
      .map(({ rank, installation_identifier, installation_name, main_activity_code, city, verified_emissions, allocation }) =>
        ({ rank, installation_identifier, installation_name, main_activity_code, city, verified_emissions, allocation }));
    return { endpoint: 'ets_installations', registry_code: reg, geo: geoOfRegistry(reg), year: chosen, count: installations.length, installations };
  },
});
