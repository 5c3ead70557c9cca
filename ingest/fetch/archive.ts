// The raw archive of `npm run fetch`: every download kept as the publisher sent it, in
// RAW_DIR/<source>/<time>/ with a manifest.json naming each file's address, validators (ETag,
// Last-Modified), sha256, size and what became of it (ingested, failed with the reason). The last
// FETCH_RAW_KEEP runs of a source are kept (default 3), and also every run holding a version that is
// served now. RAW_DIR/<source>/latest.json holds, per dataset, the validators and sha256 of the version
// last ingested: the next fetch sends them as a conditional request, and bytes with that sha256 are not
// ingested again. A version that failed to ingest is never recorded there, so the next fetch retries it.
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError } from '../command.ts';
import type { Validators } from './http.ts';
import { writeJsonAtomically } from '../../engine/atomicFile.ts';

export const DEFAULT_RAW_KEEP = 3;
export const MANIFEST = 'manifest.json';
export const LATEST = 'latest.json';
/** A run folder's name: the UTC time of the run, compact, and a counter when two runs share a second. */
const RUN_FOLDER = /^\d{8}T\d{6}Z(?:-\d+)?$/;

export interface PageVersion {
  url: string;
  etag: string | null;
  last_modified: string | null;
}

export interface DatasetVersion {
  pages: PageVersion[];
  /** sha256 of the file (one page), else of the pages' hashes joined. */
  sha256: string;
  fetched_at: string;
  /** The run folder holding its files. */
  archived: string;
  /** The publisher's version key of what was ingested (data.egov.bg: resource uri, version, updated_at). */
  resource_version?: string;
}

export interface LatestVersions {
  datasets: Record<string, DatasetVersion>;
}

export interface ArchivedFile {
  dataset: string;
  url: string;
  file: string;
  sha256: string;
  bytes: number;
  etag: string | null;
  last_modified: string | null;
  status: 'ingested' | 'unchanged' | 'failed';
  reason?: string;
}

export interface RunManifest {
  source: string;
  fetched_at: string;
  files: ArchivedFile[];
}

/** FETCH_RAW_KEEP (an integer >= 1), else DEFAULT_RAW_KEEP. */
export function rawKeepFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const text = env.FETCH_RAW_KEEP?.trim();
  if (text === undefined || text === '') return DEFAULT_RAW_KEEP;
  if (!/^\d{1,6}$/.test(text) || Number(text) < 1) throw new UsageError(`FETCH_RAW_KEEP must be an integer >= 1, not ${JSON.stringify(text)}`);
  return Number(text);
}

export function validatorsOf(page: PageVersion | undefined, url: string): Validators | null {
  if (page === undefined || page.url !== url) return null;
  return { etag: page.etag, lastModified: page.last_modified };
}

export class SourceArchive {
  readonly dir: string;
  private runDir: string | null = null;

  constructor(rawDir: string, readonly source: string, private readonly now: () => Date) {
    this.dir = join(rawDir, source);
  }

  async latest(): Promise<LatestVersions> {
    try {
      const parsed = JSON.parse(await readFile(join(this.dir, LATEST), 'utf8')) as LatestVersions;
      return parsed && typeof parsed.datasets === 'object' && parsed.datasets !== null ? parsed : { datasets: {} };
    } catch {
      return { datasets: {} };
    }
  }

  async writeLatest(latest: LatestVersions): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    await writeJsonAtomically(join(this.dir, LATEST), latest);
  }

  /** This run's folder, made at the first download (a run where everything was unchanged leaves none). */
  async runFolder(): Promise<string> {
    if (this.runDir !== null) return this.runDir;
    await mkdir(this.dir, { recursive: true });
    const stamp = this.now().toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
    for (let n = 1; ; n++) {
      const name = n === 1 ? stamp : `${stamp}-${n}`;
      try {
        await mkdir(join(this.dir, name));
        this.runDir = join(this.dir, name);
        return this.runDir;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
  }

  runName(): string | null {
    return this.runDir === null ? null : this.runDir.slice(this.dir.length + 1);
  }

  /** Writes the run's manifest; a run that kept no file (every answer a 304 or known bytes) leaves no folder. */
  async finish(manifest: RunManifest): Promise<void> {
    if (this.runDir === null) return;
    if (manifest.files.length === 0) {
      await rm(this.runDir, { recursive: true, force: true });
      this.runDir = null;
      return;
    }
    await writeJsonAtomically(join(this.runDir, MANIFEST), manifest);
  }

  /** Removes the run folders beyond the newest `keep`, except those holding a version served now. Returns their names. */
  async prune(keep: number): Promise<string[]> {
    const runs = (await readdir(this.dir).catch(() => [] as string[])).filter((name) => RUN_FOLDER.test(name)).sort();
    const held = new Set(Object.values((await this.latest()).datasets).map((version) => version.archived));
    const removed: string[] = [];
    for (const name of runs.slice(0, Math.max(0, runs.length - keep))) {
      if (held.has(name)) continue;
      await rm(join(this.dir, name), { recursive: true, force: true });
      removed.push(name);
    }
    return removed;
  }
}
