// Snapshot generations. DATA_DIR holds one folder per complete snapshot, `generations/<id>/` (every
// table's Parquet file), and one pointer, `DATA_DIR/CURRENT`, naming the generation served. An ingest
// writes a new generation beside the current one and publishes it by replacing the pointer with one
// atomic rename (ingest/generations.ts), so a reader sees either the old snapshot or the new one,
// never a mix. Every reader resolves the folder through currentGeneration, once per load.
//
// A legacy flat DATA_DIR (Parquet files directly in it, no CURRENT) is read as it is until the next
// ingest or start migrates it into a first generation. Resolution is idempotent: a generation folder
// (or any flat folder) has no CURRENT of its own and resolves to itself.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The pointer file, relative to DATA_DIR: the id of the generation served, one line. */
export const CURRENT_FILE = 'CURRENT';
/** The folder of the generations, relative to DATA_DIR. */
export const GENERATIONS_DIR = 'generations';
/** `<6-digit sequence>-<UTC time, compact ISO>`: sorts by age, readable by an operator. */
export const GENERATION_ID = /^\d{6}-\d{8}T\d{6}Z$/;

export interface Generation {
  /** The generation's id; null for a flat folder (legacy layout, a scratch folder, a test fixture). */
  id: string | null;
  /** The folder holding its Parquet files. */
  dir: string;
}

export function generationDir(dataDir: string, id: string): string {
  return join(resolve(dataDir), GENERATIONS_DIR, id);
}

/** The id named by DATA_DIR/CURRENT, or null when there is no pointer. Throws on a pointer that names no valid id. */
export function readCurrentId(dataDir: string): string | null {
  let text: string;
  try {
    text = readFileSync(join(resolve(dataDir), CURRENT_FILE), 'utf8').trim();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
  if (!GENERATION_ID.test(text)) throw new Error(`${join(resolve(dataDir), CURRENT_FILE)} names no generation: "${text.slice(0, 60)}"`);
  return text;
}

/** The snapshot folder to read now: the generation CURRENT names, else dataDir itself (flat layout). */
export function currentGeneration(dataDir: string): Generation {
  const id = readCurrentId(dataDir);
  return id === null ? { id: null, dir: resolve(dataDir) } : { id, dir: generationDir(dataDir, id) };
}
