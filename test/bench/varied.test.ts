// The benchmark's draw of varied parameters (bench/varied.ts): the same requests for the same seed,
// others for another; drawn values stay in the forms and bounds the routes accept; and on the x1
// sample of a handful of families (SEBRA, PTP, cards, ETS) every drawn request answers 200 or a
// documented 404, never a 400 or a 5xx. The report shows the families against the targets. The app is
// the run's shared full sample (test/http/sample-app.ts): it holds those families' samples, and
// serving it costs an open instead of generating and ingesting four sources again.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { renderMarkdown, checkTargets, type BenchReport, type TierReport } from '../../bench/report.ts';
import { drawVaried, measureVaried, VARIED_SEED } from '../../bench/varied.ts';
import { routes } from '../../domains/index.ts';
import type { TestApp } from '../helpers/app.ts';
import { startSampleApp } from '../http/sample-app.ts';

const FAMILIES = ['sebra', 'ptp', 'cardgame', 'ets'];

test('the draw is fixed by its seed, and another seed draws other requests', () => {
  const first = drawVaried(routes, 30);
  assert.deepEqual(drawVaried(routes, 30), first);
  assert.deepEqual(drawVaried(routes, 30, VARIED_SEED), first);
  const other = drawVaried(routes, 30, VARIED_SEED + 1);
  assert.notDeepEqual(other, first);
  // Every GET route is a family, in catalog order, and no POST route.
  assert.deepEqual(first.map((f) => f.family), routes.filter((r) => r.method === 'GET').map((r) => r.id));
  // The draw varies: SEBRA's taxonomy over a period gets many windows, not its two examples.
  const taxonomy = first.find((f) => f.family === 'getTaxonomyForPeriod')!;
  assert.ok(new Set(taxonomy.urls).size >= 20, `${new Set(taxonomy.urls).size} distinct of 30`);
});

test('drawn values keep the example\'s forms and the schema\'s bounds', () => {
  const drawn = drawVaried(routes, 200);
  const urls = (family: string) => drawn.find((f) => f.family === family)!.urls.map((url) => new URL(url, 'http://x.invalid'));
  for (const url of urls('getTaxonomyForPeriod')) {
    const from = url.searchParams.get('from')!;
    const to = url.searchParams.get('to');
    // Both bounds in one of the examples' forms (MM-YYYY or DD-MM-YYYY), years within the SEBRA examples' 2024-2026, to not before from.
    assert.match(from, /^(\d\d-)?\d\d-(2024|2025|2026)$/);
    if (to !== null) {
      assert.equal(to.length, from.length, url.search);
      const key = (v: string) => v.split('-').reverse().join('-');
      assert.ok(key(from) <= key(to), url.search);
    }
  }
  const limits = urls('getMostSponsoredProgramme').flatMap((url) => (url.searchParams.has('limit') ? [Number(url.searchParams.get('limit'))] : []));
  assert.ok(limits.length > 50);
  assert.ok(limits.every((limit) => Number.isInteger(limit) && limit >= 1 && limit <= 100), String(limits));
  assert.ok(new Set(limits).size > 30, 'limits vary');
  // A commodity code that looks like a year is not drawn as one.
  for (const url of urls('getTradeBalance')) {
    const commodity = url.searchParams.get('commodity') ?? url.searchParams.get('product');
    assert.ok(commodity && ['1001', '1005', 'wheat', 'barley', 'maize', 'Breadmaking common wheat'].includes(commodity), url.search);
  }
  // A family key ties the example's dataset: dim.nrg_bal=REN only with nrg_ind_ren.
  for (const url of urls('getEnergySeries')) {
    if (url.searchParams.get('dim.nrg_bal') === 'REN') assert.equal(url.searchParams.get('dataset_id'), 'nrg_ind_ren', url.search);
  }
});

let app: TestApp;
before(async () => {
  app = await startSampleApp('varied-');
}, { timeout: 300_000 });
after(async () => {
  await app?.close();
});

test('on the x1 sample every drawn request of SEBRA, PTP, the card game and ETS answers 200 or 404 not_found', { timeout: 240_000 }, async () => {
  const families = drawVaried(routes.filter((route) => FAMILIES.includes(route.tag)), 25);
  const statuses = new Map<string, number>();
  for (const { family, urls } of families) {
    for (const url of urls) {
      const response = await app.request(url);
      const body = await response.json() as { error?: { code: string } };
      statuses.set(String(response.status), (statuses.get(String(response.status)) ?? 0) + 1);
      if (response.status === 404) assert.equal(body.error?.code, 'not_found', `${family} ${url}`);
      else assert.equal(response.status, 200, `${family} ${url}: ${JSON.stringify(body)}`);
    }
  }
  // Most find something: the values come from the examples.
  assert.ok((statuses.get('200') ?? 0) >= 0.8 * families.length * 25, JSON.stringify(Object.fromEntries(statuses)));

  // Measured through the same app: one result per family, every request counted.
  const results = await measureVaried((url) => app.request(url), families, 10_000);
  assert.deepEqual(results.map((r) => r.family), families.map((f) => f.family));
  for (const result of results) {
    assert.equal(result.n, 25);
    assert.equal(Object.values(result.statuses).reduce((a, b) => a + b, 0), 25);
    assert.ok(result.p50 <= result.p99 && result.p99 <= result.max);
    assert.ok(families.find((f) => f.family === result.family)!.urls.includes(result.slowestUrl));
  }
});

test('the report checks the families against the endpoint targets at x10 and x100 and lists them', () => {
  const family = (name: string, p50: number, p99: number) => ({ family: name, tag: 'sebra', n: 100, p50, p99, max: p99 + 1, statuses: { 200: 100 }, slowestUrl: `/api/sebra/${name}?from=01-2025` });
  const tier = (name: string, families: ReturnType<typeof family>[]): TierReport => ({
    tier: name, factors: {}, sources: [], startupMs: 1, startupSlowest: [], rssAfterLoadMb: 1, rssAfterRunMb: 1, cases: [], load: [],
    varied: { seed: VARIED_SEED, perFamily: 100, budgetMs: 4000, families },
  });
  const tiers = [
    tier('x10', [family('getTaxonomyForPeriod', 12.9, 30), family('getTaxonomyForYear', 6, 20)]),
    tier('x100', [family('getTaxonomyForPeriod', 40, 49.9), family('getUnusualPayments', 20, 51)]),
  ];
  const varied = checkTargets(tiers).filter((check) => check.target.startsWith('every route family over varied parameters'));
  assert.deepEqual(varied.map((check) => [check.tier, check.met, check.misses]), [
    ['x10', false, ['getTaxonomyForPeriod p50 12.9 / p99 30.0 ms over 100']],
    ['x100', false, ['getUnusualPayments p50 20.0 / p99 51.0 ms over 100']],
  ]);
  const report: BenchReport = {
    date: '2026-12-06', mode: 'quick', machine: { cpus: 2, cpuModel: 'test', memoryGb: 1, node: 'v20', loadAverage: [0, 0, 0] },
    settings: { runs: 1, connections: 1, loadSeconds: 1, paidRequests: 0, variedPerFamily: 100 }, tiers, targets: checkTargets(tiers), notes: [],
  };
  const lines = renderMarkdown(report).split('\n');
  assert.ok(lines.includes('## Route families over varied parameters (HTTP, cache off)'));
  assert.ok(lines.includes('| x10 | getTaxonomyForPeriod | 100 | 200: 100 | 12.9 | 30.0 | 31.0 | - | `/api/sebra/getTaxonomyForPeriod?from=01-2025` |'));
  // The summary (docs/benchmarks.md) keeps the targets, not the table.
  assert.ok(!renderMarkdown(report, { endpoints: false }).includes('## Route families over varied parameters'));
});
