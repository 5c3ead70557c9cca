// Country coverage: each domain DECLARES which of the country overview's sources it holds for a
// country (Domain.coverage in domains/contract.ts), so the overview never queries another domain's
// tables itself. The loader (domains/registry.ts, loadDomains) registers every loaded domain's
// providers against the database they were loaded into; the overview route asks the providers
// registered for its database. No route imports the list of domains (that would be circular).
import type { Database } from '../../engine/database.ts';
import { heldSlot } from '../../engine/held.ts';
import type { JsonValue } from '../../engine/json.ts';

/** The overview's sources (interface-spec: coop, statsoffice, centralbank, devbank), in the order it shows them. */
export const COVERAGE_SOURCES = ['statsoffice', 'centralbank', 'coop', 'devbank'] as const;
export type CoverageSource = (typeof COVERAGE_SOURCES)[number];

export interface CoverageCountry {
  /** ISO 3166 alpha-2 (Greece GR; a provider over Eurostat's EL maps it itself). */
  iso2: string;
  iso3: string;
}

/** The latest headline of one source for a country: what it is, its value, its period and the source's vintage. */
export interface CoverageHeadline {
  /** A series code or dataset id the headline comes from (COOP_CLI_USA, nrg_ind_ren, ...). */
  series: string;
  label: string;
  value: JsonValue;
  unit: string | null;
  /** YYYY, YYYY-MM, YYYY-Qn or YYYY-MM-DD. */
  period: string;
  /** The source's vintage (release or import date) of the value, or null when unknown. */
  vintage: string | null;
}

export interface CountryCoverage {
  source: CoverageSource;
  /** The source's latest headline for the country, or null when the loaded data does not cover it. */
  headline(db: Database, country: CoverageCountry): Promise<CoverageHeadline | null>;
}

interface Registered {
  domain: string;
  provider: CountryCoverage;
}

/** Per database, kept with its held state (a wrapped database sees its domains' coverage; released with the snapshot). */
const registeredOf = heldSlot('country.coverage', (): Registered[] => []);

/** Called by the loader once a domain's tables are loaded into db (idempotent per provider). */
export function registerCoverage(db: Database, domain: string, providers: readonly CountryCoverage[]): void {
  const list = registeredOf(db);
  for (const provider of providers) {
    if (!list.some((entry) => entry.provider === provider)) list.push({ domain, provider });
  }
}

export interface SourceCoverage {
  available: boolean;
  headline: CoverageHeadline | null;
  /** The domains that declare coverage of this source (empty: no loaded domain provides it). */
  declared_by: string[];
}

/**
 * Every overview source for a country: present when a declaring domain has a headline for it (the
 * first such domain in load order gives the headline).
 */
export async function countryCoverage(db: Database, country: CoverageCountry): Promise<{
  sources_present: CoverageSource[];
  sources: Record<CoverageSource, SourceCoverage>;
}> {
  const registered = registeredOf(db);
  // The sources are asked at once (each statement on its own pooled connection); within a source
  // the declaring domains are asked in load order until one has a headline.
  const headlines = await Promise.all(COVERAGE_SOURCES.map(async (source) => {
    for (const { provider } of registered.filter((entry) => entry.provider.source === source)) {
      const headline = await provider.headline(db, country);
      if (headline) return headline;
    }
    return null;
  }));
  const sources = {} as Record<CoverageSource, SourceCoverage>;
  COVERAGE_SOURCES.forEach((source, index) => {
    const headline = headlines[index]!;
    const declaring = registered.filter((entry) => entry.provider.source === source);
    sources[source] = { available: headline !== null, headline, declared_by: [...new Set(declaring.map((entry) => entry.domain))] };
  });
  return { sources_present: COVERAGE_SOURCES.filter((source) => sources[source].available), sources };
}
