// Loads the snapshot into DuckDB, locks DuckDB down, and serves the app.
import type { Server } from 'node:http';
import { Database } from '../engine/database.ts';
import { loadSnapshot, routes } from '../queries/index.ts';
import { createApp } from './app.ts';
import type { ServerConfig } from './config.ts';

/** An engine holding the snapshot in memory, with file access and settings locked. */
export async function openSnapshot(dataDir: string): Promise<Database> {
  const db = await Database.open();
  await loadSnapshot(db, dataDir);
  await db.lockDown();
  return db;
}

export async function startServer(config: ServerConfig): Promise<{ server: Server; db: Database }> {
  const db = await openSnapshot(config.dataDir);
  const app = await createApp({ db, routes });
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(config.port, config.host, () => resolve(listening));
  });
  return { server, db };
}
