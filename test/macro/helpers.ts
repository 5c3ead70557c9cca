// The macro domain alone on a snapshot (its routes and tables only), in the shape of test/helpers/app.ts.
import { openMacroDb } from './db.ts';
import { macroRoutes } from '../../domains/macro/queries/routes.ts';
import { serveTestApp, type TestApp } from '../helpers/app.ts';

export { openMacroDb, tempRoot } from './db.ts';

export async function startMacroApp(dataDir: string): Promise<TestApp> {
  const db = await openMacroDb(dataDir);
  return serveTestApp(db, macroRoutes);
}
