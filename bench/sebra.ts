// `npm run bench`: per-endpoint latency of the SEBRA routes on the sample snapshot.
// "handler" runs the route's queries directly (no cache): the work a cache miss costs.
// "http" is a request through Koa with a warm cache: the ceiling of what the app layer adds.
// Absolute times drift on a shared machine; compare the columns of one run.
import { writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createApp } from '../http/app.ts';
import { readConfig } from '../http/config.ts';
import { openSnapshot } from '../http/server.ts';
import { ensureSnapshot } from '../ingest/bootstrap.ts';
import { routes } from '../queries/index.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const TODAY = '2026-11-22';

const CASES: Array<{ id: string; params: Record<string, unknown>; url: string }> = [
  { id: 'getPeriodsWithMostPayments', params: { period: 'days' }, url: '/api/sebra/getPeriodsWithMostPayments?days' },
  { id: 'getPeriodsWithMostPayments', params: { period: 'months', year: 2025 }, url: '/api/sebra/getPeriodsWithMostPayments?months&year=2025' },
  { id: 'getTaxonomyForYear', params: { year: 2025 }, url: '/api/sebra/getTaxonomyForYear/2025' },
  { id: 'getTaxonomyForPeriod', params: { from: '01-01-2024' }, url: '/api/sebra/getTaxonomyForPeriod?from=01-01-2024' },
  { id: 'getMostSponsoredProgramme', params: {}, url: '/api/sebra/getMostSponsoredProgramme' },
  { id: 'getUnusualPayments', params: { limit: 5 }, url: '/api/sebra/getUnusualPayments' },
  { id: 'getUnusualPayments', params: { year: 2025, limit: 5 }, url: '/api/sebra/getUnusualPayments/2025' },
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function timeRuns(run: () => Promise<unknown>): Promise<{ p50: number; p99: number; perSecond: number }> {
  await run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const total = times.reduce((a, b) => a + b, 0);
  return { p50: percentile(times, 50), p99: percentile(times, 99), perSecond: (RUNS * 1000) / total };
}

const config = readConfig();
await ensureSnapshot({ dataDir: config.dataDir, sampleDir: config.sampleDir, log: (line) => console.error(line) });
const db = await openSnapshot(config.dataDir);
const app = await createApp({ db, routes, now: () => new Date(`${TODAY}T12:00:00Z`) });
const server = app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const lines = [
  `# SEBRA endpoint latency (${RUNS} sequential runs each, sample snapshot, ${new Date().toISOString().slice(0, 10)})`,
  '',
  '| request | handler p50 ms | handler p99 ms | http (cached) p50 ms | http p99 ms | http req/s |',
  '|---|---|---|---|---|---|',
];
for (const c of CASES) {
  const route = routes.find((r) => r.id === c.id)!;
  const handler = await timeRuns(() => route.handle(c.params, { db, today: TODAY }));
  const http = await timeRuns(async () => {
    const response = await fetch(base + c.url);
    if (response.status !== 200) throw new Error(`${c.url}: ${response.status}`);
    await response.arrayBuffer();
  });
  lines.push(`| \`${c.url.replace('/api/sebra/', '')}\` | ${handler.p50.toFixed(2)} | ${handler.p99.toFixed(2)} | ${http.p50.toFixed(2)} | ${http.p99.toFixed(2)} | ${http.perSecond.toFixed(0)} |`);
}
server.close();
await db.close();

const report = lines.join('\n') + '\n';
process.stdout.write(report);
await writeFile(path.join('bench', 'report-sebra.md'), report);
