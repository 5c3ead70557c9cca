// npm run fetch against a loopback stand-in for the publishers (FETCH_MIRROR): the first fetch publishes
// one generation and the API answers the real figures (recomputed here from the extracts); the second
// sends conditional requests, gets 304s and makes no generation; a 503 is retried; a corrupt download
// fails alone while another source's change is published (exit 6); the state feeds /healthz.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DOMAINS } from '../../domains/index.ts';
import { ingestCommandsOf } from '../../domains/registry.ts';
import { runLicenseCli } from '../../domains/macro/ingest/licenseCli.ts';
import { generationIds } from '../../ingest/generations.ts';
import { fetchSources, type FetchReport } from '../../ingest/fetch/run.ts';
import { fetchSourceNamed, plansOf } from '../../ingest/fetch/sources.ts';
import { readFetchState } from '../../engine/fetchState.ts';
import { EXIT } from '../../ingest/exitCodes.ts';
import { expectOk, startTestApp, type TestApp } from '../helpers/app.ts';
import { tempDirUntilExit } from '../helpers/tmp.ts';
import { StandInPublisher } from '../../bench/standInPublisher.ts';
import {
  CURVE_POINTS, ecbAnswers, ESTR_FIXINGS, eurofxrefZip, eurostatAnswers, fredGraphCsv, FRED_IDS, hicpRates, KEY_RATE_DECISIONS, missingRealFiles,
  REAL_FILES, worldBankAnswers,
} from './recorded.ts';

const missing = missingRealFiles();
const commands = ingestCommandsOf(DOMAINS);
const SOURCES = ['ecb', 'eurofxref', 'fred', 'eurostat', 'worldbank'];
const NOW = new Date('2026-11-22T15:00:00Z');
const r2 = (x: number) => Math.round(x * 100) / 100;
const r3 = (x: number) => Math.round(x * 1000) / 1000;

/** The official address of a source's dataset, from the table the fetch uses. */
function urlOf(source: string, dataset: string): string {
  const plan = plansOf(fetchSourceNamed(source)!, { env: {}, now: NOW, config: undefined }).find((p) => p.dataset === dataset);
  assert.ok(plan, `${source}/${dataset}`);
  return plan.pages[0]!.url;
}

describe('npm run fetch against the stand-in publishers', { skip: missing ?? false }, () => {
  const publisher = new StandInPublisher();
  let root: string;
  let dataDir: string;
  const sleeps: number[] = [];
  let first: FetchReport;
  /** The real eurofxref-hist.csv zipped, made once: the tests that publish it again publish these bytes. */
  let realZip: Buffer;

  const run = (names: readonly string[]) => fetchSources(names, { dataDir }, {
    commands,
    log: () => {},
    env: { FETCH_MIRROR: publisher.mirror, FETCH_BACKOFF_MS: '10', FETCH_RETRIES: '3' },
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    now: () => NOW,
  });

  before(async () => {
    root = await tempDirUntilExit('fetch-');
    dataDir = path.join(root, 'parquet');
    await publisher.start();
    realZip = await eurofxrefZip();
    publisher.publish('https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist.zip', { body: realZip, contentType: 'application/zip' });
    for (const [dataset, body] of ecbAnswers()) publisher.publish(urlOf('ecb', dataset), { body: Buffer.from(body), contentType: 'text/csv' });
    for (const id of FRED_IDS) publisher.publish(`https://fred.stlouisfed.org/graph/fredgraph.csv?id=${id}`, { body: Buffer.from(fredGraphCsv(id)), contentType: 'text/csv' });
    for (const [code, body] of eurostatAnswers()) publisher.publish(`https://ec.europa.eu/eurostat/api/dissemination/sdmx/2.1/data/${code}?format=TSV&compressed=true`, { body });
    for (const [id, body] of await worldBankAnswers()) publisher.publish(`https://api.worldbank.org/v2/en/indicator/${id}?downloadformat=csv`, { body });
    first = await run(SOURCES);
  });
  after(async () => {
    await publisher.stop();
  });

  it('the first fetch downloads every dataset and publishes them in ONE generation', async () => {
    assert.equal(first.exitCode, EXIT.ok, JSON.stringify(first.datasets.filter((d) => d.outcome !== 'published')));
    assert.notEqual(first.generation, null);
    assert.deepEqual(await generationIds(dataDir), [first.generation]);
    // ecb 4 + eurofxref 1 + fred 6 + eurostat 6 + worldbank 14
    assert.equal(first.datasets.length, 31);
    assert.deepEqual(first.datasets.filter((d) => d.outcome !== 'published'), []);
    // No request left the loopback: every one reached the stand-in, with the service's User-Agent.
    assert.equal(publisher.requests.length, 31);
    assert.ok(publisher.requests.every((r) => String(r.headers['user-agent']).startsWith('public-data-service/')));
    assert.ok(publisher.requests.every((r) => r.headers['if-none-match'] === undefined), 'nothing was held: no conditional request');
  });

  it('the raw archive keeps each download with its address, validators and sha256', async () => {
    const runs = await readdir(path.join(root, 'raw', 'eurofxref'));
    const folder = runs.find((name) => /^\d{8}T\d{6}Z$/.test(name))!;
    const manifest = JSON.parse(await readFile(path.join(root, 'raw', 'eurofxref', folder, 'manifest.json'), 'utf8'));
    const zip = realZip;
    const { createHash } = await import('node:crypto');
    assert.equal(manifest.files.length, 1);
    assert.equal(manifest.files[0].url, 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist.zip');
    assert.equal(manifest.files[0].sha256, createHash('sha256').update(zip).digest('hex'));
    assert.equal(manifest.files[0].bytes, zip.length);
    assert.match(manifest.files[0].etag, /^"[0-9a-f]{16}"$/);
    assert.equal(manifest.files[0].last_modified, 'Fri, 20 Nov 2026 10:00:00 GMT');
    assert.equal(manifest.files[0].status, 'ingested');
    assert.deepEqual(await readFile(path.join(root, 'raw', 'eurofxref', folder, 'eurofxref-hist.zip')), zip);
  });

  describe('the API answers the real figures', () => {
    let app: TestApp;
    before(async () => {
      // Licences are the operator's: the fetched FRED series are PENDING until approved.
      for (const id of ['CPIAUCSL', 'DGS10', 'DGS2']) assert.equal(await runLicenseCli([id, 'APPROVED', '--data-dir', dataDir]), 0);
      app = await startTestApp(dataDir, () => NOW);
    });
    after(async () => {
      await app?.close();
    });

    it('import records name the official addresses', async () => {
      const rows = await app.db.all('SELECT DISTINCT source_url FROM imports WHERE source_url IS NOT NULL ORDER BY source_url');
      const urls = new Set(rows.map((r) => String(r.source_url)));
      assert.ok(urls.has('https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist.zip'), [...urls].join(' '));
      assert.ok(urls.has('https://data-api.ecb.europa.eu/service/data/FM/B.U2.EUR.4F.KR.MRR_FR+DFR+MLFR.LEV?format=csvdata'), [...urls].join(' '));
      assert.ok(urls.has('https://fred.stlouisfed.org/graph/fredgraph.csv?id=DGS10'), [...urls].join(' '));
    });

    it('ECB stance: the key rates in force on the latest €STR fixing', async () => {
      const [estrDate, estr] = ESTR_FIXINGS.at(-1)!;
      const [effective, dfr, mrr, mlf] = KEY_RATE_DECISIONS.filter(([day]) => day <= estrDate).at(-1)!;
      // The hand-written deposit rates agree with the real FRED copy of the ECB series on their decision dates.
      const realDfr = new Map(readFileSync(REAL_FILES.dfr, 'utf8').trim().split('\n').slice(1).map((l) => l.split(',') as [string, string]));
      for (const [day, rate] of KEY_RATE_DECISIONS) assert.equal(Number(realDfr.get(day)), rate, day);
      const body = await expectOk(app, '/api/v1/rates/ecb-stance');
      assert.equal(body.date, estrDate);
      assert.deepEqual(body.rates.deposit_facility, { value: dfr, effective_date: effective });
      assert.deepEqual(body.rates.main_refinancing, { value: mrr, effective_date: effective });
      assert.equal(body.derived.corridor_width_pp, r3(mlf - dfr));
      assert.equal(body.derived.estr_minus_dfr_pp, r3(estr - dfr));
    });

    it('EU curve slope from the fetched YC series', async () => {
      const [day, sr2, sr10] = CURVE_POINTS.at(-1)!;
      const body = await expectOk(app, '/api/v1/rates/eu-curve-slope');
      assert.equal(body.date, day);
      assert.ok(JSON.stringify(body).includes(String(r2(sr10 - sr2))), JSON.stringify(body));
    });

    it('US-EU inflation: FRED CPIAUCSL (real) against the fetched Eurostat HICP', async () => {
      const cpi = new Map(readFileSync(path.join(REAL_FILES.fred, 'CPIAUCSL.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(',')).filter(([, v]) => v !== '').map(([d, v]) => [d!.slice(0, 7), Number(v)]));
      const hicp = new Map(hicpRates(12));
      const months = [...hicp.keys()].filter((m) => {
        const [y, mm] = m.split('-');
        return cpi.has(m) && cpi.has(`${Number(y) - 1}-${mm}`);
      }).sort();
      const month = months.at(-1)!;
      const [y, mm] = month.split('-');
      const us = r2((cpi.get(month)! / cpi.get(`${Number(y) - 1}-${mm}`)! - 1) * 100);
      const body = await expectOk(app, '/api/analytics/us-eu/inflation');
      assert.equal(body.month, month);
      assert.equal(body.eu_geo, 'EA19');
      assert.equal(body.eu_inflation, hicp.get(month));
      assert.equal(body.us_inflation, us);
      assert.equal(body.differential, r2(us - hicp.get(month)!));
    });

    it('EUR/USD spot from the fetched eurofxref zip: 1.0887 on 2024-01-19, the raw file\'s first line', async () => {
      const [date, rate] = readFileSync(REAL_FILES.eurofxref, 'utf8').split('\n')[1]!.split(',');
      const body = await expectOk(app, '/api/v1/fx/eurusd-analytics?lookback_days=30');
      assert.equal(body.spot_date, date);
      assert.equal(body.spot, Number(rate));
    });

    it('Eurostat nrg_ind_ren (real, gzipped) and the World Bank bulk zip (real) are held as published', async () => {
      const line = readFileSync(REAL_FILES.renewables, 'utf8').split('\n').find((l) => l.startsWith('A,REN,PC,AT\t'))!;
      const at2024 = Number(line.split('\t').at(-1)!.trim());
      const [estat] = await app.db.all(`SELECT obs_value FROM estat_observations WHERE dataset_id = 'nrg_ind_ren' AND geo = 'AT' AND time_period = '2024' AND dims['nrg_bal'] = 'REN'`);
      assert.equal(Number(estat!.obs_value), at2024);
      const wdiLine = readFileSync(REAL_FILES.worldbank, 'utf8').split('\n').find((l) => l.startsWith('"Austria"'))!;
      const aut2022 = Number(wdiLine.split('","').at(-1)!.replace(/",?\s*$/, ''));
      const [wdi] = await app.db.all(`SELECT value FROM wdi_observations WHERE indicator_code = 'NE.EXP.GNFS.ZS' AND country_code = 'AUT' AND year = 2022`);
      assert.equal(Number(wdi!.value), aut2022);
    });
  });

  describe('later fetches', () => {
    it('a second fetch sends conditional requests, gets 304s and makes no generation', async () => {
      const before = publisher.requests.length;
      const generations = await generationIds(dataDir);
      const report = await run(SOURCES);
      const asked = publisher.requests.slice(before);
      assert.equal(report.exitCode, EXIT.ok);
      assert.equal(report.generation, null);
      assert.deepEqual(await generationIds(dataDir), generations);
      assert.equal(asked.length, 31);
      assert.ok(asked.every((r) => r.status === 304 && typeof r.headers['if-none-match'] === 'string' && typeof r.headers['if-modified-since'] === 'string'));
      assert.ok(report.datasets.every((d) => d.outcome === 'unchanged'));
      // Nothing new was kept: the raw archive still holds the first run only.
      assert.equal((await readdir(path.join(root, 'raw', 'ecb'))).filter((name) => /^\d{8}T/.test(name)).length, 1);
      const state = await readFetchState(path.join(root, 'raw'));
      assert.equal(state.sources.ecb!.status, 'ok');
      assert.equal(state.sources.ecb!.last_change, NOW.toISOString());
    });

    it('a 503 is retried (Retry-After honoured) and the new file published', async () => {
      const url = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist.zip';
      const csv = readFileSync(REAL_FILES.eurofxref, 'utf8');
      const [header, ...rows] = csv.split('\n');
      const cells = rows[0]!.split(',');
      cells[0] = '2024-01-22';
      cells[1] = '1.0890';
      const line = cells.join(',');
      publisher.publish(url, { body: await eurofxrefZip([header, line, ...rows].join('\n')) });
      publisher.failFirst(url, 503, 2, '7');
      const before = publisher.requestsFor(url).length;
      sleeps.length = 0;
      const report = await run(['eurofxref']);
      const asked = publisher.requestsFor(url).slice(before);
      assert.deepEqual(asked.map((r) => r.status), [503, 503, 200]);
      assert.deepEqual(sleeps, [7000, 7000]);
      assert.equal(report.exitCode, EXIT.ok);
      assert.notEqual(report.generation, null);
      assert.equal(report.datasets[0]!.requests, 3);
    });

    it('a corrupt download fails alone, named with its address; another source\'s change is published (exit 6)', async () => {
      const fx = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist.zip';
      const good = realZip;
      publisher.publish(fx, { body: good.subarray(0, Math.floor(good.length / 2)) });
      const dgs10 = 'https://fred.stlouisfed.org/graph/fredgraph.csv?id=DGS10';
      const dgs2Last = readFileSync(path.join(REAL_FILES.fred, 'DGS2.csv'), 'utf8').trim().split('\n').at(-1)!;
      publisher.publish(dgs10, { body: Buffer.from(fredGraphCsv('DGS10', ['2025-12-31,4.20'])) });
      publisher.publish('https://fred.stlouisfed.org/graph/fredgraph.csv?id=DGS2', { body: Buffer.from(fredGraphCsv('DGS2', ['2025-12-31,3.50'])) });
      const generations = await generationIds(dataDir);
      const report = await run(['eurofxref', 'fred']);
      assert.equal(report.exitCode, EXIT.partial);
      assert.notEqual(report.generation, null);
      const after = await generationIds(dataDir);
      assert.equal(after.at(-1), report.generation);
      assert.equal(after.at(-2), generations.at(-1), 'one generation more');
      const failed = report.datasets.filter((d) => d.outcome === 'failed');
      assert.deepEqual(failed.map((d) => [d.source, d.url]), [['eurofxref', fx]]);
      assert.deepEqual(report.datasets.filter((d) => d.outcome === 'published').map((d) => d.dataset).sort(), ['DGS10', 'DGS2']);
      const state = await readFetchState(path.join(root, 'raw'));
      assert.equal(state.sources.eurofxref!.status, 'failed');
      assert.ok(state.sources.eurofxref!.reason!.includes(fx), state.sources.eurofxref!.reason);
      assert.equal(state.sources.fred!.status, 'ok');
      // The served EUR/USD is the one from before (the 503 test's new day), the yield curve has the new day.
      const app = await startTestApp(dataDir, () => NOW);
      try {
        const fxBody = await expectOk(app, '/api/v1/fx/eurusd-analytics?lookback_days=30');
        assert.deepEqual([fxBody.spot_date, fxBody.spot], ['2024-01-22', 1.089]);
        const [, dgs2Before] = dgs2Last.split(',');
        assert.ok(Number(dgs2Before) !== 3.5);
        const curve = await expectOk(app, '/api/analytics/us/yield-curve');
        assert.equal(curve.date, '2025-12-31');
        assert.equal(curve.value, r2(4.2 - 3.5));
      } finally {
        await app.close();
      }
    });

    it('the failed file is fetched again next time (its version was never recorded as ingested)', async () => {
      const fx = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist.zip';
      publisher.publish(fx, { body: realZip });
      const before = publisher.requestsFor(fx).length;
      const report = await run(['eurofxref']);
      const [asked] = publisher.requestsFor(fx).slice(before);
      assert.equal(asked!.status, 200);
      // Same bytes as the first version: the ledger knows them, nothing new to publish.
      assert.equal(report.datasets[0]!.outcome, 'already-imported');
      assert.equal(report.generation, null);
      assert.equal(report.exitCode, EXIT.ok);
      // Four runs downloaded eurofxref (first, 503, corrupt, this one): the newest three are kept (FETCH_RAW_KEEP).
      const runs = (await readdir(path.join(root, 'raw', 'eurofxref'))).filter((name) => /^\d{8}T/.test(name)).sort();
      assert.deepEqual(runs, ['20261122T150000Z-2', '20261122T150000Z-3', '20261122T150000Z-4']);
      const corrupt = JSON.parse(await readFile(path.join(root, 'raw', 'eurofxref', '20261122T150000Z-3', 'manifest.json'), 'utf8'));
      assert.equal(corrupt.files[0].status, 'failed');
      assert.ok(corrupt.files[0].reason.length > 0);
    });
  });
});
