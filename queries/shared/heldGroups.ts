// A small table's rows held in JavaScript per database, grouped by key columns and ordered within each
// group by DuckDB as it reads them, so a keyed lookup with ORDER BY (and LIMIT) needs no statement:
// each statement costs about a millisecond of DuckDB's fixed work per operator, a Map lookup costs none.
// A group is what `WHERE k1 = $k1 AND k2 = $k2 ... ORDER BY <orderBy>` gives: rows with a NULL key are
// left out (`=` never matches NULL), and equal text is equal bytes in both. The rows are db.all's own
// (the same converter). Bounded: a table with more than rowsMax rows or bytesMax of estimated text is
// not held (null), and its requests keep their statements.
import type { Database } from '../../engine/database.ts';
import type { JsonValue, Row } from '../../engine/json.ts';
import { perDatabase } from '../../engine/perDatabase.ts';

export interface HeldGroupsSpec {
  table: string;
  /** The columns each held row carries (SQL select list). */
  columns: string;
  /** The key columns, in the order `groupKey` is given their values. */
  key: readonly string[];
  /** The order within a group (SQL), total for the rows a lookup reads. */
  orderBy: string;
  rowsMax?: number;
  bytesMax?: number;
}

export type HeldGroups = ReadonlyMap<string, readonly Row[]>;

const ROW_OVERHEAD_BYTES = 64;
const VALUE_OVERHEAD_BYTES = 16;

/**
 * The bytes a row of db.all takes in V8, estimated: a fixed cost per row and per value, UTF-16 text, 8
 * per number and list item (within 15% of the heap's growth for 200,000 twelve-column rows).
 */
export function estimatedRowBytes(row: Row): number {
  let bytes = ROW_OVERHEAD_BYTES;
  for (const value of Object.values(row)) {
    bytes += VALUE_OVERHEAD_BYTES + (typeof value === 'string' ? 2 * value.length : Array.isArray(value) ? 16 * value.length : 8);
  }
  return bytes;
}

/** The rows grouped by `keyOf` (each as `valueOf` gives it, by default itself), each group in the rows' order. */
export function groupRows<K, R, V = R>(rows: readonly R[], keyOf: (row: R) => K, valueOf: (row: R) => V = (row) => row as unknown as V): Map<K, V[]> {
  const groups = new Map<K, V[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = groups.get(key);
    if (group) group.push(valueOf(row));
    else groups.set(key, [valueOf(row)]);
  }
  return groups;
}

/** The Map key of one group: the key columns' values, in the spec's order. */
export function groupKey(values: readonly JsonValue[]): string {
  return JSON.stringify(values);
}

/** The table's groups per database, or null when the table is over its bounds. */
export function heldGroups(spec: HeldGroupsSpec): (db: Database) => Promise<HeldGroups | null> {
  const { table, columns, key, orderBy, rowsMax = 200_000, bytesMax = 32 * 2 ** 20 } = spec;
  const keyAliases = key.map((_, i) => `held_key_${i}`);
  return perDatabase(async (db) => {
    const [{ n }] = await db.all(`SELECT count(*)::INTEGER AS n FROM ${table}`);
    if (Number(n) > rowsMax) return null;
    const rows = await db.all(
      `SELECT ${key.map((column, i) => `${column} AS ${keyAliases[i]}`).join(', ')}, ${columns} FROM ${table}
        WHERE ${key.map((column) => `${column} IS NOT NULL`).join(' AND ')} ORDER BY ${key.join(', ')}, ${orderBy}`,
    );
    let bytes = 0;
    for (const row of rows) {
      bytes += estimatedRowBytes(row);
      if (bytes > bytesMax) return null;
    }
    const withoutKeys = (row: Row): Row => {
      const held: Row = {};
      for (const [name, value] of Object.entries(row)) if (!keyAliases.includes(name)) held[name] = value;
      return held;
    };
    return groupRows(rows, (row) => groupKey(keyAliases.map((alias) => row[alias]!)), withoutKeys);
  });
}
