// Loads the EU ETS tables of the snapshot for serving; apart from the writer (ingest/etsSnapshot.ts),
// which loads the workbook parser.
import type { Database } from '../../../engine/database.ts';
import { loadDataset } from '../../../engine/dataset.ts';
import { ETS_EMISSIONS, ETS_INSTALLATIONS } from '../datasets.ts';

/** Creates ets_installations and ets_emissions in a served database and fills them from the snapshot (empty when absent). */
export async function loadEtsSnapshot(db: Database, dataDir: string): Promise<void> {
  await loadDataset(db, ETS_INSTALLATIONS, dataDir);
  await loadDataset(db, ETS_EMISSIONS, dataDir);
}
