// The generated trade sample: deterministic, in the real layout, consistent (WORLD = intra-EU +
// extra-EU), and its planted moves visible in the markets endpoints, checked against the generator's
// own table of moves.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { agrifoodSampleSource } from '../../domains/agrifood/ingest/sampleSource.ts';
import { ensureSnapshot } from '../../ingest/bootstrap.ts';
import { parseTradeFile } from '../../domains/trade/ingest/parse.ts';
import { CONFIDENTIAL, generateTradeSample, PLANTED_MOVES } from '../../domains/trade/ingest/sample.ts';
import { tradeSampleSource } from '../../domains/trade/ingest/sampleSource.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { tempDir } from './fixtures.ts';

let app: TestApp;
let files: string[];
before(async () => {
  const root = await tempDir('trade-sample-');
  await ensureSnapshot({
    dataDir: path.join(root, 'parquet'), sampleDir: path.join(root, 'sample'), sources: [agrifoodSampleSource, tradeSampleSource], log: () => undefined,
  });
  files = [...(await generateTradeSample(path.join(root, 'again')))];
  app = await startTestApp(path.join(root, 'parquet'));
});
after(() => app?.close());

async function ok(url: string) {
  const response = await app.get(url);
  assert.equal(response.status, 200, `${url}: ${JSON.stringify(response.body)}`);
  return response.body;
}

describe('trade sample', () => {
  test('the same bytes every time, in the SDMX-CSV layout', async () => {
    for (const file of files) {
      const first = await readFile(path.join(path.dirname(path.dirname(file)), 'sample', 'trade', path.basename(file)));
      assert.deepEqual(await readFile(file), first, path.basename(file));
      assert.match(first.toString('utf8').split('\n')[0], /^DATAFLOW,LAST UPDATE,freq,reporter,partner,product,flow,indicators,TIME_PERIOD,OBS_VALUE,OBS_FLAG$/);
    }
  });

  test('WORLD = INT_EU27_2020 + EXT_EU27_2020 (to the euro) wherever all three are published', async () => {
    const values = new Map<string, number>();
    for (const file of files) {
      for (const o of (await parseTradeFile(file)).observations) {
        if (o.indicator === 'VALUE_IN_EUROS' && o.value !== null) values.set(`${o.reporter}|${o.product}|${o.flow}|${o.period}|${o.partner}`, Number(o.value));
      }
    }
    let checked = 0;
    for (const [key, world] of values) {
      if (!key.endsWith('|WORLD')) continue;
      const base = key.slice(0, -'WORLD'.length);
      const parts = [values.get(`${base}INT_EU27_2020`), values.get(`${base}EXT_EU27_2020`)];
      assert.ok(parts.every((p) => p !== undefined), key);
      assert.ok(Math.abs(world - parts[0]! - parts[1]!) <= 1, `${key}: ${world} vs ${parts}`);
      checked++;
    }
    // 9 reporters x 3 products x 2 flows x 10 years, less the confidential WORLD value.
    assert.equal(checked, 9 * 3 * 2 * 10 - CONFIDENTIAL.filter((c) => c.partner === 'WORLD' && c.indicator === 'VALUE_IN_EUROS').length);
  });

  test('every planted move after an unplanted year is a market change of 30 % or more in its direction', async () => {
    const body = await ok('/api/v1/markets/changes?min_percent=30&limit=500');
    for (const move of PLANTED_MOVES) {
      if (PLANTED_MOVES.some((m) => m.reporter === move.reporter && m.product === move.product && m.flow === move.flow && m.year === move.year - 1)) continue;
      const metric = move.flow === 1 ? 'imports' : 'exports';
      const found = body.items.find((i: any) => i.country === move.reporter && i.commodity === move.product && i.metric === metric && i.period === move.year);
      assert.ok(found, `${move.reporter} ${move.product} ${metric} ${move.year} (${move.why})`);
      assert.equal(found.direction, move.factor > 1 ? 'up' : 'down');
    }
  });

  test('the planted import surges are market anomalies by both tests; the confidential WORLD value leaves a null balance', async () => {
    const body = await ok('/api/v1/markets/anomalies?countries=PL,BG&commodities=1001');
    const reasons = (country: string, year: number) => body.items.find((i: any) => i.country === country && i.metric === 'imports' && i.period === year)?.reasons;
    assert.deepEqual(reasons('PL', 2022), ['percent_change', 'zscore']);
    assert.deepEqual(reasons('BG', 2023), ['percent_change', 'zscore']);
    const history = await ok('/api/v1/markets/HU/1003/history?date_from=2017&date_to=2017');
    assert.deepEqual([history.items[0].imports, history.items[0].trade_balance], [null, null]);
    assert.notEqual(history.items[0].exports, null);
    // NL reports trade but has no agri-food prices: its price stays null.
    const nl = await ok('/api/v1/markets/NL/1001');
    assert.equal(nl.market.price, null);
    assert.notEqual(nl.market.imports, null);
  });
});
