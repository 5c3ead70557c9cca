// Per source, when it was last fetched from its publisher and when that last changed the data served:
// `npm run fetch` and `npm run refresh` write it (ingest/fetch/), /healthz and the metrics read it.
// One small JSON file in the raw archive's folder (RAW_DIR/state.json), replaced whole by a rename, so a
// reader sees either the old or the new state, never half of one.
import { mkdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { writeJsonAtomically } from './atomicFile.ts';

export const FETCH_STATE_FILE = 'state.json';
/** A state file larger than this is not read (it holds a line per source). */
const STATE_MAX_BYTES = 1024 * 1024;

export type FetchStatus = 'ok' | 'failed' | 'never';

export interface FailedDataset {
  dataset: string;
  url: string;
  reason: string;
}

export interface SourceFetchState {
  /** When a fetch of the source last ran (ISO, UTC). */
  last_fetch: string | null;
  /** When a fetch last published new data of the source (ISO, UTC). */
  last_change: string | null;
  status: FetchStatus;
  /** Why the last fetch failed (status failed): the failed datasets, one clause each. */
  reason?: string;
  failed?: FailedDataset[];
}

export interface FetchState {
  sources: Record<string, SourceFetchState>;
}

/**
 * The raw archive's folder: FETCH_RAW_DIR when set, else `raw` beside the snapshot folder
 * (data/parquet -> data/raw).
 */
export function rawDirOf(dataDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.FETCH_RAW_DIR?.trim();
  return configured ? resolve(configured) : join(dirname(resolve(dataDir)), 'raw');
}

/** The state in RAW_DIR/state.json; an empty state when the file is absent, too large or unreadable. */
export async function readFetchState(rawDir: string): Promise<FetchState> {
  const file = join(rawDir, FETCH_STATE_FILE);
  try {
    if ((await stat(file)).size > STATE_MAX_BYTES) return { sources: {} };
    const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<FetchState>;
    if (parsed === null || typeof parsed !== 'object' || parsed.sources === null || typeof parsed.sources !== 'object') return { sources: {} };
    return { sources: parsed.sources };
  } catch {
    return { sources: {} };
  }
}

/** Writes the whole state, replaced in one rename (engine/atomicFile.ts). */
export async function writeFetchState(rawDir: string, state: FetchState): Promise<void> {
  await mkdir(rawDir, { recursive: true });
  await writeJsonAtomically(join(rawDir, FETCH_STATE_FILE), state);
}

/** The state of each named source, `never` for one without a record; in the order of `names`. */
export function freshnessOf(state: FetchState, names: readonly string[]): Record<string, SourceFetchState> {
  const out: Record<string, SourceFetchState> = {};
  for (const name of names) {
    const held = Object.hasOwn(state.sources, name) ? state.sources[name] : undefined;
    out[name] = held ?? { last_fetch: null, last_change: null, status: 'never' };
  }
  return out;
}
