// The no-change refresh measurement: what `npm run fetch -- --all` costs when no publisher changed
// anything. A loopback stand-in publisher (bench/standInPublisher.ts, reached through FETCH_MIRROR)
// answers every built-in address with the scale's sample files (bench/mirrorAnswers.ts), with an ETag and
// a Last-Modified. A first fetch downloads and publishes them into a scratch snapshot; then the fetch is
// timed again: every dataset must answer 304 to its conditional request and no generation may be made
// (the CURRENT pointer unchanged), else the measurement throws.
//
// The per-host minimum intervals (hostIntervals: OECD's 4 s) are the publishers' politeness rules, not
// the service's cost: the timed rounds skip their waits (recording them), and one more round keeps them,
// so both figures are reported, labelled.
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { DOMAINS } from '../domains/index.ts';
import { ingestCommandsOf } from '../domains/registry.ts';
import { readCurrentId } from '../engine/generation.ts';
import { fetchSources, type FetchReport } from '../ingest/fetch/run.ts';
import { builtInPlans, mirrorAnswers } from './mirrorAnswers.ts';
import { StandInPublisher } from './standInPublisher.ts';
import { medianBy, TIMED_RUNS } from './stats.ts';

export interface UnchangedRound {
  ms: number;
  /** Requests the stand-in received, and how many it answered 304 Not Modified. */
  requests: number;
  notModified: number;
  /** Sum of the per-host waits the client asked for (skipped in the rounds without intervals). */
  intervalWaitMs: number;
}

export interface UnchangedRefreshFigures {
  /** Built-in datasets and their addresses (pages) across every source. */
  datasets: number;
  addresses: number;
  /** The first fetch: every address downloaded and published in one generation. */
  first: { ms: number; requests: number; published: number };
  /** The no-change fetch without the per-host waits: the median of `runs` rounds. */
  unchanged: UnchangedRound & { runs: number };
  /** One no-change fetch with the per-host waits slept as against the publishers. */
  withIntervals: UnchangedRound;
  /** True when no round made a generation (the CURRENT pointer stayed on the first fetch's). */
  noGeneration: boolean;
}

export interface UnchangedOptions {
  /** DIR/<scale>/sample: the sample files the stand-in serves. */
  sampleRoot: string;
  /** Scratch folder (a snapshot and raw archive are made inside and removed). */
  workDir: string;
  log: (line: string) => void;
  /** Timed rounds without intervals (default TIMED_RUNS). */
  runs?: number;
  /** Fetch clock (the agri-food and Comext windows end in its year); default the real one. */
  now?: () => Date;
}

/** Runs the first fetch and the timed no-change fetches; throws when a no-change round is not one. */
export async function measureUnchangedRefresh(options: UnchangedOptions): Promise<UnchangedRefreshFigures> {
  const now = options.now ?? (() => new Date());
  const plans = builtInPlans(now());
  const addresses = plans.reduce((sum, { plan }) => sum + plan.pages.length, 0);
  // The sources with built-in addresses. PTP is found through the data.egov.bg listing API (a POST
  // asked every run, without validators; ingest/fetch/egov.ts), which this mirror does not replay:
  // it is left out of the measurement, and docs/benchmarks.md says so.
  const measured = [...new Set(plans.map(({ source }) => source))];
  const publisher = new StandInPublisher();
  const scratch = await mkdtemp(join(options.workDir, 'refresh-unchanged-'));
  const dataDir = join(scratch, 'parquet');
  const commands = ingestCommandsOf(DOMAINS);
  try {
    const answers = await mirrorAnswers(options.sampleRoot, now());
    await publisher.start();
    for (const [url, recorded] of answers) publisher.publish(url, recorded);
    const env = { FETCH_MIRROR: publisher.mirror, FETCH_RAW_DIR: join(scratch, 'raw'), FETCH_CONFIG: join(scratch, 'config', 'sources.json') };
    const fetchAll = async (sleepWaits: boolean): Promise<{ report: FetchReport; round: UnchangedRound }> => {
      const seen = publisher.requests.length;
      let intervalWaitMs = 0;
      const started = performance.now();
      const report = await fetchSources(measured, { dataDir, skipUnconfigured: true }, {
        commands, env, now, log: () => undefined,
        sleep: async (ms) => {
          intervalWaitMs += ms;
          if (sleepWaits) await delay(ms);
        },
      });
      const ms = performance.now() - started;
      const requests = publisher.requests.slice(seen);
      return { report, round: { ms, requests: requests.length, notModified: requests.filter((r) => r.status === 304).length, intervalWaitMs } };
    };

    const first = await fetchAll(false);
    const failed = first.report.datasets.filter((d) => d.outcome !== 'published');
    if (first.report.generation === null || failed.length > 0) {
      throw new Error(`bench refresh-unchanged: the first fetch did not publish every dataset: ${JSON.stringify(failed.map((d) => `${d.source}/${d.dataset}: ${d.outcome} ${d.reason ?? ''}`))}`);
    }
    options.log(`refresh-unchanged: first fetch published ${first.report.datasets.length} dataset(s) (${first.round.requests} requests) in ${(first.round.ms / 1000).toFixed(2)} s`);
    const base = readCurrentId(dataDir);

    const check = (label: string, report: FetchReport, round: UnchangedRound) => {
      const changed = report.datasets.filter((d) => d.outcome !== 'unchanged');
      if (report.generation !== null || readCurrentId(dataDir) !== base || changed.length > 0 || round.requests !== addresses || round.notModified !== addresses) {
        throw new Error(`bench refresh-unchanged: ${label} was not a no-change refresh: generation ${report.generation}, current ${readCurrentId(dataDir)} (was ${base}), `
          + `${round.notModified}/${round.requests} requests answered 304 for ${addresses} addresses, changed: ${JSON.stringify(changed.map((d) => `${d.source}/${d.dataset}: ${d.outcome}`))}`);
      }
      options.log(`refresh-unchanged: ${label}: ${(round.ms / 1000).toFixed(2)} s, ${round.notModified}/${round.requests} answered 304, per-host waits ${(round.intervalWaitMs / 1000).toFixed(1)} s ${label.includes('with intervals') ? 'slept' : 'skipped'}`);
    };
    const rounds: UnchangedRound[] = [];
    for (let run = 1; run <= (options.runs ?? TIMED_RUNS); run++) {
      const { report, round } = await fetchAll(false);
      check(`round ${run} without intervals`, report, round);
      rounds.push(round);
    }
    const polite = await fetchAll(true);
    check('round with intervals', polite.report, polite.round);
    return {
      datasets: plans.length,
      addresses,
      first: { ms: first.round.ms, requests: first.round.requests, published: first.report.datasets.length },
      unchanged: { ...medianBy(rounds, (round) => round.ms), runs: rounds.length },
      withIntervals: polite.round,
      noGeneration: readCurrentId(dataDir) === base,
    };
  } finally {
    await publisher.stop();
    await rm(scratch, { recursive: true, force: true });
  }
}
