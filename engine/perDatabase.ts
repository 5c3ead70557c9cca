// Compatibility shim: a holder not yet declared as a held view (engine/held.ts) is registered in the
// same registry (warmed, released and listed with the others) under its function's name and number, without
// bounds or parity. Migrate it to heldView/requiredHeldView and this file goes.
import type { Database } from './database.ts';
import { heldView, type HeldRows } from './held.ts';

export { warmHeldState, type WarmResult } from './held.ts';

let count = 0;

export function perDatabase<T>(read: (db: Database) => Promise<T>): (db: Database) => Promise<T> {
  const values = new WeakMap<HeldRows, T>();
  return heldView<T>({
    name: `legacy.${read.name || 'holder'}#${++count}`,
    sql: {},
    key: [],
    order: '',
    rowsMax: Infinity,
    bytesMax: Infinity,
    async read(db) {
      const rows: HeldRows = {};
      values.set(rows, await read(db));
      return rows;
    },
    build: (rows) => values.get(rows) as T,
    bytesOf: () => 0,
    parity: { exempt: 'a holder on the compatibility shim (engine/perDatabase.ts), not yet declared' },
  }) as (db: Database) => Promise<T>;
}
