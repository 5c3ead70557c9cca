// The list of domains: one line each. The router, the documents, the ingest CLI, the first-start
// bootstrap and the benchmark all derive from it (domains/registry.ts); nothing else lists domains.
import type { Database, DatabaseOptions } from '../engine/database.ts';
import type { Domain } from './contract.ts';
import { loadDomains, routesOf } from './registry.ts';
import { buildServingDatabase, describeServingBuild, ensureServingDatabase, openSnapshotDatabase, type OpenedSnapshot } from './servingDatabase.ts';
import { agrifoodDomain } from './agrifood/index.ts';
import { cardgameDomain } from './cardgame/index.ts';
import { countryDomain } from './country/index.ts';
import { energyDomain } from './energy/index.ts';
import { macroDomain } from './macro/index.ts';
import { productDomain } from './product/index.ts';
import { ptpDomain } from './ptp/index.ts';
import { sebraDomain } from './sebra/index.ts';
import { tradeDomain } from './trade/index.ts';

/** In the order the documents show them. */
export const DOMAINS: readonly Domain[] = [
  sebraDomain,
  ptpDomain,
  cardgameDomain,
  agrifoodDomain,
  tradeDomain,
  macroDomain,
  energyDomain,
  countryDomain,
  productDomain,
];

/** Every route of every domain. */
export const routes = routesOf(DOMAINS);

/** Loads the snapshot in dataDir: the import records, then each domain after the domains it depends on. */
export function loadSnapshot(db: Database, dataDir: string): Promise<void> {
  return loadDomains(DOMAINS, db, dataDir);
}

/**
 * Builds the serving database of the snapshot in dataDir (domains/servingDatabase.ts): only the
 * domains whose files changed since the parent generation when it has a serving database. `log`
 * gets one line saying how long it took and what was rebuilt.
 */
export async function buildServing(dataDir: string, log?: (line: string) => void): Promise<void> {
  const started = performance.now();
  const build = await buildServingDatabase(DOMAINS, dataDir);
  log?.(`snapshot: built the serving database in ${((performance.now() - started) / 1000).toFixed(1)} s (${describeServingBuild(build)})`);
}

/** The engine for the snapshot in dataDir: its serving database when it has one, else loaded into memory; locked down. */
export function openSnapshot(dataDir: string, options?: DatabaseOptions, prepare?: (db: Database) => Database): Promise<OpenedSnapshot> {
  return openSnapshotDatabase(DOMAINS, dataDir, options, prepare);
}

/** Builds the serving database of DATA_DIR's current generation when it lacks one (domains/servingDatabase.ts). */
export function ensureServing(dataDir: string, log: (line: string) => void): Promise<boolean> {
  return ensureServingDatabase(DOMAINS, dataDir, log);
}
