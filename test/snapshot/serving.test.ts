// The serving database (domains/servingDatabase.ts): a generation's tables and rollups built once
// into one DuckDB file, opened read-only. Every catalog example answers the same from the file as
// from the snapshot loaded into memory; a file that no longer matches its Parquet files or the code
// is not used.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { benchCases } from '../../bench/examples.ts';
import { DOMAINS, routes } from '../../domains/index.ts';
import { sampleSourcesOf } from '../../domains/registry.ts';
import { buildServingDatabase, hasServingDatabase, openSnapshotDatabase, SERVING_FILE, SERVING_MANIFEST } from '../../domains/servingDatabase.ts';
import { ensureSnapshot } from '../../ingest/bootstrap.ts';

describe('serving database', () => {
  let root: string;
  let dataDir: string;
  before(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'serving-'));
    dataDir = path.join(root, 'parquet');
    await ensureSnapshot({ dataDir, sampleDir: path.join(root, 'sample'), sources: sampleSourcesOf(DOMAINS), log: () => undefined });
  });
  after(() => rm(root, { recursive: true, force: true }));

  test('every catalog example answers the same from the file as from memory', async () => {
    assert.equal(await hasServingDatabase(dataDir), false);
    const memory = await openSnapshotDatabase(DOMAINS, dataDir);
    await buildServingDatabase(DOMAINS, dataDir);
    assert.equal(await hasServingDatabase(dataDir), true);
    const file = await openSnapshotDatabase(DOMAINS, dataDir);
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
    if (!(await hasServingDatabase(dataDir))) await buildServingDatabase(DOMAINS, dataDir);
    const generation = (await import('../../engine/generation.ts')).currentGeneration(dataDir).dir;
    const { readdir } = await import('node:fs/promises');
    const parquet = (await readdir(generation)).find((name) => name.endsWith('.parquet'))!;
    const later = new Date(Date.now() + 60_000);
    await utimes(path.join(generation, parquet), later, later);
    assert.equal(await hasServingDatabase(dataDir), false);
    const opened = await openSnapshotDatabase(DOMAINS, dataDir);
    try {
      assert.equal(opened.mode, 'memory');
    } finally {
      await opened.db.close();
    }
    // Rebuilt: trusted again.
    await buildServingDatabase(DOMAINS, dataDir);
    assert.equal(await hasServingDatabase(dataDir), true);
    assert.ok((await readdir(generation)).includes(SERVING_FILE));
  });

  test('a Parquet file replaced while the build runs: the built file is not trusted (the inputs are taken before the build)', async () => {
    const generation = (await import('../../engine/generation.ts')).currentGeneration(dataDir).dir;
    const { readdir } = await import('node:fs/promises');
    const parquet = (await readdir(generation)).find((name) => name.endsWith('.parquet'))!;
    const later = new Date(Date.now() + 120_000);
    // A domain whose load runs in the middle of the build and changes a file the build read.
    const touching = { ...DOMAINS[0]!, load: async (...args: Parameters<(typeof DOMAINS)[0]['load']>) => {
      await DOMAINS[0]!.load(...args);
      await utimes(path.join(generation, parquet), later, later);
    } };
    await buildServingDatabase([touching, ...DOMAINS.slice(1)], dataDir);
    assert.equal(await hasServingDatabase(dataDir), false);
    await buildServingDatabase(DOMAINS, dataDir);
    assert.equal(await hasServingDatabase(dataDir), true);
  });

  test('a file built by other code (another release) is not trusted', async () => {
    if (!(await hasServingDatabase(dataDir))) await buildServingDatabase(DOMAINS, dataDir);
    const generation = (await import('../../engine/generation.ts')).currentGeneration(dataDir).dir;
    const manifestPath = path.join(generation, SERVING_MANIFEST);
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { code: string };
    assert.match(manifest.code, /^[0-9a-f]{64}$/);
    await writeFile(manifestPath, JSON.stringify({ ...manifest, code: '0'.repeat(64) }));
    assert.equal(await hasServingDatabase(dataDir), false);
    await writeFile(manifestPath, JSON.stringify(manifest));
    assert.equal(await hasServingDatabase(dataDir), true);
  });
});
