// expense_spikes of getUnusualPayments over any window, from sebra_category_daily held in memory per
// database (one row per day, currency and bucket: at most seven per payment day, whatever the number
// of payment lines). The arithmetic is the statement's (unusual.ts SPIKE_CTES, which still builds the
// precomputed whole-month answers): monthly sums exact in cents, a month against the calendar month
// before it, the ratio as DuckDB divides two DECIMAL(38,2) (both as doubles), rounded as decimal2.
// A statement's fixed cost (plan, reading a few hundred rows of dates and decimals) was most of it.
import type { Row } from '../../../engine/json.ts';
import { requiredHeldView } from '../../../engine/held.ts';
import { CATEGORIES, type Category } from './categories.ts';
import { centsDecimal, decimalCents } from './dailyTotals.ts';
import { hugeintAsDouble } from '../../../engine/heldGuards.ts';
import { decimal2Text } from './programmeScores.ts';

interface CategoryDay {
  /** ISO date. */
  day: string;
  currency: string;
  category: Category;
  cents: bigint;
}

const CATEGORY_BY_KEY = new Map<string, Category>(CATEGORIES.map((category) => [category.key, category]));

/** Required: expense_spikes of any window are computed from it (no statement at request time). */
export const categoryDaily = requiredHeldView<CategoryDay[]>({
  name: 'sebra.categoryDaily',
  sql: { rows: `SELECT CAST(payment_date AS VARCHAR) AS day, currency, category_key, total_amount
    FROM sebra_category_daily ORDER BY payment_date, currency, category_key` },
  key: ['payment_date', 'currency', 'category_key'],
  order: 'payment_date, currency, category_key',
  rowsMax: 500_000,
  bytesMax: 128 * 2 ** 20,
  build: ({ rows }) => rows.map((row) => ({
    day: String(row.day),
    currency: String(row.currency),
    category: CATEGORY_BY_KEY.get(String(row.category_key))!,
    cents: decimalCents(String(row.total_amount)),
  })),
  parity: {
    probes: `SELECT DISTINCT CAST(payment_date AS VARCHAR) AS day FROM sebra_category_daily ORDER BY hash(day), day LIMIT 30`,
    keyed: `SELECT currency, category_key, total_amount FROM sebra_category_daily WHERE payment_date = CAST($day AS DATE) ORDER BY currency, category_key`,
    answer: (days, probe) => days.filter((row) => row.day === probe.day)
      .map((row) => ({ currency: row.currency, category_key: row.category.key, total_amount: centsDecimal(row.cents) })),
  },
});

interface Spike {
  category: Category;
  currency: string;
  /** YYYY-MM. */
  month: string;
  cents: bigint;
  previousCents: bigint;
  ratio: number;
}

/** The calendar month before `month` (YYYY-MM). */
function previousMonth(month: string): string {
  const year = Number(month.slice(0, 4));
  const number = Number(month.slice(5, 7));
  return number === 1 ? `${String(year - 1).padStart(4, '0')}-12` : `${month.slice(0, 5)}${String(number - 1).padStart(2, '0')}`;
}

/** Ratio descending, then month, then the bucket's order, then currency: a total order. */
function bySpike(a: Spike, b: Spike): number {
  if (a.ratio !== b.ratio) return b.ratio - a.ratio;
  if (a.month !== b.month) return a.month < b.month ? -1 : 1;
  if (a.category.order !== b.category.order) return a.category.order - b.category.order;
  return a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0;
}

/**
 * The window's expense spikes (ISO from/to; '' = every currency): a bucket's monthly total inside the
 * window at least `ratio` (a whole number, compared in exact cents) times its total in the calendar month before (also inside the window, > 0),
 * ranked and cut at `limit`; items with the fields of the response, in rank order.
 */
export function expenseSpikes(days: readonly CategoryDay[], from: string, to: string, currency: string, ratio: bigint, limit: number): Row[] {
  const monthly = new Map<string, { category: Category; currency: string; month: string; cents: bigint }>();
  for (const row of days) {
    if (row.day < from || row.day > to || (currency !== '' && row.currency !== currency)) continue;
    const month = row.day.slice(0, 7);
    const key = `${row.currency}|${row.category.key}|${month}`;
    const total = monthly.get(key);
    if (total) total.cents += row.cents;
    else monthly.set(key, { category: row.category, currency: row.currency, month, cents: row.cents });
  }
  const spikes: Spike[] = [];
  for (const current of monthly.values()) {
    const previous = monthly.get(`${current.currency}|${current.category.key}|${previousMonth(current.month)}`);
    if (!previous || previous.cents <= 0n || current.cents < ratio * previous.cents) continue;
    spikes.push({
      ...current,
      previousCents: previous.cents,
      ratio: hugeintAsDouble(current.cents) / 100 / (hugeintAsDouble(previous.cents) / 100),
    });
  }
  spikes.sort(bySpike);
  return spikes.slice(0, Math.max(0, limit)).map((spike, index) => ({
    category: spike.category.label,
    category_key: spike.category.key,
    currency: spike.currency,
    month: spike.month,
    total_amount: centsDecimal(spike.cents),
    previous_amount: centsDecimal(spike.previousCents),
    increase_ratio: decimal2Text(spike.ratio),
    rank: index + 1,
  }));
}
