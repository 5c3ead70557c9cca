// What the rest of the service derives from the list of domains: the routes, the docs groups, the
// ingest commands (the domains' own and the shared readers' they use), the sample sources and the
// load order. Pure functions over a list, so a test can check them on a list of its own.
import type { Database } from '../engine/database.ts';
import { currentGeneration } from '../engine/generation.ts';
import type { IngestCommand } from '../ingest/command.ts';
import type { SampleSource } from '../ingest/sampleSource.ts';
import type { Route } from '../queries/catalog.ts';
import { loadImports } from '../queries/imports.ts';
import { registerCoverage } from '../queries/shared/coverage.ts';
import type { Domain, DomainSource, DomainTag, SharedTables } from './contract.ts';

/** Every route, domain by domain in the list's order. */
export function routesOf(domains: readonly Domain[]): Route[] {
  return domains.flatMap((domain) => domain.routes);
}

/** Every docs group, domain by domain in the list's order. */
export function tagsOf(domains: readonly Domain[]): DomainTag[] {
  return domains.flatMap((domain) => domain.tags);
}

export function sourcesOf(domains: readonly Domain[]): DomainSource[] {
  return domains.flatMap((domain) => domain.sources);
}

/**
 * The shared tables the domains use, each once, in the order of first use. Two different
 * declarations under one name are a programming error, reported by name.
 */
export function sharedTablesOf(domains: readonly Domain[]): SharedTables[] {
  const byName = new Map<string, SharedTables>();
  for (const domain of domains) {
    for (const tables of domain.uses ?? []) {
      const known = byName.get(tables.name);
      if (known && known !== tables) throw new Error(`two different shared tables are named ${tables.name}`);
      byName.set(tables.name, tables);
    }
  }
  return [...byName.values()];
}

/**
 * One ingest command per source name: each domain's own, then those of the shared tables it is the
 * first in the list to use (so the shared readers' commands exist whichever domains are listed).
 */
export function ingestCommandsOf(domains: readonly Domain[]): IngestCommand[] {
  const shared = new Set<string>();
  const commands: IngestCommand[] = [];
  for (const domain of domains) {
    for (const source of domain.sources) if (source.command) commands.push(source.command);
    for (const tables of domain.uses ?? []) {
      if (shared.has(tables.name)) continue;
      shared.add(tables.name);
      commands.push(tables.command);
    }
  }
  return commands;
}

export function sampleSourcesOf(domains: readonly Domain[]): SampleSource[] {
  return sourcesOf(domains).map((source) => source.sample);
}

/**
 * The domains in an order where each comes after the domains it depends on (the list's order
 * otherwise). An unknown dependency or a cycle is a programming error, reported by name.
 */
export function loadOrder(domains: readonly Domain[]): Domain[] {
  const byName = new Map(domains.map((domain) => [domain.name, domain]));
  const ordered: Domain[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (domain: Domain, path: readonly string[]): void => {
    const seen = state.get(domain.name);
    if (seen === 'done') return;
    if (seen === 'visiting') throw new Error(`domain dependency cycle: ${[...path, domain.name].join(' -> ')}`);
    state.set(domain.name, 'visiting');
    for (const name of domain.dependsOn ?? []) {
      const dependency = byName.get(name);
      if (!dependency) throw new Error(`domain ${domain.name} depends on ${name}, which is not in the list of domains`);
      visit(dependency, [...path, domain.name]);
    }
    state.set(domain.name, 'done');
    ordered.push(domain);
  };
  for (const domain of domains) visit(domain, []);
  return ordered;
}

/**
 * One step of loading a snapshot: the import records, one shared reader's tables, or one domain's
 * load. `after` names the steps whose tables it reads (a domain's shared tables and the domains it
 * depends on), so the serving database can rebuild a step and everything after it alone
 * (domains/servingDatabase.ts).
 */
export interface LoadStep {
  /** `imports`, `shared:<name>` or `domain:<name>`. */
  name: string;
  after: readonly string[];
  load(db: Database, dataDir: string): Promise<void>;
}

export const IMPORTS_STEP = 'imports';

/** The steps of loadDomains, in the order they run: the import records, then each domain after its dependencies and the shared tables it uses (each shared reader once). */
export function loadSteps(domains: readonly Domain[]): LoadStep[] {
  sharedTablesOf(domains); // refuses two declarations under one name before anything is loaded
  const steps: LoadStep[] = [{ name: IMPORTS_STEP, after: [], load: loadImports }];
  const loaded = new Set<string>();
  for (const domain of loadOrder(domains)) {
    for (const tables of domain.uses ?? []) {
      if (loaded.has(tables.name)) continue;
      loaded.add(tables.name);
      steps.push({ name: `shared:${tables.name}`, after: [], load: (db, dir) => tables.load(db, dir) });
    }
    const after = [...(domain.uses ?? []).map((tables) => `shared:${tables.name}`), ...(domain.dependsOn ?? []).map((name) => `domain:${name}`)];
    steps.push({ name: `domain:${domain.name}`, after, load: (db, dir) => domain.load(db, dir) });
  }
  return steps;
}

/**
 * Loads the Parquet snapshot in dataDir into in-memory tables: the import records, then every domain
 * after its dependencies and the shared tables it uses (each loaded once): loadSteps. The generation
 * is resolved once (engine/generation.ts), so one load never mixes two generations; a generation
 * folder or a flat folder resolves to itself.
 */
export async function loadDomains(domains: readonly Domain[], db: Database, dataDir: string): Promise<void> {
  const { dir } = currentGeneration(dataDir);
  for (const step of loadSteps(domains)) await step.load(db, dir);
  await openDomains(domains, db);
}

/** What a database needs besides its tables: each domain's JavaScript-side state and country coverage, in load order. */
export async function openDomains(domains: readonly Domain[], db: Database): Promise<void> {
  for (const domain of loadOrder(domains)) {
    await domain.open?.(db);
    registerCoverage(db, domain.name, domain.coverage ?? []);
  }
}
