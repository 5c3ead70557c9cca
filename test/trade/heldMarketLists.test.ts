// The market moves and anomalies held in JavaScript (heldMarketLists.ts) give the pages and totals
// that plain statements over the shapes give: combinations of country and commodity lists, thresholds
// (0, fractional, above every value) and pages (past the end included) over the generated trade and
// agri-food samples, every third one and always every threshold and page without a list.
// The statements are written here, not taken from the routes.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { agrifoodSampleSource } from '../../domains/agrifood/ingest/sampleSource.ts';
import { tradeSampleSource } from '../../domains/trade/ingest/sampleSource.ts';
import { atLeast, heldMarketAnomalies, heldMarketMoves, pageOfHeld } from '../../domains/trade/queries/heldMarketLists.ts';
import { MARKET_ANOMALIES_COLUMNS, MARKET_MOVES_COLUMNS } from '../../domains/trade/queries/marketShapes.ts';
import type { Row } from '../../engine/json.ts';
import { startSampleApp, type TestApp } from '../helpers/app.ts';
import { combinations, strided } from '../helpers/sample.ts';

let app: TestApp;
before(async () => {
  app = await startSampleApp('held-market-lists-', [tradeSampleSource, agrifoodSampleSource]);
});
after(() => app?.close());

const PAGES = [{ limit: 3, offset: 0 }, { limit: 10, offset: 5 }, { limit: 500, offset: 0 }, { limit: 5, offset: 100 }, { limit: 2, offset: 100_000 }];

/** Code lists to filter on: none, one code, two codes, a code the shape lacks. */
async function codeLists(table: string, column: string): Promise<Array<string[] | null>> {
  const codes = (await app.db.all(`SELECT DISTINCT ${column} AS code FROM ${table} ORDER BY code`)).map((row) => String(row.code));
  assert.ok(codes.length >= 3, `${table} has several ${column} codes`);
  return [null, [codes[0]!], [codes[1]!, codes[codes.length - 1]!], ['XX']];
}

function listSql(column: string, values: string[] | null, bindings: Record<string, string | number>): string {
  if (values === null) return 'true';
  values.forEach((value, i) => { bindings[`${column}_${i}`] = value; });
  return `${column} IN (${values.map((_, i) => `$${column}_${i}`).join(', ')})`;
}

type Page = { limit: number; offset: number };

/** Every third combination of the lists, thresholds and pages, and every threshold and page without a list. */
function sampled<T>(countries: Array<string[] | null>, commodities: Array<string[] | null>, thresholds: readonly T[]) {
  const all = combinations<[string[] | null, string[] | null, T, Page]>(countries, commodities, thresholds, PAGES);
  return strided(all, 3, ([countryList, commodityList]) => countryList === null && commodityList === null);
}

async function expectedPage(table: string, columns: string, where: string, bindings: Record<string, string | number>, page: { limit: number; offset: number }) {
  const [{ n }] = await app.db.all(`SELECT count(*)::INTEGER AS n FROM ${table} WHERE ${where}`, bindings);
  const rows = await app.db.all(`SELECT ${columns} FROM ${table} WHERE ${where} ORDER BY pos LIMIT ${page.limit} OFFSET ${page.offset}`, bindings);
  return { rows, limit: page.limit, offset: page.offset, total: Number(n) };
}

test('market moves: pages and totals as plain statements give them', async () => {
  const held = await heldMarketMoves(app.db);
  assert.ok(held, 'the moves are held');
  const countries = await codeLists('trade_market_moves', 'country');
  const commodities = await codeLists('trade_market_moves', 'commodity');
  let compared = 0;
  let withRows = 0;
  const combos = sampled(countries, commodities, [0, 10, 12.5, 50, 1e6]);
  for (const [countryList, commodityList, minPercent, page] of combos) {
    const bindings: Record<string, string | number> = { min_percent: minPercent };
    const where = `abs_percent >= $min_percent AND ${listSql('country', countryList, bindings)} AND ${listSql('commodity', commodityList, bindings)}`;
    const expected = await expectedPage('trade_market_moves', MARKET_MOVES_COLUMNS, where, bindings, page);
    const actual = pageOfHeld(held, { countries: countryList, commodities: commodityList }, (i) => atLeast(held.absPercent[i]!, minPercent), page);
    assert.deepEqual(actual, expected, JSON.stringify({ countryList, commodityList, minPercent, page }));
    compared++;
    if (expected.rows.length > 0) withRows++;
  }
  assert.ok(compared === combos.length && withRows > 40, `${compared} compared, ${withRows} with rows`);
});

test('market anomalies: pages, totals and reasons as plain statements give them (NULL percent or z-score meets no threshold)', async () => {
  const held = await heldMarketAnomalies(app.db);
  assert.ok(held, 'the anomalies are held');
  const [{ nulls }] = await app.db.all('SELECT count(*) FILTER (WHERE abs_percent IS NULL OR abs_zscore IS NULL)::INTEGER AS nulls FROM trade_market_anomalies');
  assert.ok(Number(nulls) > 0, 'some anomalies lack a percent change or a z-score');
  const countries = await codeLists('trade_market_anomalies', 'country');
  const commodities = await codeLists('trade_market_anomalies', 'commodity');
  const columns = `${MARKET_ANOMALIES_COLUMNS},
    CASE WHEN abs_percent >= $min_percent AND abs_zscore >= $z THEN ['percent_change', 'zscore']
         WHEN abs_percent >= $min_percent THEN ['percent_change'] WHEN abs_zscore >= $z THEN ['zscore'] END AS reasons`;
  let compared = 0;
  let withRows = 0;
  const combos = sampled(countries, commodities, [[0, 0], [40, 3], [12.5, 1.5], [1e6, 4], [1e6, 1e6]] as const);
  for (const [countryList, commodityList, [minPercent, z], page] of combos) {
    const bindings: Record<string, string | number> = { min_percent: minPercent, z };
    const where = `(abs_percent >= $min_percent OR abs_zscore >= $z) AND ${listSql('country', countryList, bindings)} AND ${listSql('commodity', commodityList, bindings)}`;
    const expected = await expectedPage('trade_market_anomalies', columns, where, bindings, page);
    const reasons = (i: number) => [
      ...(atLeast(held.absPercent[i]!, minPercent) ? ['percent_change'] : []), ...(atLeast(held.absZscore[i]!, z) ? ['zscore'] : []),
    ];
    const actual = pageOfHeld(held, { countries: countryList, commodities: commodityList }, (i) => reasons(i).length > 0, page,
      (row: Row, i: number) => ({ ...row, reasons: reasons(i) }));
    assert.deepEqual(actual, expected, JSON.stringify({ countryList, commodityList, minPercent, z, page }));
    compared++;
    if (expected.rows.length > 0) withRows++;
  }
  assert.ok(compared === combos.length && withRows > 40, `${compared} compared, ${withRows} with rows`);
});

test('the routes answer from the held rows what the statements give', async () => {
  const moves = await app.get('/api/v1/markets/changes?min_percent=12.5&limit=7&offset=2');
  assert.equal(moves.status, 200);
  const bindings = { min_percent: 12.5 };
  const expected = await expectedPage('trade_market_moves', MARKET_MOVES_COLUMNS, 'abs_percent >= $min_percent', bindings, { limit: 7, offset: 2 });
  assert.equal(moves.body.total, expected.total);
  assert.deepEqual(moves.body.items, JSON.parse(JSON.stringify(expected.rows)));
});

test('a held NULL (NaN) meets no threshold, not even 0, as NULL in SQL', () => {
  const held = {
    rows: [{ country: 'AA', commodity: '1001', n: 1 }, { country: 'AA', commodity: '1001', n: 2 }, { country: 'BB', commodity: '1005', n: 3 }],
    countries: ['AA', 'AA', 'BB'], commodities: ['1001', '1001', '1005'],
    absPercent: Float64Array.from([Number.NaN, 0, 7]), absZscore: Float64Array.from([0, Number.NaN, Number.NaN]),
  };
  const page = { limit: 10, offset: 0 };
  const byPercent = pageOfHeld(held, { countries: null, commodities: null }, (i) => atLeast(held.absPercent[i]!, 0), page);
  assert.deepEqual(byPercent.rows.map((row) => row.n), [2, 3]);
  const byZscore = pageOfHeld(held, { countries: null, commodities: null }, (i) => atLeast(held.absZscore[i]!, 0), page);
  assert.deepEqual(byZscore.rows.map((row) => row.n), [1]);
  const listed = pageOfHeld(held, { countries: ['BB', '__proto__'], commodities: ['1005'] }, () => true, page);
  assert.deepEqual([listed.total, listed.rows.map((row) => row.n)], [1, [3]]);
});
