// The SEBRA load: the tables and shapes (tables.ts), then the answers precomputed from them per span
// of days (each route's own module builds its table with its own arithmetic).
import type { Database } from '../../../engine/database.ts';
import { loadProgrammeTop } from './programmes.ts';
import { loadSebra } from './tables.ts';
import { loadTaxonomySpans } from './taxonomy.ts';
import { loadUnusualAnswers } from './unusual.ts';

export async function loadSebraServing(db: Database, dataDir: string): Promise<void> {
  await loadSebra(db, dataDir);
  await loadTaxonomySpans(db);
  await loadProgrammeTop(db);
  await loadUnusualAnswers(db);
}
