// Every registered domain is complete, and what the service derives from the list of domains
// (routes, docs groups, ingest commands, samples, load order) is what the domains declare.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Database, type SqlParams } from '../../engine/database.ts';
import type { Domain, SharedTables } from '../../domains/contract.ts';
import { DOMAINS, routes } from '../../domains/index.ts';
import { ingestCommandsOf, loadDomains, loadOrder, routesOf, sampleSourcesOf, sharedTablesOf, tagsOf } from '../../domains/registry.ts';
import { eurostatTables, worldBankTables } from '../../domains/sharedTables.ts';
import type { IngestCommand } from '../../ingest/command.ts';
import { pathParamNames, type Route } from '../../queries/catalog.ts';
import { moduleUrl, projectRoot } from '../helpers/cli.ts';

test('each domain is a folder domains/<name>/ with its index.ts, and names are unique', () => {
  const names = DOMAINS.map((domain) => domain.name);
  assert.equal(new Set(names).size, names.length);
  for (const name of names) assert.ok(existsSync(path.join(projectRoot, 'domains', name, 'index.ts')), `domains/${name}/index.ts`);
});

test('every route has examples, at least one per path form, and a tag its domain declares with a title', () => {
  for (const domain of DOMAINS) {
    const tags = new Map(domain.tags.map((tag) => [tag.tag, tag]));
    for (const tag of domain.tags) assert.ok(tag.title.trim() !== '' && tag.description.trim() !== '', `${domain.name}: tag ${tag.tag} needs a title and a description`);
    for (const route of domain.routes) {
      assert.ok(tags.has(route.tag), `${domain.name}: route ${route.id} has tag ${route.tag}, which the domain does not declare`);
      assert.ok(route.examples.length > 0, `${route.id} has no example`);
      for (const template of route.paths) {
        const pattern = new RegExp(`^${template.replace(/\{[^{}]+\}/g, '[^/?]+')}(\\?|$)`);
        const fixed = pathParamNames(template).length === 0;
        assert.ok(
          route.examples.some((example) => pattern.test(example) && (!fixed || !route.paths.some((other) => other !== template && new RegExp(`^${other.replace(/\{[^{}]+\}/g, '[^/?]+')}(\\?|$)`).test(example) && pathParamNames(other).length > 0))),
          `${route.id}: no example for the path form ${template}`,
        );
      }
    }
  }
});

test('every source has a sample, sample folders and ingest commands are unique', () => {
  for (const source of DOMAINS.flatMap((domain) => domain.sources)) {
    assert.ok(/^[a-z0-9-]+$/.test(source.sample.name), `a sample needs a folder name (got "${source.sample.name}")`);
    assert.equal(typeof source.sample.generate, 'function');
    assert.equal(typeof source.sample.ingest, 'function');
  }
  const samples = sampleSourcesOf(DOMAINS).map((source) => source.name);
  assert.equal(new Set(samples).size, samples.length);
  const commands = ingestCommandsOf(DOMAINS).map((command) => command.source);
  assert.equal(new Set(commands).size, commands.length);
});

/** Each domain folder's own Domain, read from domains/<folder>/index.ts on disk (not through DOMAINS). */
async function domainsOnDisk(): Promise<Map<string, Domain>> {
  const found = new Map<string, Domain>();
  const root = path.join(projectRoot, 'domains');
  for (const entry of readdirSync(root, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
    const exports: Record<string, unknown> = await import(moduleUrl(path.join(root, entry.name, 'index.ts')));
    const domains = Object.values(exports).filter((value): value is Domain =>
      typeof value === 'object' && value !== null && 'name' in value && 'routes' in value && Array.isArray((value as Domain).routes));
    assert.equal(domains.length, 1, `domains/${entry.name}/index.ts exports one domain`);
    assert.equal(domains[0]!.name, entry.name, `domains/${entry.name}/index.ts`);
    found.set(entry.name, domains[0]!);
  }
  return found;
}

test('the router, the docs and the ingest CLI see exactly what the domains declare', async () => {
  // The served routes are every domain folder's routes, in the order of DOMAINS, each once.
  const onDisk = await domainsOnDisk();
  assert.deepEqual([...onDisk.keys()].sort(), DOMAINS.map((domain) => domain.name).sort(), 'DOMAINS lists every domain folder');
  const expected: Route[] = [];
  for (const domain of DOMAINS) expected.push(...onDisk.get(domain.name)!.routes);
  assert.ok(expected.length >= DOMAINS.length, `${expected.length} routes`);
  assert.equal(routes.length, expected.length);
  routes.forEach((route, i) => assert.equal(route, expected[i], `route ${i}: ${route.id}, expected ${expected[i]?.id}`));
  assert.deepEqual(routesOf(DOMAINS), expected);
  assert.equal(new Set(routes.map((route) => route.id)).size, routes.length, 'operation ids are unique');
  const tags = tagsOf(DOMAINS).map((tag) => tag.tag);
  assert.equal(new Set(tags).size, tags.length, 'a tag belongs to one domain');
  assert.deepEqual(new Set(routes.map((route) => route.tag)), new Set(tags.filter((tag) => routes.some((route) => route.tag === tag))));
});

function fakeDomain(name: string, dependsOn: string[] = [], loaded: string[] = []): Domain {
  return { name, tags: [], routes: [], dependsOn, sources: [], load: async () => void loaded.push(name) };
}

test('load order follows the declared dependencies, whatever the list order; unknown dependencies and cycles are refused', async () => {
  const order = loadOrder([fakeDomain('markets', ['prices', 'trade']), fakeDomain('trade'), fakeDomain('prices', ['trade'])]);
  assert.deepEqual(order.map((domain) => domain.name), ['trade', 'prices', 'markets']);
  assert.throws(() => loadOrder([fakeDomain('a', ['missing'])]), /depends on missing/);
  assert.throws(() => loadOrder([fakeDomain('a', ['b']), fakeDomain('b', ['a'])]), /cycle: a -> b -> a/);
  for (const domain of loadOrder(DOMAINS)) {
    const position = (name: string) => loadOrder(DOMAINS).findIndex((candidate) => candidate.name === name);
    for (const dependency of domain.dependsOn ?? []) assert.ok(position(dependency) < position(domain.name), `${domain.name} loads after ${dependency}`);
  }
  const loaded: string[] = [];
  const db = {} as Database;
  for (const domain of loadOrder([fakeDomain('b', ['a'], loaded), fakeDomain('a', [], loaded)])) await domain.load(db, '');
  assert.deepEqual(loaded, ['a', 'b']);
});

function fakeShared(name: string, loaded: string[]): SharedTables {
  const command: IngestCommand = { source: name, usage: '<file>', options: {}, run: async () => ({ imported: 0, rows: 0, skipped: 0 }) };
  return { name, command, load: async () => void loaded.push(`shared:${name}`) };
}

test('shared tables load once, before the first domain (in load order) that uses them; their command is listed once, after that domain\'s own', async () => {
  const loaded: string[] = [];
  const stats = fakeShared('stats', loaded);
  const bank = fakeShared('bank', loaded);
  const own = (name: string): IngestCommand => ({ ...stats.command, source: name });
  const prices = { ...fakeDomain('prices', [], loaded), uses: [stats], sources: [{ command: own('prices'), sample: {} as never }] };
  const cards = { ...fakeDomain('cards', ['prices'], loaded), uses: [bank, stats] };
  const plain = fakeDomain('plain', [], loaded);
  // cards is listed first but depends on prices: prices (and stats) load first.
  const domains = [cards, plain, prices];
  const dir = await mkdtemp(path.join(os.tmpdir(), 'contract-shared-'));
  const db = await Database.open({ connections: 1 });
  try {
    await loadDomains(domains, db, dir);
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
  assert.deepEqual(loaded, ['shared:stats', 'prices', 'shared:bank', 'cards', 'plain']);
  // Commands: list order, each domain's own then the shared ones it is the first to use.
  assert.deepEqual(ingestCommandsOf(domains).map((command) => command.source), ['bank', 'stats', 'prices']);
  assert.deepEqual(ingestCommandsOf([prices]).map((command) => command.source), ['prices', 'stats']);
  assert.deepEqual(sharedTablesOf(domains).map((tables) => tables.name), ['bank', 'stats']);
  // Two different declarations under one name are refused.
  const impostor = { ...fakeDomain('other'), uses: [fakeShared('stats', loaded)] };
  assert.throws(() => sharedTablesOf([prices, impostor]), /two different shared tables are named stats/);
});

test('the Eurostat and World Bank commands belong to the shared readers, not to a domain, and the command list is as before', () => {
  for (const source of DOMAINS.flatMap((domain) => domain.sources)) {
    assert.ok(!['eurostat', 'worldbank'].includes(source.command?.source ?? ''), `${source.sample.name} registers a shared reader's command`);
  }
  // The help text lists the sources in this order (as when energy registered the two).
  assert.deepEqual(ingestCommandsOf(DOMAINS).map((command) => command.source),
    ['sebra', 'ptp', 'cardgame', 'agrifood', 'trade', 'ecb', 'eurofxref', 'fred', 'eurostat', 'ets', 'worldbank', 'oecd']);
  const commands = ingestCommandsOf(DOMAINS);
  assert.equal(commands.find((command) => command.source === 'eurostat'), eurostatTables.command);
  assert.equal(commands.find((command) => command.source === 'worldbank'), worldBankTables.command);
  // Macro's HICP is ingestible without the energy domain in the list.
  const macro = DOMAINS.find((domain) => domain.name === 'macro')!;
  assert.ok(ingestCommandsOf([macro]).some((command) => command.source === 'eurostat'));
});

/** Which shared reader's tables a statement names (estat_* are Eurostat's, wdi_* the World Bank's). */
function sharedTablesNamed(sql: string): string[] {
  const names = new Set<string>();
  if (/\bestat_\w+/i.test(sql)) names.add('eurostat');
  if (/\bwdi_(?:observations|indicators|countries)\b/i.test(sql)) names.add('worldbank');
  return [...names];
}

test('every domain whose load reads the Eurostat or WDI tables declares them, and loads alone with what it declares', async () => {
  const byName = new Map(DOMAINS.map((domain) => [domain.name, domain]));
  const closure = (domain: Domain): Domain[] => [domain, ...(domain.dependsOn ?? []).flatMap((name) => closure(byName.get(name)!))];
  const dir = await mkdtemp(path.join(os.tmpdir(), 'contract-uses-'));
  const reads = new Map<string, string[]>();
  try {
    for (const domain of DOMAINS) {
      const statements: string[] = [];
      // The domain's own load sees a Database that notes every statement it runs.
      const noting = (db: Database): Database => new Proxy(db, {
        get(target, property) {
          if (property === 'run' || property === 'all') {
            return (sql: string, params?: SqlParams) => (statements.push(sql), property === 'run' ? target.run(sql, params) : target.all(sql, params));
          }
          const value = Reflect.get(target, property, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      const probed: Domain = { ...domain, load: (db, dataDir) => domain.load(noting(db), dataDir) };
      const db = await Database.open({ connections: 1 });
      try {
        // An empty snapshot: every table empty, so an undeclared shared table is a missing table.
        await loadDomains([probed, ...closure(domain).slice(1)], db, dir);
      } finally {
        await db.close();
      }
      reads.set(domain.name, [...new Set(statements.flatMap(sharedTablesNamed))].sort());
      const declared = (domain.uses ?? []).map((tables) => tables.name);
      for (const name of reads.get(domain.name)!) assert.ok(declared.includes(name), `${domain.name} reads the ${name} tables without declaring them in uses`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  // The three domains that read them, as their rollups show.
  assert.deepEqual(Object.fromEntries([...reads].filter(([, names]) => names.length > 0)), {
    macro: ['eurostat'], energy: ['eurostat', 'worldbank'], country: ['worldbank'],
  });
});
