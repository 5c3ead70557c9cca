// `npm run fetch -- <source>... | --all`: for each source, downloads every dataset from its official address
// (sources.ts; conditional requests from the versions last ingested), keeps the downloads in the raw
// archive (archive.ts), and ingests what changed through the sources' own ingest commands into ONE new
// generation (ingest/batch.ts). A dataset that fails (download, packing, ingest) is reported with its
// address and reason and leaves its served data as it was; the rest is published. The per-source state
// (engine/fetchState.ts) feeds /healthz and the metrics.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { freshnessOf, rawDirOf, readFetchState, writeFetchState, type FailedDataset, type SourceFetchState } from '../../engine/fetchState.ts';
import { runIngestBatch, type BatchStep, type StepResult } from '../batch.ts';
import { UsageError, type IngestCommand } from '../command.ts';
import { MalformedSourceError } from '../errors.ts';
import { EXIT, EXIT_CODE_HELP, storageErrorLine } from '../exitCodes.ts';
import { keepFromEnv } from '../generations.ts';
import { LockedError } from '../lock.ts';
import { rawKeepFromEnv, SourceArchive, validatorsOf, type ArchivedFile, type DatasetVersion, type PageVersion } from './archive.ts';
import { configPathOf, readFetchConfig, sourceConfigOf, type FetchConfig } from './config.ts';
import { FetchFailedError, HttpClient, httpSettingsFromEnv, type HttpSettings } from './http.ts';
import { egovPlans, listEgovResources } from './egov.ts';
import { packDownloads } from './packing.ts';
import { FETCH_SOURCES, fetchSourceNamed, plansOf, SCHEDULE_TIMEZONE, type DatasetPlan, type FetchSource } from './sources.ts';

export interface FetchIo {
  /** Every ingest command (bin/ passes the domains' ones). */
  commands: readonly IngestCommand[];
  /** Builds the new generation's serving database (domains' buildServing). */
  prepare?: (scratchDir: string) => Promise<void>;
  log: (line: string) => void;
  /** Where --help goes (default stdout). */
  out?: (text: string) => void;
  env?: NodeJS.ProcessEnv;
  /** Test seams: the HTTP transport, the waits between retries and the clock. */
  fetch?: typeof globalThis.fetch;
  sleep?: (ms: number) => Promise<void>;
  now?: () => Date;
}

export type DatasetOutcome = 'unchanged' | 'published' | 'already-imported' | 'failed' | 'not-published';

export interface DatasetReport {
  source: string;
  dataset: string;
  url: string;
  outcome: DatasetOutcome;
  reason?: string;
  requests: number;
}

export interface FetchReport {
  exitCode: number;
  generation: string | null;
  datasets: DatasetReport[];
  /** Sources named (or --all) with no dataset to fetch: their addresses belong in the operator file. */
  unconfigured: string[];
}

export interface FetchRunOptions {
  dataDir: string;
  allowShrink?: boolean;
  /** --all: a source with no address to fetch is left out (else it fails, named with what it needs). */
  skipUnconfigured?: boolean;
}

const OPTIONS = {
  all: { type: 'boolean' },
  'data-dir': { type: 'string' },
  'allow-shrink': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export function fetchHelpText(): string {
  const width = Math.max(...FETCH_SOURCES.map((s) => s.name.length));
  return [
    'usage: npm run fetch -- <source>... | --all [--data-dir DIR] [--allow-shrink]',
    '',
    'Downloads each source\'s datasets from the publishers\' official addresses (conditional requests: an',
    'unchanged file is not downloaded again), keeps every download in the raw archive (FETCH_RAW_DIR, default',
    'data/raw beside the snapshot folder) and ingests everything that changed into ONE new generation, as',
    '`npm run ingest` would. A dataset that fails is reported with its address and reason and keeps its served',
    'data; the others are published.',
    '',
    'sources and what each needs from the operator:',
    ...FETCH_SOURCES.map((s) => `  ${s.name.padEnd(width)}  ${s.needs}`),
    '',
    `operator file: data/config/sources.json (FETCH_CONFIG): schedules (croner, ${SCHEDULE_TIMEZONE}), addresses, enabled`,
    'environment: FETCH_MIRROR (fetch https://<host>/<path> as <FETCH_MIRROR>/<host>/<path>), FETCH_TIMEOUT_MS,',
    '  FETCH_RETRIES, FETCH_BACKOFF_MS, FETCH_MAX_BACKOFF_MS, FETCH_MAX_BYTES, FETCH_RAW_KEEP (runs kept per source,',
    '  default 3), FRED_API_KEY, DATA_DIR, SNAPSHOT_KEEP',
    '',
    'exit codes:',
    ...EXIT_CODE_HELP.map(([code, text]) => `  ${code}  ${text}`),
  ].join('\n');
}

/** Parses the command line and runs the fetch; returns the exit code. */
export async function runFetchCli(argv: readonly string[], io: FetchIo): Promise<number> {
  const env = io.env ?? process.env;
  const help = io.out ?? ((text: string) => process.stdout.write(`${text}\n`));
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], allowPositionals: true, options: OPTIONS });
  } catch (error) {
    io.log(`fetch: ${(error as Error).message}\n(npm run fetch -- --help lists the sources)`);
    return EXIT.usage;
  }
  if (parsed.values.help) {
    help(fetchHelpText());
    return EXIT.ok;
  }
  const dataDir = resolve(parsed.values['data-dir'] ?? env.DATA_DIR ?? 'data/parquet');
  try {
    const names = await selectedSources(parsed.positionals, parsed.values.all === true, dataDir, env);
    const report = await fetchSources(names, { dataDir, allowShrink: parsed.values['allow-shrink'] === true, skipUnconfigured: parsed.values.all === true }, io);
    return report.exitCode;
  } catch (error) {
    if (error instanceof UsageError) {
      io.log(`fetch: ${error.message}\n(npm run fetch -- --help lists the sources)`);
      return EXIT.usage;
    }
    throw error;
  }
}

/** The sources a command line names; --all: every source the operator file does not disable. */
async function selectedSources(positionals: readonly string[], all: boolean, dataDir: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  if (all && positionals.length > 0) throw new UsageError('give source names or --all, not both');
  if (!all && positionals.length === 0) throw new UsageError('missing <source>... or --all');
  if (all) {
    const config = await readFetchConfig(configPathOf(dataDir, env), FETCH_SOURCES.map((s) => s.name));
    return FETCH_SOURCES.map((s) => s.name).filter((name) => sourceConfigOf(config, name)?.enabled !== false);
  }
  for (const name of positionals) {
    if (!fetchSourceNamed(name)) throw new UsageError(`unknown source "${name}" (known: ${FETCH_SOURCES.map((s) => s.name).join(', ')})`);
  }
  return [...new Set(positionals)];
}

interface Pending {
  source: FetchSource;
  archive: SourceArchive;
  plan: DatasetPlan;
  files: string[];
  pages: PageVersion[];
  sha256: string;
  pageHashes: string[];
  bytes: number[];
  requests: number;
}

/** sha256 of a dataset: its one file's, else the pages' hashes joined. */
function datasetHash(pageHashes: readonly string[]): string {
  return pageHashes.length === 1 ? pageHashes[0]! : createHash('sha256').update(pageHashes.join('\n')).digest('hex');
}

/** The address an import record gives for a dataset: its one page, else the first page's (the windows' start). */
function recordedUrl(plan: DatasetPlan): string {
  return plan.sourceUrl ?? plan.pages[0]!.url;
}

function problemOf(error: unknown): string {
  if (error instanceof FetchFailedError) return error.reason;
  if (error instanceof MalformedSourceError) return error.message;
  return error instanceof Error ? error.message.split('\n')[0]! : String(error);
}

/**
 * Fetches the named sources and publishes what changed in one generation. Throws UsageError for a bad
 * operator file or setting; the lock, storage and dataset failures become the report's exit code.
 */
export async function fetchSources(names: readonly string[], options: FetchRunOptions, io: FetchIo): Promise<FetchReport> {
  const env = io.env ?? process.env;
  const now = io.now ?? (() => new Date());
  const log = io.log;
  const dataDir = resolve(options.dataDir);
  const rawDir = rawDirOf(dataDir, env);
  const config: FetchConfig = await readFetchConfig(configPathOf(dataDir, env), FETCH_SOURCES.map((s) => s.name));
  let settings: HttpSettings;
  let keep: number;
  let rawKeep: number;
  try {
    settings = httpSettingsFromEnv(env);
    keep = keepFromEnv(env);
    rawKeep = rawKeepFromEnv(env);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const sources = names.map((name) => fetchSourceNamed(name)!);
  const hostIntervals = new Map<string, number>();
  for (const source of sources) for (const [host, ms] of Object.entries(source.hostIntervals ?? {})) hostIntervals.set(host, ms);
  const client = new HttpClient({ settings, fetch: io.fetch, sleep: io.sleep, now: () => now().getTime(), hostIntervals, log });
  const started = now();

  const reports: DatasetReport[] = [];
  const pending: Pending[] = [];
  const unchanged: Array<{ archive: SourceArchive; plan: DatasetPlan; version: DatasetVersion }> = [];
  const manifests = new Map<string, ArchivedFile[]>();
  const archives = new Map<string, SourceArchive>();
  const unconfigured: string[] = [];

  // 1. Downloads, one at a time.
  for (const source of sources) {
    const archive = new SourceArchive(rawDir, source.name, now);
    archives.set(source.name, archive);
    manifests.set(source.name, []);
    const sourceConfig = sourceConfigOf(config, source.name);
    let plans = plansOf(source, { env, now: started, config: sourceConfig });
    const listing = source.listing?.(sourceConfig) ?? null;
    if (listing !== null) {
      // The portal's listing names the resources to fetch; it failing fails the source's listed datasets only.
      await mkdir(rawDir, { recursive: true });
      const scratch = await mkdtemp(join(rawDir, '.listing-'));
      try {
        const listed = await listEgovResources(client, listing.datasetUri, scratch, settings.maxBytes);
        const listedPlans = egovPlans(listing, listed.resources);
        const names = new Set(plans.map((plan) => plan.dataset));
        plans = [...listedPlans.filter((plan) => !names.has(plan.dataset)), ...plans];
        log(`fetch: ${source.name}: data.egov.bg dataset ${listing.datasetUri}: ${listed.resources.length} resource(s) listed, ${listedPlans.length} to check`);
        if (listedPlans.length === 0 && plans.length === 0) {
          reports.push({ source: source.name, dataset: '(listing)', url: `https://data.egov.bg/data/view/${listing.datasetUri}`, outcome: 'failed', requests: listed.requests, reason: 'the dataset lists no resource' });
          continue;
        }
      } catch (error) {
        const reason = problemOf(error);
        reports.push({ source: source.name, dataset: '(listing)', url: `https://data.egov.bg/data/view/${listing.datasetUri}`, outcome: 'failed', requests: 0, reason });
        log(`fetch: ${source.name}: FAILED listing data.egov.bg dataset ${listing.datasetUri}: ${reason}`);
        if (plans.length === 0) continue;
      } finally {
        await rm(scratch, { recursive: true, force: true });
      }
    }
    if (plans.length === 0) {
      unconfigured.push(source.name);
      if (options.skipUnconfigured) {
        log(`fetch: ${source.name}: skipped, no address to fetch; it needs ${source.needs}`);
      } else {
        reports.push({ source: source.name, dataset: '(none)', url: configPathOf(dataDir, env), outcome: 'failed', requests: 0, reason: `no address to fetch; it needs ${source.needs}` });
      }
      continue;
    }
    const latest = await archive.latest();
    for (const plan of plans) {
      const held = Object.hasOwn(latest.datasets, plan.dataset) ? latest.datasets[plan.dataset] : undefined;
      const report: DatasetReport = { source: source.name, dataset: plan.dataset, url: recordedUrl(plan), outcome: 'unchanged', requests: 0 };
      reports.push(report);
      if (plan.version !== undefined && held?.resource_version === plan.version) {
        log(`fetch: ${source.name}/${plan.dataset}: resource unchanged (${plan.version}); not asked`);
        continue;
      }
      try {
        const got = await downloadDataset(client, archive, plan, held);
        report.requests = got.requests;
        if (got.kind === 'not-modified') {
          log(`fetch: ${source.name}/${plan.dataset}: not modified`);
          continue;
        }
        if (held !== undefined && got.sha256 === held.sha256) {
          // The same bytes as the version served: nothing to ingest; the new validators are kept.
          for (const file of got.files) await rm(file, { force: true });
          unchanged.push({ archive, plan, version: { ...held, pages: got.pages, fetched_at: started.toISOString(), ...(plan.version === undefined ? {} : { resource_version: plan.version }) } });
          log(`fetch: ${source.name}/${plan.dataset}: downloaded, same sha256 as the version served`);
          continue;
        }
        pending.push({ source, archive, plan, files: got.files, pages: got.pages, sha256: got.sha256, pageHashes: got.hashes, bytes: got.bytes, requests: got.requests });
        log(`fetch: ${source.name}/${plan.dataset}: downloaded ${got.bytes.reduce((a, b) => a + b, 0)} byte(s)`);
      } catch (error) {
        report.outcome = 'failed';
        report.reason = problemOf(error);
        if (error instanceof FetchFailedError) report.url = error.url;
        log(`fetch: ${source.name}/${plan.dataset}: FAILED ${report.url}: ${report.reason}`);
      }
    }
  }

  // 2. What changed, packed for its ingest command and ingested into one generation.
  await mkdir(rawDir, { recursive: true });
  const staging = await mkdtemp(join(rawDir, '.staging-'));
  let generation: string | null = null;
  let exitCode: number = EXIT.ok;
  const ingestedKeys = new Set<string>();
  const results = new Map<string, StepResult>();
  try {
    const steps: BatchStep[] = [];
    for (const item of pending) {
      const key = `${item.source.name}/${item.plan.dataset}`;
      const report = reports.find((r) => r.source === item.source.name && r.dataset === item.plan.dataset)!;
      const command = io.commands.find((c) => c.source === item.source.name);
      try {
        if (!command) throw new Error(`no ingest command named ${item.source.name}`);
        const path = await packDownloads(item.plan.packing, item.files, staging, item.plan.file, settings.maxBytes);
        steps.push({ key, command, path, options: { ...item.plan.options, 'source-url': recordedUrl(item.plan) } });
      } catch (error) {
        report.outcome = 'failed';
        report.reason = problemOf(error);
        log(`fetch: ${key}: FAILED ${report.url}: ${report.reason}`);
      }
    }
    if (steps.length > 0) {
      try {
        const batch = await runIngestBatch(dataDir, steps, {
          command: `fetch ${names.join(' ')}`, log, keep, allowShrink: options.allowShrink, prepare: io.prepare,
        });
        generation = batch.generation;
        for (const result of batch.results) results.set(result.key, result);
      } catch (error) {
        const storage = storageErrorLine(error);
        if (!(error instanceof LockedError) && storage === null) throw error;
        const reason = error instanceof LockedError ? `refused: ${error.message}` : `stopped: ${storage}`;
        exitCode = error instanceof LockedError ? EXIT.locked : EXIT.storage;
        for (const step of steps) results.set(step.key, { key: step.key, ok: false, kind: 'error', reason: `not published: ${reason}` });
        log(`fetch: nothing published (the previous generation is still served): ${reason}`);
      }
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }

  // 3. Outcomes, the archive's records and the state.
  for (const item of pending) {
    const key = `${item.source.name}/${item.plan.dataset}`;
    const report = reports.find((r) => r.source === item.source.name && r.dataset === item.plan.dataset)!;
    const result = results.get(key);
    if (result?.ok) {
      report.outcome = result.outcome.imported > 0 ? (generation !== null ? 'published' : 'not-published') : 'already-imported';
      ingestedKeys.add(key);
    } else if (result) {
      report.outcome = 'failed';
      report.reason = result.reason;
    }
    const manifest = manifests.get(item.source.name)!;
    for (const [index, file] of item.files.entries()) {
      const page = item.pages[index]!;
      manifest.push({
        dataset: item.plan.dataset, url: item.plan.sourceUrl ?? page.url, file: basename(file), sha256: item.pageHashes[index]!, bytes: item.bytes[index]!,
        etag: page.etag, last_modified: page.last_modified,
        status: report.outcome === 'failed' ? 'failed' : 'ingested', ...(report.reason ? { reason: report.reason } : {}),
      });
    }
  }
  for (const [name, archive] of archives) {
    const latest = await archive.latest();
    let touched = false;
    for (const item of pending) {
      if (item.source.name !== name || !ingestedKeys.has(`${name}/${item.plan.dataset}`)) continue;
      latest.datasets[item.plan.dataset] = {
        pages: item.pages, sha256: item.sha256, fetched_at: started.toISOString(), archived: archive.runName()!,
        ...(item.plan.version === undefined ? {} : { resource_version: item.plan.version }),
      };
      touched = true;
    }
    for (const entry of unchanged) {
      if (entry.archive !== archive) continue;
      latest.datasets[entry.plan.dataset] = entry.version;
      touched = true;
    }
    if (touched) await archive.writeLatest(latest);
    await archive.finish({ source: name, fetched_at: started.toISOString(), files: manifests.get(name)! });
    const pruned = await archive.prune(rawKeep);
    if (pruned.length > 0) log(`fetch: ${name}: raw archive: removed ${pruned.length} old run(s), ${rawKeep} kept (FETCH_RAW_KEEP)`);
  }
  await recordState(rawDir, names.filter((name) => !(options.skipUnconfigured && unconfigured.includes(name))), reports, generation, started);

  const failed = reports.filter((r) => r.outcome === 'failed');
  for (const r of failed) log(`fetch: failed: ${r.source}/${r.dataset} ${r.url}: ${r.reason}`);
  const published = reports.filter((r) => r.outcome === 'published').map((r) => `${r.source}/${r.dataset}`);
  log(generation === null
    ? `fetch: no new data; no generation made (${reports.length} dataset(s) checked, ${failed.length} failed)`
    : `fetch: published generation ${generation} in ${dataDir} with ${published.join(', ')}`);
  if (exitCode === EXIT.ok && failed.length > 0) exitCode = EXIT.partial;
  return { exitCode, generation, datasets: reports, unconfigured };
}

/** Downloads a dataset's pages (conditional when a version is held); pages all unchanged: not-modified. */
async function downloadDataset(
  client: HttpClient, archive: SourceArchive, plan: DatasetPlan, held: DatasetVersion | undefined,
): Promise<{ kind: 'not-modified'; requests: number } | { kind: 'downloaded'; files: string[]; pages: PageVersion[]; sha256: string; hashes: string[]; bytes: number[]; requests: number }> {
  const samePages = held !== undefined && held.pages.length === plan.pages.length;
  let requests = 0;
  const fileOf = (index: number) => (plan.pages.length === 1 ? plan.file : `${plan.file.replace(/(\.[^.]+)$/, '')}.page-${String(index + 1).padStart(3, '0')}${plan.file.match(/\.[^.]+$/)?.[0] ?? ''}`);
  const fetchPage = async (index: number, conditional: boolean) => {
    const page = plan.pages[index]!;
    const folder = await archive.runFolder();
    // A POST (portal API) is never conditional: its resource version decides (see the caller).
    const post = page.json !== undefined;
    const result = await client.get({
      url: page.url, secret: page.secret, file: join(folder, fileOf(index)),
      validators: conditional && samePages && !post ? validatorsOf(held.pages[index], page.url) : null,
      ...(post ? { method: 'POST' as const, json: page.json, accept: 'application/json' } : {}),
    });
    requests += result.requests;
    return result;
  };
  const results = [];
  for (let index = 0; index < plan.pages.length; index++) results.push(await fetchPage(index, true));
  if (results.every((r) => r.status === 'not-modified')) return { kind: 'not-modified', requests };
  // A page changed: the unchanged ones are asked for again in full, so the dataset is whole.
  for (let index = 0; index < results.length; index++) {
    if (results[index]!.status === 'not-modified') results[index] = await fetchPage(index, false);
  }
  const pages: PageVersion[] = [];
  const hashes: string[] = [];
  const bytes: number[] = [];
  const files: string[] = [];
  for (const [index, result] of results.entries()) {
    if (result.status !== 'downloaded') throw new FetchFailedError(plan.pages[index]!.url, 'answered 304 Not Modified to an unconditional request');
    pages.push({ url: plan.pages[index]!.url, etag: result.validators.etag, last_modified: result.validators.lastModified });
    hashes.push(result.sha256);
    bytes.push(result.bytes);
    files.push(join(await archive.runFolder(), fileOf(index)));
  }
  return { kind: 'downloaded', files, pages, sha256: datasetHash(hashes), hashes, bytes, requests };
}

/** Updates RAW_DIR/state.json for the sources of this run. */
async function recordState(rawDir: string, names: readonly string[], reports: readonly DatasetReport[], generation: string | null, at: Date): Promise<void> {
  const state = await readFetchState(rawDir);
  const previous = freshnessOf(state, names);
  for (const name of names) {
    const own = reports.filter((r) => r.source === name);
    const failed: FailedDataset[] = own.filter((r) => r.outcome === 'failed').map((r) => ({ dataset: r.dataset, url: r.url, reason: r.reason ?? '' }));
    const changed = generation !== null && own.some((r) => r.outcome === 'published');
    const before = previous[name]!;
    let next: SourceFetchState;
    if (failed.length > 0) {
      next = {
        last_fetch: at.toISOString(), last_change: changed ? at.toISOString() : before.last_change, status: 'failed',
        reason: failed.map((f) => `${f.dataset} (${f.url}): ${f.reason}`).join('; ').slice(0, 4000), failed,
      };
    } else {
      next = { last_fetch: at.toISOString(), last_change: changed ? at.toISOString() : before.last_change, status: 'ok' };
    }
    state.sources[name] = next;
  }
  await writeFetchState(rawDir, state);
}
