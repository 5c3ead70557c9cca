// sebra_daily held in memory per database (one row per payment day and currency: a few hundred rows
// per year of data, whatever the number of payment lines), so that answers which are sums over a
// window's days (getPeriodsWithMostPayments) and the lookups keyed by a window's first and last payment
// day (taxonomy spans) need no statement: a statement's fixed cost (plan, conversion) was most of
// those answers' time, not their data.
import { requiredHeldView } from '../../../engine/held.ts';

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

/** Required: the period totals and the windows' payment days are computed from it (no statement at request time). */
export const dailyTotals = requiredHeldView<DailyTotals>({
  name: 'sebra.dailyTotals',
  sql: { rows: `SELECT CAST(payment_date AS VARCHAR) AS day, currency, total_amount, payment_count FROM sebra_daily ORDER BY payment_date, currency` },
  key: ['payment_date', 'currency'],
  order: 'payment_date, currency',
  rowsMax: 200_000,
  bytesMax: 64 * 2 ** 20,
  build: ({ rows: read }) => {
    const rows = read.map((row) => ({
      day: String(row.day),
      currency: String(row.currency),
      cents: decimalCents(String(row.total_amount)),
      payment_count: Number(row.payment_count),
    }));
    const days = [...new Set(rows.map((row) => row.day))];
    return { rows, days };
  },
  // A window (a month's start to a later month's end): its first and last payment day and its totals per currency.
  parity: {
    probes: `SELECT CAST(a.month AS VARCHAR) AS "from", CAST(CAST(b.month + INTERVAL 1 MONTH - INTERVAL 1 DAY AS DATE) AS VARCHAR) AS "to"
      FROM (SELECT DISTINCT CAST(date_trunc('month', payment_date) AS DATE) AS month FROM sebra_daily) a,
        (SELECT DISTINCT CAST(date_trunc('month', payment_date) AS DATE) AS month FROM sebra_daily) b
      WHERE a.month <= b.month ORDER BY hash(a.month, b.month), a.month, b.month LIMIT 30`,
    keyed: `SELECT CAST(min(min(payment_date)) OVER () AS VARCHAR) AS first, CAST(max(max(payment_date)) OVER () AS VARCHAR) AS last,
        currency, sum(total_amount) AS total_amount, sum(payment_count) AS payment_count
      FROM sebra_daily WHERE payment_date BETWEEN CAST($from AS DATE) AND CAST($to AS DATE) GROUP BY currency ORDER BY currency`,
    answer: ({ rows, days }, probe) => {
      const window = windowPaymentDays(days, String(probe.from), String(probe.to));
      const totals = new Map<string, { cents: bigint; count: number }>();
      for (const row of rows) {
        if (row.day < String(probe.from) || row.day > String(probe.to)) continue;
        const total = totals.get(row.currency) ?? { cents: 0n, count: 0 };
        totals.set(row.currency, { cents: total.cents + row.cents, count: total.count + row.payment_count });
      }
      return [...totals].sort(([a], [b]) => (a < b ? -1 : 1)).map(([currency, total]) => ({
        first: window!.first, last: window!.last, currency, total_amount: centsDecimal(total.cents), payment_count: total.count,
      }));
    },
  },
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
