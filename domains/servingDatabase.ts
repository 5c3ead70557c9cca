// A generation's serving database: one DuckDB file holding every table and rollup the domains'
// `load` builds from the generation's Parquet files, built once when the generation is written
// (ingest, first start) and opened read-only by the server. Startup is then opening a file, and
// memory is DuckDB's buffer manager's (bounded by its memory limit) instead of every row held.
//
// The file is trusted only for the Parquet files and the code it was built from: `serving.json`
// beside it lists the files (name, size, modification time) and a hash of the code that builds
// tables (engine/, queries/, domains/, reference/, ingest/: the shared readers' loads live there),
// so a new release never serves an old release's rollups. A folder whose files or code differ, or a
// file DuckDB cannot open, is loaded into memory as before (and `npm start` rebuilds the current
// generation's file). A folder without the file (a test fixture, an older generation) is loaded
// into memory too.
//
// A generation's build starts from its parent's file when it can (buildServingDatabase): the
// manifest also records, per load step (domains/registry.ts), the Parquet files it read, the objects
// it created and the steps whose tables it read, so only the steps a changed file reaches are rebuilt.
import { createHash } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import { copyFile, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { Database, type DatabaseOptions } from '../engine/database.ts';
import { currentGeneration, GENERATION_ID } from '../engine/generation.ts';
import { faultPoint } from '../ingest/faults.ts';
import { MANIFEST_FILE as GENERATION_MANIFEST } from '../ingest/generations.ts';
import type { Domain } from './contract.ts';
import { loadDomains, loadSteps, openDomains, type LoadStep } from './registry.ts';

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
const CODE_FOLDERS = ['engine', 'queries', 'domains', 'reference', 'ingest'];
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

/** What one load step (domains/registry.ts) left in the serving database and read to build it. */
export interface StepRecord {
  /** The Parquet files (names) its statements read; '*' when one named the folder otherwise (a glob). */
  reads: string[] | '*';
  /** The catalog objects it created (dropped before it is rebuilt). */
  objects: CatalogObject[];
  /** The steps whose tables it reads: declared (LoadStep.after) and found named in its statements. */
  after: string[];
}

export interface CatalogObject {
  kind: 'table' | 'view' | 'sequence' | 'macro' | 'type';
  schema: string;
  name: string;
}

/** How a serving database was built: every step, or only the steps whose files changed since `from`. */
export interface ServingBuild {
  mode: 'full' | 'incremental';
  /** The generation whose serving database was carried over (incremental only). */
  from?: string;
  /** The steps rebuilt (every step when full). */
  rebuilt: string[];
  /** Why a build is full although a previous generation existed. */
  reason?: string;
}

interface ServingManifest {
  built: string;
  code: string;
  parquet: string[];
  build: ServingBuild;
  /** Per load step, in load order; null when the build could not attribute its objects (the next build is full). */
  steps: Record<string, StepRecord> | null;
}

/** The user objects of a database's catalog, with a signature that changes when one is replaced or written to. */
async function catalog(db: Database): Promise<Map<string, { object: CatalogObject; signature: string }>> {
  const rows = await db.all(`
    SELECT 'table' AS kind, schema_name AS schema, table_name AS name, table_oid || ' ' || estimated_size AS signature FROM duckdb_tables() WHERE NOT internal AND NOT temporary
    UNION ALL SELECT 'view', schema_name, view_name, view_oid::VARCHAR FROM duckdb_views() WHERE NOT internal AND NOT temporary
    UNION ALL SELECT 'sequence', schema_name, sequence_name, sequence_oid::VARCHAR FROM duckdb_sequences() WHERE NOT temporary
    UNION ALL SELECT 'macro', schema_name, function_name, function_oid::VARCHAR FROM duckdb_functions() WHERE NOT internal AND function_type IN ('macro', 'table_macro')
    UNION ALL SELECT 'type', schema_name, type_name, type_oid::VARCHAR FROM duckdb_types() WHERE NOT internal AND database_name NOT IN ('system', 'temp')`);
  const objects = new Map<string, { object: CatalogObject; signature: string }>();
  for (const row of rows) {
    const object = { kind: row.kind as CatalogObject['kind'], schema: String(row.schema), name: String(row.name) };
    objects.set(`${object.kind} ${object.schema}.${object.name}`, { object, signature: String(row.signature) });
  }
  return objects;
}

/** The Database handed to a load step, recording every statement text it runs. */
function recordingDatabase(db: Database, statements: string[]): Database {
  return new Proxy(db, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (typeof args[0] === 'string') statements.push(args[0]);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** The Parquet files of dir that statements name (as sqlStringLiteral writes paths); '*' when one names dir otherwise. */
function filesRead(statements: readonly string[], dir: string): string[] | '*' {
  const prefix = dir.replaceAll("'", "''");
  const names = new Set<string>();
  for (const sql of statements) {
    for (let at = sql.indexOf(prefix); at !== -1; at = sql.indexOf(prefix, at + prefix.length)) {
      const rest = /^\/([^'/]*)'/.exec(sql.slice(at + prefix.length));
      if (!rest || !/^[a-z0-9_]+\.parquet$/.test(rest[1]!)) return '*';
      names.add(rest[1]!);
    }
  }
  return [...names].sort();
}

/** Words that open a list of relations (FROM a, b JOIN c; DuckDB's FROM-first, PIVOT, DESCRIBE, ...). */
const RELATION_START = /\b(?:from|join|pivot|unpivot|describe|summarize|table|using)\b/g;
/** Words that end one: the rest of the clause, another join, a subquery or a call. */
const RELATION_END = /\b(?:where|group|order|on|limit|qualify|having|union|except|intersect|select|window|natural|left|right|inner|outer|cross|full|join|positional|asof|anti|semi|lateral|returning|values|set)\b|[()]/;

/**
 * The identifiers a statement uses as relations: those after FROM, JOIN and the like up to the end
 * of the list (aliases included; a column never stands there). What a load step reads of the steps
 * before it is found this way (a conservative reading: an alias spelled like a table counts too).
 */
export function relationNames(sql: string): Set<string> {
  const text = sql.toLowerCase().replace(/'(?:[^']|'')*'/g, "''");
  const names = new Set<string>();
  for (const start of text.matchAll(RELATION_START)) {
    const rest = text.slice(start.index + start[0].length);
    const end = RELATION_END.exec(rest);
    for (const word of (end ? rest.slice(0, end.index) : rest).matchAll(/[a-z_][a-z0-9_]*/g)) names.add(word[0]);
  }
  return names;
}

/** A step whose load replaced, dropped or wrote to another step's object: its objects cannot be rebuilt alone. */
class EntangledStepError extends Error {}

/**
 * Runs load steps against db, recording for each what it read, created and named. `owners` maps the
 * objects already in db (a carried-over database) to their steps.
 */
async function runSteps(
  steps: readonly LoadStep[], db: Database, dir: string, owners: Map<string, string>,
): Promise<{ records: Record<string, StepRecord>; entangled: string | null }> {
  const records: Record<string, StepRecord> = {};
  let entangled: string | null = null;
  let before = await catalog(db);
  for (const step of steps) {
    const statements: string[] = [];
    await step.load(recordingDatabase(db, statements), dir);
    const after = await catalog(db);
    const objects: CatalogObject[] = [];
    for (const [key, entry] of after) if (!before.has(key)) objects.push(entry.object);
    for (const [key, entry] of before) {
      const now = after.get(key);
      if (!now || now.signature !== entry.signature) entangled ??= `step ${step.name} replaced, dropped or wrote to ${key}`;
    }
    const named = new Set(step.after);
    const relations = new Set(statements.flatMap((sql) => [...relationNames(sql)]));
    for (const [key, owner] of owners) {
      if (owner !== step.name && relations.has(key.slice(key.indexOf('.') + 1).toLowerCase())) named.add(owner);
    }
    for (const object of objects) owners.set(`${object.kind} ${object.schema}.${object.name}`, step.name);
    records[step.name] = { reads: filesRead(statements, dir), objects, after: [...named].sort() };
    before = after;
  }
  return { records, entangled };
}

/** The steps to rebuild when the files `changed` differ: their readers, then every step after one rebuilt. Null when a changed file has no known reader. */
function stepsToRebuild(steps: readonly LoadStep[], records: Record<string, StepRecord>, changed: readonly string[]): { rebuild: Set<string> } | { unknown: string } {
  const rebuild = new Set<string>();
  for (const file of changed) {
    const readers = steps.filter((step) => {
      const reads = records[step.name]!.reads;
      return reads === '*' || reads.includes(file);
    });
    if (readers.length === 0) return { unknown: file };
    for (const reader of readers) rebuild.add(reader.name);
  }
  // In load order, a step is rebuilt when one it reads is: one pass suffices, since a step comes after what it reads.
  for (const step of steps) if (records[step.name]!.after.some((name) => rebuild.has(name))) rebuild.add(step.name);
  return { rebuild };
}

async function readServingManifest(dir: string): Promise<ServingManifest | null> {
  try {
    return JSON.parse(await readFile(join(dir, SERVING_MANIFEST), 'utf8')) as ServingManifest;
  } catch {
    return null;
  }
}

/** The generation dir was built from (GENERATION.json's parent, written before the serving database: ingest/generations.ts), or null. */
async function parentGeneration(dir: string): Promise<{ id: string; dir: string } | null> {
  try {
    const manifest = JSON.parse(await readFile(join(dir, GENERATION_MANIFEST), 'utf8')) as { parent?: unknown };
    if (typeof manifest.parent !== 'string' || !GENERATION_ID.test(manifest.parent)) return null;
    return { id: manifest.parent, dir: join(dirname(dir), manifest.parent) };
  } catch {
    return null;
  }
}

/** The file of the folder a database was built from: a link would let the new build write into the old generation's file. */
async function copyServingFile(from: string, to: string): Promise<void> {
  await copyFile(from, to, fsConstants.COPYFILE_FICLONE);
}

/** WAL size that triggers a checkpoint while a serving database is built (the sample's whole build stays below it). */
const SERVING_BUILD_WAL_LIMIT = '256MB';

const DROP_ORDER: readonly CatalogObject['kind'][] = ['view', 'macro', 'table', 'sequence', 'type'];

function quoted(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}

function dropSql(object: CatalogObject): string {
  const kind = object.kind === 'macro' ? 'MACRO' : object.kind.toUpperCase();
  return `DROP ${kind} IF EXISTS ${quoted(object.schema)}.${quoted(object.name)}`;
}

type Plan =
  | { mode: 'full'; reason?: string }
  | { mode: 'incremental'; from: { id: string; dir: string }; previous: ServingManifest & { steps: Record<string, StepRecord> }; rebuild: Set<string> };

/**
 * Whether dir's serving database can start from its parent generation's: the parent's file is valid
 * for its own files and this code (hasServingDatabase), attributes its objects to steps, and every
 * Parquet file that differs between the two folders has a known reader.
 */
async function planBuild(steps: readonly LoadStep[], dir: string, inputs: { code: string; parquet: string[] }): Promise<Plan> {
  const from = await parentGeneration(dir);
  if (from === null) return { mode: 'full' };
  const previous = await readServingManifest(from.dir);
  if (previous === null || !(await hasServingDatabase(from.dir))) return { mode: 'full', reason: `generation ${from.id} has no serving database built by this code from its files` };
  if (previous.steps === null || previous.steps === undefined) return { mode: 'full', reason: `the serving database of generation ${from.id} does not attribute its tables to load steps` };
  const known = Object.keys(previous.steps);
  if (known.length !== steps.length || steps.some((step) => !Object.hasOwn(previous.steps!, step.name))) {
    return { mode: 'full', reason: `generation ${from.id} was built with other load steps` };
  }
  if (await stat(`${join(from.dir, SERVING_FILE)}.wal`).then(() => true, () => false)) return { mode: 'full', reason: `the serving database of generation ${from.id} has a write-ahead log` };
  const byName = (entries: readonly string[]) => new Map(entries.map((entry) => [entry.slice(0, entry.indexOf(' ')), entry]));
  const [was, now] = [byName(previous.parquet), byName(inputs.parquet)];
  const changed = [...new Set([...was.keys(), ...now.keys()])].filter((name) => was.get(name) !== now.get(name)).sort();
  const plan = stepsToRebuild(steps, previous.steps, changed);
  if ('unknown' in plan) return { mode: 'full', reason: `no load step of generation ${from.id} read ${plan.unknown}` };
  if (plan.rebuild.size === steps.length) return { mode: 'full', reason: 'every load step reads a changed file' };
  return { mode: 'incremental', from, previous: previous as ServingManifest & { steps: Record<string, StepRecord> }, rebuild: plan.rebuild };
}

/**
 * Builds dir/serving.duckdb from the Parquet files in dir, then its manifest. When dir is a generation
 * whose parent has a serving database built by this code, only the load steps (domains/registry.ts)
 * reading a Parquet file that differs from the parent's, and the steps after them, are rebuilt: the
 * parent's file is copied, their objects dropped and their loads run again; every other table is
 * carried over as it is. Otherwise every step runs on an empty file. Written under temporary names
 * and renamed, the manifest last: a crash leaves no file that is trusted.
 */
export async function buildServingDatabase(domains: readonly Domain[], dataDir: string): Promise<ServingBuild> {
  const { dir } = currentGeneration(dataDir);
  const file = join(dir, SERVING_FILE);
  const temporary = join(dir, `.tmp-${process.pid}-${SERVING_FILE}`);
  await rm(join(dir, SERVING_MANIFEST), { force: true });
  const clear = async () => {
    await rm(temporary, { force: true });
    await rm(`${temporary}.wal`, { force: true });
  };
  await clear();
  // The inputs as they are before the build: a file replaced meanwhile no longer matches them.
  const inputs = await buildInputs(dir);
  const steps = loadSteps(domains);
  const plan = await planBuild(steps, dir, inputs);
  let reason = plan.mode === 'full' ? plan.reason : undefined;
  let built: { build: ServingBuild; steps: Record<string, StepRecord> | null } | null = null;
  if (plan.mode === 'incremental') {
    try {
      await copyServingFile(join(plan.from.dir, SERVING_FILE), temporary);
      built = await buildInto(domains, steps, temporary, dir, plan);
    } catch (error) {
      // A parent's file DuckDB cannot open, or pruned meanwhile (a start outside the lock): built in full instead.
      reason = `the incremental build from generation ${plan.from.id} failed (${error instanceof Error ? error.message : String(error)})`;
      await clear();
    }
  }
  if (built === null) {
    built = await buildInto(domains, steps, temporary, dir, null);
    if (reason !== undefined) built.build.reason = reason;
  }
  const result = built;
  await rename(temporary, file);
  const manifest: ServingManifest = { built: new Date().toISOString(), ...inputs, build: result.build, steps: result.steps };
  await writeFile(join(dir, `.tmp-${process.pid}-${SERVING_MANIFEST}`), `${JSON.stringify(manifest, null, 1)}\n`);
  await rename(join(dir, `.tmp-${process.pid}-${SERVING_MANIFEST}`), join(dir, SERVING_MANIFEST));
  return result.build;
}

/** Runs every step on an empty file (plan null), or the plan's steps on a copy of the parent's file after dropping their objects. */
async function buildInto(
  domains: readonly Domain[], steps: readonly LoadStep[], file: string, dir: string, plan: Extract<Plan, { mode: 'incremental' }> | null,
): Promise<{ build: ServingBuild; steps: Record<string, StepRecord> | null }> {
  const db = await Database.open({ file, queryTimeoutMs: 24 * 3600_000 });
  try {
    // One checkpoint at the end (below) instead of one per 16 MB of WAL (DuckDB's default), each
    // rewriting the catalog: ~1.5 s of the sample's build; the WAL stays bounded at scale.
    await db.run(`SET wal_autocheckpoint = '${SERVING_BUILD_WAL_LIMIT}'`);
    const owners = new Map<string, string>();
    let run = steps;
    if (plan) {
      run = steps.filter((step) => plan.rebuild.has(step.name));
      const dropped = run.flatMap((step) => plan.previous.steps[step.name]!.objects);
      for (const kind of DROP_ORDER) for (const object of dropped.filter((o) => o.kind === kind)) await db.run(dropSql(object));
      faultPoint('serving-steps-dropped');
      for (const step of steps) {
        if (plan.rebuild.has(step.name)) continue;
        for (const object of plan.previous.steps[step.name]!.objects) owners.set(`${object.kind} ${object.schema}.${object.name}`, step.name);
      }
    }
    const { records, entangled } = await runSteps(run, db, dir, owners);
    await openDomains(domains, db);
    await db.run('CHECKPOINT');
    const build: ServingBuild = plan
      ? { mode: 'incremental', from: plan.from.id, rebuilt: run.map((step) => step.name) }
      : { mode: 'full', rebuilt: run.map((step) => step.name) };
    if (entangled !== null) {
      // Carried objects may hold what the step wrote into them last time: only a full build is right.
      if (plan) throw new EntangledStepError(entangled);
      return { build: { ...build, reason: `${entangled}; the next build is full too` }, steps: null };
    }
    const all: Record<string, StepRecord> = {};
    for (const step of steps) all[step.name] = records[step.name] ?? plan!.previous.steps[step.name]!;
    return { build, steps: all };
  } finally {
    await db.close();
  }
}

/** One line for a log: "full", "full: <reason>" or "incremental from <id>: rebuilt <steps>". */
export function describeServingBuild(build: ServingBuild): string {
  if (build.mode === 'incremental') return `incremental from generation ${build.from}: rebuilt ${build.rebuilt.join(', ')}`;
  return build.reason ? `full: ${build.reason}` : 'full';
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
  const build = await buildServingDatabase(domains, dir);
  log(`snapshot: built the serving database of generation ${id} in ${((performance.now() - started) / 1000).toFixed(1)} s (${describeServingBuild(build)})`);
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
