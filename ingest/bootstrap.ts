// First start on a fresh clone: build the Parquet snapshot from the generated sample when it is missing.
import { access, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { generateSebraSample } from './sebra/sample.ts';
import { ingestSebraFiles, SNAPSHOT_FILES } from './snapshot.ts';
import { sebraSourceFiles } from './sourceFiles.ts';

export interface BootstrapOptions {
  /** Snapshot folder (data/parquet). */
  dataDir: string;
  /** Sample folder (data/sample); the SEBRA reports live in its "sebra" subfolder. */
  sampleDir: string;
  log?: (line: string) => void;
}

export interface BootstrapResult {
  /** True when the snapshot was missing and has been built now. */
  built: boolean;
  /** True when the sample reports had to be generated first. */
  generated: boolean;
}

async function isMissingOrEmpty(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length === 0;
  } catch {
    return true;
  }
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

export async function ensureSnapshot(options: BootstrapOptions): Promise<BootstrapResult> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  if (await exists(join(options.dataDir, SNAPSHOT_FILES.payments))) return { built: false, generated: false };

  const sebraDir = join(options.sampleDir, 'sebra');
  const generated = await isMissingOrEmpty(sebraDir);
  if (generated) {
    log(`snapshot missing: generating the SEBRA sample in ${sebraDir}`);
    await generateSebraSample(sebraDir);
  }
  const files = await sebraSourceFiles(sebraDir);
  log(`building the snapshot in ${options.dataDir} from ${files.length} sample files`);
  const started = Date.now();
  const { imported } = await ingestSebraFiles(files, {
    dataDir: options.dataDir,
    onProgress: (done, total) => {
      if (done % 250 === 0 && done < total) log(`  ${done}/${total} files read`);
    },
  });
  const rows = imported.reduce((sum, record) => sum + record.rowCount, 0);
  log(`snapshot ready: ${imported.length} files, ${rows} rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { built: true, generated };
}
