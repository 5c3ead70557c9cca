// Country tests: an app over a snapshot loaded with the country domain (and the domains it depends on).
// The file writers are in files.ts (re-exported here), which loads no app code.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Database } from '../../engine/database.ts';
import { createApp } from '../../http/app.ts';
import { countryDomain } from '../../domains/country/index.ts';
import { loadDomains, loadOrder } from '../../domains/registry.ts';
import { FIXED_NOW, type TestApp } from '../helpers/app.ts';

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
  const app = await createApp({ db, routes: countryDomain.routes, now: () => FIXED_NOW, logError: () => undefined });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const request = (p: string, init?: RequestInit) => fetch(base + p, init);
  return {
    db,
    request,
    async get(p, headers = {}) {
      const response = await request(p, { headers });
      const raw = await response.arrayBuffer();
      const text = new TextDecoder().decode(raw);
      const type = response.headers.get('content-type') ?? '';
      return { status: response.status, headers: response.headers, body: type.includes('json') ? JSON.parse(text) : text, raw };
    },
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await db.close();
    },
  };
}

