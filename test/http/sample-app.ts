// The app over the full generated sample, as `npm start` serves it (every domain's sample generated
// and ingested into a fresh temp folder, removed on close). Building takes a minute or two: share one
// per test file. SAMPLE_SNAPSHOT_DIR=<folder> builds it there once and keeps it (for repeated runs).
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ensureSnapshot } from '../../ingest/bootstrap.ts';
import { DOMAINS } from '../../domains/index.ts';
import { sampleSourcesOf } from '../../domains/registry.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

export async function startSampleApp(prefix: string): Promise<TestApp> {
  const kept = process.env.SAMPLE_SNAPSHOT_DIR;
  const root = kept ? path.resolve(kept) : await mkdtemp(path.join(os.tmpdir(), prefix));
  const cleanUp = () => (kept ? Promise.resolve() : rm(root, { recursive: true, force: true }));
  try {
    const dataDir = path.join(root, 'parquet');
    await ensureSnapshot({ dataDir, sampleDir: path.join(root, 'sample'), sources: sampleSourcesOf(DOMAINS), log: () => undefined });
    const app = await startTestApp(dataDir);
    return {
      ...app,
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
