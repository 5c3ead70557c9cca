// The conditions under which JavaScript may answer instead of DuckDB, written once for every held view
// (engine/held.ts). Each guard states when a JavaScript operation gives DuckDB's result byte for byte;
// a value outside it makes the view (or the one lookup) keep its SQL statement.
import type { JsonValue } from './json.ts';

/**
 * Text that orders and folds case alike in both: printable ASCII (0x20-0x7e). There UTF-16 code-unit
 * order (JavaScript's `<`) is DuckDB's byte order of VARCHAR, and toLowerCase() is DuckDB's lower();
 * beyond it surrogate pairs order differently and Unicode case rules may differ.
 */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

export function ordersAlike(value: JsonValue | undefined): value is string {
  return typeof value === 'string' && PRINTABLE_ASCII.test(value);
}

/** DuckDB's lower(text), when JavaScript gives the same (printable ASCII); else null (keep the statement). */
export function asciiLower(text: string): string | null {
  return PRINTABLE_ASCII.test(text) ? text.toLowerCase() : null;
}

/** DuckDB's upper(text), when JavaScript gives the same (printable ASCII); else null (keep the statement). */
export function asciiUpper(text: string): string | null {
  return PRINTABLE_ASCII.test(text) ? text.toUpperCase() : null;
}

/**
 * A DATE as db.all gives it (YYYY-MM-DD) whose text orders as the date: a four-digit year (DuckDB
 * writes years past 9999 with more digits and years BC with a suffix, where text order is not date order).
 */
export function ordersAlikeDate(value: JsonValue | undefined): value is string {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);
}

/** DuckDB's VARCHAR order (bytes of UTF-8) for any two strings: a total order, equal only when equal. */
export function compareTextBytes(a: string, b: string): number {
  if (ordersAlike(a) && ordersAlike(b)) return a < b ? -1 : a > b ? 1 : 0;
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/**
 * A DOUBLE JavaScript orders as DuckDB does: finite and not -0 (DuckDB orders -0 equal to 0 yet prints
 * it "-0.0"; NaN and infinities sort after every number in DuckDB, not in `<`). NULL is allowed: its
 * place is stated by compareNullsLast.
 */
export function ordersAlikeNumber(value: JsonValue | undefined): value is number | null {
  return value === null || (typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0));
}

/**
 * DuckDB's default order for a nullable value: NULLS LAST in both directions (default_null_order).
 * `descending` flips only the non-null values. For numbers under ordersAlikeNumber and text under ordersAlike.
 */
export function compareNullsLast<V extends number | string>(a: V | null, b: V | null, descending = false): number {
  if (a === null || b === null) return a === null ? (b === null ? 0 : 1) : -1;
  const order = a < b ? -1 : a > b ? 1 : 0;
  return descending ? -order : order;
}

const MASK64 = (1n << 64n) - 1n;
const TWO64 = 2 ** 64;

/**
 * CAST(hugeint AS DOUBLE) as DuckDB does it: double(low 64 bits) + double(high 64 bits) * 2^64, and for
 * high bits -1 (small negatives) -double(2^64 - 1 - low) - 1. Differs from Number(value) in the last bit
 * for some values above 2^64.
 */
export function hugeintAsDouble(value: bigint): number {
  const low = value & MASK64;
  const high = value >> 64n;
  if (high === -1n) return -Number(MASK64 - low) - 1;
  return Number(low) + Number(high) * TWO64;
}

/** An integer db.all's converter gives as a number (a safe integer), else as its decimal text. */
export function integerAsJson(value: bigint): number | string {
  return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(value) : value.toString();
}

/** Integer arithmetic in doubles is exact while every operand and result stays within this. */
export function withinSafeIntegers(...values: number[]): boolean {
  return values.every((value) => Math.abs(value) <= Number.MAX_SAFE_INTEGER);
}
