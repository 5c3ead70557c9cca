// A small table's rows held in JavaScript per database, grouped by key columns and ordered within each
// group by DuckDB as it reads them, so a keyed lookup with ORDER BY (and LIMIT) needs no statement:
// each statement costs about a millisecond of DuckDB's fixed work per operator, a Map lookup costs none.
// A group is what `WHERE k1 = $k1 AND k2 = $k2 ... ORDER BY <orderBy>` gives: rows with a NULL key are
// left out (`=` never matches NULL), and equal text is equal bytes in both. The rows are db.all's own
// (the same converter). Bounded: a table with more than rowsMax rows or bytesMax of estimated text is
// not held (null), and its requests keep their statements.
import type { JsonValue, Row } from '../../engine/json.ts';
import { heldView, type HeldView } from '../../engine/held.ts';

export { estimatedRowBytes } from '../../engine/held.ts';

export interface HeldGroupsSpec {
  table: string;
  /** The held view's name (default `groups.<table>`). */
  name?: string;
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

/**
 * Declares the table's groups as a held view (null per database when over its bounds or the budget).
 * Its parity is generated: probes are key values (spread by hash), the keyed statement the lookup's own.
 */
export function heldGroups(spec: HeldGroupsSpec): HeldView<HeldGroups> {
  const { table, columns, key, orderBy, rowsMax = 200_000, bytesMax = 32 * 2 ** 20 } = spec;
  const keyAliases = key.map((_, i) => `held_key_${i}`);
  const keyed = key.map((column) => `${column} IS NOT NULL`).join(' AND ');
  return heldView<HeldGroups>({
    name: spec.name ?? `groups.${table}`,
    sql: {
      rows: `SELECT ${key.map((column, i) => `${column} AS ${keyAliases[i]}`).join(', ')}, ${columns} FROM ${table}
        WHERE ${keyed} ORDER BY ${key.join(', ')}, ${orderBy}`,
    },
    count: `SELECT count(*)::INTEGER AS n FROM ${table}`,
    key,
    order: orderBy,
    rowsMax,
    bytesMax,
    build: ({ rows }) => {
      const withoutKeys = (row: Row): Row => {
        const held: Row = {};
        for (const [name, value] of Object.entries(row)) if (!keyAliases.includes(name)) held[name] = value;
        return held;
      };
      return groupRows(rows, (row) => groupKey(keyAliases.map((alias) => row[alias]!)), withoutKeys);
    },
    parity: {
      probes: `SELECT DISTINCT ${key.join(', ')} FROM ${table} WHERE ${keyed} ORDER BY hash(${key.join(', ')}), ${key.join(', ')} LIMIT 40`,
      keyed: `SELECT ${columns} FROM ${table} WHERE ${key.map((column) => `${column} = $${column}`).join(' AND ')} ORDER BY ${orderBy}`,
      answer: (groups, probe) => groups.get(groupKey(key.map((column) => probe[column]!))) ?? [],
    },
  });
}
