// Smoke run of `npm run bench -- --quick` on the PTP sample (one small source keeps it within CI
// time): data, endpoint timings, HTTP load and the paid run all happen and the report is complete.
// No wall-clock time is asserted.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { TIERS } from '../../bench/data.ts';
import { runBench } from '../../bench/benchmark.ts';
import { REPEAT_UNDER_MS, TIMED_RUNS } from '../../bench/stats.ts';
import { routes } from '../../domains/index.ts';

// Each timed load run (bare Koa, the mix, the profiled mix) lasts half a second instead of the quick
// settings' 2 s: a saturating run burns both cores for its whole length, and what is asserted (every
// answer 2xx, the server's CPU measured, a profile with lines) holds for a run of any length.
const LOAD_SECONDS = 0.5;

test('quick mode on the PTP sample writes a complete report', { timeout: 240_000 }, async () => {
  const workDir = await mkdtemp(join(os.tmpdir(), 'bench-smoke-'));
  try {
    const { report, files } = await runBench({
      quick: true, tiers: TIERS.filter((t) => t.name === 'x1'), sources: ['ptp'], paid: true, loadSeconds: LOAD_SECONDS,
      workDir, resultsDir: join(workDir, 'results'), log: () => undefined,
    });
    assert.deepEqual(JSON.parse(await readFile(files.json, 'utf8')), JSON.parse(JSON.stringify(report)));
    const [tier] = report.tiers;
    assert.equal(tier.tier, 'x1');

    const [ptp] = tier.sources;
    assert.equal(ptp.source, 'ptp');
    assert.equal(ptp.factor, 1);
    assert.ok(ptp.ingest.rows > 0 && ptp.ingest.files === 4);
    assert.ok(ptp.floor && ptp.floor.files === 4, 'DuckDB read every CSV and JSON file');
    // A small source with a floor: ingest and floor timed three times each, the median run reported;
    // once only when the first ingest took REPEAT_UNDER_MS or more (a busy machine, other tests beside).
    const runs = ptp.ingest.runs;
    assert.ok(runs === TIMED_RUNS || (runs === 1 && ptp.ingest.ms >= REPEAT_UNDER_MS), `${runs} ingest runs, ${ptp.ingest.ms} ms`);
    assert.equal(ptp.floor.runs, runs);
    // The least possible ingest of the same files, timed as often, and its ratio to the floor.
    assert.ok(ptp.least && ptp.least.runs === runs && ptp.least.ms > 0);
    assert.equal(ptp.leastVsFloor, ptp.floor.ms / ptp.least.ms);

    // Every PTP example is measured, answers 200, and has its handler, floor and HTTP timings.
    const examples = routes.filter((r) => r.tag === 'ptp').flatMap((r) => r.examples);
    assert.deepEqual(tier.cases.map((c) => c.url), examples);
    for (const c of tier.cases) {
      assert.equal(c.status, 200, c.url);
      assert.equal(c.handler?.n, report.settings.runs);
      assert.equal(c.sqlFloor?.n, report.settings.runs);
      assert.equal(c.keyedFloor?.n, report.settings.runs, 'the keyed-lookup floor is timed beside each example');
      assert.equal(c.httpUncached.n, report.settings.httpRuns, 'HTTP is timed its own number of times');
      // The deadly ranking answers from running totals held per database (read before the cases): no
      // statement per request. The accident lists read ptp_crashes.
      if (c.routeId === 'getMostDeadlyLocations') assert.equal(c.statements, 0, `${c.url} answers from the held running totals`);
      else assert.ok(c.statements > 0 && 'ptp_crashes' in c.tables, `${c.url} reads ptp_crashes`);
    }

    assert.ok(tier.heldStateMs !== undefined && tier.heldStateMs >= 0 && tier.rssAfterHeldStateMb! >= tier.rssAfterLoadMb * 0.5, 'the held state is read after startup, as the server does');

    const localRuns = ['1 of 3', '2 of 3', '3 of 3'].map((n) => `mix-paid-local-facilitator (${n})`);
    assert.deepEqual(tier.load.map((l) => l.label), ['bare-koa', 'mix', 'mix-counted', 'mix-paid', 'mix-paid-local-facilitator (warm-up)', ...localRuns]);
    for (const l of tier.load) assert.equal(l.non2xx + l.errors, 0, `${l.label}: every answer 2xx`);
    assert.equal(report.settings.loadSeconds, LOAD_SECONDS);
    for (const l of tier.load.slice(0, 2)) assert.ok(l.requests > 0, `${l.label}: requests answered within its ${LOAD_SECONDS} s`);
    assert.equal(tier.load[2].requests, report.settings.paidRequests, 'the unpaid baseline makes as many requests as a paid run');
    assert.equal(tier.load[3].requests, report.settings.paidRequests, 'each signed payment used once');
    assert.equal(tier.load[4].requests, 3 * report.settings.paidRequests, 'the warm-up run pays three times as many requests');
    for (const l of tier.load.slice(5)) assert.equal(l.requests, report.settings.paidRequests, `${l.label}: each signed payment used once (in-process facilitator)`);
    // The target's figure is the median of the three local runs' CPU beyond the unpaid baseline (the warm-up not counted).
    const extras = tier.load.slice(5).map((l) => l.serverCpuMsPerRequest! - tier.load[2].serverCpuMsPerRequest!).sort((a, b) => a - b);
    assert.equal(tier.paidCpuMs, extras[1]);
    // Nine targets, each at its scale (x1 stands in for the ones not measured): the seven of the
    // examples and the route families over varied parameters at x10 and x100.
    assert.equal(report.targets.length, 9);
    assert.deepEqual(report.targets.filter((t) => t.target.startsWith('every route family over varied parameters')).map((t) => t.tier), ['x1 (x10 not measured)', 'x1 (x100 not measured)']);
    // Every PTP route family over its drawn requests (the quick settings' 20 each, within the 1 s budget), each answering.
    const varied = tier.varied!;
    assert.deepEqual(varied.families.map((f) => f.family), [...new Set(tier.cases.map((c) => c.routeId))]);
    for (const f of varied.families) {
      assert.ok(f.n >= 1 && f.n <= varied.perFamily && f.n === Object.values(f.statuses).reduce((a, b) => a + b, 0), f.family);
      assert.ok(Object.keys(f.statuses).every((status) => status === '200' || status === '404'), `${f.family}: ${JSON.stringify(f.statuses)}`);
    }
    assert.match(await readFile(files.markdown, 'utf8'), /## Route families over varied parameters/);
    for (const l of tier.load) assert.ok(typeof l.serverCpuMsPerRequest === 'number' && l.serverCpuMsPerRequest > 0, `${l.label}: server CPU measured`);
    assert.equal(typeof tier.paidCpuMs, 'number', 'the paid request\'s own server CPU is measured');
    if (process.platform === 'linux') {
      // The main thread's CPU is read in clock ticks of 10 ms, user and system each rounded down, so its
      // difference over a run can exceed the true one by up to two ticks; the process's is exact.
      const ticksMs = 2 * 10;
      for (const l of tier.load) {
        assert.ok(typeof l.serverMainThreadCpuMsPerRequest === 'number' && l.serverMainThreadCpuMsPerRequest >= 0
          && l.serverMainThreadCpuMsPerRequest <= l.serverCpuMsPerRequest! + ticksMs / l.requests, `${l.label}: the main thread's share is part of the process's CPU`);
      }
      assert.equal(typeof tier.paidMainThreadCpuMs, 'number', 'and its main-thread share');
    }
    assert.equal(typeof tier.paidWithRoundTripsCpuMs, 'number', 'and with the facilitator\'s round trips');
    assert.ok(tier.paidProfile && tier.paidProfile.top.length > 0, 'the paid mix is profiled');
    assert.ok(tier.paidProfile.top.every((line) => !line.where.includes('node:inspector')), 'the profiler\'s own work is left out');
    assert.ok(tier.mixProfile && tier.mixProfile.top.length > 0 && tier.mixProfile.top.every((line) => line.selfMs >= 0 && line.share <= 1), 'the warm mix is profiled');
    assert.match(await readFile(files.markdown, 'utf8'), /CPU profile of the warm mix at x1/);
    assert.match(await readFile(files.markdown, 'utf8'), /## Endpoint latency/);
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
});
