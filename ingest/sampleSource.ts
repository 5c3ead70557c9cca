// A source whose sample a fresh clone generates and ingests on first start (see bootstrap.ts).
import { access, readdir } from 'node:fs/promises';

export interface SampleBuildOptions {
  dataDir: string;
  /** This source's own sample folder, data/sample/<name>. */
  sampleDir: string;
  log: (line: string) => void;
}

export interface SampleGenerateOptions {
  scale?: number;
}

export interface SampleSource {
  /** Folder name under data/sample and the name in log lines ("sebra", "ptp", ...). */
  name: string;
  /** True when this source's tables are already in the snapshot. */
  isLoaded(dataDir: string): Promise<boolean>;
  /**
   * Writes the deterministic sample files into sampleDir. `scale` (>= 1, default 1: the sample itself,
   * byte for byte) multiplies the source's rows for benchmarks, in the same real formats.
   */
  generate(sampleDir: string, options?: SampleGenerateOptions): Promise<void>;
  /** Ingests every sample file of options.sampleDir; returns the number of files and rows imported. */
  ingest(options: SampleBuildOptions): Promise<{ files: number; rows: number }>;
}

export async function fileExists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

export async function isMissingOrEmpty(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length === 0;
  } catch {
    return true;
  }
}
