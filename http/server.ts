// Loads the snapshot into DuckDB, locks DuckDB down, and serves the app.
import type { Server } from 'node:http';
import { Database } from '../engine/database.ts';
import { loadSnapshot, routes } from '../domains/index.ts';
import { createApp } from './app.ts';
import type { ServerConfig } from './config.ts';
import { paymentInfoFromSettings } from './docs/paymentInfo.ts';
import { createPayments } from './payments/index.ts';

/** An engine holding the snapshot in memory, with file access and settings locked. */
export async function openSnapshot(dataDir: string): Promise<Database> {
  const db = await Database.open();
  await loadSnapshot(db, dataDir);
  await db.lockDown();
  return db;
}

export interface StartOptions {
  now?: () => Date;
  log?: (message: string, error?: unknown) => void;
}

/**
 * Checks the payment settings against the facilitator (throws PaymentConfigError when a configured
 * network is not live), loads the snapshot and listens.
 */
export async function startServer(config: ServerConfig, options: StartOptions = {}): Promise<{ server: Server; db: Database }> {
  const payments = createPayments({ routes, settings: config.payments, baseUrl: config.baseUrl, now: options.now, log: options.log });
  await payments.start();
  const db = await openSnapshot(config.dataDir);
  const app = await createApp({
    db,
    routes,
    now: options.now,
    beforeHandler: [payments.middleware],
    docs: { baseUrl: config.baseUrl, payment: paymentInfoFromSettings(config.payments) },
    logError: options.log && ((error) => options.log!('internal error', error)),
  });
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(config.port, config.host, () => resolve(listening));
  });
  return { server, db };
}
