// State read once per loaded database (a snapshot does not change while it is served): the first
// caller starts the read, later callers share it, and a failed read is retried on the next call.
// Keyed by Database.identity, so a wrapped database (the benchmark's recording proxy) shares it.
// Every holder is also listed, so the server can read them all ahead of the first request that
// needs one (warmHeldState): some take seconds on a large snapshot (the SEBRA programme index).
import type { Database } from './database.ts';

const holders: Array<(db: Database) => Promise<unknown>> = [];

export function perDatabase<T>(read: (db: Database) => Promise<T>): (db: Database) => Promise<T> {
  const held = new WeakMap<object, Promise<T>>();
  const get = (db: Database): Promise<T> => {
    let value = held.get(db.identity);
    if (!value) {
      value = read(db);
      held.set(db.identity, value);
      value.catch(() => held.delete(db.identity));
    }
    return value;
  };
  holders.push(get);
  return get;
}

export interface WarmResult {
  holders: number;
  /** Holders whose read failed (a snapshot without that domain's tables): read again on demand. */
  failed: number;
  ms: number;
}

/**
 * Reads every holder's state for `db`, one holder at a time (requests keep the other connections),
 * in the order the holders were defined. A failed read is left to the request that needs it.
 */
export async function warmHeldState(db: Database): Promise<WarmResult> {
  const started = performance.now();
  let failed = 0;
  for (const get of [...holders]) {
    await get(db).catch(() => failed++);
  }
  return { holders: holders.length, failed, ms: performance.now() - started };
}
