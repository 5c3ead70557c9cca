// First start on a fresh clone: every source whose tables are missing from the snapshot gets its
// sample generated (when data/sample/<name> is empty) and ingested.
import { join } from 'node:path';
import { isMissingOrEmpty, type SampleSource } from './sampleSource.ts';

export interface BootstrapOptions {
  /** Snapshot folder (data/parquet). */
  dataDir: string;
  /** Sample folder (data/sample); each source's files live in its own subfolder. */
  sampleDir: string;
  log?: (line: string) => void;
  /** The sources to ensure, in the order they are built (every domain's: sampleSourcesOf(DOMAINS)). */
  sources: readonly SampleSource[];
}

export interface BootstrapResult {
  /** True when some source was missing from the snapshot and has been built now. */
  built: boolean;
  /** True when some source's sample files had to be generated first. */
  generated: boolean;
}

export async function ensureSnapshot(options: BootstrapOptions): Promise<BootstrapResult> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const result: BootstrapResult = { built: false, generated: false };
  for (const source of options.sources) {
    if (await source.isLoaded(options.dataDir)) continue;
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
  return result;
}
