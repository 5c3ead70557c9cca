// Import records of every dataset (dataset, source, file, hash, import date, rows).
import type { Database } from '../engine/database.ts';
import { loadDataset } from '../engine/dataset.ts';
import { IMPORTS_DATASET } from '../engine/importLedger.ts';

export async function loadImports(db: Database, dataDir: string): Promise<void> {
  await loadDataset(db, IMPORTS_DATASET, dataDir);
}

/** The newest import date of the snapshot (ISO timestamp), null when nothing was imported. */
export async function snapshotImportDate(db: Database): Promise<string | null> {
  const [row] = await db.all(`SELECT strftime(max(import_date), '%Y-%m-%dT%H:%M:%SZ') AS imported FROM imports`);
  return (row?.imported as string | null) ?? null;
}
