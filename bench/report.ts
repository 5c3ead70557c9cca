// The benchmark report: figures per scale, ratios to the floor / ceiling of the same run, the
// issue's targets checked, written as bench/results/<date>.json and <date>.md.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SourceData } from './data.ts';
import type { LoadResult } from './load.ts';
import { ratio } from './stats.ts';
import type { CaseResult } from './target.ts';

/** Tables holding one row per source row (not rollups): an endpoint reading one is not rollup-backed. */
export const ROW_LEVEL_TABLES: ReadonlySet<string> = new Set([
  'sebra_payments', 'sebra_lines', 'ptp_crashes', 'ptp_crash_rows', 'agri_prices', 'agri_price_rows', 'agri_price_stats',
  'trade_observations', 'trade_facts',
]);

/** The issue's targets, checked at x10 (or the largest scale measured when x10 is not). */
export const TARGETS = {
  rollupHttpP50Ms: 10,
  rollupHttpP99Ms: 50,
  maxHandlerVsFloorP50: 5,
  minMixVsBare: 0.5,
  maxStartupMs: 15_000,
} as const;

export interface TierReport {
  tier: string;
  factors: Record<string, number>;
  sources: SourceData[];
  startupMs: number;
  startupSlowest: Array<{ sql: string; ms: number }>;
  rssAfterLoadMb: number;
  rssAfterRunMb: number;
  cases: CaseResult[];
  load: LoadResult[];
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
  settings: { runs: number; connections: number; loadSeconds: number; paidRequests: number };
  tiers: TierReport[];
  targets: TargetCheck[];
  notes: string[];
}

export function isRollupBacked(c: CaseResult): boolean {
  return Object.keys(c.tables).every((table) => !ROW_LEVEL_TABLES.has(table));
}

export function handlerVsFloor(c: CaseResult): number | null {
  return ratio(c.handler?.p50 ?? null, c.sqlFloor?.p50 ?? null);
}

function findLoad(tier: TierReport, label: string): LoadResult | undefined {
  return tier.load.find((l) => l.label === label);
}

/** Every target against the x10 tier (or the largest measured). */
export function checkTargets(tiers: readonly TierReport[]): TargetCheck[] {
  const tier = tiers.find((t) => t.tier === 'x10') ?? tiers[tiers.length - 1];
  if (!tier) return [];
  const checks: TargetCheck[] = [];
  const slowRollups = tier.cases.filter(
    (c) => isRollupBacked(c) && (c.httpUncached.p50 > TARGETS.rollupHttpP50Ms || c.httpUncached.p99 > TARGETS.rollupHttpP99Ms),
  );
  const rollups = tier.cases.filter(isRollupBacked).length;
  const slowLabel = (c: CaseResult) => `${c.url} p50 ${c.httpUncached.p50.toFixed(1)} / p99 ${c.httpUncached.p99.toFixed(1)} ms`;
  checks.push({
    target: `rollup-backed endpoints: HTTP p50 <= ${TARGETS.rollupHttpP50Ms} ms and p99 <= ${TARGETS.rollupHttpP99Ms} ms (cache off)`,
    tier: tier.tier,
    met: slowRollups.length === 0,
    detail: slowRollups.length === 0
      ? `${rollups} rollup-backed examples all within`
      : worst(slowRollups.map((c) => ({ label: slowLabel(c), score: c.httpUncached.p50 })), rollups),
    misses: slowRollups.map(slowLabel),
  });
  const overFloor = tier.cases.filter((c) => (handlerVsFloor(c) ?? 0) > TARGETS.maxHandlerVsFloorP50);
  const overLabel = (c: CaseResult) => `${c.url} ${handlerVsFloor(c)!.toFixed(1)}x`;
  checks.push({
    target: `no endpoint above ${TARGETS.maxHandlerVsFloorP50}x its SQL floor at p50`,
    tier: tier.tier,
    met: overFloor.length === 0,
    detail: overFloor.length === 0
      ? `largest ratio ${Math.max(0, ...tier.cases.map((c) => handlerVsFloor(c) ?? 0)).toFixed(2)}x`
      : worst(overFloor.map((c) => ({ label: overLabel(c), score: handlerVsFloor(c)! })), tier.cases.length),
    misses: overFloor.map(overLabel),
  });
  const mix = findLoad(tier, 'mix');
  const bare = findLoad(tier, 'bare-koa');
  const mixRatio = ratio(mix?.reqPerSec ?? null, bare?.reqPerSec ?? null);
  checks.push({
    target: `HTTP mix >= ${TARGETS.minMixVsBare * 100}% of the bare-Koa ceiling (cache warm)`,
    tier: tier.tier,
    met: mixRatio !== null && mixRatio >= TARGETS.minMixVsBare,
    detail: mixRatio === null ? 'not measured' : `${(mixRatio * 100).toFixed(0)}% (${mix!.reqPerSec.toFixed(0)} vs ${bare!.reqPerSec.toFixed(0)} req/s)`,
  });
  checks.push({
    target: `startup under ${TARGETS.maxStartupMs / 1000} s`,
    tier: tier.tier,
    met: tier.startupMs < TARGETS.maxStartupMs,
    detail: `${(tier.startupMs / 1000).toFixed(1)} s`,
  });
  return checks;
}

// ---------------------------------------------------------------------------------------------
// Markdown

const ms = (value: number | null | undefined) => (value === null || value === undefined ? '-' : value < 10 ? value.toFixed(2) : value.toFixed(1));
const times = (value: number | null) => (value === null ? '-' : `${value.toFixed(1)}x`);
const count = (value: number | null) => (value === null ? '-' : Math.round(value).toLocaleString('en-US'));

function table(header: string[], rows: string[][]): string[] {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)];
}

/** The whole report; `endpoints: false` leaves out the per-endpoint tables (the README's summary). */
export function renderMarkdown(report: BenchReport, options: { endpoints?: boolean; title?: boolean } = {}): string {
  const lines: string[] = [
    ...(options.title === false ? [] : [`# Benchmark ${report.date} (${report.mode})`, '']),
    `Machine: ${report.machine.cpus} x ${report.machine.cpuModel}, ${report.machine.memoryGb} GiB, Node ${report.machine.node}, load average at start ${report.machine.loadAverage.map((l) => l.toFixed(2)).join(' ')} (shared machine: compare the ratios, not the absolute times).`,
    `Settings: ${report.settings.runs} timed runs per example; HTTP load ${report.settings.connections} connections, ${report.settings.loadSeconds} s per run; ${report.settings.paidRequests} paid requests.`,
    '',
    '## Targets',
    '',
    ...table(['target', 'scale', 'met', 'measured'], report.targets.map((t) => [t.target, t.tier, t.met ? 'yes' : '**no**', t.detail])),
    '',
    '## Ingest throughput (rows/s) and the DuckDB floor',
    '',
    ...table(
      ['scale', 'source', 'factor', 'form', 'files', 'MB', 'rows', 'generate s', 'ingest s', 'ingest rows/s', 'DuckDB floor rows/s', 'ingest / floor'],
      report.tiers.flatMap((t) => t.sources.flatMap((s) => {
        const row = [t.tier, s.source, String(s.factor), s.form, String(s.ingest.files), (s.ingest.bytes / 2 ** 20).toFixed(1), count(s.ingest.rows),
          (s.generateMs / 1000).toFixed(1), (s.ingest.ms / 1000).toFixed(1), count(s.ingest.rowsPerSec), count(s.floor?.rowsPerSec ?? null), times(s.ingestVsFloor)];
        const probe = s.xlsxProbe;
        return probe
          ? [row, [t.tier, `${s.source} (xlsx probe)`, String(s.factor), 'xlsx', String(probe.files), (probe.bytes / 2 ** 20).toFixed(1), count(probe.rows), '-', (probe.ms / 1000).toFixed(1), count(probe.rowsPerSec), '-', '-']]
          : [row];
      })),
    ),
    '',
    ...report.tiers.flatMap((t) => t.sources.filter((s) => s.note).map((s) => `- ${t.tier} ${s.source}: ${s.note}`)),
    '',
    '## Startup and memory',
    '',
    ...table(['scale', 'startup s (load snapshot + rollups)', 'RSS after load MB', 'RSS after the run MB'],
      report.tiers.map((t) => [t.tier, (t.startupMs / 1000).toFixed(2), t.rssAfterLoadMb.toFixed(0), t.rssAfterRunMb.toFixed(0)])),
    '',
    ...report.tiers.flatMap((t) => t.startupSlowest.length === 0 ? [] : [
      `Slowest startup statements at ${t.tier}: ${t.startupSlowest.slice(0, 4).map((s) => `\`${s.sql.replaceAll('`', "'").replaceAll('|', '/')}\` ${(s.ms / 1000).toFixed(2)} s`).join('; ')}.`, '']),
    '## HTTP load (loopback, autocannon)',
    '',
    ...table(['scale', 'run', 'connections', 'requests', 'non-2xx', 'req/s', 'p50 ms', 'p99 ms', 'vs bare Koa'],
      report.tiers.flatMap((t) => {
        const bare = findLoad(t, 'bare-koa');
        return t.load.map((l) => [t.tier, l.label, String(l.connections), String(l.requests), String(l.non2xx + l.errors), count(l.reqPerSec),
          ms(l.latencyP50Ms), ms(l.latencyP99Ms), times(ratio(l.reqPerSec, bare?.reqPerSec ?? null))]);
      })),
    '',
  ];
  if (options.endpoints !== false) lines.push('## Endpoint latency (ms): handler vs its SQL floor, and through HTTP with the cache off', '');
  for (const t of options.endpoints === false ? [] : report.tiers) {
    lines.push(`### ${t.tier}`, '');
    lines.push(...table(
      ['example', 'handler p50', 'handler p99', 'SQL floor p50', 'handler / floor', 'HTTP p50', 'HTTP p99', 'rollup', 'KB'],
      t.cases.map((c) => [`\`${c.url}\``, ms(c.handler?.p50), ms(c.handler?.p99), ms(c.sqlFloor?.p50), times(handlerVsFloor(c)),
        ms(c.httpUncached.p50), ms(c.httpUncached.p99), isRollupBacked(c) ? 'yes' : 'no', (c.bytes / 1024).toFixed(1)]),
    ));
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
