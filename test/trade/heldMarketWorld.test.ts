// The WORLD market rows held per database (marketRows.ts over queries/shared/heldGroups.ts) are the rows
// the statement over trade_market_world gives: country lists (one, several in any order, repeated, a
// country without rows), every product and year windows, against a statement written here over the
// generated trade and agri-food samples: every third combination, and always the first product with
// every list and window.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { agrifoodSampleSource } from '../../domains/agrifood/ingest/sampleSource.ts';
import { tradeSampleSource } from '../../domains/trade/ingest/sampleSource.ts';
import { WORLD } from '../../domains/trade/queries/codes.ts';
import { MARKET_ROW_COLUMNS, marketRows } from '../../domains/trade/queries/marketRows.ts';
import { startSampleApp, type TestApp } from '../helpers/app.ts';
import { combinations, strided } from '../helpers/sample.ts';

let app: TestApp;
before(async () => {
  app = await startSampleApp('held-market-world-', [tradeSampleSource, agrifoodSampleSource]);
});
after(() => app?.close());

test('WORLD rows with both flows: country lists, products and year windows as the statement gives them', async () => {
  const countries = (await app.db.all('SELECT DISTINCT country AS c FROM trade_market_world ORDER BY c')).map((row) => String(row.c));
  const products = (await app.db.all('SELECT DISTINCT product AS p FROM trade_market_world ORDER BY p')).map((row) => String(row.p));
  assert.ok(countries.length >= 4 && products.length >= 2, 'a sample with several markets');
  const lists = [[countries[0]!], [countries.at(-1)!, countries[1]!, countries[0]!], [countries[2]!, countries[2]!], ['XX'], [...countries]];
  let compared = 0;
  let withRows = 0;
  const all = combinations<[string, string[], readonly [number, number]]>(products, lists, [[1900, 2100], [2018, 2020], [2022, 2022], [2030, 2040]]);
  for (const [product, list, [firstYear, lastYear]] of strided(all, 3, ([product]) => product === products[0])) {
    const bindings: Record<string, string | number> = { product, first_year: firstYear, last_year: lastYear };
    list.forEach((country, i) => { bindings[`c${i}`] = country; });
    const expected = await app.db.all(
      `SELECT country, ${MARKET_ROW_COLUMNS} FROM trade_market_world
        WHERE product = $product AND country IN (${list.map((_, i) => `$c${i}`).join(', ')}) AND period BETWEEN $first_year AND $last_year
        ORDER BY country, period`,
      bindings,
    );
    const actual = await marketRows(app.db, { countries: list, product, partner: WORLD, flow: null, firstYear, lastYear });
    assert.deepEqual(actual, expected, JSON.stringify({ product, list, firstYear, lastYear }));
    compared++;
    if (expected.length > 1) withRows++;
  }
  assert.ok(compared >= 20 && withRows >= 8, `${compared} compared, ${withRows} with several rows`);
});
