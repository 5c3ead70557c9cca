// Every registered domain is complete, and what the service derives from the list of domains
// (routes, docs groups, ingest commands, samples, load order) is what the domains declare.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Database } from '../../engine/database.ts';
import type { Domain } from '../../domains/contract.ts';
import { DOMAINS, routes } from '../../domains/index.ts';
import { ingestCommandsOf, loadOrder, routesOf, sampleSourcesOf, tagsOf } from '../../domains/registry.ts';
import { pathParamNames, type Route } from '../../queries/catalog.ts';
import { projectRoot } from '../helpers/cli.ts';

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
        const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/?]+')}(\\?|$)`);
        const fixed = pathParamNames(template).length === 0;
        assert.ok(
          route.examples.some((example) => pattern.test(example) && (!fixed || !route.paths.some((other) => other !== template && new RegExp(`^${other.replace(/\{[^}]+\}/g, '[^/?]+')}(\\?|$)`).test(example) && pathParamNames(other).length > 0))),
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
    const exports: Record<string, unknown> = await import(pathToFileURL(path.join(root, entry.name, 'index.ts')).href);
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
