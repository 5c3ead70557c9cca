// The trade domain's load is SQL only: a database file built by the agri-food and trade `load` and
// reopened read-only without running it (as the server opens a generation's serving database)
// answers every catalog example of the trade and markets routes, and their paging and filter
// variants, byte for byte as the database they were loaded into.
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { agrifoodDomain } from '../../domains/agrifood/index.ts';
import { loadDomains, openDomains, routesOf } from '../../domains/registry.ts';
import { tradeDomain } from '../../domains/trade/index.ts';
import { Database } from '../../engine/database.ts';
import { Dispatcher, errorAnswer } from '../../http/dispatch.ts';
import { exampleRequests } from '../../queries/catalog.ts';
import { removeFixture, tempDir, writeTradeFixtureSnapshot } from './fixtures.ts';

const domains = [agrifoodDomain, tradeDomain];
const routes = routesOf(domains);
let root: string;
let fixtureRoot: string | undefined;
let memory: Database;
let file: Database;

before(async () => {
  const { root: made, dataDir } = await writeTradeFixtureSnapshot();
  fixtureRoot = made;
  memory = await Database.open();
  await loadDomains(domains, memory, dataDir);
  root = await tempDir('trade-serving-');
  const serving = path.join(root, 'serving.duckdb');
  const writer = await Database.open({ file: serving });
  await loadDomains(domains, writer, dataDir);
  await writer.run('CHECKPOINT');
  await writer.close();
  file = await Database.open({ file: serving, readOnly: true });
  await openDomains(domains, file);
});
after(async () => {
  await memory?.close();
  await file?.close();
  if (root) await rm(root, { recursive: true, force: true });
  await removeFixture(fixtureRoot);
});

/** Status and bytes of one request, as the dispatcher (HTTP's code path) answers it from db. */
async function answer(db: Database, target: string): Promise<{ status: number; body: string }> {
  const dispatcher = new Dispatcher({ db, routes, today: () => '2026-11-22' });
  try {
    const { encoded } = await dispatcher.dispatch({ method: 'GET', target });
    return { status: 200, body: String(encoded.body) };
  } catch (error) {
    const body = errorAnswer(error);
    return { status: body.error.status, body: JSON.stringify(body) };
  }
}

/** Paging and filter variants that take each served shape's other paths (copies, position ranges, counted totals). */
const VARIANTS = [
  '/api/v1/trade?limit=5&offset=3', '/api/v1/trade?offset=20000', '/api/v1/trade?offset=33', '/api/v1/trade?reporter=HU&date_from=2024-03&date_to=2024-06',
  '/api/v1/trade?partner=UA', '/api/v1/trade?product=1005&flow=import&limit=2&offset=4', '/api/v1/trade?flow=export&date_to=2022',
  '/api/v1/trade?reporter=RO&partner=TR', '/api/v1/trade/balance?country=HU&commodity=maize', '/api/v1/trade/balance?country=RO&commodity=1001&partner=UA&limit=1&offset=1',
  '/api/v1/trade/partners?reporter=RO&product=1001&flow=export&sort=quantity', '/api/v1/trade/partners?reporter=HU&product=1005&period=2024-03',
  '/api/v1/trade/partners?reporter=HU&product=1005', '/api/v1/trade/partners?reporter=RO&product=1001&limit=2&offset=2',
  '/api/v1/trade/partners?reporter=FR&product=1003', '/api/v1/changes?metric=exports&limit=2&offset=1', '/api/v1/changes?country=FR',
  '/api/v1/changes?date_from=2022&offset=20000', '/api/v1/changes?dataset=cereals_prices', '/api/v1/changes?dataset=cereals_prices&commodity=wheat&country=RO',
  '/api/v1/changes?dataset=cereals_prices&country=XX', '/api/v1/markets/changes?min_percent=0&limit=3&offset=2', '/api/v1/markets/changes?countries=FR',
  '/api/v1/markets/anomalies?min_percent=0&z=0', '/api/v1/markets/anomalies?countries=RO&commodities=1001&min_percent=1000&z=1',
  '/api/v1/markets/compare?countries=RO,FR&commodity=wheat&date_from=2020', '/api/v1/markets/RO/1001?partner=UA&flow=export',
  '/api/v1/markets/RO/1001?partner=TR&year=2023', '/api/v1/markets/HU/1005/history', '/api/v1/markets/RO/1001/insights?z=0.5',
];

test('a serving file reopened without load answers every example and variant as the loaded database does', async () => {
  const targets = [...routes.filter((route) => tradeDomain.routes.includes(route)).flatMap((route) => exampleRequests(route).map((r) => r.url)), ...VARIANTS];
  let answered = 0;
  for (const target of targets) {
    const [fromMemory, fromFile] = [await answer(memory, target), await answer(file, target)];
    assert.deepEqual(fromFile, fromMemory, target);
    if (fromMemory.status === 200) answered++;
  }
  assert.ok(answered >= targets.length - 4, `${answered} of ${targets.length} answered 200`);
});
