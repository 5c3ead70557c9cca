// The macro domain alone on a snapshot (its routes and tables only), in the shape of test/helpers/app.ts.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp } from '../../http/app.ts';
import { openMacroDb } from './db.ts';
import { macroRoutes } from '../../domains/macro/queries/routes.ts';
import type { TestApp } from '../helpers/app.ts';

/** The tests' fixed clock, as in test/helpers/app.ts. */
const FIXED_NOW = new Date('2026-11-22T12:00:00Z');

export { openMacroDb, tempRoot } from './db.ts';

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
