// The SEBRA view of a date window: resolution from year/from/to and the 404 rule.
import type { Database } from '../../../engine/database.ts';
import { notFound } from '../../../queries/shared/errors.ts';
import { intersectWindows, resolveWindow, windowBounds, yearWindow, type DateWindow } from '../../../queries/shared/window.ts';
import type { WindowParams } from './params.ts';

/** The window a request covers: year, from/to, their intersection where both are allowed, or all history. */
export function sebraWindow(params: WindowParams, today: string): DateWindow {
  const window = resolveWindow(params.from, params.to, today);
  return params.year === undefined ? window : intersectWindows(window, yearWindow(params.year));
}

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

/** The `filters` echo shared by SEBRA envelopes: dates as ISO, unused filters null. */
export function windowFilters(params: WindowParams, today: string): { currency: string | null; year: number | null; from: string | null; to: string | null } {
  const requested = resolveWindow(params.from, params.to, today);
  return { currency: params.currency ?? null, year: params.year ?? null, from: requested.from, to: requested.to };
}
