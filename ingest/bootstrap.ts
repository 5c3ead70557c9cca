// First start on a fresh clone: every source whose tables are missing from the snapshot gets its
// sample generated (when data/sample/<name> is empty) and ingested.
//
// Only into a folder that holds no real imports: the samples are invented data, so a DATA_DIR with
// some real import (an import record whose source_url is not `sample:`) is never topped up with
// them unless the operator asks (`npm start -- --sample` or SAMPLE=1, the `sample` option). An empty
// DATA_DIR, or one holding only samples (an interrupted first start, a domain added since), is
// completed as before, so `npm install && npm start` on a fresh clone serves the sample at once.
// In production (NODE_ENV=production) nothing is built and a snapshot holding sample data, or none, is
// refused unless ALLOW_SAMPLE_DATA=true (productionDataRefusal): invented figures are never charged
// for without the operator's word, and then every answer says sample.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { combineOrigins, originOfUrl } from '../engine/dataOrigin.ts';
import { currentGeneration } from '../engine/generation.ts';
import { readImportRecords, sha256OfFile } from './commit.ts';
import { isMissingOrEmpty, type SampleSource } from './sampleSource.ts';

export interface BootstrapOptions {
  /** Snapshot folder (data/parquet). */
  dataDir: string;
  /** Sample folder (data/sample); each source's files live in its own subfolder. */
  sampleDir: string;
  log?: (line: string) => void;
  /** The sources to ensure, in the order they are built (every domain's: sampleSourcesOf(DOMAINS)). */
  sources: readonly SampleSource[];
  /** Add the samples of missing sources even when DATA_DIR holds real imports (`--sample`, SAMPLE=1). */
  sample?: boolean;
}

export interface BootstrapResult {
  /** True when some source was missing from the snapshot and has been built now. */
  built: boolean;
  /** True when some source's sample files had to be generated first. */
  generated: boolean;
  /** Sources missing from the snapshot and left out because DATA_DIR holds real imports (present only when some were). */
  skipped?: string[];
}

/** `--sample` on the command line or SAMPLE=1 (true, yes) in the environment. */
export function sampleRequested(argv: readonly string[] = process.argv.slice(2), env: NodeJS.ProcessEnv = process.env): boolean {
  return argv.includes('--sample') || /^(1|true|yes)$/i.test(env.SAMPLE ?? '');
}

/** Files under dir, recursively (none when it is missing). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/**
 * How many records that say "imported" are in fact files of data/sample (same bytes): a snapshot built
 * from the samples before they were labelled. Those do not count as real imports for the top-up.
 */
async function unlabelledSampleRecords(hashes: ReadonlySet<string>, sampleDir: string): Promise<Set<string>> {
  const found = new Set<string>();
  for (const file of await filesUnder(sampleDir)) {
    const hash = await sha256OfFile(file);
    if (hashes.has(hash)) found.add(hash);
  }
  return found;
}

export async function ensureSnapshot(options: BootstrapOptions): Promise<BootstrapResult> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const result: BootstrapResult = { built: false, generated: false };
  // Decided once, when the first missing source is met (a complete snapshot reads nothing more).
  let realImports = 0;
  let topUp: boolean | undefined;
  const mayTopUp = async (): Promise<boolean> => {
    if (topUp !== undefined) return topUp;
    const imported = (await readImportRecords(options.dataDir)).filter((record) => originOfUrl(record.sourceUrl) === 'imported');
    realImports = imported.length;
    if (realImports > 0 && !options.sample) {
      const legacy = await unlabelledSampleRecords(new Set(imported.map((record) => record.fileHash)), options.sampleDir);
      if (legacy.size > 0) {
        log(`${options.dataDir} holds sample files recorded with a real source address (built before samples were labelled): ` +
          'they are served as imported data; delete the folder and start again to rebuild it labelled');
        realImports = imported.filter((record) => !legacy.has(record.fileHash)).length;
      }
    }
    return (topUp = options.sample === true || realImports === 0);
  };
  const skipped: string[] = [];
  for (const source of options.sources) {
    if (await source.isLoaded(currentGeneration(options.dataDir).dir)) continue;
    if (!(await mayTopUp())) {
      skipped.push(source.name);
      continue;
    }
    const sampleDir = join(options.sampleDir, source.name);
    if (await isMissingOrEmpty(sampleDir)) {
      log(`snapshot missing ${source.name}: generating its sample in ${sampleDir}`);
      await source.generate(sampleDir);
      result.generated = true;
    }
    log(`building ${source.name} in ${options.dataDir} from ${sampleDir}`);
    const started = Date.now();
    const { files, rows } = await source.ingest({ dataDir: options.dataDir, sampleDir, log });
    log(`snapshot ready: ${source.name}: ${files} files, ${rows} rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    result.built = true;
  }
  if (skipped.length > 0) {
    log(`not adding invented sample data for ${skipped.join(', ')}: ${options.dataDir} holds real imports ` +
      `(${realImports} import record${realImports === 1 ? '' : 's'}); ingest their files, or start with --sample (SAMPLE=1) to add the samples`);
    result.skipped = skipped;
  }
  return result;
}

/**
 * Why NODE_ENV=production without ALLOW_SAMPLE_DATA=true must not serve DATA_DIR (one line), or null:
 * its current generation holds generated sample data (all or some sources), or no data at all (the
 * samples are not built in production).
 */
export async function productionDataRefusal(dataDir: string): Promise<string | null> {
  const records = await readImportRecords(dataDir);
  const origin = combineOrigins(records.map((record) => originOfUrl(record.sourceUrl)));
  if (origin === 'sample' || origin === 'mixed') {
    return `NODE_ENV=production: ${dataDir} holds ${origin === 'mixed' ? 'some ' : ''}generated sample data (invented figures, not published data); ` +
      'ingest the real files (npm run ingest), or set ALLOW_SAMPLE_DATA=true to serve it labelled sample in every answer';
  }
  if (records.length === 0) {
    return `NODE_ENV=production: ${dataDir} holds no data, and the invented sample is not built in production; ` +
      'ingest the real files (npm run ingest), or set ALLOW_SAMPLE_DATA=true to build and serve the sample, labelled sample in every answer';
  }
  return null;
}
