// The benchmark's own logic: percentiles, ratios, example resolution, the recorded-SQL floor's
// table detection, target checks and report writing. Values are worked out by hand in comments.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { benchCases, matchPathForm, rawQuery } from '../../bench/examples.ts';
import { topSelfTime } from '../../bench/profile.ts';
import { tablesRead } from '../../bench/recordingDatabase.ts';
import {
  checkTargets, handlerVsFloor, httpVsKeyedFloor, README_END, README_START, renderMarkdown, replaceBetweenMarkers, writeReport,
  type BenchReport, type TierReport,
} from '../../bench/report.ts';
import { medianBy, percentile, perSecond, ratio, summarize, type Summary } from '../../bench/stats.ts';
import type { CaseResult } from '../../bench/target.ts';
import { routes } from '../../domains/index.ts';
import { exampleRequests } from '../../queries/catalog.ts';
import { tempDirUntilExit } from '../helpers/tmp.ts';

test('percentile is nearest-rank', () => {
  const sorted = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  // p50 of 10 values: rank ceil(0.5 * 10) = 5 -> 5; p99: rank ceil(9.9) = 10 -> 10; p10: rank 1 -> 1.
  assert.equal(percentile(sorted, 50), 5);
  assert.equal(percentile(sorted, 99), 10);
  assert.equal(percentile(sorted, 10), 1);
  assert.equal(percentile([7], 99), 7);
  // 200 values 1..200: p99 = rank 198.
  assert.equal(percentile(Array.from({ length: 200 }, (_, i) => i + 1), 99), 198);
  assert.throws(() => percentile([], 50), RangeError);
  assert.throws(() => percentile([1], 0), RangeError);
});

test('summarize sorts its samples and reports p50, p99, mean, min, max', () => {
  const summary = summarize([9, 1, 5, 3, 7]);
  // sorted 1 3 5 7 9: p50 rank 3 -> 5, p99 rank 5 -> 9, mean 25 / 5 = 5.
  assert.deepEqual(summary, { n: 5, p50: 5, p99: 9, mean: 5, min: 1, max: 9 });
});

test('ratio and perSecond refuse what cannot be compared', () => {
  assert.equal(ratio(30, 10), 3);
  assert.equal(ratio(null, 10), null);
  assert.equal(ratio(5, 0), null);
  assert.equal(ratio(5, null), null);
  assert.equal(perSecond(500, 250), 2000);
  assert.equal(perSecond(0, 250), null);
  assert.equal(perSecond(10, 0), null);
});

test('medianBy picks the run with the middle value (the lower middle of an even count), whole', () => {
  const runs = [{ ms: 30, id: 'a' }, { ms: 10, id: 'b' }, { ms: 20, id: 'c' }];
  assert.equal(medianBy(runs, (r) => r.ms).id, 'c');
  assert.equal(medianBy([{ ms: 4, id: 'x' }, { ms: 2, id: 'y' }], (r) => r.ms).id, 'y');
  assert.equal(medianBy([{ ms: 7, id: 'only' }], (r) => r.ms).id, 'only');
  assert.deepEqual(runs.map((r) => r.id), ['a', 'b', 'c'], 'the runs are not reordered');
});

test('examples resolve to their path form and validated parameters', () => {
  const taxonomy = routes.find((r) => r.id === 'getTaxonomyForYear')!;
  assert.deepEqual(matchPathForm(taxonomy, '/api/sebra/getTaxonomyForYear/2025'), {
    template: '/api/sebra/getTaxonomyForYear/{year}', pathParams: { year: '2025' },
  });
  assert.equal(matchPathForm(taxonomy, '/api/sebra/getTaxonomyForYear/2025/extra'), null);
  assert.deepEqual(rawQuery('?days&limit=5&x=1&x=2'), { days: '', limit: '5', x: ['1', '2'] });

  const cases = benchCases(routes);
  // Every sample request of every route (a POST path once per sample body), in catalog order.
  assert.deepEqual(cases.map((c) => c.url), routes.flatMap((r) => exampleRequests(r).map((request) => request.url)));
  const byPath = cases.find((c) => c.url.startsWith('/api/sebra/getTaxonomyForYear/'));
  assert.ok(byPath);
  assert.equal(typeof byPath.params.year, 'number', 'path parameters arrive coerced, as the handler gets them');
});

test('tablesRead lists FROM and JOIN tables, not CTE names', () => {
  const sql = `WITH picked AS (SELECT * FROM sebra_daily WHERE x = $a), ranked AS (SELECT * FROM picked)
    SELECT * FROM ranked r JOIN sebra_categories c ON c.k = r.k LEFT JOIN unnest($list) AS u ON true`;
  assert.deepEqual(tablesRead(sql), ['sebra_categories', 'sebra_daily']);
});

const stat = (p50: number, p99 = p50): Summary => ({ n: 10, p50, p99, mean: p50, min: p50, max: p99 });

function caseResult(url: string, tables: Record<string, number>, handler: number, floor: number, http: Summary): CaseResult {
  return {
    routeId: 'r', tag: 't', url, status: 200, error: null, handler: stat(handler), sqlFloor: stat(floor),
    statements: 1, tables, httpUncached: http, keyedFloor: stat(0.5), bytes: 2048,
  };
}

function tier(name: string, cases: CaseResult[], mix: number, bare: number, startupMs: number, ingestVsFloor = 0.1): TierReport {
  const load = (label: string, reqPerSec: number) => ({
    label, connections: 10, durationS: 1, requests: reqPerSec, non2xx: 0, errors: 0, reqPerSec, latencyP50Ms: 1, latencyP99Ms: 2,
  });
  return {
    tier: name, factors: {}, startupMs, startupSlowest: [{ sql: 'CREATE TABLE x AS SELECT 1', ms: 1200 }], rssAfterLoadMb: 100, rssAfterRunMb: 120, cases,
    load: [load('bare-koa', bare), load('mix', mix)],
    sources: [{
      source: 'ptp', factor: 1, form: 'csv+json', generateMs: 100,
      ingest: { files: 4, bytes: 2 ** 20, rows: 1000, ms: 500, rowsPerSec: 2000 },
      floor: { form: 'csv+json', files: 4, ms: 50, rowsPerSec: 20000 }, ingestVsFloor,
    }],
  };
}

test('targets are checked at their own scales and name every miss', () => {
  const fast = caseResult('/api/a', { sebra_daily: 10 }, 2, 1, stat(4, 20));
  const slow = caseResult('/api/b', { sebra_daily: 10 }, 30, 5, stat(12, 60)); // over both x10 limits
  const tailOnly = caseResult('/api/c', { ptp_crashes: 1000 }, 40, 20, stat(9, 55)); // p50 within, p99 over
  assert.equal(handlerVsFloor(slow), 6);
  // HTTP p50 12 ms against a keyed lookup of 0.5 ms: 24x.
  assert.equal(httpVsKeyedFloor(slow), 24);
  const x1 = { ...tier('x1', [fast], 900, 1000, 500), paidCpuMs: 0.4 };
  const x10 = tier('x10', [fast, slow, tailOnly], 400, 1000, 16_000);
  const x100 = { ...tier('x100', [fast, tailOnly], 850, 1000, 14_000), rssAfterLoadMb: 3100 };
  const checks = checkTargets([x1, x10, x100]);
  assert.deepEqual(checks.map((c) => [c.tier, c.met]), [
    ['x10', false], // latency: /api/b and /api/c miss
    ['x100', false], // p99: /api/c 55 > 50
    ['x10', false], // mix 400 / 1000 = 40% < 80%
    ['x100', true], // mix 850 / 1000 = 85%
    ['x10', false], // ingest 0.1x < 0.5x
    ['x100', false], // startup 14 s within, RSS 3100 MB > 3072 MB
    ['x1', true], // paid CPU 0.4 ms <= 1 ms
  ]);
  // The worst by p99 first: /api/b (60) then /api/c (55).
  assert.equal(checks[0].detail, '2 of 3 miss; worst: /api/b p50 12.0 / p99 60.0 ms; /api/c p50 9.0 / p99 55.0 ms');
  assert.deepEqual(checks[1].misses, ['/api/c p50 9.0 / p99 55.0 ms']);
  assert.equal(checks[2].detail, '40% (400 vs 1000 req/s)');
  assert.equal(checks[4].detail, '1 of 1 miss; worst: ptp 0.10x');
  // A miss whose least ingest is itself under 0.5x is named with it (floor 50 ms / least 125 ms = 0.4x);
  // one whose least ingest is within is not (50 / 80 = 0.625x).
  const withLeast = (leastMs: number) => ({ ...x10, sources: x10.sources.map((s) => ({ ...s, least: { ms: leastMs, runs: 3 }, leastVsFloor: s.floor!.ms / leastMs })) });
  assert.equal(checkTargets([x1, withLeast(125), x100])[4].detail, '1 of 1 miss; worst: ptp 0.10x (least ingest 0.40x)');
  assert.equal(checkTargets([x1, withLeast(80), x100])[4].detail, '1 of 1 miss; worst: ptp 0.10x');
  assert.equal(checks[5].detail, '14.0 s, 3100 MB');
  assert.equal(checks[6].detail, '0.40 ms');
  // With the bare route's CPU measured in the same run, the paid cost is also counted in bare requests (0.4 / 0.016 = 25).
  const timedBare = { ...x1, load: x1.load.map((run) => (run.label === 'bare-koa' ? { ...run, serverCpuMsPerRequest: 0.016 } : run)) };
  assert.equal(checkTargets([timedBare, x10, x100])[6].detail, '0.40 ms (25 bare-Koa requests of 0.016 ms, same run)');
  // Only x1 measured: each check falls back to it and says which scale it stands in for; no paid run: not measured.
  const alone = checkTargets([tier('x1', [fast], 900, 1000, 500, 0.6)]);
  assert.deepEqual(alone.map((c) => [c.tier, c.met]), [
    ['x1 (x10 not measured)', true], ['x1 (x100 not measured)', true], ['x1 (x10 not measured)', true], ['x1 (x100 not measured)', true],
    ['x1 (x10 not measured)', true], ['x1 (x100 not measured)', true], ['x1', false],
  ]);
  assert.equal(alone[6].detail, 'not measured');
});

test('the report is written as JSON and Markdown, and the README block is replaced between its markers', async () => {
  const tiers = [tier('x1', [caseResult('/api/a?x=1', { sebra_daily: 10 }, 2, 1, stat(4, 20))], 900, 1000, 500)];
  const report: BenchReport = {
    date: '2026-11-22', mode: 'quick',
    machine: { cpus: 2, cpuModel: 'test', memoryGb: 24, node: 'v20', loadAverage: [0.5, 0.4, 0.3] },
    settings: { runs: 10, connections: 10, loadSeconds: 1, paidRequests: 0 },
    tiers, targets: checkTargets(tiers), notes: ['a note'],
  };
  const dir = await tempDirUntilExit('bench-report-');
  const files = await writeReport(dir, report);
  assert.equal(files.json, join(dir, '2026-11-22.json'));
  assert.deepEqual(JSON.parse(await readFile(files.json, 'utf8')), report);
  const markdown = await readFile(files.markdown, 'utf8');
  assert.match(markdown, /^# Benchmark 2026-11-22 \(quick\)/);
  // ingest 2000 rows/s against a floor of 20000 rows/s: 0.1x; the mix at 900 of 1000 req/s: 0.9x.
  // Timed once (no `runs`: a report from before the repeats).
  // No least ingest in it (a report from before it was measured): '-'.
  assert.match(markdown, /\| x1 \| ptp \| 1 \| csv\+json \| 4 \| 1\.0 \| 1,000 \| 0\.1 \| 0\.5 \| 2,000 \| 20,000 \| 0\.1x \| - \| - \| 1 \|/);
  assert.match(markdown, /\| x1 \| mix \| 10 \| 900 \| 0 \| 900 \| 1\.00 \| 2\.00 \| 0\.9x \| - \|/);
  // 1 statement; handler 2 vs floor 1: 2.0x; HTTP 4 / 20; keyed floor 0.5: HTTP 4 / 0.5 = 8.0x; 2048 bytes = 2.0 KB.
  assert.match(markdown, /\| `\/api\/a\?x=1` \| 1 \| 2\.00 \| 2\.00 \| 1\.00 \| 2\.0x \| 4\.00 \| 20\.0 \| 0\.50 \| 8\.0x \| 2\.0 \|/);
  assert.match(markdown, /Slowest startup statements at x1: `CREATE TABLE x AS SELECT 1` 1\.20 s\./);
  assert.doesNotMatch(renderMarkdown(report, { endpoints: false }), /api\/a\?x=1/);

  const readme = join(dir, 'README.md');
  await writeFile(readme, `intro\n${README_START}\nold table\n${README_END}\noutro\n`);
  const text = await readFile(readme, 'utf8');
  assert.equal(replaceBetweenMarkers(text, 'new table'), `intro\n${README_START}\nnew table\n${README_END}\noutro\n`);
  assert.equal(replaceBetweenMarkers('no markers here', 'new'), 'no markers here');
});

test('topSelfTime: self time per function, idle and the profiler\'s own work (under node:inspector) left out', () => {
  const frame = (functionName: string, url = '') => ({ functionName, url, lineNumber: 0 });
  const profile = {
    nodes: [
      { id: 1, callFrame: frame('(root)'), children: [2, 3, 5] },
      { id: 2, callFrame: frame('answer', 'file:///work/main/http/router.ts'), children: [] },
      { id: 3, callFrame: frame('post', 'node:inspector'), children: [4] },
      { id: 4, callFrame: frame('dispatch'), children: [] },
      { id: 5, callFrame: frame('(idle)'), children: [] },
    ],
    // 3 ms in answer, 5 ms serialising the profile, 2 ms idle.
    samples: [2, 4, 2, 5, 4, 2, 4, 4, 5, 4],
    timeDeltas: [1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000],
  };
  assert.deepEqual(topSelfTime(profile), [{ where: 'answer http/router.ts:1', selfMs: 3, share: 1 }]);
});

test('the refresh target (issue 35) is checked at x10 when measured, and its table is rendered', () => {
  const fast = caseResult('/api/a', { sebra_daily: 10 }, 2, 1, stat(4, 20));
  const measured = (refreshMs: number, aloneMs: number): TierReport => ({
    ...tier('x10', [fast], 900, 1000, 500),
    refresh: {
      source: 'ecb',
      refresh: { ms: refreshMs, servingMs: 1500, build: 'incremental from generation 000002-20261206T000000Z: rebuilt imports, domain:macro', runs: 3 },
      alone: { ms: aloneMs, servingMs: 2000, build: 'full', runs: 3 },
      ratio: refreshMs / aloneMs,
    },
  });
  const target = (tiers: TierReport[]) => checkTargets(tiers).find((c) => c.target.startsWith('a refresh'));
  // 3000 / 2500 = 1.2x <= 2x; 6000 / 2500 = 2.4x > 2x.
  assert.deepEqual([target([measured(3000, 2500)])?.met, target([measured(3000, 2500)])?.detail], [true, 'ecb: 3.00 s vs 2.50 s alone (1.20x)']);
  assert.equal(target([measured(6000, 2500)])?.met, false);
  // Not measured (a run narrowed to some sources): no refresh target at all.
  assert.equal(target([tier('x10', [fast], 900, 1000, 500)]), undefined);
  const report: BenchReport = {
    date: '2026-12-06', mode: 'full',
    machine: { cpus: 2, cpuModel: 'test', memoryGb: 24, node: 'v20', loadAverage: [1, 1, 1] },
    settings: { runs: 10, connections: 10, loadSeconds: 1, paidRequests: 0 },
    tiers: [measured(3000, 2500)], targets: [], notes: [],
  };
  const markdown = renderMarkdown(report);
  assert.match(markdown, /## Refresh: one small source changed/);
  assert.ok(markdown.includes('| x10 | ecb | 3.00 | 1.50 | incremental from generation 000002-20261206T000000Z: rebuilt imports, domain:macro | 2.50 | 2.00 | 1.20x |'), markdown);
});
