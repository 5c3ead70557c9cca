// Column handling shared by the tabular encoders.
import type { JsonValue, Row } from '../json.ts';

/**
 * The rows' keys in first-seen order. An empty list has no keys to read, so it takes the
 * declared columns instead and still gets a header.
 */
export function columnsOf(rows: readonly Row[], declaredColumns: readonly string[] = []): string[] {
  if (rows.length === 0) return [...declaredColumns];
  const seen = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) seen.add(key);
  return [...seen];
}

/** Scalars pass through; lists and objects become JSON text so every cell is flat. */
export function flatValue(value: JsonValue | undefined): string | number | boolean | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'object') return JSON.stringify(value);
  return value;
}
