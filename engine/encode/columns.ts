// Column handling shared by the tabular encoders.
import type { JsonValue, Row } from '../json.ts';

/** Union of the rows' keys, in first-seen order. */
export function columnsOf(rows: readonly Row[]): string[] {
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
