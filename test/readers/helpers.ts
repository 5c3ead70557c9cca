// Shared by the reader tests: temp folders removed after the test file, snapshot bytes, Parquet reads.
import { after } from 'node:test';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Database } from '../../engine/database.ts';
import type { Row } from '../../engine/json.ts';

/** Real extracts live next to the project (never copied into it). */
export const realDir = resolve(import.meta.dirname, '../../../shared/data/real');

const created: string[] = [];
after(async () => {
  for (const dir of created.splice(0)) await rm(dir, { recursive: true, force: true });
});

export async function tempDir(prefix = 'readers-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

/** Every file of the snapshot folder with its bytes (to prove a run wrote nothing). */
export async function snapshotBytes(dataDir: string): Promise<Map<string, Buffer>> {
  const names = (await readdir(dataDir)).filter((n) => !n.startsWith('.')).sort();
  return new Map(await Promise.all(names.map(async (name) => [name, await readFile(join(dataDir, name))] as const)));
}

/** Runs queries on a fresh in-memory database after `load` filled it. */
export async function query(load: (db: Database) => Promise<void>, ...sql: string[]): Promise<Row[][]> {
  const db = await Database.open({ connections: 1 });
  try {
    await load(db);
    const out: Row[][] = [];
    for (const s of sql) out.push(await db.all(s));
    return out;
  } finally {
    await db.close();
  }
}
