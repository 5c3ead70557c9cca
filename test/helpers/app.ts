// An app over a snapshot, listening on an ephemeral loopback port, for in-process HTTP tests.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Server } from 'node:http';
import { createApp } from '../../http/app.ts';
import { openSnapshot } from '../../http/openSnapshot.ts';
import { routes } from '../../domains/index.ts';
import type { Database } from '../../engine/database.ts';
import type { Route } from '../../queries/catalog.ts';
import type { SampleSource } from '../../ingest/sampleSource.ts';
import { ensureSnapshot } from '../../ingest/bootstrap.ts';

export interface TestApp {
  db: Database;
  /** GET a path; returns status, headers and parsed JSON (or text for other types). */
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; headers: Headers; body: any; raw: ArrayBuffer }>;
  request(path: string, init?: RequestInit): Promise<Response>;
  close(): Promise<void>;
}

/** Today in the tests' fixed clock: 2026-11-22 (noon UTC is the same date in Sofia). */
export const FIXED_NOW = new Date('2026-11-22T12:00:00Z');

export async function startTestApp(dataDir: string, now: () => Date = () => FIXED_NOW): Promise<TestApp> {
  return serveTestApp(await openSnapshot(dataDir), routes, { now });
}

export interface ServeOptions {
  now?: () => Date;
  logError?: (error: unknown) => void;
  /** Run after the server and the database are closed (a temporary folder to remove, ...). */
  onClose?: () => Promise<void>;
}

/** Serves `routes` over an already loaded database on an ephemeral loopback port; close() closes both. */
export async function serveTestApp(db: Database, appRoutes: readonly Route[], options: ServeOptions = {}): Promise<TestApp> {
  const app = await createApp({ db, routes: appRoutes, now: options.now ?? (() => FIXED_NOW), logError: options.logError ?? (() => undefined) });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    // The server never closes an idle kept-alive connection (close() still does): on a loaded machine
    // its 5 s timer and fetch's own 4 s one raced, and a reused socket the server had just closed
    // failed a request with "fetch failed".
    listening.keepAliveTimeout = 0;
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const request = (path: string, init?: RequestInit) => fetch(base + path, init);
  return {
    db,
    request,
    async get(path, headers = {}) {
      const response = await request(path, { headers });
      const raw = await response.arrayBuffer();
      const text = new TextDecoder().decode(raw);
      const type = response.headers.get('content-type') ?? '';
      return { status: response.status, headers: response.headers, body: type.includes('json') ? JSON.parse(text) : text, raw };
    },
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await db.close();
      await options.onClose?.();
    },
  };
}

/** GET that must answer 200; returns the parsed body. */
export async function expectOk(app: TestApp, url: string): Promise<any> {
  const response = await app.get(url);
  assert.equal(response.status, 200, `${url}: ${JSON.stringify(response.body)}`);
  return response.body;
}

/** GET that must answer `status` with the JSON error shape (naming `param` when given); returns the error. */
export async function expectError(app: TestApp, url: string, status: number, param?: string | null): Promise<any> {
  const response = await app.get(url);
  assert.equal(response.status, status, `${url}: ${JSON.stringify(response.body)}`);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/, url);
  assert.deepEqual(Object.keys(response.body), ['error'], url);
  const { error } = response.body;
  assert.equal(error.status, status);
  const code = ({ 400: 'invalid_parameter', 404: 'not_found' } as Record<number, string>)[status];
  if (code) assert.equal(error.code, code, url);
  if (param !== undefined) assert.equal(error.param, param, `${url}: ${error.message}`);
  assert.ok(error.message.length > 0, url);
  return error;
}

/** A JSON error body without its request id (each HTTP answer has its own; the CLI and MCP answers none). */
export function withoutRequestId<T>(body: T): T {
  const { error } = body as { error?: Record<string, unknown> };
  if (!error || !Object.hasOwn(error, 'request_id')) return body;
  const { request_id: _requestId, ...rest } = error;
  return { ...body, error: rest };
}

/** The listed keys of each item, for comparing lists field by field. */
export const pick = (items: any[], ...keys: string[]) => items.map((item) => Object.fromEntries(keys.map((k) => [k, item[k]])));

/**
 * An app over the sample of each source (generated and ingested into a temporary folder), removed on
 * close, also when the ingest fails; `dataDir` is its snapshot folder.
 */
export async function startSampleApp(prefix: string, sources: readonly SampleSource[]): Promise<TestApp & { dataDir: string }> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  const removeRoot = () => rm(root, { recursive: true, force: true });
  try {
    for (const source of sources) {
      const sampleDir = join(root, 'sample', source.name);
      await source.generate(sampleDir);
      await source.ingest({ dataDir: join(root, 'parquet'), sampleDir, log: () => undefined });
    }
    const dataDir = join(root, 'parquet');
    return { ...(await serveTestApp(await openSnapshot(dataDir), routes, { onClose: removeRoot })), dataDir };
  } catch (error) {
    await removeRoot();
    throw error;
  }
}

/**
 * A snapshot folder with the sample of each source, for tests that open it themselves: generated and
 * ingested (ensureSnapshot) into a temporary folder that remove() deletes; under `npm test`
 * (SAMPLE_SNAPSHOT_DIR set) the full sample built once per run, which tests only read (remove() keeps it).
 */
export async function sampleSnapshot(prefix: string, sources: readonly SampleSource[]): Promise<{ dataDir: string; remove(): Promise<void> }> {
  if (process.env.SAMPLE_SNAPSHOT_DIR) {
    const { buildSampleSnapshot } = await import('../http/sample-app.ts');
    return { dataDir: await buildSampleSnapshot(resolve(process.env.SAMPLE_SNAPSHOT_DIR)), remove: () => Promise.resolve() };
  }
  const root = await mkdtemp(join(tmpdir(), prefix));
  const remove = () => rm(root, { recursive: true, force: true });
  try {
    const dataDir = join(root, 'parquet');
    await ensureSnapshot({ dataDir, sampleDir: join(root, 'sample'), sources, log: () => undefined });
    return { dataDir, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}
