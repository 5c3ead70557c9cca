// The benchmark report: figures per scale, ratios to the floor / ceiling of the same run, the
// issue's targets checked, written as bench/results/<date>.json and <date>.md.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { IngestFigures, SourceData } from './data.ts';
import type { RefreshFigures } from './refresh.ts';
import type { UnchangedRefreshFigures } from './refreshUnchanged.ts';
import type { LoadResult } from './load.ts';
import { ratio, REPEAT_UNDER_MS, TIMED_RUNS } from './stats.ts';
import type { CaseResult, TargetReport } from './target.ts';
import type { VariedResult } from './varied.ts';

/** The issue's targets, each checked at its own scale (or, when that scale was not measured, the largest one that was). */
export const TARGETS = {
  /** Every endpoint through HTTP, answer cache off, at x10. */
  httpP50Ms: 10,
  httpP99Ms: 50,
  /** Every endpoint through HTTP, answer cache off, at x100: p99 only. */
  x100HttpP99Ms: 50,
  /** Warm-cache mix against a bare Koa route in the same run, at x10 and x100. */
  minMixVsBare: 0.8,
  /** Ingest rows/s against DuckDB reading the same files, per source, at x10. */
  minIngestVsFloor: 0.5,
  /** At x100. */
  maxStartupMs: 15_000,
  /** A refresh of one small source on the whole x10 snapshot against ingesting it alone into an empty folder (bench/refresh.ts). */
  maxRefreshVsAlone: 2,
  /** `fetch --all` with nothing changed against a loopback mirror of every built-in address, per-host waits skipped, at x10 (bench/refreshUnchanged.ts). */
  maxUnchangedRefreshMs: 5_000,
  maxRssAfterLoadMb: 3 * 1024,
  /** A paid request's server CPU beyond an unpaid one (the facilitator's round trips excluded), at x1. */
  maxPaidCpuMs: 1,
} as const;

/** A load run under the CPU profiler: the profile's file name and the functions with the most self time. */
export interface CpuProfileSummary {
  file: string;
  top: Array<{ where: string; selfMs: number; share: number }>;
}

export interface TierReport {
  tier: string;
  factors: Record<string, number>;
  sources: SourceData[];
  /** Building the snapshot's serving database (all loads and rollups into one file), once after the ingests. */
  servingBuildMs?: number;
  /** One small source refreshed on the whole snapshot against the same files ingested alone (bench/refresh.ts; absent before it was measured). */
  refresh?: RefreshFigures;
  /** `fetch --all` with nothing changed at the publishers (bench/refreshUnchanged.ts; absent before it was measured). */
  refreshUnchanged?: UnchangedRefreshFigures;
  startupMs: number;
  /** file: the serving database opened read-only; memory: loaded and rolled up at startup. */
  startupMode?: 'file' | 'memory';
  startupSlowest: Array<{ sql: string; ms: number }>;
  rssAfterLoadMb: number;
  /** Reading every route's held state after startup (absent in reports before it was measured). */
  heldStateMs?: number;
  rssAfterHeldStateMb?: number;
  rssAfterRunMb: number;
  cases: CaseResult[];
  /** Every route family over drawn parameters, cache off (absent in reports before it was measured). */
  varied?: TargetReport['varied'];
  load: LoadResult[];
  /**
   * Server CPU (user + system, ms) per paid request minus per unpaid request of the same warm mix:
   * the payment's own cost in the server (the facilitator runs in the load generator's process).
   */
  /** Server CPU per paid request beyond an unpaid one, the facilitator answering in-process (the target). */
  paidCpuMs?: number | null;
  /** The part of paidCpuMs on the server's main (JavaScript) thread; the rest ran on its other threads. */
  paidMainThreadCpuMs?: number | null;
  /** The same through the facilitator over HTTP: the round trips' client side included. */
  paidWithRoundTripsCpuMs?: number | null;
  /** The warm mix run again under the CPU profiler: the profile's file (beside the report) and its top self times. */
  mixProfile?: CpuProfileSummary;
  /** The paid mix under the profiler (its own payments): where a payment's server CPU goes. */
  paidProfile?: CpuProfileSummary;
}

export interface TargetCheck {
  target: string;
  tier: string;
  met: boolean;
  detail: string;
  /** Every example that misses the target (the detail names the worst few). */
  misses?: string[];
}

/** "3 of 10 miss; worst: a; b" with at most `shown` named. */
function worst(items: Array<{ label: string; score: number }>, total: number, shown = 5): string {
  const sorted = [...items].sort((a, b) => b.score - a.score);
  const named = sorted.slice(0, shown).map((i) => i.label).join('; ');
  return `${items.length} of ${total} miss; worst: ${named}${items.length > shown ? '; ...' : ''}`;
}

export interface BenchReport {
  date: string;
  mode: 'quick' | 'full';
  machine: { cpus: number; cpuModel: string; memoryGb: number; node: string; loadAverage: number[] };
  settings: { runs: number; httpRuns?: number; connections: number; loadSeconds: number; paidRequests: number; variedPerFamily?: number; variedBudgetMs?: number };
  tiers: TierReport[];
  targets: TargetCheck[];
  notes: string[];
}

/** The handler's p50 against its own statements re-run directly (how thin the handler is). */
export function handlerVsFloor(c: CaseResult): number | null {
  return ratio(c.handler?.p50 ?? null, c.sqlFloor?.p50 ?? null);
}

/** The HTTP p50 against the keyed-lookup floor (how far the answer is from the cheapest possible one). */
export function httpVsKeyedFloor(c: CaseResult): number | null {
  return ratio(c.httpUncached.p50, c.keyedFloor?.p50 ?? null);
}

function findLoad(tier: TierReport, label: string): LoadResult | undefined {
  return tier.load.find((l) => l.label === label);
}

/** The tier named, or the largest measured one with a note saying the named one was not measured. */
function tierFor(tiers: readonly TierReport[], name: string): { tier: TierReport; label: string } | null {
  const named = tiers.find((t) => t.tier === name);
  if (named) return { tier: named, label: name };
  const largest = tiers[tiers.length - 1];
  return largest ? { tier: largest, label: `${largest.tier} (${name} not measured)` } : null;
}

const variedLabel = (f: VariedResult) => `${f.family} p50 ${f.p50.toFixed(1)} / p99 ${f.p99.toFixed(1)} ms over ${f.n}`;

const latencyLabel = (c: CaseResult) => `${c.url} p50 ${c.httpUncached.p50.toFixed(1)} / p99 ${c.httpUncached.p99.toFixed(1)} ms`;

/** Every target of the issue, each at its scale. */
export function checkTargets(tiers: readonly TierReport[]): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const at = (name: string, check: (tier: TierReport, label: string) => TargetCheck) => {
    const found = tierFor(tiers, name);
    if (found) checks.push(check(found.tier, found.label));
  };
  const latency = (target: string, p50Limit: number, p99Limit: number) => (tier: TierReport, label: string): TargetCheck => {
    const slow = tier.cases.filter((c) => c.httpUncached.p50 > p50Limit || c.httpUncached.p99 > p99Limit);
    return {
      target, tier: label, met: slow.length === 0,
      detail: slow.length === 0
        ? `${tier.cases.length} examples all within (slowest p99 ${Math.max(0, ...tier.cases.map((c) => c.httpUncached.p99)).toFixed(1)} ms)`
        : worst(slow.map((c) => ({ label: latencyLabel(c), score: c.httpUncached.p99 })), tier.cases.length),
      misses: slow.map(latencyLabel),
    };
  };
  at('x10', latency(`every endpoint: HTTP p50 <= ${TARGETS.httpP50Ms} ms and p99 <= ${TARGETS.httpP99Ms} ms (cache off)`, TARGETS.httpP50Ms, TARGETS.httpP99Ms));
  at('x100', latency(`every endpoint: HTTP p99 <= ${TARGETS.x100HttpP99Ms} ms (cache off)`, Infinity, TARGETS.x100HttpP99Ms));
  const variedLatency = (target: string, p50Limit: number, p99Limit: number) => (tier: TierReport, label: string): TargetCheck | null => {
    const families = tier.varied?.families;
    if (!families) return null;
    const slow = families.filter((f) => f.p50 > p50Limit || f.p99 > p99Limit);
    return {
      target, tier: label, met: slow.length === 0,
      detail: slow.length === 0
        ? `${families.length} families all within (slowest p50 ${Math.max(0, ...families.map((f) => f.p50)).toFixed(1)}, p99 ${Math.max(0, ...families.map((f) => f.p99)).toFixed(1)} ms)`
        : worst(slow.map((f) => ({ label: variedLabel(f), score: f.p50 / p50Limit + f.p99 / p99Limit })), families.length),
      misses: slow.map(variedLabel),
    };
  };
  const atIfMeasured = (name: string, check: (tier: TierReport, label: string) => TargetCheck | null) => {
    const found = tierFor(tiers, name);
    const result = found ? check(found.tier, found.label) : null;
    if (result) checks.push(result);
  };
  atIfMeasured('x10', variedLatency(`every route family over varied parameters: HTTP p50 <= ${TARGETS.httpP50Ms} ms and p99 <= ${TARGETS.httpP99Ms} ms (cache off)`, TARGETS.httpP50Ms, TARGETS.httpP99Ms));
  atIfMeasured('x100', variedLatency(`every route family over varied parameters: HTTP p99 <= ${TARGETS.x100HttpP99Ms} ms (cache off)`, Infinity, TARGETS.x100HttpP99Ms));
  for (const scale of ['x10', 'x100']) {
    at(scale, (tier, label) => {
      const mix = findLoad(tier, 'mix');
      const bare = findLoad(tier, 'bare-koa');
      const mixRatio = ratio(mix?.reqPerSec ?? null, bare?.reqPerSec ?? null);
      return {
        target: `warm-cache mix >= ${TARGETS.minMixVsBare * 100}% of bare Koa (same run)`, tier: label,
        met: mixRatio !== null && mixRatio >= TARGETS.minMixVsBare,
        detail: mixRatio === null ? 'not measured' : `${(mixRatio * 100).toFixed(0)}% (${mix!.reqPerSec.toFixed(0)} vs ${bare!.reqPerSec.toFixed(0)} req/s)`,
      };
    });
  }
  at('x10', (tier, label) => {
    const floored = tier.sources.filter((s) => s.ingestVsFloor !== null);
    const slow = floored.filter((s) => s.ingestVsFloor! < TARGETS.minIngestVsFloor);
    // A source whose least ingest is itself under the target is held back by what every ingest does, not by its checks.
    const sourceLabel = (s: SourceData) => `${s.source} ${s.ingestVsFloor!.toFixed(2)}x` +
      (typeof s.leastVsFloor === 'number' && s.leastVsFloor < TARGETS.minIngestVsFloor ? ` (least ingest ${s.leastVsFloor.toFixed(2)}x)` : '');
    return {
      target: `ingest rows/s >= ${TARGETS.minIngestVsFloor}x DuckDB reading the same files, per source (SEBRA XLSX: the portal-JSON copy)`, tier: label,
      met: slow.length === 0 && floored.length > 0,
      detail: floored.length === 0 ? 'no source with a floor'
        : slow.length === 0 ? `${floored.length} sources all within; lowest ${Math.min(...floored.map((s) => s.ingestVsFloor!)).toFixed(2)}x`
          : worst(slow.map((s) => ({ label: sourceLabel(s), score: -s.ingestVsFloor! })), floored.length),
      misses: slow.map(sourceLabel),
    };
  });
  at('x100', (tier, label) => ({
    target: `startup (load + rollups) <= ${TARGETS.maxStartupMs / 1000} s and RSS after load <= ${TARGETS.maxRssAfterLoadMb / 1024} GB`, tier: label,
    met: tier.startupMs <= TARGETS.maxStartupMs && tier.rssAfterLoadMb <= TARGETS.maxRssAfterLoadMb,
    detail: `${(tier.startupMs / 1000).toFixed(1)} s, ${tier.rssAfterLoadMb.toFixed(0)} MB`,
  }));
  atIfMeasured('x10', (tier, label) => tier.refresh === undefined ? null : {
    target: `a refresh where one small source changed <= ${TARGETS.maxRefreshVsAlone}x ingesting that source alone into an empty folder (serving database included)`, tier: label,
    met: tier.refresh.ratio <= TARGETS.maxRefreshVsAlone,
    detail: `${tier.refresh.source}: ${(tier.refresh.refresh.ms / 1000).toFixed(2)} s vs ${(tier.refresh.alone.ms / 1000).toFixed(2)} s alone (${tier.refresh.ratio.toFixed(2)}x)`,
  });
  atIfMeasured('x10', (tier, label) => tier.refreshUnchanged === undefined ? null : {
    target: `a refresh where nothing changed (\`fetch --all\`, every address a conditional request against a loopback mirror, per-host waits skipped) <= ${TARGETS.maxUnchangedRefreshMs / 1000} s, no generation`, tier: label,
    met: tier.refreshUnchanged.noGeneration && tier.refreshUnchanged.unchanged.ms <= TARGETS.maxUnchangedRefreshMs,
    detail: `${(tier.refreshUnchanged.unchanged.ms / 1000).toFixed(2)} s for ${tier.refreshUnchanged.unchanged.notModified}/${tier.refreshUnchanged.addresses} addresses answered 304; `
      + `${(tier.refreshUnchanged.withIntervals.ms / 1000).toFixed(2)} s with the per-host waits slept`,
  });
  at('x1', (tier, label) => ({
    target: `a paid request: server CPU beyond an unpaid one and the facilitator's round trips <= ${TARGETS.maxPaidCpuMs} ms`, tier: label,
    met: tier.paidCpuMs !== undefined && tier.paidCpuMs !== null && tier.paidCpuMs <= TARGETS.maxPaidCpuMs,
    detail: tier.paidCpuMs === undefined || tier.paidCpuMs === null ? 'not measured' : `${tier.paidCpuMs.toFixed(2)} ms${inBareRequests(tier, tier.paidCpuMs)}`,
  }));
  return checks;
}

/**
 * A CPU cost in requests of the bare Koa route of the same run (`, 27 bare-Koa requests of 0.022 ms`):
 * the machine's speed moves both alike, so runs at different hours compare by this count.
 */
function inBareRequests(tier: TierReport, ms: number): string {
  const bare = findLoad(tier, 'bare-koa')?.serverCpuMsPerRequest;
  return bare ? ` (${(ms / bare).toFixed(0)} bare-Koa requests of ${bare.toFixed(3)} ms, same run)` : '';
}

// ---------------------------------------------------------------------------------------------
// Markdown

const ms = (value: number | null | undefined) => (value === null || value === undefined ? '-' : value < 10 ? value.toFixed(2) : value.toFixed(1));
const times = (value: number | null) => (value === null ? '-' : `${value.toFixed(1)}x`);
const count = (value: number | null) => (value === null ? '-' : Math.round(value).toLocaleString('en-US'));

function profileLines(what: string, summary: CpuProfileSummary | undefined): string[] {
  if (summary === undefined) return [];
  return [
    `CPU profile of ${what} (a separate run under the profiler; the profile is ${summary.file} beside the report in bench/results, not committed: open it in Chrome DevTools or speedscope); self time, share of the busy samples:`, '',
    ...table(['function', 'self ms', 'share'], summary.top.map((line) => [`\`${line.where.replaceAll('|', '/')}\``, line.selfMs.toFixed(0), `${(line.share * 100).toFixed(1)}%`])), '',
  ];
}

/** One row of the ingest profile table: wall ms, each category's ms (`-` without a profile), statements and the floor's ms. */
function ingestProfileRow(tier: string, source: string, ingest: IngestFigures, floorMs: number | null): string[] {
  const p = ingest.profile;
  const whole = (value: number | null | undefined) => (value === null || value === undefined ? '-' : value.toFixed(0));
  return [tier, source, whole(ingest.ms), whole(p?.openMs), whole(p?.readMs), whole(p?.writeMs), whole(p?.appendMs), whole(p?.otherSqlMs),
    whole(p?.jsMs), whole(ingest.threads?.mainThreadBusyMs), whole(ingest.threads?.processCpuMs), p ? String(p.statements) : '-', whole(floorMs)];
}

function table(header: string[], rows: string[][]): string[] {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)];
}

/** The route families over drawn parameters, beside the slowest of each family's examples in the same run. */
export function variedLines(tiers: readonly TierReport[]): string[] {
  const measured = tiers.filter((t) => t.varied);
  if (measured.length === 0) return [];
  const { seed, perFamily, budgetMs } = measured[0]!.varied!;
  const statuses = (f: VariedResult) => Object.entries(f.statuses).map(([status, n]) => `${status}: ${n}`).join(', ');
  return [
    '## Route families over varied parameters (HTTP, cache off)',
    '',
    `Each GET route ("family") over ${perFamily} requests drawn from its examples with new windows, codes, geos and limits (bench/varied.ts, seed ${seed}), ` +
      `each sent once, sequentially, through the full app with the answer cache off; a family stops after ${(budgetMs / 1000).toFixed(0)} s (then fewer requests). ` +
      `Targets as for the examples: p50 <= ${TARGETS.httpP50Ms} ms and p99 <= ${TARGETS.httpP99Ms} ms at x10, p99 <= ${TARGETS.x100HttpP99Ms} ms at x100. ` +
      '"examples p50": the slowest HTTP p50 of the family\'s catalog examples in the same run.',
    '',
    ...table(['scale', 'family', 'requests', 'statuses', 'p50', 'p99', 'max', 'examples p50', 'slowest drawn request'],
      measured.flatMap((t) => t.varied!.families.map((f) => {
        const examples = t.cases.filter((c) => c.routeId === f.family).map((c) => c.httpUncached.p50);
        return [t.tier, f.family, String(f.n), statuses(f), ms(f.p50), ms(f.p99), ms(f.max), examples.length > 0 ? ms(Math.max(...examples)) : '-', `\`${f.slowestUrl}\``];
      }))),
    '',
  ];
}

/** The whole report; `endpoints: false` leaves out the per-endpoint tables (the README's summary). */
export function renderMarkdown(report: BenchReport, options: { endpoints?: boolean; title?: boolean } = {}): string {
  const lines: string[] = [
    ...(options.title === false ? [] : [`# Benchmark ${report.date} (${report.mode})`, '']),
    `Machine: ${report.machine.cpus} x ${report.machine.cpuModel}, ${report.machine.memoryGb} GiB, Node ${report.machine.node}, load average at start ${report.machine.loadAverage.map((l) => l.toFixed(2)).join(' ')} (shared machine: compare the ratios, not the absolute times).`,
    `Settings: ${report.settings.runs} timed runs per example (handler and floors), ${report.settings.httpRuns ?? report.settings.runs} uncached HTTP requests per example` +
      `${report.settings.variedPerFamily ? `, ${report.settings.variedPerFamily} drawn requests per route family` : ''}; HTTP load ${report.settings.connections} connections, ${report.settings.loadSeconds} s per run; ${report.settings.paidRequests} paid requests.`,
    '',
    '## Targets',
    '',
    ...table(['target', 'scale', 'met', 'measured'], report.targets.map((t) => [t.target, t.tier, t.met ? 'yes' : '**no**', t.detail])),
    '',
    '## Ingest throughput (rows/s) and the DuckDB floor',
    '',
    ...table(
      ['scale', 'source', 'factor', 'form', 'files', 'MB', 'rows', 'generate s', 'ingest s', 'ingest rows/s', 'DuckDB floor rows/s', 'ingest / floor', 'least ingest s', 'least / floor', 'timed runs'],
      report.tiers.flatMap((t) => t.sources.flatMap((s) => {
        const row = [t.tier, s.source, String(s.factor), s.form, String(s.ingest.files), (s.ingest.bytes / 2 ** 20).toFixed(1), count(s.ingest.rows),
          (s.generateMs / 1000).toFixed(1), (s.ingest.ms / 1000).toFixed(1), count(s.ingest.rowsPerSec), count(s.floor?.rowsPerSec ?? null), times(s.ingestVsFloor),
          s.least ? (s.least.ms / 1000).toFixed(2) : '-', times(s.leastVsFloor ?? null), String(s.ingest.runs ?? 1)];
        const probe = s.xlsxProbe;
        return probe
          ? [row, [t.tier, `${s.source} (xlsx probe)`, String(s.factor), 'xlsx', String(probe.files), (probe.bytes / 2 ** 20).toFixed(1), count(probe.rows), '-', (probe.ms / 1000).toFixed(1), count(probe.rowsPerSec), '-', '-', '-', '-', '1']]
          : [row];
      })),
    ),
    '',
    `Timed runs: a source with a floor whose first ingest took under ${REPEAT_UNDER_MS / 1000} s is ingested (each time a first import) and floored ${TIMED_RUNS} times, ` +
      'and the median run of each is reported (one run of a small source varies by a third on this shared machine); the others are timed once.',
    '',
    'Least ingest: the least an ingest of the same files that publishes a snapshot does, whatever it checks: open DuckDB, read each file as the floor does, ' +
      'stream each workbook\'s rows through ExcelJS, write every table to Parquet in a scratch folder and move it into place (timed as often as the floor, the median kept). ' +
      'Its ratio to the floor estimates the most these files allow; an estimate, not a strict bound, since its reads detect types as the floor\'s do, ' +
      `which an ingest that declares its columns skips. A miss whose least ingest is itself under ${TARGETS.minIngestVsFloor}x is named with it in the Targets table.`,
    '',
    ...report.tiers.flatMap((t) => t.sources.filter((s) => s.note).map((s) => `- ${t.tier} ${s.source}: ${s.note}`)),
    '',
    '### Where the ingest time goes (ms)',
    '',
    'Each ingest\'s wall time split over the Database calls it made: open (DuckDB instance and connections), read (statements reading source or snapshot files), ' +
      'write (COPY ... TO), append (the appender), other SQL (checks, merges, DDL) and JS (the rest: parsing, shaping rows, file handling). ' +
      'Overlapping calls count once (their union), so the parts add up to the ingest time. ' +
      'JavaScript that runs while a statement is in flight counts as that statement\'s: the next two columns show the threads instead. ' +
      'JS thread busy: the main thread\'s event loop not waiting (its utilisation); CPU: the process on all its threads (DuckDB\'s among them). ' +
      'A JS thread busy near the ingest time means JavaScript is the critical path; CPU near twice the ingest time means both cores are busy. ' +
      '`-`: not measured in this report.',
    '',
    ...table(
      ['scale', 'source', 'ingest ms', 'open', 'read', 'write', 'append', 'other SQL', 'JS', 'JS thread busy', 'CPU, all threads', 'statements', 'floor ms'],
      report.tiers.flatMap((t) => t.sources.flatMap((s) => [
        ingestProfileRow(t.tier, s.source, s.ingest, s.floor?.ms ?? null),
        ...(s.xlsxProbe ? [ingestProfileRow(t.tier, `${s.source} (xlsx probe)`, s.xlsxProbe, null)] : []),
      ])),
    ),
    '',
    '## Startup and memory',
    '',
    ...table(['scale', 'serving database build s (at ingest)', 'startup', 'startup s', 'RSS after load MB', 'held state read s (after listening)', 'RSS after held state MB', 'RSS after the run MB'],
      report.tiers.map((t) => [t.tier, t.servingBuildMs === undefined ? '-' : (t.servingBuildMs / 1000).toFixed(1),
        t.startupMode === 'file' ? 'open the serving database' : 'load snapshot + rollups', (t.startupMs / 1000).toFixed(2), t.rssAfterLoadMb.toFixed(0),
        t.heldStateMs === undefined ? '-' : (t.heldStateMs / 1000).toFixed(2), t.rssAfterHeldStateMb === undefined ? '-' : t.rssAfterHeldStateMb.toFixed(0), t.rssAfterRunMb.toFixed(0)])),
    '',
    ...report.tiers.flatMap((t) => t.startupSlowest.length === 0 ? [] : [
      `Slowest startup statements at ${t.tier}: ${t.startupSlowest.slice(0, 4).map((s) => `\`${s.sql.replaceAll('`', "'").replaceAll('|', '/')}\` ${(s.ms / 1000).toFixed(2)} s`).join('; ')}.`, '']),
    ...refreshSection(report.tiers),
    ...unchangedRefreshSection(report.tiers),
    '## HTTP load (loopback, autocannon)',
    '',
    ...table(['scale', 'run', 'connections', 'requests', 'non-2xx', 'req/s', 'p50 ms', 'p99 ms', 'vs bare Koa', 'server CPU ms/request', 'of which main thread'],
      report.tiers.flatMap((t) => {
        const bare = findLoad(t, 'bare-koa');
        return t.load.map((l) => [t.tier, l.label, String(l.connections), String(l.requests), String(l.non2xx + l.errors), count(l.reqPerSec),
          ms(l.latencyP50Ms), ms(l.latencyP99Ms), times(ratio(l.reqPerSec, bare?.reqPerSec ?? null)),
          l.serverCpuMsPerRequest == null ? '-' : l.serverCpuMsPerRequest.toFixed(3),
          l.serverMainThreadCpuMsPerRequest == null ? '-' : l.serverMainThreadCpuMsPerRequest.toFixed(3)]);
      })),
    '',
    ...report.tiers.flatMap((t) => profileLines(`the warm mix at ${t.tier}`, t.mixProfile)),
    ...report.tiers.flatMap((t) => (t.paidCpuMs == null ? [] : [
      `Paid at ${t.tier}: ${t.paidCpuMs.toFixed(3)} ms of server CPU per paid request beyond an unpaid one of the same warm mix, its facilitator answering in-process ` +
        '(payment header decoding, matching the requirements, the settlement header, the ledger line and the stored answer; the median of the three runs with the in-process facilitator that follow its warm-up run)' +
        (t.paidMainThreadCpuMs == null ? '' : `, ${t.paidMainThreadCpuMs.toFixed(3)} ms of it on the main (JavaScript) thread and ${(t.paidCpuMs - t.paidMainThreadCpuMs).toFixed(3)} ms on the process's other threads (V8's collector and compiler helpers, libuv's pool)`) +
        (t.paidWithRoundTripsCpuMs == null ? '.' : `; ${t.paidWithRoundTripsCpuMs.toFixed(3)} ms through the facilitator over HTTP (its two round trips' client side: fetch, request and response bodies; the facilitator's own work runs in the load generator).`), ''])),
    ...report.tiers.flatMap((t) => profileLines(`the paid mix at ${t.tier}, its facilitator answering in-process`, t.paidProfile)),
    ...(options.endpoints === false ? [] : variedLines(report.tiers)),
  ];
  if (options.endpoints !== false) lines.push('## Endpoint latency (ms): handler vs its SQL floor, through HTTP with the cache off, and the keyed-lookup floor', '');
  for (const t of options.endpoints === false ? [] : report.tiers) {
    lines.push(`### ${t.tier}`, '');
    lines.push(...table(
      ['example', 'statements', 'handler p50', 'handler p99', 'SQL floor p50', 'handler / floor', 'HTTP p50', 'HTTP p99', 'keyed floor p50', 'HTTP / keyed floor', 'KB'],
      t.cases.map((c) => [`\`${c.url}\``, String(c.statements), ms(c.handler?.p50), ms(c.handler?.p99), ms(c.sqlFloor?.p50), times(handlerVsFloor(c)),
        ms(c.httpUncached.p50), ms(c.httpUncached.p99), ms(c.keyedFloor?.p50), times(httpVsKeyedFloor(c)), (c.bytes / 1024).toFixed(1)]),
    ));
    const outliers = t.cases.filter((c) => c.httpUncached.p99 > TARGETS.httpP99Ms && c.httpSlowest);
    if (outliers.length > 0) {
      lines.push('', `HTTP p99 over ${TARGETS.httpP99Ms} ms: the slowest request of each such example, the garbage-collection pauses of the measured process inside it, and the handler's own p99 in the same run:`, '');
      lines.push(...outliers.map((c) => `- \`${c.url}\`: slowest ${c.httpSlowest!.ms.toFixed(1)} ms, GC inside it ${c.httpSlowest!.gcMs.toFixed(1)} ms, p50 ${c.httpUncached.p50.toFixed(1)} ms, handler p99 ${ms(c.handler?.p99)} ms`));
    }
    const failed = t.cases.filter((c) => c.status !== 200);
    if (failed.length > 0) lines.push('', ...failed.map((c) => `- \`${c.url}\` answered ${c.status}${c.error ? `: ${c.error}` : ''}`));
    lines.push('');
  }
  if (report.notes.length > 0) lines.push('## Notes', '', ...report.notes.map((n) => `- ${n}`), '');
  return lines.join('\n');
}

/** Writes <dir>/<name>.json and <dir>/<name>.md (name: the report's date by default); returns their paths. */
export async function writeReport(dir: string, report: BenchReport, name = report.date): Promise<{ json: string; markdown: string }> {
  await mkdir(dir, { recursive: true });
  const json = join(dir, `${name}.json`);
  const markdown = join(dir, `${name}.md`);
  await writeFile(json, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(markdown, renderMarkdown(report));
  return { json, markdown };
}

export const README_START = '<!-- bench:start -->';
export const README_END = '<!-- bench:end -->';

/** Replaces the text between the README markers with `body`; the README is unchanged when the markers are missing. */
export function replaceBetweenMarkers(text: string, body: string): string {
  const start = text.indexOf(README_START);
  const end = text.indexOf(README_END);
  if (start < 0 || end < start) return text;
  return `${text.slice(0, start + README_START.length)}\n${body.trim()}\n${text.slice(end)}`;
}

export async function updateReadme(readmePath: string, body: string): Promise<boolean> {
  const text = await readFile(readmePath, 'utf8');
  const updated = replaceBetweenMarkers(text, body);
  if (updated === text) return false;
  await writeFile(readmePath, updated);
  return true;
}

/** The refresh table (bench/refresh.ts), when a tier measured it. */
function refreshSection(tiers: readonly TierReport[]): string[] {
  const measured = tiers.filter((t) => t.refresh !== undefined);
  if (measured.length === 0) return [];
  return [
    '## Refresh: one small source changed',
    '',
    'A new generation of the whole snapshot with the source\'s changed files (the ECB sample\'s EUR/USD file with new business days appended), ' +
      'its serving database built incrementally (only the load steps reading a changed file and those after them; the rest copied from the current generation\'s), ' +
      'against the same files ingested alone into an empty folder (its serving database built in full over empty tables). Both through the publishing path of `npm run ingest` ' +
      `(lock, scratch generation, serving database, atomic publish); the median of ${measured[0]!.refresh!.refresh.runs} rounds, the snapshot rolled back after each refresh.`,
    '',
    ...table(['scale', 'source', 'refresh s', 'of which serving database s', 'serving database built', 'alone s', 'of which serving database s', 'refresh / alone'],
      measured.map((t) => {
        const r = t.refresh!;
        return [t.tier, r.source, (r.refresh.ms / 1000).toFixed(2), (r.refresh.servingMs / 1000).toFixed(2), r.refresh.build.replaceAll('|', '/'),
          (r.alone.ms / 1000).toFixed(2), (r.alone.servingMs / 1000).toFixed(2), `${r.ratio.toFixed(2)}x`];
      })),
    '',
  ];
}

/** The no-change refresh table (bench/refreshUnchanged.ts), when a tier measured it. */
function unchangedRefreshSection(tiers: readonly TierReport[]): string[] {
  const measured = tiers.filter((t) => t.refreshUnchanged !== undefined);
  if (measured.length === 0) return [];
  return [
    '## Refresh: nothing changed',
    '',
    '`npm run fetch -- --all` against a loopback stand-in publisher answering every built-in address with the scale\'s sample files: a first fetch publishes them all, ' +
      'then the fetch again sends a conditional request per address, gets 304s and makes no generation. Without intervals: the per-host waits ' +
      '(the publishers\' politeness rules, OECD 4 s) skipped, the service\'s own cost; the median of ' +
      `${measured[0]!.refreshUnchanged!.unchanged.runs} rounds. With intervals: one round sleeping them, as against the publishers.`,
    '',
    ...table(['scale', 'datasets', 'addresses', 'first fetch s', 'no change s (without intervals)', '304s', 'no change s (with intervals)', 'of which waits s', 'generation made'],
      measured.map((t) => {
        const r = t.refreshUnchanged!;
        return [t.tier, String(r.datasets), String(r.addresses), (r.first.ms / 1000).toFixed(2), (r.unchanged.ms / 1000).toFixed(2), `${r.unchanged.notModified}/${r.unchanged.requests}`,
          (r.withIntervals.ms / 1000).toFixed(2), (r.withIntervals.intervalWaitMs / 1000).toFixed(1), r.noGeneration ? 'no' : 'yes'];
      })),
    '',
  ];
}
