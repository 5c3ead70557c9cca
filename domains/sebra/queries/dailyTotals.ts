// sebra_daily held in memory per database (one row per payment day and currency: a few hundred rows
// per year of data, whatever the number of payment lines), so that answers which are sums over a
// window's days (getPeriodsWithMostPayments) and the lookups keyed by a window's first and last payment
// day (taxonomy spans) need no statement: a statement's fixed cost (plan, conversion) was most of
// those answers' time, not their data.
import type { Database } from '../../../engine/database.ts';
import { perDatabase } from '../../../engine/perDatabase.ts';

export interface DailyTotal {
  /** ISO date. */
  day: string;
  currency: string;
  /** The day's total in exact cents (sums of DECIMAL(38,2) amounts stay exact as bigint). */
  cents: bigint;
  payment_count: number;
}

export interface DailyTotals {
  /** Ordered by day, then currency (as sebra_daily). */
  rows: DailyTotal[];
  /** The distinct payment days (any currency), ascending. */
  days: string[];
}

/** Exact cents of a decimal string with at most two places ("-12.3" -> -1230n). */
export function decimalCents(amount: string): bigint {
  const negative = amount.startsWith('-');
  const [whole, fraction = ''] = (negative ? amount.slice(1) : amount).split('.');
  const value = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2));
  return negative ? -value : value;
}

/** Exact cents rendered as DuckDB renders DECIMAL(38,2) ("-0.50", "12.30"). */
export function centsDecimal(cents: bigint): string {
  const abs = cents < 0n ? -cents : cents;
  return `${cents < 0n ? '-' : ''}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

export const dailyTotals = perDatabase(async (db: Database): Promise<DailyTotals> => {
  const read = await db.all(`SELECT CAST(payment_date AS VARCHAR) AS day, currency, total_amount, payment_count
    FROM sebra_daily ORDER BY payment_date, currency`);
  const rows = read.map((row) => ({
    day: String(row.day),
    currency: String(row.currency),
    cents: decimalCents(String(row.total_amount)),
    payment_count: Number(row.payment_count),
  }));
  const days = [...new Set(rows.map((row) => row.day))];
  return { rows, days };
});

/** First index in the ascending `sorted` whose value is >= value. */
export function firstAtOrAfter(sorted: readonly string[], value: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The first and last payment day (any currency) inside [from, to] (ISO dates, as bound to the
 * statements' CAST($from AS DATE)), or null when the window has none.
 */
export function windowPaymentDays(days: readonly string[], from: string, to: string): { first: string; last: string } | null {
  const first = firstAtOrAfter(days, from);
  const last = firstAtOrAfter(days, `${to}\uffff`) - 1; // the last day <= to (same-length ISO days)
  return first > last ? null : { first: days[first], last: days[last] };
}
