// A generation's serving database: one DuckDB file holding every table and rollup the domains'
// `load` builds from the generation's Parquet files, built once when the generation is written
// (ingest, first start) and opened read-only by the server. Startup is then opening a file, and
// memory is DuckDB's buffer manager's (bounded by its memory limit) instead of every row held.
//
// The file is trusted only for the Parquet files and the code it was built from: `serving.json`
// beside it lists the files (name, size, modification time) and a hash of the code that builds
// tables (engine/, queries/, domains/, reference/), so a new release never serves an old release's
// rollups. A folder whose files or code differ, or a file DuckDB cannot open, is loaded into memory
// as before (and `npm start` rebuilds the current generation's file). A folder without the file (a
// test fixture, an older generation) is loaded into memory too.
import { createHash } from 'node:crypto';
import { readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { Database, type DatabaseOptions } from '../engine/database.ts';
import { currentGeneration } from '../engine/generation.ts';
import type { Domain } from './contract.ts';
import { loadDomains, openDomains } from './registry.ts';

export const SERVING_FILE = 'serving.duckdb';
export const SERVING_MANIFEST = 'serving.json';

/** The Parquet files of a snapshot folder, each as `name size mtime`, sorted: what a serving database was built from. */
async function parquetFingerprint(dir: string): Promise<string[]> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.parquet')).sort();
  return Promise.all(names.map(async (name) => {
    const info = await stat(join(dir, name));
    return `${name} ${info.size} ${Math.trunc(info.mtimeMs)}`;
  }));
}

/** The folders whose code decides what a serving database holds. */
const CODE_FOLDERS = ['engine', 'queries', 'domains', 'reference'];
const PROJECT_ROOT = resolve(import.meta.dirname, '..');
let codeHash: Promise<string> | null = null;

/**
 * sha256 of every .ts file in CODE_FOLDERS (path and content, sorted by path); computed once per
 * process, starting when this module is imported: the code a process runs is the code it loaded, so a
 * release installed while an ingest builds is not taken for the code that built the tables.
 */
function codeFingerprint(): Promise<string> {
  codeHash ??= (async () => {
    const files: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) await walk(path);
        else if (entry.name.endsWith('.ts')) files.push(path);
      }
    };
    for (const folder of CODE_FOLDERS) await walk(join(PROJECT_ROOT, folder)).catch(() => {});
    const hash = createHash('sha256');
    for (const file of files.sort()) hash.update(`${relative(PROJECT_ROOT, file)}\0`).update(await readFile(file)).update('\0');
    return hash.digest('hex');
  })();
  return codeHash;
}

codeFingerprint().catch(() => {}); // started now; a failure surfaces where the hash is awaited

/** What a serving database was built from: the Parquet files of its folder and the code. */
async function buildInputs(dir: string): Promise<{ code: string; parquet: string[] }> {
  return { code: await codeFingerprint(), parquet: await parquetFingerprint(dir) };
}

/**
 * Builds dir/serving.duckdb from the Parquet files in dir (every domain's `load`), then its manifest.
 * Written under temporary names and renamed, the manifest last: a crash leaves no file that is trusted.
 */
export async function buildServingDatabase(domains: readonly Domain[], dataDir: string): Promise<void> {
  const { dir } = currentGeneration(dataDir);
  const file = join(dir, SERVING_FILE);
  const temporary = join(dir, `.tmp-${process.pid}-${SERVING_FILE}`);
  await rm(join(dir, SERVING_MANIFEST), { force: true });
  await rm(temporary, { force: true });
  await rm(`${temporary}.wal`, { force: true });
  // The inputs as they are before the build: a file replaced meanwhile no longer matches them.
  const inputs = await buildInputs(dir);
  const db = await Database.open({ file: temporary, queryTimeoutMs: 24 * 3600_000 });
  try {
    await loadDomains(domains, db, dir);
    await db.run('CHECKPOINT');
  } finally {
    await db.close();
  }
  await rename(temporary, file);
  const manifest = { built: new Date().toISOString(), ...inputs };
  await writeFile(join(dir, `.tmp-${process.pid}-${SERVING_MANIFEST}`), `${JSON.stringify(manifest, null, 1)}\n`);
  await rename(join(dir, `.tmp-${process.pid}-${SERVING_MANIFEST}`), join(dir, SERVING_MANIFEST));
}

/**
 * Builds the serving database of DATA_DIR's current generation when it has none that is valid (a
 * generation written before serving databases existed, or by hand). A flat folder is left alone.
 * Returns whether it built one.
 */
export async function ensureServingDatabase(domains: readonly Domain[], dataDir: string, log: (line: string) => void): Promise<boolean> {
  const { id, dir } = currentGeneration(dataDir);
  if (id === null || (await hasServingDatabase(dir))) return false;
  const started = performance.now();
  await buildServingDatabase(domains, dir);
  log(`snapshot: built the serving database of generation ${id} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return true;
}

/** True when dir holds a serving database built from exactly its current Parquet files and this code. */
export async function hasServingDatabase(dir: string): Promise<boolean> {
  try {
    const manifest = JSON.parse(await readFile(join(dir, SERVING_MANIFEST), 'utf8')) as { code?: unknown; parquet?: unknown };
    await stat(join(dir, SERVING_FILE));
    const inputs = await buildInputs(dir);
    return manifest.code === inputs.code && JSON.stringify(manifest.parquet) === JSON.stringify(inputs.parquet);
  } catch {
    return false;
  }
}

export interface OpenedSnapshot {
  db: Database;
  /** file: the prebuilt serving database, read-only; memory: the Parquet files loaded and the rollups built now. */
  mode: 'file' | 'memory';
}

/**
 * The engine for the snapshot in dataDir, locked down: its serving database opened read-only when it
 * has a valid one, else every table loaded into memory. `options` are the engine's (memory limit, threads).
 */
export async function openSnapshotDatabase(
  domains: readonly Domain[],
  dataDir: string,
  options: DatabaseOptions = {},
  prepare: (db: Database) => Database = (db) => db,
): Promise<OpenedSnapshot> {
  const { dir } = currentGeneration(dataDir);
  if (await hasServingDatabase(dir)) {
    const db = await Database.open({ ...options, file: join(dir, SERVING_FILE), readOnly: true }).catch(() => null);
    if (db) {
      try {
        await openDomains(domains, prepare(db));
        await db.lockDown();
        return { db, mode: 'file' };
      } catch (error) {
        await db.close().catch(() => {});
        throw error;
      }
    }
  }
  const db = await Database.open(options);
  try {
    await loadDomains(domains, prepare(db), dir);
    await db.lockDown();
    return { db, mode: 'memory' };
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
}
