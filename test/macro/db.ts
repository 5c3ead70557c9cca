// The macro tables alone on a snapshot, and temporary folders: no HTTP, no other domain loaded.
import { currentGeneration } from '../../engine/generation.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Database } from '../../engine/database.ts';
import { loadImports } from '../../queries/imports.ts';
import { loadMacro } from '../../domains/macro/queries/tables.ts';

export async function openMacroDb(dataDir: string): Promise<Database> {
  const db = await Database.open();
  const { dir } = currentGeneration(dataDir); // the generation the license CLI published, or the flat folder
  await loadImports(db, dir);
  await loadMacro(db, dir);
  await db.lockDown();
  return db;
}

/** A temporary folder, removed by the returned cleanup. */
export async function tempRoot(prefix: string): Promise<{ root: string; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(path.join(os.tmpdir(), prefix));
  return { root, cleanup: () => rm(root, { recursive: true, force: true }) };
}
