// The SEBRA view of a date window: bindings, the 404 rule and the filters echo.
import type { Database } from '../../../engine/database.ts';
import { notFound } from '../../../queries/shared/errors.ts';
import type { DayWindow } from '../../../queries/kinds/index.ts';
import { windowBounds, type DateWindow } from '../../../queries/shared/window.ts';

/** Bind values for the window and the currency filter ('' = every currency). */
export function sebraBindings(window: DateWindow, currency: string | undefined): { from: string; to: string; currency: string } {
  return { ...windowBounds(window), currency: currency ?? '' };
}

export const WINDOW_SQL = 'payment_date BETWEEN CAST($from AS DATE) AND CAST($to AS DATE)';
export const CURRENCY_SQL = "($currency = '' OR currency = $currency)";

/** 404 when the snapshot has no payment day at all inside the window (in any currency). */
export async function requirePaymentDays(db: Database, window: DateWindow): Promise<void> {
  if (window.from !== null && window.to !== null && window.from > window.to) {
    throw notFound(`the window is empty: year and from/to do not overlap (${window.from} is after ${window.to})`);
  }
  const [row] = await db.all(`SELECT count(*) AS days FROM sebra_daily WHERE ${WINDOW_SQL}`, windowBounds(window));
  if (Number(row.days) === 0) {
    const from = window.from ?? 'the first day';
    const to = window.to ?? 'the last day';
    throw notFound(`no SEBRA payment days between ${from} and ${to}`);
  }
}

/** The `filters` echo shared by SEBRA envelopes: dates as ISO (as asked for), unused filters null. */
export function windowFilters(window: DayWindow, currency: string | undefined): { currency: string | null; year: number | null; from: string | null; to: string | null } {
  return { currency: currency ?? null, year: window.year, from: window.requested.from, to: window.requested.to };
}
