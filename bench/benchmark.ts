// `npm run bench [-- --quick] [--scales x1,x10,x100] [--sources sebra,ptp] [--no-paid] [--data-from DIR]`:
// data at each scale (generate, ingest, DuckDB floor), then per scale a separate measured process
// (startup, RSS, every catalog example's handler vs its SQL floor and through HTTP), HTTP load with
// autocannon against the app, a bare Koa route and the paid app; writes bench/results/<date>.{json,md}
// and, for a full run, the summary block of docs/benchmarks.md.
// The benchmark itself; bench/run.ts is its command line.
import { spawn } from 'node:child_process';
import { mkdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { DEV_KEYS, DEV_NETWORK, startDevChain, type DevChain } from '../devchain/chain.ts';
import { startLocalFacilitator, type LocalFacilitator } from '../devchain/facilitator.ts';
import { prepareTier, type SourceData, type Tier } from './data.ts';
import { buildServing } from '../domains/index.ts';
import { hasServingDatabase } from '../domains/servingDatabase.ts';
import { measureRefresh, REFRESH_SOURCE, type RefreshFigures } from './refresh.ts';
import { measureUnchangedRefresh, type UnchangedRefreshFigures } from './refreshUnchanged.ts';
import { presignPayments, runLoad, warm, type LoadResult } from './load.ts';
import { checkTargets, renderMarkdown, updateReadme, writeReport, type BenchReport, type TierReport } from './report.ts';
import type { TargetOptions, TargetReport } from './target.ts';
import type { ProfileLine } from './profile.ts';
import { percentile } from './stats.ts';

export interface BenchOptions {
  quick: boolean;
  tiers: readonly Tier[];
  /** Only these sample sources (and their domains' routes); all when absent. */
  sources?: string[];
  paid: boolean;
  /** Scratch folder for generated samples and snapshots. */
  workDir: string;
  /** Data prepared beforehand by `npm run bench:data` (DIR/<scale>/parquet and figures.json), used for the scales it has. */
  dataFrom?: string;
  resultsDir: string;
  /** README to refresh with the summary (full runs); none: leave it. */
  readme?: string;
  /** Report file name without extension; default the date. */
  name?: string;
  /** Paid requests per paid run (default: the settings'). */
  paidRequests?: number;
  /** Seconds of each timed load run (default: the settings'); the smoke test's shorter runs prove the same report. */
  loadSeconds?: number;
  log: (line: string) => void;
}

const SETTINGS = {
  quick: { runs: 5, httpRuns: 10, connections: 10, loadSeconds: 2, paidRequests: 10, variedPerFamily: 20, variedBudgetMs: 1000 },
  // 200 HTTP requests per example: with 40 the nearest-rank p99 is the single slowest request, a maximum.
  // 300 paid requests per run: at 120 one run lasted a quarter of a second and its CPU figure was mostly noise.
  // 100 drawn requests per route family, each family stopped after 4 s (a few families at x100 would take minutes otherwise).
  full: { runs: 40, httpRuns: 200, connections: 10, loadSeconds: 6, paidRequests: 300, variedPerFamily: 100, variedBudgetMs: 4000 },
} as const;

function settingsOf(options: BenchOptions): { runs: number; httpRuns: number; connections: number; loadSeconds: number; paidRequests: number; variedPerFamily: number; variedBudgetMs: number } {
  const settings = options.quick ? SETTINGS.quick : SETTINGS.full;
  return {
    ...settings,
    ...(options.paidRequests ? { paidRequests: options.paidRequests } : {}),
    ...(options.loadSeconds ? { loadSeconds: options.loadSeconds } : {}),
  };
}

/** How many times the paid run with the in-process facilitator is repeated (its median is the target's figure). */
const PAID_LOCAL_RUNS = 3;

/** The (nearest-rank) median of the measured values; null when none was measured. */
function medianOf(values: ReadonlyArray<number | null>): number | null {
  const measured = values.filter((value): value is number => value !== null).sort((a, b) => a - b);
  return measured.length === 0 ? null : percentile(measured, 50);
}

/** Runs bench/target.ts in its own process; resolves with its report and a stop function. */
interface Target {
  report: TargetReport;
  /** The target's CPU so far (ms): the whole process, and its main (JavaScript) thread where the OS tells it. */
  cpuMs: () => Promise<{ cpuMs: number; mainThreadCpuMs: number | null }>;
  /** Profiles the target over `run`; the profile is written to `file`. */
  profile: <T>(file: string, run: () => Promise<T>) => Promise<{ value: T; top: ProfileLine[] }>;
  stop: () => Promise<void>;
}

async function startTarget(options: TargetOptions): Promise<Target> {
  const child = spawn(process.execPath, ['--import', 'tsx', resolve(import.meta.dirname, 'target.ts'), JSON.stringify(options)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const lines = createInterface({ input: child.stdout! });
  const nextLine = () => new Promise<string>((done, fail) => {
    lines.once('line', done);
    void exited.then((code) => fail(new Error(`bench target exited (${code}) before answering`)));
  });
  const firstLine = await nextLine();
  return {
    report: JSON.parse(firstLine) as TargetReport,
    async cpuMs() {
      const answer = nextLine();
      child.stdin!.write('cpu\n');
      return JSON.parse(await answer) as { cpuMs: number; mainThreadCpuMs: number | null };
    },
    async profile(file, run) {
      const started = nextLine();
      child.stdin!.write('profile-start\n');
      await started;
      const value = await run();
      const stopped = nextLine();
      child.stdin!.write(`profile-stop ${file}\n`);
      return { value, top: (JSON.parse(await stopped) as { top: ProfileLine[] }).top };
    },
    async stop() {
      child.stdin!.end();
      await exited;
    },
  };
}

/** A scale's data prepared by `npm run bench:data`: its figures, and its serving database rebuilt when the code changed since. */
async function preparedTier(dir: string, tier: Tier, log: (line: string) => void): Promise<{ dataDir: string; sources: SourceData[]; servingBuildMs: number } | null> {
  const figures = await readFile(join(dir, tier.name, 'figures.json'), 'utf8').then((text) => JSON.parse(text) as { sources: SourceData[]; servingBuildMs: number }, () => null);
  if (!figures) return null;
  const dataDir = join(dir, tier.name, 'parquet');
  let servingBuildMs = figures.servingBuildMs;
  if (!(await hasServingDatabase(dataDir))) {
    log(`${tier.name}: rebuilding the serving database of ${dataDir} (the code changed since bench:data)`);
    const started = performance.now();
    await buildServing(dataDir);
    servingBuildMs = performance.now() - started;
  }
  log(`${tier.name}: using the data prepared in ${dataDir}`);
  return { dataDir, sources: figures.sources, servingBuildMs };
}

interface PaymentRig {
  chain: DevChain;
  facilitator: LocalFacilitator;
  env: Record<string, string>;
}

async function startPaymentRig(workDir: string): Promise<PaymentRig> {
  const chain = await startDevChain();
  const facilitator = await startLocalFacilitator({ chain });
  const env = {
    NODE_ENV: 'development',
    X402_PAY_TO: chain.addresses.payTo,
    X402_FACILITATOR_URL: facilitator.url,
    X402_NETWORKS: DEV_NETWORK,
    X402_ASSETS: JSON.stringify({ [DEV_NETWORK]: { address: chain.token, name: 'USD Coin', version: '2' } }),
    X402_EXEMPT_LOOPBACK: 'false',
    REVENUE_LEDGER: join(workDir, 'revenue.jsonl'),
  };
  return { chain, facilitator, env };
}

/** The domain tags whose routes are measured: the sources built (a source's name is its routes' tag). */
function tagsFor(sources: string[] | undefined): string[] | undefined {
  return sources;
}

async function measureTier(tier: Tier, options: BenchOptions, rig: PaymentRig | null): Promise<TierReport> {
  const settings = settingsOf(options);
  const data = (options.dataFrom ? await preparedTier(options.dataFrom, tier, options.log) : null) ?? await prepareTier(tier, options.workDir, options.sources, options.log);
  // One small source refreshed on the whole snapshot (bench/refresh.ts), when every source is there.
  let refresh: RefreshFigures | undefined;
  let refreshUnchanged: UnchangedRefreshFigures | undefined;
  if (!options.sources) {
    options.log(`${tier.name}: refresh of ${REFRESH_SOURCE} on the whole snapshot against ingesting it alone`);
    refresh = await measureRefresh(data.dataDir, join(options.dataFrom ?? options.workDir, tier.name, 'sample', REFRESH_SOURCE), options.workDir, (line) => options.log(`${tier.name}: ${line}`));
    // And `fetch --all` with nothing changed at the publishers (bench/refreshUnchanged.ts), from the same sample files.
    options.log(`${tier.name}: fetch --all with nothing changed against a loopback mirror`);
    refreshUnchanged = await measureUnchangedRefresh({ sampleRoot: join(options.dataFrom ?? options.workDir, tier.name, 'sample'), workDir: options.workDir, log: (line) => options.log(`${tier.name}: ${line}`) });
  }
  options.log(`${tier.name}: measuring endpoints in a fresh process`);
  const { report, cpuMs, profile, stop } = await startTarget({ dataDir: data.dataDir, runs: settings.runs, httpRuns: settings.httpRuns, tags: tagsFor(options.sources), paymentEnv: rig?.env,
    variedPerFamily: settings.variedPerFamily, variedBudgetMs: settings.variedBudgetMs });
  const load: LoadResult[] = [];
  let paidCpuMs: number | null = null;
  let paidMainThreadCpuMs: number | null = null;
  let paidWithRoundTripsCpuMs: number | null = null;
  let mixProfile: TierReport['mixProfile'];
  let paidProfile: TierReport['paidProfile'];
  /** A load run with the server's CPU per request beside it. */
  const measured = async (run: () => Promise<LoadResult>): Promise<LoadResult> => {
    const before = await cpuMs();
    const result = await run();
    const after = await cpuMs();
    const perRequest = (ms: number | null) => (result.requests > 0 && ms !== null ? ms / result.requests : null);
    return {
      ...result,
      serverCpuMsPerRequest: perRequest(after.cpuMs - before.cpuMs),
      serverMainThreadCpuMsPerRequest: perRequest(after.mainThreadCpuMs === null || before.mainThreadCpuMs === null ? null : after.mainThreadCpuMs - before.mainThreadCpuMs),
    };
  };
  try {
    // The load mix replays the GET samples (a POST sample with its body is timed per case above).
    const paths = report.cases.filter((c) => c.status === 200 && c.method !== 'POST').map((c) => c.url);
    const app = `http://127.0.0.1:${report.ports.app}`;
    await warm(app, paths);
    options.log(`${tier.name}: HTTP load`);
    load.push(await measured(() => runLoad('bare-koa', { base: `http://127.0.0.1:${report.ports.bare}`, paths: ['/'], connections: settings.connections, durationS: settings.loadSeconds })));
    const mix = await measured(() => runLoad('mix', { base: app, paths, connections: settings.connections, durationS: settings.loadSeconds }));
    load.push(mix);
    // The same mix again under the CPU profiler (a separate run: profiling slows it): where a warm request's time goes.
    await mkdir(options.resultsDir, { recursive: true });
    const profileFile = join(options.resultsDir, `${options.name ?? new Date().toISOString().slice(0, 10)}-${tier.name}-mix.cpuprofile`);
    mixProfile = { file: basename(profileFile), top: (await profile(profileFile, () => runLoad('mix-profiled', { base: app, paths, connections: settings.connections, durationS: settings.loadSeconds }))).top };
    if (rig && report.ports.paid !== null && report.ports.paidLocal !== null) {
      const paidRun = (label: string, base: string, payments: Awaited<ReturnType<typeof presignPayments>>) => {
        let next = 0;
        return runLoad(label, { base, paths, connections: settings.connections, amount: payments.length, next: () => payments[next++ % payments.length] });
      };
      // The paid answers come from the same warm cache: what is left is the payment's own cost. The
      // warming requests are sent before a run's CPU is read, not inside it.
      const measuredPaid = async (label: string, base: string, payments: Awaited<ReturnType<typeof presignPayments>>) => {
        await warm(app, paths);
        return measured(() => paidRun(label, base, payments));
      };
      // The unpaid baseline in the paid runs' own pattern (the same number of requests over the same
      // connections, not a timed saturating run): per-request costs that shrink under saturation
      // (event-loop turns, syscalls shared by batched requests) are then alike on both sides.
      await warm(app, paths);
      const unpaidCounted = await measured(() => runLoad('mix-counted', { base: app, paths, connections: settings.connections, amount: settings.paidRequests }));
      load.push(unpaidCounted);
      const extraCpu = (run: LoadResult) =>
        run.serverCpuMsPerRequest != null && unpaidCounted.serverCpuMsPerRequest != null ? run.serverCpuMsPerRequest - unpaidCounted.serverCpuMsPerRequest : null;
      const extraMainThreadCpu = (run: LoadResult) =>
        run.serverMainThreadCpuMsPerRequest != null && unpaidCounted.serverMainThreadCpuMsPerRequest != null
          ? run.serverMainThreadCpuMsPerRequest - unpaidCounted.serverMainThreadCpuMsPerRequest : null;
      // Each payment settles once, and an authorization is valid for minutes only: every run signs its own just before it.
      const sign = (base: string, count = settings.paidRequests) => {
        options.log(`${tier.name}: signing ${count} payments`);
        return presignPayments(base, paths, count, DEV_KEYS.payer);
      };
      const paid = `http://127.0.0.1:${report.ports.paid}`;
      const local = `http://127.0.0.1:${report.ports.paidLocal}`;
      const signed = await sign(paid);
      const mixPaid = await measuredPaid('mix-paid', paid, signed);
      load.push(mixPaid);
      paidWithRoundTripsCpuMs = extraCpu(mixPaid);
      // The target: the payment's server CPU beyond the facilitator's round trips (its facilitator answering in-process).
      // First a warm-up run (reported, not counted): the unpaid mix never ran the payment code, so
      // V8 compiles it during the first paid requests, on its helper threads; a running server did
      // that long ago. Measured on 2026-11-28: 300-request runs cost 2.0, 1.7, 1.2, then 0.6-0.8 ms.
      load.push(await measuredPaid('mix-paid-local-facilitator (warm-up)', local, await sign(local, 3 * settings.paidRequests)));
      // Then PAID_LOCAL_RUNS runs, the median kept: one run's figure moves by a tenth of a millisecond
      // or two with when V8's collector happens to run and how the two processes share the two cores.
      const localRuns: LoadResult[] = [];
      for (let i = 1; i <= PAID_LOCAL_RUNS; i++) {
        const localSigned = await sign(local);
        const run = await measuredPaid(`mix-paid-local-facilitator (${i} of ${PAID_LOCAL_RUNS})`, local, localSigned);
        load.push(run);
        localRuns.push(run);
      }
      paidCpuMs = medianOf(localRuns.map(extraCpu));
      paidMainThreadCpuMs = medianOf(localRuns.map(extraMainThreadCpu));
      const paidProfileFile = join(options.resultsDir, `${options.name ?? new Date().toISOString().slice(0, 10)}-${tier.name}-paid.cpuprofile`);
      const profiledSigned = await sign(local);
      await warm(app, paths);
      paidProfile = { file: basename(paidProfileFile), top: (await profile(paidProfileFile, () => paidRun('mix-paid-local-profiled', local, profiledSigned))).top };
    }
  } finally {
    await stop();
  }
  return {
    tier: tier.name, factors: tier.factors, sources: data.sources, servingBuildMs: data.servingBuildMs, ...(refresh ? { refresh } : {}), ...(refreshUnchanged ? { refreshUnchanged } : {}),
    startupMs: report.startupMs, startupMode: report.startupMode, startupSlowest: report.startupSlowest,
    rssAfterLoadMb: report.rssAfterLoadMb, heldStateMs: report.heldStateMs, rssAfterHeldStateMb: report.rssAfterHeldStateMb, rssAfterRunMb: report.rssAfterRunMb, cases: report.cases, varied: report.varied, load, paidCpuMs, paidMainThreadCpuMs, paidWithRoundTripsCpuMs, mixProfile, paidProfile,
  };
}

export async function runBench(options: BenchOptions): Promise<{ report: BenchReport; files: { json: string; markdown: string } }> {
  const settings = settingsOf(options);
  const cpus = os.cpus();
  const rig = options.paid ? await startPaymentRig(options.workDir) : null;
  const tiers: TierReport[] = [];
  try {
    for (const tier of options.tiers) tiers.push(await measureTier(tier, options, rig));
  } finally {
    await rig?.facilitator.stop();
  }
  const report: BenchReport = {
    date: new Date().toISOString().slice(0, 10),
    mode: options.quick ? 'quick' : 'full',
    machine: { cpus: cpus.length, cpuModel: cpus[0]?.model.trim() ?? 'unknown', memoryGb: Math.round(os.totalmem() / 2 ** 30), node: process.version, loadAverage: os.loadavg() },
    settings: { ...settings, paidRequests: options.paid ? settings.paidRequests : 0 },
    tiers,
    targets: checkTargets(tiers),
    notes: [
      'handler: the route handler called directly, cache off; SQL floor: the same statements the handler issued, re-run directly through the engine (prepared, rows converted), timed together.',
      'HTTP p50/p99 per example: sequential requests through the full app with the answer cache off (every request a miss); nearest-rank percentiles over the settings\' HTTP requests per example (of 200, the p99 is the 198th: only the two slowest lie above it; the slowest is reported for every example over the target).',
      'varied: every GET route family over requests drawn from its examples with new windows, codes, geos and limits (bench/varied.ts, a fixed seed), each sent once through the full app with the answer cache off, sequentially; a family stops at its time budget.',
      'mix: every catalog example in turn over keep-alive connections, answer cache warm; bare-koa: a Koa app answering a small JSON body (the ceiling); mix-paid: the same mix, every request paid with its own EIP-3009 authorization (signed beforehand by the official client) and verified and settled through the local facilitator on the in-process chain (which runs in the load generator\'s process).',
    ],
  };
  // A quick run never replaces the day's full report.
  const files = await writeReport(options.resultsDir, report, options.name ?? (options.quick ? `${report.date}-quick` : report.date));
  if (options.readme) await updateReadme(options.readme, readmeSummary(report, files.markdown));
  return { report, files };
}

/** Re-renders a written report (targets re-checked): its Markdown beside it and, unless named otherwise, the README summary. */
export async function rerender(jsonPath: string, readme: string | undefined): Promise<void> {
  const report = JSON.parse(await readFile(jsonPath, 'utf8')) as BenchReport;
  report.targets = checkTargets(report.tiers);
  const files = await writeReport(dirname(jsonPath), report, basename(jsonPath, '.json'));
  if (readme) await updateReadme(readme, readmeSummary(report, files.markdown));
}

/** The summary block of docs/benchmarks.md (a page whose sections are level-2 headings, like the report's). */
function readmeSummary(report: BenchReport, markdownPath: string): string {
  const link = markdownPath.split('/').slice(-3).join('/');
  const body = renderMarkdown(report, { endpoints: false, title: false });
  return `Latest run (${report.date}, ${report.mode}; every endpoint at every scale: [${link}](../${link})):\n\n${body}`;
}

/** The page whose bench block a full run refreshes. */
export const SUMMARY_PAGE = 'docs/benchmarks.md';
