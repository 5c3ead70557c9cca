// The app over the full generated sample, as `npm start` serves it (every domain's sample generated
// and ingested). Building takes a minute or two. `npm test` builds it once per run
// (test/helpers/run-tests.js) and hands it to every file as SAMPLE_SNAPSHOT_DIR, which the tests only
// read; a file run on its own without it builds its own in a fresh temp folder, removed on close.
// SAMPLE_SNAPSHOT_DIR=<folder> set by hand builds it there once and keeps it (for repeated runs).
// The runner builds it while its first files run (those that need no sample): it names a file,
// SAMPLE_SNAPSHOT_READY, that it writes once the build has ended, and a file waits for it here.
import { cp, mkdtemp, readdir, readFile, rm, stat, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensureSnapshot } from '../../ingest/bootstrap.ts';
import { DOMAINS } from '../../domains/index.ts';
import { buildServingDatabase, hasServingDatabase } from '../../domains/servingDatabase.ts';
import { sampleSourcesOf } from '../../domains/registry.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

/**
 * Generates and ingests every domain's sample under root (root/sample, root/parquet), and builds its
 * serving database, as `npm start` does on a fresh clone (in one flat folder, not a generation);
 * returns the snapshot folder.
 */
export async function buildSampleSnapshot(root: string): Promise<string> {
  await runnersBuild(root);
  const dataDir = path.join(root, 'parquet');
  await ensureSnapshot({ dataDir, sampleDir: path.join(root, 'sample'), sources: sampleSourcesOf(DOMAINS), log: () => undefined });
  // Its serving database, in the flat folder (ensureServing builds one only for a generation): every
  // file then opens it read-only in a fraction of a second instead of loading every table into memory
  // (about 5 s each).
  if (!(await hasServingDatabase(dataDir))) await buildServingDatabase(DOMAINS, dataDir);
  return dataDir;
}

/** How often a file waiting for the runner's build looks for its word (the build takes a minute). */
const READY_POLL_MS = 200;

/** When root is the run's shared snapshot that the runner is building: until it has said `built` (an error if it says the build failed). */
async function runnersBuild(root: string): Promise<void> {
  const marker = process.env.SAMPLE_SNAPSHOT_READY;
  const shared = process.env.SAMPLE_SNAPSHOT_DIR;
  if (!marker || !shared || path.resolve(shared) !== path.resolve(root)) return;
  for (;;) {
    const word = await readFile(marker, 'utf8').catch(() => null);
    if (word === 'built') return;
    if (word !== null) throw new Error(`the run's sample snapshot was not built: ${word}`);
    await sleep(READY_POLL_MS);
  }
}

/** The app over the full sample; `dataDir` is its snapshot folder, which tests only read. */
export async function startSampleApp(prefix: string): Promise<TestApp & { dataDir: string }> {
  const kept = process.env.SAMPLE_SNAPSHOT_DIR;
  const root = kept ? path.resolve(kept) : await mkdtemp(path.join(os.tmpdir(), prefix));
  const cleanUp = () => (kept ? Promise.resolve() : rm(root, { recursive: true, force: true }));
  try {
    const dataDir = await buildSampleSnapshot(root);
    const app = await startTestApp(dataDir);
    return {
      ...app,
      dataDir,
      async close() {
        await app.close();
        await cleanUp();
      },
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}

/**
 * Copies a sample snapshot folder (buildSampleSnapshot's) to `to`, its serving database still valid
 * for the copy: the Parquet files keep their modification times to the millisecond, as the serving
 * database's manifest records them (cp's preserveTimestamps can round a millisecond down; half a
 * millisecond more survives the conversion to seconds).
 */
export async function copySampleSnapshot(from: string, to: string): Promise<void> {
  await cp(from, to, { recursive: true });
  for (const name of (await readdir(from)).filter((n) => n.endsWith('.parquet'))) {
    const { mtimeMs } = await stat(path.join(from, name));
    const seconds = (Math.trunc(mtimeMs) + 0.5) / 1000;
    await utimes(path.join(to, name), seconds, seconds);
  }
}
