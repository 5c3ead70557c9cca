// Example answers for the documents: each operation's first catalog example (its first sample body
// for a POST route) run through the same dispatcher as HTTP (validation, gate, handler) on the
// served snapshot, trimmed so a reader sees the shape of the answer before paying for it.
//
// Trimming rule: every list in the answer (at any depth) is cut to its first EXAMPLE_LIST_ITEMS
// items; nothing else is changed (counts and totals keep the full answer's figures). An example that
// does not answer (a 4xx on this snapshot, a failure) gives no example answer for that operation:
// the failures are logged (one line), never thrown.
import type { Database } from '../../engine/database.ts';
import { snapshotOriginsOf, type DataOrigin } from '../../engine/dataOrigin.ts';
import { exampleRequests, type Route } from '../../queries/catalog.ts';
import { ResponseCache } from '../cache.ts';
import { Dispatcher, errorAnswer } from '../dispatch.ts';
import { allOperations } from './operations.ts';

/** Lists in an example answer are cut to this many items. */
export const EXAMPLE_LIST_ITEMS = 3;

export interface ExampleAnswer {
  method: 'GET' | 'POST';
  /** The request's path and query, as in the catalog. */
  url: string;
  /** The JSON body sent, for a POST route. */
  body?: unknown;
  /** The answer, lists cut to EXAMPLE_LIST_ITEMS items. */
  value: unknown;
  /** Lists that were cut, by JSON path (`items`, `results[0].series`) with their full lengths. */
  cut: ReadonlyArray<{ path: string; length: number }>;
}

/** Example answers by catalog example URL (the first example of each path form of each route). */
export type ExampleAnswers = ReadonlyMap<string, ExampleAnswer>;

/** The answer with every list cut to `limit` items; the cut lists' paths and lengths. */
export function trimAnswer(value: unknown, limit = EXAMPLE_LIST_ITEMS): { value: unknown; cut: Array<{ path: string; length: number }> } {
  const cut: Array<{ path: string; length: number }> = [];
  const walk = (node: unknown, path: string): unknown => {
    if (Array.isArray(node)) {
      if (node.length > limit) cut.push({ path: path || '(the answer)', length: node.length });
      return node.slice(0, limit).map((item, index) => walk(item, `${path}[${index}]`));
    }
    if (node !== null && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node as Record<string, unknown>).map(([key, child]) => [key, walk(child, path ? `${path}.${key}` : key)]));
    }
    return node;
  };
  return { value: walk(value, ''), cut };
}

/** A sentence on the trimming, or '' when nothing was cut. */
export function trimNote(example: ExampleAnswer): string {
  if (example.cut.length === 0) return '';
  const lists = example.cut.map(({ path, length }) => `${path} (${length})`);
  const shown = lists.length > 4 ? [...lists.slice(0, 4), `${lists.length - 4} more`] : lists;
  return `Lists cut to their first ${EXAMPLE_LIST_ITEMS} items; full lengths: ${shown.join(', ')}.`;
}

/** The first example of each path form of each route: what the documents show an answer for. */
export function exampleTargets(routes: readonly Route[]): Array<{ route: Route; url: string; body?: unknown }> {
  const targets: Array<{ route: Route; url: string; body?: unknown }> = [];
  const seen = new Set<string>();
  for (const operation of allOperations(routes)) {
    const url = operation.examples[0];
    if (url === undefined || seen.has(url)) continue;
    seen.add(url);
    const request = exampleRequests(operation.route).find((candidate) => candidate.url === url);
    targets.push({ route: operation.route, url, ...(request?.body !== undefined ? { body: request.body } : {}) });
  }
  return targets;
}

/** What the documents learn from the served snapshot: its example answers and whether its data are samples. */
export interface SnapshotDocsFacts {
  examples: ExampleAnswers;
  /** sample, imported, mixed or unknown (engine/dataOrigin.ts); the HTML and Markdown say so when sample or mixed. */
  dataOrigin: DataOrigin;
}

export interface ExampleAnswerOptions {
  db: Database;
  routes: readonly Route[];
  /** Today's date (ISO) in the data's time zone. */
  today: () => string;
  /** One line listing the examples that did not answer (none when all did). */
  log?: (line: string) => void;
}

/** Runs every operation's first example on the snapshot; never throws. */
export async function computeExampleAnswers(options: ExampleAnswerOptions): Promise<ExampleAnswers> {
  const log = options.log ?? (() => undefined);
  // A cache of its own that keeps nothing: the examples must not fill the served answers' cache.
  const dispatcher = new Dispatcher({ db: options.db, routes: options.routes, today: options.today, cache: new ResponseCache({ maxBytes: 0 }) });
  const answers = new Map<string, ExampleAnswer>();
  const failed: string[] = [];
  const targets = exampleTargets(options.routes);
  for (const { route, url, body } of targets) {
    try {
      const { answer } = await dispatcher.dispatch({ method: route.method, target: url, body });
      // The JSON a client receives (the same JSON.stringify as the HTTP answer), then trimmed.
      const { value, cut } = trimAnswer(JSON.parse(JSON.stringify(answer)));
      answers.set(url, { method: route.method, url, ...(body !== undefined ? { body } : {}), value, cut });
    } catch (error) {
      const { error: shown } = errorAnswer(error);
      failed.push(`${route.method} ${url} (${shown.status} ${shown.code})`);
    }
  }
  // One line for all of them: a snapshot holding a few sources leaves many examples unanswered.
  if (failed.length > 0) log(`docs: ${failed.length} of ${targets.length} operations show no example answer (their first example does not answer on this snapshot): ${failed.join(', ')}`);
  return answers;
}

/** The example answer of a route's first path form (what the HTML and Markdown show), if any. */
export function routeExample(route: Route, answers: ExampleAnswers | undefined): ExampleAnswer | undefined {
  if (!answers) return undefined;
  for (const target of exampleTargets([route])) {
    const found = answers.get(target.url);
    if (found) return found;
  }
  return undefined;
}

/**
 * The facts the documents need from a snapshot, computed once per served snapshot on first use (the
 * first documentation request) from the database `db()` gives then; the same promise while that
 * database is served, a new one after a reload swaps it (the documents are then rebuilt).
 */
export function snapshotDocsFacts(options: Omit<ExampleAnswerOptions, 'db'> & { db: () => Database }): () => Promise<SnapshotDocsFacts> {
  const bySnapshot = new WeakMap<Database, Promise<SnapshotDocsFacts>>();
  const log = options.log ?? (() => undefined);
  return () => {
    const db = options.db();
    let facts = bySnapshot.get(db);
    if (!facts) {
      facts = computeFacts(db);
      bySnapshot.set(db, facts);
    }
    return facts;
  };
  async function computeFacts(db: Database): Promise<SnapshotDocsFacts> {
    const [examples, origins] = await Promise.all([
      computeExampleAnswers({ ...options, db }),
      snapshotOriginsOf(db).catch((error: unknown) => {
        log(`docs: the data origin is unknown: ${error instanceof Error ? error.message : String(error)}`);
        return { data: 'unknown' as const };
      }),
    ]);
    return { examples, dataOrigin: origins.data };
  }
}
