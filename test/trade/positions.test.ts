// The positions held per database (positions.ts) locate a filtered page as plain statements over the
// shape do: the matches' count, and the first and last position of the page (ORDER BY pos LIMIT/OFFSET).
// Every combination of reporter, product, partner, flow and window over the trade fixture, several pages.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { locatePage, type PositionSpec } from '../../domains/trade/queries/positions.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { writeTradeFixtureSnapshot } from './fixtures.ts';

let app: TestApp;
before(async () => {
  const { dataDir } = await writeTradeFixtureSnapshot();
  app = await startTestApp(dataDir);
});
after(() => app?.close());

const SPEC: PositionSpec = {
  table: 'trade_list', codes: ['reporter', 'product', 'partner', 'flow'], days: ['period_start', 'period_end'], groupBy: ['reporter', 'product'],
};

test('trade_list: count and page range as plain statements give them', async () => {
  let compared = 0;
  let found = 0;
  for (const reporter of [null, 'RO', 'HU', 'FR', 'DE', 'XX']) {
    for (const product of [null, '1001', '1005', '9999']) {
      if (reporter === null && product === null) continue;
      for (const partner of [null, 'WORLD', 'UA']) {
        for (const flow of [null, 1, 2]) {
          for (const [from, to] of [[null, null], ['2022-01-01', null], [null, '2023-12-31'], ['2024-03-01', '2024-06-30'], ['2021-01-01', '2022-12-31']]) {
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
        }
      }
    }
  }
  assert.ok(compared > 1000 && found > 200, `${compared} compared, ${found} with rows`);
});
