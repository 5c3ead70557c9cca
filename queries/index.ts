// Every domain's routes and table loaders, in one place for the HTTP layer.
import type { Database } from '../engine/database.ts';
import type { Route } from './catalog.ts';
import { loadImports } from './imports.ts';
import { loadSebra, sebraRoutes } from './sebra/index.ts';
import { loadPtp, ptpRoutes } from './ptp/index.ts';
import { agrifoodRoutes, loadAgrifood } from './agrifood/index.ts';
import { loadTrade, tradeRoutes } from './trade/index.ts';
import { cardgameRoutes, loadCardgame } from './cardgame/index.ts';

export const routes: readonly Route[] = [...sebraRoutes, ...ptpRoutes, ...agrifoodRoutes, ...tradeRoutes, ...cardgameRoutes];

/** Loads the Parquet snapshot in `dataDir` into in-memory tables and builds the shared rollups. */
export async function loadSnapshot(db: Database, dataDir: string): Promise<void> {
  await loadImports(db, dataDir);
  await loadSebra(db, dataDir);
  await loadPtp(db, dataDir);
  await loadAgrifood(db, dataDir);
  await loadTrade(db, dataDir); // after loadAgrifood: the market views read agri_prices
  await loadCardgame(db, dataDir);
}
