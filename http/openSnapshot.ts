// Opening a snapshot for serving, apart from the server (http/server.ts): the query CLI, the MCP
// server and the tests open one without loading the payments, the metrics or the logger.
import { currentGeneration, generationDir } from '../engine/generation.ts';
import { openSnapshot as openSnapshotEngine } from '../domains/index.ts';
import { snapshotImportDate } from '../queries/imports.ts';
import type { Database } from '../engine/database.ts';
import type { ServerConfig } from './config.ts';
import type { Snapshot } from './snapshotHolder.ts';

/** An engine holding the snapshot (DATA_DIR's current generation) in memory, with file access and settings locked. */
export async function openSnapshot(dataDir: string, engine: ServerConfig['engine'] = {}): Promise<Database> {
  return (await openGeneration(dataDir, undefined, engine)).db;
}

/**
 * Opens a generation of DATA_DIR (default: the current one, resolved once) in a new engine: its
 * serving database read-only when it has one (built by the ingest), else its tables loaded and the
 * rollups built in memory; then file access and settings are locked.
 */
export async function openGeneration(dataDir: string, id?: string, engine: ServerConfig['engine'] = {}): Promise<Snapshot> {
  const generation = id === undefined ? currentGeneration(dataDir) : { id, dir: generationDir(dataDir, id) };
  const { db } = await openSnapshotEngine(generation.dir, engine);
  try {
    return { db, generation: generation.id, importDate: await snapshotImportDate(db) };
  } catch (error) {
    await db.close().catch(() => {});
    throw error;
  }
}

