// Loading Parquet snapshot files into in-memory tables.
// File paths come from the operator's DATA_DIR, never from a request; COPY/read_parquet
// cannot bind a path, so it is written as an escaped string literal.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Database } from './database.ts';

export function sqlStringLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

export function snapshotFile(dataDir: string, dataset: string): string {
  return path.resolve(dataDir, `${dataset}.parquet`);
}

/**
 * Fills an existing table from `<dataDir>/<dataset>.parquet` when that file exists.
 * Columns are taken by name, so the table's declared types win. Returns whether a file was read.
 */
export async function loadParquetInto(db: Database, table: string, dataDir: string, dataset: string, columns: readonly string[]): Promise<boolean> {
  const file = snapshotFile(dataDir, dataset);
  if (!existsSync(file)) return false;
  const list = columns.join(', ');
  await db.run(`INSERT INTO ${table} (${list}) SELECT ${list} FROM read_parquet(${sqlStringLiteral(file)})`);
  return true;
}
