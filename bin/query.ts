// npm run query -- '<path?query>' [--format csv|arrow|json] [--out FILE] [--body JSON|@FILE] [--data-dir DIR]
// npm run query -- --list
// Any catalog route answered from the local snapshot (DATA_DIR, default data/parquet) without a
// server and without payment: the HTTP API's own validation, handlers and encoders (http/dispatch.ts),
// so the bytes written are the bytes the API would send.
// An answer built from generated sample data gets a note on stderr (the API's X-Data-Source header,
// in band); stdout stays the API's bytes.
// Exit codes: 0 answered; 1 the API's error answer (4xx; its JSON error on stderr); 2 usage.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Database } from '../engine/database.ts';
import type { Route } from '../queries/catalog.ts';
import { endQuietlyOnClosedPipe, exitOnBadEngineSettings, isEntryPoint } from './commandLine.ts';

const USAGE = [
  "usage: npm run query -- '<path?query>' [--format csv|arrow|json] [--out FILE] [--body JSON|@FILE] [--data-dir DIR]",
  '       npm run query -- --list',
].join('\n');

const FORMATS = ['json', 'csv', 'arrow'];

export interface QueryIo {
  stdout: { write(chunk: string | Uint8Array): unknown; isTTY?: boolean };
  stderr: { write(chunk: string): unknown };
  /** An open snapshot to answer from (tests); default: openSnapshot(--data-dir or DATA_DIR). */
  db?: Database;
  env?: NodeJS.ProcessEnv;
  now?: () => Date;
  routes?: readonly Route[];
}

class UsageError extends Error {}

/** One line per route: method, path forms (comma-separated), operation id, summary, tab-separated. */
export function routeList(routes: readonly Route[]): string {
  return routes.map((route) => [route.method, route.paths.join(','), route.id, route.summary].join('\t')).join('\n') + '\n';
}

/** A full URL is reduced to its path and query; anything else must be a path. */
function targetOf(raw: string): string {
  if (/^https?:\/\//i.test(raw)) {
    const url = new URL(raw);
    return url.pathname + url.search;
  }
  if (!raw.startsWith('/')) throw new UsageError(`the request must be a path such as /api/sebra/getTaxonomyForYear?year=2024 (got ${raw})`);
  return raw;
}

/** `--format X` joins the query as format=X (the API's own parameter); a different format already in the query is a usage error. */
function withFormat(target: string, format: string | undefined): string {
  if (format === undefined) return target;
  if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of: ${FORMATS.join(', ')} (got ${format})`);
  const queryStart = target.indexOf('?');
  const given = queryStart < 0 ? [] : new URLSearchParams(target.slice(queryStart + 1)).getAll('format');
  if (given.length > 0) {
    if (given.every((value) => value === format)) return target;
    throw new UsageError(`--format ${format} conflicts with format=${given.join(',')} in the query`);
  }
  return target + (queryStart < 0 ? '?' : target.endsWith('?') || target.endsWith('&') ? '' : '&') + `format=${format}`;
}

/** The --body text: inline JSON or @file (an unreadable file is a usage error; unparseable JSON is the API's 400). */
async function bodyText(option: string): Promise<string> {
  if (!option.startsWith('@')) return option;
  try {
    return await readFile(option.slice(1), 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read the body file ${option.slice(1)}: ${(error as Error).message}`);
  }
}

/** The stderr line of an answer built from sample data (what the API's X-Data-Source header says). */
export function sampleNoteLine(origin: string, note: string): string {
  return `query: note: ${note} (X-Data-Source: ${origin})`;
}

export async function runQuery(argv: readonly string[], io: QueryIo): Promise<number> {
  const env = io.env ?? process.env;
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        format: { type: 'string' },
        out: { type: 'string' },
        body: { type: 'string' },
        'data-dir': { type: 'string' },
        list: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    io.stderr.write(`query: ${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  // Loaded once the arguments are read: --help needs none of them (bin/commandLine.ts).
  const routes = io.routes ?? (await import('../domains/index.ts')).routes;
  if (values.list) {
    if (positionals.length > 0) {
      io.stderr.write(`query: --list takes no request\n${USAGE}\n`);
      return 2;
    }
    io.stdout.write(routeList(routes));
    return 0;
  }

  const { sampleDataNote, snapshotOriginsOf } = await import('../engine/dataOrigin.ts');
  const { isoToday } = await import('../queries/shared/window.ts');
  const { Dispatcher, errorAnswer, pathPattern } = await import('../http/dispatch.ts');
  const { invalidParameter } = await import('../queries/shared/errors.ts');
  const { openSnapshot } = await import('../http/openSnapshot.ts');
  let db = io.db;
  const ownDb = !db;
  try {
    if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'missing the request path' : `give one request (got ${positionals.length})`);
    const target = withFormat(targetOf(positionals[0]), values.format);
    const text = values.body === undefined ? undefined : await bodyText(values.body);
    const pathname = target.split(/[?#]/)[0];
    // The method is the route's: a POST route's body comes with --body.
    const method = routes.find((route) => route.paths.some((template) => pathPattern(template).test(pathname)))?.method ?? 'GET';
    if (text !== undefined && method !== 'POST') throw new UsageError(`--body is for a POST route; ${pathname} takes none`);

    if (!db) {
      const dataDir = path.resolve(values['data-dir'] ?? env.DATA_DIR ?? 'data/parquet');
      if (!existsSync(dataDir)) throw new UsageError(`no snapshot at ${dataDir}: set DATA_DIR (or --data-dir), or run npm start once to build the sample`);
      db = await openSnapshot(dataDir);
    }
    const now = io.now ?? (() => new Date());
    const dispatcher = new Dispatcher({ db, routes, today: () => isoToday(now(), 'Europe/Sofia') });
    let body: unknown;
    try {
      if (text !== undefined) {
        // The API's own messages for an empty or malformed body (http/body.ts).
        if (text.trim() === '') throw invalidParameter('body', 'the body is empty; send a JSON object');
        try {
          body = JSON.parse(text);
        } catch (error) {
          throw invalidParameter('body', `the body is not valid JSON: ${(error as Error).message}`);
        }
      }
      const { encoded } = await dispatcher.dispatch({ method, target, body });
      if (values.out !== undefined) {
        try {
          await writeFile(values.out, encoded.body);
        } catch (error) {
          throw new UsageError(`cannot write ${values.out}: ${(error as Error).message}`);
        }
      } else {
        io.stdout.write(encoded.body);
        // A terminal gets a final newline; a pipe or file gets the API's exact bytes.
        if (io.stdout.isTTY && typeof encoded.body === 'string' && !encoded.body.endsWith('\n')) io.stdout.write('\n');
      }
      const origin = (await snapshotOriginsOf(db)).data;
      const note = sampleDataNote(origin);
      if (note) io.stderr.write(`${sampleNoteLine(origin, note)}\n`);
      return 0;
    } catch (error) {
      if (error instanceof UsageError) throw error;
      const answer = errorAnswer(error);
      if (answer.error.status >= 500) io.stderr.write(`query: ${(error as Error)?.stack ?? String(error)}\n`);
      io.stderr.write(`${JSON.stringify(answer)}\n`);
      return 1;
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`query: ${error.message}\n${USAGE}\n`);
    return 2;
  } finally {
    if (ownDb && db) await db.close();
  }
}

if (isEntryPoint(import.meta.url)) {
  // Piped into `head`: the reader went away, which is not an error.
  endQuietlyOnClosedPipe();
  exitOnBadEngineSettings('query');
  const code = await runQuery(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
  process.exitCode = code;
}
