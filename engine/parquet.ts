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
 * Fills an existing table from a Parquet file when it exists, the listed columns taken by name, so
 * the table's declared types win. Returns whether the file was read.
 */
export async function insertParquetColumns(db: Database, table: string, file: string, columns: readonly string[]): Promise<boolean> {
  if (!existsSync(file)) return false;
  const list = columns.join(', ');
  await db.run(`INSERT INTO ${table} (${list}) SELECT ${list} FROM read_parquet(${sqlStringLiteral(file)})`);
  return true;
}

/**
 * Fills an existing table from `<dataDir>/<dataset>.parquet` when that file exists. For tables not
 * declared as a Dataset yet: a declared one is read with loadDataset / insertDataset (engine/dataset.ts).
 */
export function loadParquetInto(db: Database, table: string, dataDir: string, dataset: string, columns: readonly string[]): Promise<boolean> {
  return insertParquetColumns(db, table, snapshotFile(dataDir, dataset), columns);
}
