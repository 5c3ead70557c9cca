// Country tests: an app over a snapshot loaded with the country domain (and the domains it depends on).
// The file writers are in files.ts (re-exported here), which loads no app code.
import { Database } from '../../engine/database.ts';
import { countryDomain } from '../../domains/country/index.ts';
import { loadDomains, loadOrder } from '../../domains/registry.ts';
import { serveTestApp, type TestApp } from '../helpers/app.ts';

export * from './files.ts';

/**
 * The country domain and every domain it depends on (from the list of domains, imported only then, so
 * these tests do not load the other domains' code), in load order.
 */
async function countryDomains() {
  if (!countryDomain.dependsOn?.length) return [countryDomain];
  const { DOMAINS } = await import('../../domains/index.ts');
  const byName = new Map(DOMAINS.map((d) => [d.name, d]));
  const needed = new Map([[countryDomain.name, countryDomain]]);
  const visit = (names: readonly string[] = []) => {
    for (const name of names) {
      const domain = byName.get(name);
      if (!domain) throw new Error(`the country domain depends on ${name}, which is not in domains/index.ts`);
      if (!needed.has(name)) {
        needed.set(name, domain);
        visit(domain.dependsOn);
      }
    }
  };
  visit(countryDomain.dependsOn);
  return loadOrder([...needed.values()]);
}

/** An app serving the country routes over the snapshot in dataDir, on an ephemeral loopback port. */
export async function startCountryApp(dataDir: string): Promise<TestApp> {
  const domains = await countryDomains();
  const db = await Database.open({ connections: 2 });
  await loadDomains(domains, db, dataDir);
  return serveTestApp(db, countryDomain.routes);
}

