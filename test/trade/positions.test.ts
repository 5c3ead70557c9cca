// The positions held per database (positions.ts) locate a filtered page as plain statements over the
// shape do: the matches' count, and the first and last position of the page (ORDER BY pos LIMIT/OFFSET).
// Combinations of reporter, product, partner, flow and window over the trade fixture, several pages each
// (pages past the end included): every fourth combination, and always each reporter and product list
// with no other filter (unknown codes, empty answers included).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { locatePage, positionsRead, type PositionSpec } from '../../domains/trade/queries/positions.ts';
import { openSnapshot, routes } from '../../domains/index.ts';
import { observeStatements } from '../../bench/statementObserver.ts';
import { warmHeldState } from '../../engine/held.ts';
import { serveTestApp, startTestApp, type TestApp } from '../helpers/app.ts';
import { combinations, strided } from '../helpers/sample.ts';
import { removeFixture, writeTradeFixtureSnapshot } from './fixtures.ts';

let app: TestApp;
let fixtureRoot: string | undefined;
let fixtureDir: string;
before(async () => {
  const { root, dataDir } = await writeTradeFixtureSnapshot();
  fixtureRoot = root;
  fixtureDir = dataDir;
  app = await startTestApp(dataDir);
});
after(async () => {
  await app?.close();
  await removeFixture(fixtureRoot);
});

const SPEC: PositionSpec = {
  table: 'trade_list', codes: ['reporter', 'product', 'partner', 'flow'], days: ['period_start', 'period_end'], groupBy: ['reporter', 'product'],
};

test('trade_list: count and page range as plain statements give them', async () => {
  assert.equal(await positionsRead(app.db, SPEC), true);
  let compared = 0;
  let found = 0;
  const windows: Array<[string | null, string | null]> = [[null, null], ['2022-01-01', null], [null, '2023-12-31'], ['2024-03-01', '2024-06-30'], ['2021-01-01', '2022-12-31']];
  const all = combinations<[string | null, string | null, string | null, number | null, [string | null, string | null]]>(
    [null, 'RO', 'HU', 'FR', 'DE', 'XX'], [null, '1001', '1005', '9999'], [null, 'WORLD', 'UA'], [null, 1, 2], windows,
  ).filter(([reporter, product]) => reporter !== null || product !== null);
  const unfilteredBeyondCodes = ([, , partner, flow, [from, to]]: (typeof all)[number]) => partner === null && flow === null && from === null && to === null;
  for (const [reporter, product, partner, flow, [from, to]] of strided(all, 4, unfilteredBeyondCodes)) {
    const conditions: string[] = [];
    const bindings: Record<string, string | number> = {};
    const add = (sql: string, name: string, value: string | number | null) => {
      if (value === null) return;
      conditions.push(sql);
      bindings[name] = value;
    };
    add('reporter = $reporter', 'reporter', reporter);
    add('product = $product', 'product', product);
    add('partner = $partner', 'partner', partner);
    add('flow = $flow', 'flow', flow);
    add('period_start >= CAST($from AS DATE)', 'from', from);
    add('period_end <= CAST($to AS DATE)', 'to', to);
    const where = conditions.join(' AND ');
    const [{ n }] = await app.db.all(`SELECT count(*)::INTEGER AS n FROM trade_list WHERE ${where}`, bindings);
    for (const page of [{ limit: 3, offset: 0 }, { limit: 2, offset: 3 }, { limit: 500, offset: 1 }, { limit: 5, offset: 40 }]) {
      const positions = (await app.db.all(`SELECT pos FROM trade_list WHERE ${where} ORDER BY pos LIMIT ${page.limit} OFFSET ${page.offset}`, bindings))
        .map((row) => Number(row.pos));
      const located = await locatePage(app.db, SPEC, {
        equals: [
          ...(reporter === null ? [] : [['reporter', [reporter]] as const]),
          ...(product === null ? [] : [['product', [product]] as const]),
          ...(partner === null ? [] : [['partner', [partner]] as const]),
          ...(flow === null ? [] : [['flow', [String(flow)]] as const]),
        ],
        atLeast: from === null ? [] : [['period_start', from]],
        atMost: to === null ? [] : [['period_end', to]],
      }, page);
      const expected = { total: Number(n), range: positions.length === 0 ? null : { first: positions[0], last: positions[positions.length - 1] } };
      assert.deepEqual(located, expected, JSON.stringify({ reporter, product, partner, flow, from, to, page }));
      compared++;
      if (positions.length > 0) found++;
    }
  }
  assert.ok(compared > 1000 && found > 100, `${compared} compared, ${found} with rows`);
});

test('trade_price_changes: count and page range as plain statements give them (dataset, country, commodity lists, begin_date bounds)', async () => {
  const spec: PositionSpec = { table: 'trade_price_changes', codes: ['dataset', 'country', 'commodity'], days: ['begin_date'], groupBy: ['country', 'dataset'] };
  assert.equal(await positionsRead(app.db, spec), true);
  const keys = await app.db.all('SELECT DISTINCT dataset, country, commodity FROM trade_price_changes ORDER BY ALL');
  const datasets = [...new Set(keys.map((k) => String(k.dataset))), 'none'];
  const countries = [null, ...new Set(keys.map((k) => String(k.country))), 'XX'];
  const commodityLists: Array<string[] | null> = [null, ...[...new Set(keys.map((k) => String(k.commodity)))].map((c) => [c]), [...new Set(keys.map((k) => String(k.commodity)))].slice(0, 3), ['nothing']];
  const [{ lo, hi }] = await app.db.all('SELECT CAST(min(begin_date) AS VARCHAR) AS lo, CAST(max(begin_date) AS VARCHAR) AS hi FROM trade_price_changes');
  const windows: Array<[string | null, string | null]> = [[null, null], [String(lo), null], [null, String(hi)], ['2025-01-01', '2025-12-31'], ['2020-01-01', '2020-01-01']];
  let found = 0;
  // Every third combination, and always each dataset and country with every window and no commodity list.
  const all = combinations<[string, string | null, string[] | null, [string | null, string | null]]>(datasets, countries, commodityLists, windows);
  for (const [dataset, country, commodities, [from, to]] of strided(all, 3, ([, , commodities]) => commodities === null)) {
    const conditions = ['dataset = $dataset'];
    const bindings: Record<string, string> = { dataset };
    if (country !== null) {
      conditions.push('country = $country');
      bindings.country = country;
    }
    if (commodities !== null) {
      conditions.push(`commodity IN (${commodities.map((_, i) => `$c_${i}`).join(', ')})`);
      commodities.forEach((c, i) => (bindings[`c_${i}`] = c));
    }
    if (from !== null) {
      conditions.push('begin_date >= CAST($from AS DATE)');
      bindings.from = from;
    }
    if (to !== null) {
      conditions.push('begin_date <= CAST($to AS DATE)');
      bindings.to = to;
    }
    const where = conditions.join(' AND ');
    const [{ n }] = await app.db.all(`SELECT count(*)::INTEGER AS n FROM trade_price_changes WHERE ${where}`, bindings);
    for (const page of [{ limit: 4, offset: 0 }, { limit: 3, offset: 5 }, { limit: 500, offset: 0 }]) {
      const positions = (await app.db.all(`SELECT pos FROM trade_price_changes WHERE ${where} ORDER BY pos LIMIT ${page.limit} OFFSET ${page.offset}`, bindings))
        .map((row) => Number(row.pos));
      const located = await locatePage(app.db, spec, {
        equals: [['dataset', [dataset]], ...(country === null ? [] : [['country', [country]] as const]), ...(commodities === null ? [] : [['commodity', commodities] as const])],
        atLeast: from === null ? [] : [['begin_date', from]],
        atMost: to === null ? [] : [['begin_date', to]],
      }, page);
      assert.deepEqual(located, { total: Number(n), range: positions.length === 0 ? null : { first: positions[0], last: positions[positions.length - 1] } },
        JSON.stringify({ dataset, country, commodities, from, to, page }));
      if (positions.length > 0) found++;
    }
  }
  assert.ok(found > 20, `${found} pages with rows`);
});

test('the warm-up reads the positions /api/v1/trade locates pages in: its first request issues the page read only, no count', async () => {
  // A database of its own: nothing held yet.
  const served = await serveTestApp((await openSnapshot(fixtureDir)).db, routes);
  try {
    await warmHeldState(served.db);
    const statements: string[] = [];
    const stop = observeStatements((event) => statements.push(event.sql));
    let response: Response;
    try {
      response = await served.request('/api/v1/trade?reporter=RO&product=1001&limit=2');
    } finally {
      stop();
    }
    assert.equal(response.status, 200);
    assert.equal((await response.json()).items.length, 2);
    assert.equal(statements.length, 1, statements.join('\n'));
    assert.match(statements[0]!, /pos >= \$page_first AND pos <= \$page_last/);
  } finally {
    await served.close();
  }
});
