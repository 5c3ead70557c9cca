// Writing snapshot generations (the layout is engine/generation.ts). An ingest, under the data
// folder's lock:
//   1. builds a scratch folder generations/.tmp-<id>/ holding every table of the current generation
//      (hard links, a copy where links are refused), and lets the source's writer update it as a
//      flat snapshot folder (commitTables renames its new files over the links: the current
//      generation's files are never modified);
//   2. writes its GENERATION.json (naming its parent), builds what is derived from the tables (the
//      serving database, when the caller passes `prepare`: only what changed since the parent's,
//      domains/servingDatabase.ts), fsyncs every file and the folder, renames it to generations/<id>/;
//   3. publishes it: DATA_DIR/CURRENT.tmp-<pid> written and fsynced, renamed over CURRENT (the one
//      atomic step), the folder fsynced, then a PUBLISHED marker in the generation;
//   4. removes the generations beyond the newest `keep` (the current one is always kept).
// A crash before step 3's rename leaves the previous generation served; the scratch folder (and a
// complete generation never published) is removed by recoverDataDir at the next ingest or start.
import { copyFile, link, mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CURRENT_FILE, currentGeneration, GENERATION_ID, generationDir, GENERATIONS_DIR, readCurrentId } from '../engine/generation.ts';
import { faultPoint } from './faults.ts';
import { acquireLock, LockedError, type Lock } from './lock.ts';

/** Generations kept for rollback by default (the newest ones; the current one is always kept too). */
export const DEFAULT_KEEP = 5;
/** Marker written into a generation once CURRENT has named it. */
export const PUBLISHED_MARKER = 'PUBLISHED';
/** Description of a generation, written into it before publication. */
export const MANIFEST_FILE = 'GENERATION.json';
const SCRATCH_PREFIX = '.tmp-';

export interface GenerationManifest {
  id: string;
  /** The generation it was built from (null: the first one). */
  parent: string | null;
  created: string;
  /** What built it: "ingest sebra", "migrated from the flat layout", "bootstrap", ... */
  note: string;
}

export interface GenerationInfo {
  id: string;
  dir: string;
  current: boolean;
  published: boolean;
  manifest: GenerationManifest | null;
  files: number;
  bytes: number;
}

/** SNAPSHOT_KEEP from the environment (an integer >= 1), else DEFAULT_KEEP. */
export function keepFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const text = env.SNAPSHOT_KEEP;
  if (text === undefined || text === '') return DEFAULT_KEEP;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`SNAPSHOT_KEEP must be an integer >= 1, not "${text}"`);
  return value;
}

async function fsyncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}

/** The generation ids in DATA_DIR/generations, oldest first (scratch folders excluded). */
export async function generationIds(dataDir: string): Promise<string[]> {
  const entries = await readdir(join(resolve(dataDir), GENERATIONS_DIR)).catch(() => [] as string[]);
  return entries.filter((name) => GENERATION_ID.test(name)).sort();
}

function compactUtc(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
}

async function nextId(dataDir: string, now: Date): Promise<string> {
  const ids = await generationIds(dataDir);
  const last = ids.length === 0 ? 0 : Number(ids[ids.length - 1]!.slice(0, 6));
  return `${String(last + 1).padStart(6, '0')}-${compactUtc(now)}`;
}

async function readManifest(dir: string): Promise<GenerationManifest | null> {
  try {
    return JSON.parse(await readFile(join(dir, MANIFEST_FILE), 'utf8')) as GenerationManifest;
  } catch {
    return null;
  }
}

export async function listGenerations(dataDir: string): Promise<GenerationInfo[]> {
  const current = readCurrentId(dataDir);
  const out: GenerationInfo[] = [];
  for (const id of await generationIds(dataDir)) {
    const dir = generationDir(dataDir, id);
    let files = 0;
    let bytes = 0;
    for (const name of await readdir(dir)) {
      if (!name.endsWith('.parquet')) continue;
      files++;
      bytes += (await stat(join(dir, name))).size;
    }
    out.push({ id, dir, current: id === current, published: id === current || (await exists(join(dir, PUBLISHED_MARKER))), manifest: await readManifest(dir), files, bytes });
  }
  return out;
}

/** Links (or copies) every Parquet file of `from` into the folder `to`. */
async function linkTables(from: string, to: string): Promise<void> {
  for (const name of await readdir(from)) {
    if (!name.endsWith('.parquet')) continue;
    try {
      await link(join(from, name), join(to, name));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EMLINK') throw error;
      await copyFile(join(from, name), join(to, name));
    }
  }
}

/** Replaces DATA_DIR/CURRENT with one rename; the temp file and the folder are fsynced. */
async function writePointer(dataDir: string, id: string): Promise<void> {
  const root = resolve(dataDir);
  const temporary = join(root, `${CURRENT_FILE}.tmp-${process.pid}`);
  const handle = await open(temporary, 'w');
  try {
    await handle.writeFile(`${id}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  faultPoint('pointer-written');
  await rename(temporary, join(root, CURRENT_FILE));
  faultPoint('pointer-renamed');
  await fsyncPath(root);
}

async function markPublished(dataDir: string, id: string): Promise<void> {
  await writeFile(join(generationDir(dataDir, id), PUBLISHED_MARKER), `${new Date().toISOString()}\n`);
}

/** Fsyncs every file of a folder, then the folder. */
async function syncFolder(dir: string): Promise<void> {
  for (const name of await readdir(dir)) await fsyncPath(join(dir, name));
  await fsyncPath(dir);
}

/**
 * Clean-up after a crash, under the lock: removes scratch folders, generations never published and
 * stale pointer temp files; migrates a flat layout into a first generation. Returns what it did.
 */
export async function recoverDataDir(dataDir: string, log: (line: string) => void = () => {}): Promise<string[]> {
  const root = resolve(dataDir);
  const done: string[] = [];
  const generations = join(root, GENERATIONS_DIR);
  const current = readCurrentId(root);
  for (const name of await readdir(generations).catch(() => [] as string[])) {
    const dir = join(generations, name);
    if (name.startsWith(SCRATCH_PREFIX)) {
      await rm(dir, { recursive: true, force: true });
      done.push(`removed the scratch folder of an interrupted ingest: ${dir}`);
    } else if (GENERATION_ID.test(name) && name !== current && !(await exists(join(dir, PUBLISHED_MARKER)))) {
      await rm(dir, { recursive: true, force: true });
      done.push(`removed generation ${name}, complete but never published (interrupted before the pointer switch)`);
    }
  }
  for (const name of await readdir(root).catch(() => [] as string[])) {
    if (name.startsWith(`${CURRENT_FILE}.tmp-`) || name.startsWith('.tmp-ingest-')) {
      await rm(join(root, name), { recursive: true, force: true });
      done.push(`removed ${join(root, name)} left by an interrupted ingest`);
    }
  }
  if (current !== null) {
    const dir = generationDir(root, current);
    if (!(await exists(dir))) throw new Error(`${join(root, CURRENT_FILE)} names generation ${current}, which is missing from ${generations}`);
    if (!(await exists(join(dir, PUBLISHED_MARKER)))) await markPublished(root, current);
    // A migration interrupted after its publication: the flat files that are the generation's own (same inode) go.
    for (const name of (await readdir(root)).filter((n) => n.endsWith('.parquet'))) {
      const [flat, kept] = await Promise.all([stat(join(root, name)), stat(join(dir, name)).catch(() => null)]);
      if (kept !== null && kept.ino === flat.ino && kept.dev === flat.dev) {
        await rm(join(root, name), { force: true });
        done.push(`removed ${join(root, name)}, already migrated into generation ${current}`);
      }
    }
  } else {
    const flat = (await readdir(root).catch(() => [] as string[])).filter((name) => name.endsWith('.parquet'));
    if (flat.length > 0) {
      const id = await publishGeneration(root, null, 'migrated from the flat layout', async (scratch) => {
        await linkTables(root, scratch);
      });
      // The files now live in the generation (linked or copied); the flat copies are no longer read.
      for (const name of flat) await rm(join(root, name), { force: true });
      done.push(`migrated the flat snapshot (${flat.length} Parquet files) into generation ${id}`);
    }
  }
  for (const line of done) log(`snapshot: ${line}`);
  return done;
}

/** Builds a generation in a scratch folder through `fill` and publishes it (the caller holds the lock). Returns its id. */
async function publishGeneration(
  dataDir: string, parent: string | null, note: string, fill: (scratch: string) => Promise<void>, keep?: number, prepare?: (scratch: string) => Promise<void>,
): Promise<string> {
  const root = resolve(dataDir);
  await mkdir(join(root, GENERATIONS_DIR), { recursive: true });
  const id = await nextId(root, new Date());
  const scratch = join(root, GENERATIONS_DIR, `${SCRATCH_PREFIX}${id}`);
  let renamed = false;
  try {
    await mkdir(scratch);
    faultPoint('scratch-created');
    await fill(scratch);
    faultPoint('tables-written');
    // Written before `prepare`: the serving database is built from the parent's where it can be (its `parent`).
    const manifest: GenerationManifest = { id, parent, created: new Date().toISOString(), note };
    await writeFile(join(scratch, MANIFEST_FILE), `${JSON.stringify(manifest, null, 1)}\n`);
    if (prepare) {
      await prepare(scratch);
      faultPoint('serving-built');
    }
    await syncFolder(scratch);
    faultPoint('files-synced');
    await rename(scratch, generationDir(root, id));
    await fsyncPath(join(root, GENERATIONS_DIR));
    faultPoint('generation-renamed');
    renamed = true;
    await writePointer(root, id);
    await markPublished(root, id);
    faultPoint('published');
  } catch (error) {
    // An error (not a crash: that leaves the folder to recoverDataDir): the folder goes unless the pointer already names it.
    let named = false;
    try {
      named = readCurrentId(root) === id;
    } catch {
      // an unreadable pointer does not name it
    }
    if (!named) await rm(renamed ? generationDir(root, id) : scratch, { recursive: true, force: true }).catch(() => {});
    throw error;
  }
  await pruneGenerations(root, keep ?? keepFromEnv());
  faultPoint('pruned');
  return id;
}

/** Removes published generations beyond the newest `keep` (never the current one). */
export async function pruneGenerations(dataDir: string, keep: number): Promise<string[]> {
  const current = readCurrentId(dataDir);
  const ids = await generationIds(dataDir);
  const removed: string[] = [];
  for (const id of ids.slice(0, Math.max(0, ids.length - keep))) {
    if (id === current) continue;
    await rm(generationDir(dataDir, id), { recursive: true, force: true });
    removed.push(id);
  }
  return removed;
}

export interface GenerationRunOptions {
  /** Names the holder in the lock and the manifest: "ingest sebra". */
  command: string;
  log?: (line: string) => void;
  /** Generations kept (default SNAPSHOT_KEEP or DEFAULT_KEEP). */
  keep?: number;
  /**
   * Builds the files derived from the new generation's tables before it is published (the serving
   * database: domains/servingDatabase.ts, passed by the composition roots in bin/).
   */
  prepare?: (scratchDir: string) => Promise<void>;
}

export interface GenerationRun<T> {
  value: T;
  /** The published generation's id; null when `changed` said there was nothing new (no generation made). */
  generation: string | null;
}

/**
 * Runs a writer against a scratch copy of the current generation, under the lock, and publishes the
 * result as a new generation when `changed(value)` (default: always). The writer sees a flat
 * snapshot folder: it reads and commits tables there as before generations existed.
 */
export async function withNewGeneration<T>(
  dataDir: string,
  options: GenerationRunOptions,
  write: (scratchDir: string) => Promise<T>,
  changed: (value: T) => boolean = () => true,
): Promise<GenerationRun<T>> {
  const root = resolve(dataDir);
  const log = options.log ?? (() => {});
  await mkdir(root, { recursive: true });
  const lock: Lock = await acquireLock(root, options.command, log);
  try {
    await recoverDataDir(root, log);
    const base = currentGeneration(root);
    let value!: T;
    let skip = false;
    let generation: string | null = null;
    try {
      generation = await publishGeneration(root, base.id, options.command, async (scratch) => {
        if (base.id !== null) await linkTables(base.dir, scratch);
        value = await write(scratch);
        if (!changed(value)) {
          skip = true;
          throw new NothingNew();
        }
      }, options.keep, options.prepare);
    } catch (error) {
      if (!(skip && error instanceof NothingNew)) throw error;
    }
    return { value, generation };
  } finally {
    await lock.release();
  }
}

class NothingNew extends Error {}

/** Switches CURRENT to an older (or newer) kept generation, under the lock. Default target: the newest one older than the current. */
export async function rollback(dataDir: string, target?: string, log: (line: string) => void = () => {}): Promise<{ from: string | null; to: string }> {
  const root = resolve(dataDir);
  const lock = await acquireLock(root, `rollback${target ? ` ${target}` : ''}`, log);
  try {
    await recoverDataDir(root, log);
    const current = readCurrentId(root);
    const published = (await listGenerations(root)).filter((g) => g.published).map((g) => g.id);
    let to: string | undefined;
    if (target !== undefined) {
      if (!published.includes(target)) throw new RollbackError(`no published generation ${target} in ${join(root, GENERATIONS_DIR)} (kept: ${published.join(', ') || 'none'})`);
      to = target;
    } else {
      to = published.filter((id) => current === null || id < current).at(-1);
      if (to === undefined) throw new RollbackError(`no generation older than ${current ?? '(none)'} is kept`);
    }
    if (to !== current) {
      await writePointer(root, to);
      log(`snapshot: CURRENT now names ${to} (was ${current ?? 'none'})`);
    }
    return { from: current, to };
  } finally {
    await lock.release();
  }
}

/**
 * What `npm start` does before loading: under the lock, recoverDataDir. Returns false (and logs) when
 * an ingest holds the lock: its scratch folder is live, so nothing is touched and the current generation is served.
 */
export async function recoverAtStart(dataDir: string, log: (line: string) => void): Promise<boolean> {
  let lock: Lock;
  try {
    lock = await acquireLock(dataDir, 'npm start (recovery)', log);
  } catch (error) {
    if (!(error instanceof LockedError)) throw error;
    log(`snapshot: ${error.message}; serving the current generation without recovery`);
    return false;
  }
  try {
    await recoverDataDir(dataDir, log);
    return true;
  } finally {
    await lock.release();
  }
}

/** A rollback target that does not exist. */
export class RollbackError extends Error {}
