// npm run fetch -- ptp through the data.egov.bg listing API, against the loopback stand-in (FETCH_MIRROR):
// listResources is followed over two pages to total_records, the current resource (latest updated_at)
// is fetched with getResourceData and published; the API answers the fixture's figures (counted here
// from the fixture rows); a second fetch with the same listing asks no resource data and makes no
// generation; a replacement resource is picked by its updated_at and published. SEBRA: every resource of
// the operator's egov_dataset is fetched once, and a later fetch asks only a resource new to the listing.
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DOMAINS } from '../../domains/index.ts';
import { ingestCommandsOf } from '../../domains/registry.ts';
import { generationIds } from '../../ingest/generations.ts';
import { currentResource, EGOV_DATA_URL, EGOV_LIST_URL, PTP_DATASET_URI, resourcePageOf, type EgovResource } from '../../ingest/fetch/egov.ts';
import { fetchSources, type FetchReport } from '../../ingest/fetch/run.ts';
import { EXIT } from '../../ingest/exitCodes.ts';
import { expectOk, startTestApp } from '../helpers/app.ts';
import { tempDirUntilExit } from '../helpers/tmp.ts';
import { currentLayoutRows } from '../ingest/fixtures.ts';
import { FIXTURE_ROWS, portalJson } from '../ptp/fixture.ts';
import { StandInPublisher } from '../../bench/standInPublisher.ts';

const commands = ingestCommandsOf(DOMAINS);
const NOW = new Date('2026-11-22T15:00:00Z');

const OLD = 'aaaaaaaa-0000-4000-8000-000000000001';
const CURRENT = 'bbbbbbbb-0000-4000-8000-000000000002';
const OLDEST = 'cccccccc-0000-4000-8000-000000000003';
const REPLACEMENT = 'dddddddd-0000-4000-8000-000000000004';

const resource = (uri: string, updated_at: string, version = '1'): EgovResource & { file_format: string } => ({ uri, name: `ПТП ${uri.slice(0, 4)}`, file_format: 'JSON', version, updated_at });

/** An extra Varna accident of 2024, in the replacement only. */
const EXTRA_ROW = ['x1', '07.07.2024 07:07', 'ВАРНА', 'Варна', 'гр. Варна', 'Самокатастрофа', 'В населено място', '2', '1', '1', '1', '43,21000', '27,91000'];

/** Varna's accidents of 2024 in some rows, counted from the rows themselves ([2] region, [1] date, [7] died). */
function varna2024(rows: string[][]): { count: number; died: number } {
  const chosen = rows.filter((row) => row[2] === 'ВАРНА' && row[1]!.slice(6, 10) === '2024');
  return { count: chosen.length, died: chosen.reduce((sum, row) => sum + Number(row[7]), 0) };
}

describe('npm run fetch -- ptp through the data.egov.bg listing API', () => {
  const publisher = new StandInPublisher();
  /** The dataset's resources in the portal's order; the stand-in lists two per page. */
  let listed = [resource(OLD, '2026-10-01 08:00:00'), resource(OLDEST, '2026-09-01 08:00:00'), resource(CURRENT, '2026-11-20 06:00:00')];
  const data = new Map<string, string[][]>([[OLD, FIXTURE_ROWS.slice(0, 3)], [CURRENT, FIXTURE_ROWS], [OLDEST, FIXTURE_ROWS.slice(0, 1)]]);
  const sleeps: number[] = [];
  let dataDir: string;
  let first: FetchReport;

  const run = () => fetchSources(['ptp'], { dataDir }, {
    commands, log: () => {}, now: () => NOW,
    env: { FETCH_MIRROR: publisher.mirror, FETCH_BACKOFF_MS: '10', FETCH_RETRIES: '2' },
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });
  const posts = (url: string) => publisher.requests.filter((r) => r.url === url && r.method === 'POST');

  before(async () => {
    const root = await tempDirUntilExit('fetch-egov-');
    dataDir = path.join(root, 'parquet');
    await publisher.start();
    publisher.answerPost(EGOV_LIST_URL, (body) => {
      const asked = body as { criteria: { dataset_uri: string }; records_per_page: number; page_number: number };
      if (asked.criteria.dataset_uri !== PTP_DATASET_URI) return undefined;
      const page = listed.slice((asked.page_number - 1) * 2, asked.page_number * 2);
      return { body: Buffer.from(JSON.stringify({ success: true, resources: page, total_records: listed.length })), contentType: 'application/json' };
    });
    publisher.answerPost(EGOV_DATA_URL, (body) => {
      const rows = data.get((body as { resource_uri: string }).resource_uri);
      return rows === undefined ? undefined : { body: Buffer.from(portalJson(rows)), contentType: 'application/json' };
    });
    first = await run();
  });
  after(async () => {
    await publisher.stop();
  });

  it('lists the default dataset over two pages and fetches only the current resource', () => {
    assert.equal(first.exitCode, EXIT.ok, JSON.stringify(first.datasets));
    assert.notEqual(first.generation, null);
    assert.deepEqual(first.datasets.map((d) => [d.dataset, d.outcome, d.url]), [['accidents', 'published', resourcePageOf(CURRENT)]]);
    const listings = posts(EGOV_LIST_URL).map((r) => r.body);
    assert.deepEqual(listings, [1, 2].map((page) => ({ criteria: { dataset_uri: PTP_DATASET_URI }, records_per_page: 100, page_number: page })));
    assert.deepEqual(posts(EGOV_DATA_URL).map((r) => r.body), [{ resource_uri: CURRENT }]);
    assert.ok(publisher.requests.every((r) => r.headers['content-type'] === 'application/json' && String(r.headers['user-agent']).startsWith('public-data-service/')));
    // The portal's rate: 8 s between two requests to data.egov.bg (the clock is fixed, so each wait is whole).
    assert.deepEqual(sleeps, [8_000, 8_000]);
  });

  it('keeps the resource version in the archive', async () => {
    const latest = JSON.parse(await readFile(path.join(path.dirname(dataDir), 'raw', 'ptp', 'latest.json'), 'utf8'));
    assert.equal(latest.datasets.accidents.resource_version, `${CURRENT} 1 2026-11-20 06:00:00`);
  });

  it('the API answers the current resource\'s accidents, and the import names its page', async () => {
    const app = await startTestApp(dataDir, () => NOW);
    try {
      const expected = varna2024(FIXTURE_ROWS);
      assert.equal(expected.count, 3);
      const body = await expectOk(app, '/api/ptp/getPtpPerRegion?region=Varna&year=2024');
      assert.equal(body.count, expected.count);
      assert.equal(body.items.reduce((sum: number, item: { died_count: number }) => sum + item.died_count, 0), expected.died);
      const rows = await app.db.all("SELECT DISTINCT source_url FROM imports WHERE source_url IS NOT NULL");
      assert.deepEqual(rows.map((r) => r.source_url), [resourcePageOf(CURRENT)]);
    } finally {
      await app.close();
    }
  });

  it('a second fetch with the same listing asks no resource data and makes no generation', async () => {
    const dataPosts = posts(EGOV_DATA_URL).length;
    const second = await run();
    assert.equal(second.exitCode, EXIT.ok);
    assert.equal(second.generation, null);
    assert.deepEqual(second.datasets.map((d) => [d.dataset, d.outcome, d.requests]), [['accidents', 'unchanged', 0]]);
    assert.equal(posts(EGOV_DATA_URL).length, dataPosts);
    assert.equal(posts(EGOV_LIST_URL).length, 4);
    assert.deepEqual(await generationIds(dataDir), [first.generation]);
  });

  it('a replacement resource is picked by its updated_at and published', async () => {
    listed = [resource(REPLACEMENT, '2026-11-21 06:00:00'), ...listed];
    data.set(REPLACEMENT, [...FIXTURE_ROWS, EXTRA_ROW]);
    const third = await run();
    assert.equal(third.exitCode, EXIT.ok, JSON.stringify(third.datasets));
    assert.notEqual(third.generation, null);
    assert.deepEqual(third.datasets.map((d) => [d.dataset, d.outcome, d.url]), [['accidents', 'published', resourcePageOf(REPLACEMENT)]]);
    assert.deepEqual(posts(EGOV_DATA_URL).at(-1)!.body, { resource_uri: REPLACEMENT });
    const app = await startTestApp(dataDir, () => NOW);
    try {
      const expected = varna2024([...FIXTURE_ROWS, EXTRA_ROW]);
      assert.equal(expected.count, 4);
      const body = await expectOk(app, '/api/ptp/getPtpPerRegion?region=Varna&year=2024');
      assert.equal(body.count, expected.count);
      assert.equal(body.items.reduce((sum: number, item: { died_count: number }) => sum + item.died_count, 0), expected.died);
    } finally {
      await app.close();
    }
  });
});

describe('the current resource of a listing', () => {
  it('is the latest updated_at; a tie goes to the higher version, then to the greater uri', () => {
    const a = resource(OLD, '2026-11-20 06:00:00', '2');
    const b = resource(CURRENT, '2026-11-20 06:00:00', '10');
    const c = resource(OLDEST, '2026-11-20 06:00:00', '10');
    assert.equal(currentResource([resource(REPLACEMENT, '2026-11-19 23:59:59', '99'), a])!.uri, OLD);
    assert.equal(currentResource([a, b])!.uri, CURRENT, 'version 10 is higher than 2');
    assert.equal(currentResource([c, b])!.uri, OLDEST, 'same version: the greater uri');
    assert.equal(currentResource([b, c])!.uri, OLDEST, 'whatever the listing order');
    assert.equal(currentResource([]), undefined);
  });
});

describe('npm run fetch -- sebra through the data.egov.bg listing API (egov_dataset)', () => {
  const publisher = new StandInPublisher();
  const DATASET = 'eeeeeeee-0000-4000-8000-000000000005';
  const day = (n: number) => `ffffffff-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`;
  /** A daily report as the portal serves it (every cell a string). */
  const report = (date: string) => JSON.stringify({ success: true, data: currentLayoutRows({ period: `Период: ${date} - ${date}` }).map((row) => row.map((cell) => (cell === null || cell === undefined ? '' : String(cell)))) });
  const days = new Map<string, string>([[day(1), '15.03.2024'], [day(2), '18.03.2024'], [day(3), '19.03.2024']]);
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  const run = () => fetchSources(['sebra'], { dataDir }, { commands, log: () => {}, now: () => NOW, env, sleep: async () => {} });
  const dataPosts = () => publisher.requests.filter((r) => r.url === EGOV_DATA_URL).map((r) => (r.body as { resource_uri: string }).resource_uri);

  before(async () => {
    const root = await tempDirUntilExit('fetch-egov-sebra-');
    dataDir = path.join(root, 'parquet');
    await mkdir(path.join(root, 'config'));
    await writeFile(path.join(root, 'config', 'sources.json'), JSON.stringify({ sources: { sebra: { egov_dataset: DATASET } } }));
    await publisher.start();
    env = { FETCH_MIRROR: publisher.mirror, FETCH_RETRIES: '0' };
    publisher.answerPost(EGOV_LIST_URL, (body) => {
      const asked = body as { criteria: { dataset_uri: string }; page_number: number };
      if (asked.criteria.dataset_uri !== DATASET) return undefined;
      const all = [...days.keys()].map((uri) => resource(uri, '2026-11-20 06:00:00'));
      return { body: Buffer.from(JSON.stringify({ success: true, resources: all.slice((asked.page_number - 1) * 2, asked.page_number * 2), total_records: all.length })) };
    });
    publisher.answerPost(EGOV_DATA_URL, (body) => {
      const date = days.get((body as { resource_uri: string }).resource_uri);
      return date === undefined ? undefined : { body: Buffer.from(report(date)) };
    });
  });
  after(async () => {
    await publisher.stop();
  });

  it('fetches every listed resource once, then only a new one', async () => {
    const first = await run();
    assert.equal(first.exitCode, EXIT.ok, JSON.stringify(first.datasets));
    assert.deepEqual(first.datasets.map((d) => [d.dataset, d.outcome]), [1, 2, 3].map((n) => [`egov-${day(n)}`, 'published']));
    assert.deepEqual(dataPosts(), [day(1), day(2), day(3)]);
    const second = await run();
    assert.equal(second.generation, null);
    assert.deepEqual(second.datasets.map((d) => d.outcome), ['unchanged', 'unchanged', 'unchanged']);
    assert.equal(dataPosts().length, 3);
    days.set(day(4), '20.03.2024');
    const third = await run();
    assert.notEqual(third.generation, null);
    assert.deepEqual(third.datasets.filter((d) => d.outcome === 'published').map((d) => d.dataset), [`egov-${day(4)}`]);
    assert.deepEqual(dataPosts(), [day(1), day(2), day(3), day(4)]);
    assert.equal((await generationIds(dataDir)).length, 2);
  });
});
