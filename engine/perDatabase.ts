// State read once per loaded database (a snapshot does not change while it is served): the first
// caller starts the read, later callers share it, and a failed read is retried on the next call.
// Keyed by Database.identity, so a wrapped database (the benchmark's recording proxy) shares it.
import type { Database } from './database.ts';

export function perDatabase<T>(read: (db: Database) => Promise<T>): (db: Database) => Promise<T> {
  const held = new WeakMap<object, Promise<T>>();
  return (db) => {
    let value = held.get(db.identity);
    if (!value) {
      value = read(db);
      held.set(db.identity, value);
      value.catch(() => held.delete(db.identity));
    }
    return value;
  };
}
