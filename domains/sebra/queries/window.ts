// The SEBRA view of a date window: bindings, the bounds of a shape's window, the 404 rule and the filters echo.
import type { Database, SqlParams } from '../../../engine/database.ts';
import type { Row } from '../../../engine/json.ts';
import { notFound } from '../../../queries/shared/errors.ts';
import type { DayWindow } from '../../../queries/kinds/index.ts';
import { windowBounds, type DateWindow } from '../../../queries/shared/window.ts';
import { windowBoundsSql, type WindowSums } from '../../../queries/shared/windowSums.ts';

/** Bind values for the window and the currency filter ('' = every currency). */
export function sebraBindings(window: DateWindow, currency: string | undefined): { from: string; to: string; currency: string } {
  return { ...windowBounds(window), currency: currency ?? '' };
}

export const WINDOW_SQL = 'payment_date BETWEEN CAST($from AS DATE) AND CAST($to AS DATE)';
export const CURRENCY_SQL = "($currency = '' OR currency = $currency)";

/** The number of payment days (in any currency) inside the window, as `days`. */
export const WINDOW_DAYS_SQL = `SELECT count(*) AS days FROM sebra_daily WHERE ${WINDOW_SQL}`;

/** The window's bounds in a shape (lo, hi, first_day, last_day): one row when the shape has a day in it. */
export function sebraBoundsSql(shape: WindowSums): string {
  return windowBoundsSql(shape, { from: 'CAST($from AS DATE)', to: 'CAST($to AS DATE)' });
}

/** 404 when year and from/to do not overlap (known without a query). */
export function rejectEmptyWindow(window: DateWindow): void {
  if (window.from !== null && window.to !== null && window.from > window.to) {
    throw notFound(`the window is empty: year and from/to do not overlap (${window.from} is after ${window.to})`);
  }
}

/**
 * An answer's rows from its one statement. Rows come only from payment days inside the window, so
 * the 404 rule needs its own query only when the answer is empty.
 */
export async function windowRows(db: Database, window: DateWindow, sql: string, params: SqlParams): Promise<Row[]> {
  rejectEmptyWindow(window);
  const rows = await db.all(sql, params);
  if (rows.length === 0) await requirePaymentDays(db, window);
  return rows;
}

/** 404 when the snapshot has no payment day at all inside the window (in any currency). */
export async function requirePaymentDays(db: Database, window: DateWindow): Promise<void> {
  rejectEmptyWindow(window);
  const [row] = await db.all(WINDOW_DAYS_SQL, windowBounds(window));
  if (Number(row.days) === 0) throw noPaymentDays(window);
}

/** The 404 of a window without payment days. */
export function noPaymentDays(window: DateWindow): Error {
  const from = window.from ?? 'the first day';
  const to = window.to ?? 'the last day';
  return notFound(`no SEBRA payment days between ${from} and ${to}`);
}

/** The `filters` echo shared by SEBRA envelopes: dates as ISO (as asked for), unused filters null. */
export function windowFilters(window: DayWindow, currency: string | undefined): { currency: string | null; year: number | null; from: string | null; to: string | null } {
  return { currency: currency ?? null, year: window.year, from: window.requested.from, to: window.requested.to };
}
