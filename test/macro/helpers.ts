// The macro domain alone on a snapshot (its routes and tables only), in the shape of test/helpers/app.ts.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../../http/app.ts';
import { Database } from '../../engine/database.ts';
import { loadImports } from '../../queries/imports.ts';
import { loadMacro } from '../../domains/macro/queries/tables.ts';
import { macroRoutes } from '../../domains/macro/queries/routes.ts';
import { FIXED_NOW, type TestApp } from '../helpers/app.ts';

export async function openMacroDb(dataDir: string): Promise<Database> {
  const db = await Database.open();
  await loadImports(db, dataDir);
  await loadMacro(db, dataDir);
  await db.lockDown();
  return db;
}

export async function startMacroApp(dataDir: string): Promise<TestApp> {
  const db = await openMacroDb(dataDir);
  const app = await createApp({ db, routes: macroRoutes, now: () => FIXED_NOW, logError: () => undefined });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const request = (p: string, init?: RequestInit) => fetch(base + p, init);
  return {
    db,
    request,
    async get(p, headers = {}) {
      const response = await request(p, { headers });
      const raw = await response.arrayBuffer();
      const text = new TextDecoder().decode(raw);
      const type = response.headers.get('content-type') ?? '';
      return { status: response.status, headers: response.headers, body: type.includes('json') ? JSON.parse(text) : text, raw };
    },
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await db.close();
    },
  };
}

/** A temporary folder, removed by the returned cleanup. */
export async function tempRoot(prefix: string): Promise<{ root: string; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(path.join(os.tmpdir(), prefix));
  return { root, cleanup: () => rm(root, { recursive: true, force: true }) };
}
