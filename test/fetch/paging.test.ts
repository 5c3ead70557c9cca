// A paged source (the agri-food portal asked a year at a time and joined), its conditional refetch, and
// the freshness it leaves on /healthz and in the metrics.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DOMAINS } from '../../domains/index.ts';
import { ingestCommandsOf } from '../../domains/registry.ts';
import { freshnessOf, readFetchState } from '../../engine/fetchState.ts';
import { createApp } from '../../http/app.ts';
import { ServerMetrics } from '../../http/metrics.ts';
import { openSnapshot } from '../../http/openSnapshot.ts';
import { routes } from '../../domains/index.ts';
import { EXIT } from '../../ingest/exitCodes.ts';
import { generationIds } from '../../ingest/generations.ts';
import { fetchSources } from '../../ingest/fetch/run.ts';
import { FETCH_SOURCE_NAMES } from '../../ingest/fetch/sources.ts';
import { tempDirUntilExit } from '../helpers/tmp.ts';
import { StandInPublisher } from '../../bench/standInPublisher.ts';

const API = 'https://api.tech.ec.europa.eu/agrifood/api';
const NOW = new Date('2026-11-22T15:00:00Z');

/** Weekly records of one year in each sector's layout (data/sources.md, the portal documentation). */
function records(sector: string, year: number, weeks: number): object[] {
  return Array.from({ length: weeks }, (_, i) => {
    const dmy = (d: Date) => `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`;
    const begin = new Date(Date.UTC(year, 0, 5 + 7 * i));
    const end = new Date(begin.getTime() + 6 * 86_400_000);
    const common = { memberStateCode: 'FR', memberStateName: 'France', beginDate: dmy(begin), endDate: dmy(end), weekNumber: i + 1, price: `€${200 + i}.00`, unit: '€/t' };
    if (sector === 'cereal') return { ...common, productName: 'Feed wheat', productCode: 'BLE', marketName: 'Rouen', marketCode: 'FR1', stageName: 'Delivered', stageCode: 'DEL', marketingYear: `${year - 1}/${year}` };
    if (sector === 'oilseeds') return { ...common, product: 'Rapeseed', productType: 'N.A.', market: 'Rouen', marketStage: 'DELPROC', marketingYear: `${year - 1}/${year}` };
    return { ...common, pigClass: 'E', unit: '€/100kg' };
  });
}

describe('a paged source: the agri-food portal, a year a page', () => {
  const publisher = new StandInPublisher();
  let root: string;
  let dataDir: string;
  const commands = ingestCommandsOf(DOMAINS);
  const run = () => fetchSources(['agrifood'], { dataDir }, { commands, log: () => {}, env: { FETCH_MIRROR: publisher.mirror }, sleep: async () => {}, now: () => NOW });
  const pageUrl = (sector: string, year: number) => `${API}/${sector}/prices?beginDate=01/01/${year}&endDate=31/12/${year}`;
  const weeks = new Map([['cereal', [3, 2]], ['oilseeds', [2, 2]], ['pigmeat', [4, 1]]]);

  before(async () => {
    root = await tempDirUntilExit('fetch-paging-');
    dataDir = path.join(root, 'parquet');
    await mkdir(path.join(root, 'config'));
    await writeFile(path.join(root, 'config', 'sources.json'), JSON.stringify({ sources: { agrifood: { from_year: 2025, schedule: '0 9 * * 4' } } }));
    await publisher.start();
    for (const [sector, [w2025, w2026]] of weeks) {
      publisher.publish(pageUrl(sector, 2025), { body: Buffer.from(JSON.stringify(records(sector, 2025, w2025!))) });
      publisher.publish(pageUrl(sector, 2026), { body: Buffer.from(JSON.stringify(records(sector, 2026, w2026!))) });
    }
  });
  after(async () => {
    await publisher.stop();
  });

  it('asks every page and ingests each sector\'s pages joined as one export', async () => {
    const report = await run();
    assert.equal(report.exitCode, EXIT.ok, JSON.stringify(report.datasets));
    assert.equal(publisher.requests.length, 6);
    const db = await openSnapshot(dataDir);
    try {
      const rows = await db.all('SELECT dataset, count(*)::INTEGER AS n FROM agri_prices GROUP BY dataset ORDER BY dataset');
      assert.deepEqual(rows.map((r) => [r.dataset, r.n]), [['cereals_prices', 5], ['oilseeds_prices', 4], ['pigmeat_prices', 5]]);
      const [record] = await db.all(`SELECT source_url FROM imports WHERE dataset = 'cereals_prices'`);
      assert.equal(record!.source_url, pageUrl('cereal', 2025));
    } finally {
      await db.close();
    }
  });

  it('a second run asks every page conditionally; one changed page brings its siblings again, in full', async () => {
    const generations = await generationIds(dataDir);
    let before = publisher.requests.length;
    const quiet = await run();
    assert.equal(quiet.generation, null);
    assert.deepEqual(publisher.requests.slice(before).map((r) => r.status), [304, 304, 304, 304, 304, 304]);
    publisher.publish(pageUrl('cereal', 2026), { body: Buffer.from(JSON.stringify(records('cereal', 2026, 3))) });
    before = publisher.requests.length;
    const changed = await run();
    const cereal = publisher.requests.slice(before).filter((r) => r.url.includes('/cereal/'));
    assert.deepEqual(cereal.map((r) => [r.url.slice(-10), r.status, r.headers['if-none-match'] !== undefined]), [
      ['31/12/2025', 304, true], ['31/12/2026', 200, true], ['31/12/2025', 200, false],
    ]);
    assert.notEqual(changed.generation, null);
    assert.deepEqual(await generationIds(dataDir), [...generations, changed.generation]);
    const db = await openSnapshot(dataDir);
    try {
      const [row] = await db.all(`SELECT count(*)::INTEGER AS n FROM agri_prices WHERE dataset = 'cereals_prices'`);
      assert.equal(row!.n, 3 + 3);
    } finally {
      await db.close();
    }
  });

  it('/healthz and the metrics show each source\'s last fetch, last change and status', async () => {
    const rawDir = path.join(root, 'raw');
    const freshness = async () => freshnessOf(await readFetchState(rawDir), FETCH_SOURCE_NAMES);
    const db = await openSnapshot(dataDir);
    const app = await createApp({ db, routes, now: () => NOW, freshness, logError: () => {} });
    const server = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    let body;
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/healthz`);
      assert.equal(response.status, 200);
      body = await response.json();
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await db.close();
    }
    assert.deepEqual(body.freshness.agrifood, { last_fetch: NOW.toISOString(), last_change: NOW.toISOString(), status: 'ok' });
    assert.deepEqual(body.freshness.ecb, { last_fetch: null, last_change: null, status: 'never' });
    assert.deepEqual(Object.keys(body.freshness), [...FETCH_SOURCE_NAMES]);
    assert.ok('sources' in body && 'held' in body, 'the existing fields stay');
    const metrics = new ServerMetrics();
    metrics.watchFreshness(freshness);
    const text = await metrics.text();
    assert.ok(text.includes(`source_last_fetch_timestamp_seconds{source="agrifood"} ${NOW.getTime() / 1000}`), text);
    assert.ok(text.includes(`source_last_change_timestamp_seconds{source="agrifood"} ${NOW.getTime() / 1000}`));
    assert.ok(text.includes('source_fetch_status{source="agrifood",status="ok"} 1'));
    assert.ok(text.includes('source_fetch_status{source="ecb",status="never"} 1'));
    assert.ok(!text.includes('source_last_fetch_timestamp_seconds{source="ecb"}'));
  });
});
