// The serving database (domains/servingDatabase.ts): a generation's tables and rollups built once
// into one DuckDB file, opened read-only. Every catalog example answers the same from the file as
// from the snapshot loaded into memory; a file that no longer matches its Parquet files or the code
// is not used. The tests work on a private copy of the run's sample snapshot and build the serving
// database of one domain where a build is what they test (a full build takes 20-30 s); the file the
// examples are answered from is the one the run built beside the shared sample (read-only here).
import assert from 'node:assert/strict';
import { cp, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { benchCases } from '../../bench/examples.ts';
import { DOMAINS, routes } from '../../domains/index.ts';
import { sampleSourcesOf } from '../../domains/registry.ts';
import { buildServingDatabase, hasServingDatabase, openSnapshotDatabase, SERVING_MANIFEST } from '../../domains/servingDatabase.ts';
import { currentGeneration } from '../../engine/generation.ts';
import { sampleSnapshot } from '../helpers/app.ts';

/** The domain built where one is enough: PTP's sample is among the smallest, so its build takes a second or two. */
const ONE_DOMAIN = DOMAINS.find((domain) => domain.name === 'ptp')!;

describe('serving database', () => {
  let root: string;
  let dataDir: string;
  let generation: string;
  let shared: Awaited<ReturnType<typeof sampleSnapshot>>;
  before(async () => {
    // A private copy of the run's full sample (generated and ingested once per run), which these tests alter.
    shared = await sampleSnapshot('serving-sample-', sampleSourcesOf(DOMAINS));
    root = await mkdtemp(path.join(os.tmpdir(), 'serving-'));
    dataDir = path.join(root, 'parquet');
    await cp(shared.dataDir, dataDir, { recursive: true });
    generation = currentGeneration(dataDir).dir;
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
    await shared?.remove();
  });

  test('every catalog example answers the same from the file as from memory', async () => {
    // The copied Parquet files have new times, so the copied serving database is not trusted: loaded into memory.
    assert.equal(await hasServingDatabase(dataDir), false);
    const memory = await openSnapshotDatabase(DOMAINS, dataDir);
    // The full build of the same files: under `npm test` the run's own, built beside the shared
    // sample (opened read-only); a file run alone builds one in its private copy.
    const served = (await hasServingDatabase(shared.dataDir)) ? shared.dataDir : dataDir;
    if (served === dataDir) await buildServingDatabase(DOMAINS, dataDir);
    assert.equal(await hasServingDatabase(served), true);
    const file = await openSnapshotDatabase(DOMAINS, served);
    try {
      assert.equal(memory.mode, 'memory');
      assert.equal(file.mode, 'file');
      const today = '2026-11-22';
      let compared = 0;
      for (const c of benchCases(routes)) {
        const route = routes.find((r) => r.id === c.routeId)!;
        const answer = (db: typeof memory.db) => route.handle(c.params, { db, today, body: c.body }).then((value) => ({ value }), (error: Error) => ({ error: error.message }));
        assert.deepEqual(await answer(file.db), await answer(memory.db), c.url);
        compared++;
      }
      assert.equal(compared, benchCases(routes).length);
      // Read-only and locked down: nothing can be written or read from the file system.
      await assert.rejects(file.db.run('CREATE TABLE t (x INTEGER)'), /read-only|read only/i);
      await assert.rejects(file.db.all(`SELECT * FROM read_csv('${path.join(root, 'x.csv')}')`), /disabled|external|permission/i);
    } finally {
      await memory.db.close();
      await file.db.close();
    }
  });

  test('a Parquet file changed after the build: the file is not trusted and the snapshot is loaded into memory', async () => {
    await buildServingDatabase([ONE_DOMAIN], dataDir);
    assert.equal(await hasServingDatabase(dataDir), true);
    const parquet = path.join(generation, (await readdir(generation)).find((name) => name.endsWith('.parquet'))!);
    const later = new Date(Date.now() + 60_000);
    await utimes(parquet, later, later);
    assert.equal(await hasServingDatabase(dataDir), false);
    // Which domains are loaded does not decide whether the file is trusted: one is enough.
    const loaded = await openSnapshotDatabase([ONE_DOMAIN], dataDir);
    try {
      assert.equal(loaded.mode, 'memory');
    } finally {
      await loaded.db.close();
    }
  });

  test('a Parquet file replaced while the build runs: the built file is not trusted (the inputs are taken before the build)', async () => {
    // One domain is enough: the build reads its inputs first, then runs each domain's load.
    const parquet = path.join(generation, (await readdir(generation)).find((name) => name.endsWith('.parquet'))!);
    const { atime, mtime } = await stat(parquet);
    const later = new Date(Date.now() + 120_000);
    // A domain whose load runs in the middle of the build and changes a file the build read.
    const first = ONE_DOMAIN;
    const touching = { ...first, load: async (...args: Parameters<(typeof DOMAINS)[0]['load']>) => {
      await first.load(...args);
      await utimes(parquet, later, later);
    } };
    try {
      await buildServingDatabase([touching], dataDir);
      assert.equal(await hasServingDatabase(dataDir), false);
      // The same build without the change is trusted.
      await buildServingDatabase([first], dataDir);
      assert.equal(await hasServingDatabase(dataDir), true);
    } finally {
      await utimes(parquet, atime, mtime);
    }
  });

  test('a file built by other code (another release) is not trusted', async () => {
    await buildServingDatabase([ONE_DOMAIN], dataDir);
    const manifestPath = path.join(generation, SERVING_MANIFEST);
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { code: string };
    assert.match(manifest.code, /^[0-9a-f]{64}$/);
    await writeFile(manifestPath, JSON.stringify({ ...manifest, code: '0'.repeat(64) }));
    assert.equal(await hasServingDatabase(dataDir), false);
    await writeFile(manifestPath, JSON.stringify(manifest));
    assert.equal(await hasServingDatabase(dataDir), true);
  });
});
