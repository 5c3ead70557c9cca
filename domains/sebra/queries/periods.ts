// getPeriodsWithMostPayments: payment totals by day of month, calendar month or weekday.
import { defineRoute, type ResponseBody } from '../../../queries/catalog.ts';
import { dayWindow, type Resolved } from '../../../queries/kinds/index.ts';
import { currencyParam, rankedLimit, type CurrencyParams } from './params.ts';
import { periodsResponse } from './schemas.ts';
import { windowBounds, type DateWindow } from '../../../queries/shared/window.ts';
import { centsDecimal, dailyTotals, windowPaymentDays } from './dailyTotals.ts';
import { noPaymentDays, rejectEmptyWindow, windowFilters } from './window.ts';
import type { Database } from '../../../engine/database.ts';
import type { Row } from '../../../engine/json.ts';

export type Period = 'days' | 'months' | 'weekdays';

export const BULGARIAN_MONTHS = [
  'Януари', 'Февруари', 'Март', 'Април', 'Май', 'Юни',
  'Юли', 'Август', 'Септември', 'Октомври', 'Ноември', 'Декември',
] as const;

/** Monday = 0 ... Sunday = 6. */
export const BULGARIAN_WEEKDAYS = ['Понеделник', 'Вторник', 'Сряда', 'Четвъртък', 'Петък', 'Събота', 'Неделя'] as const;

/** Neuter ordinal as written with digits: 1-во, 2-ро, 7-мо, 8-мо, 11-то, 21-во, otherwise -то. */
export function bulgarianOrdinal(n: number): string {
  const lastTwo = n % 100;
  const last = n % 10;
  if (lastTwo >= 11 && lastTwo <= 19) return `${n}-то`;
  if (last === 1) return `${n}-во`;
  if (last === 2) return `${n}-ро`;
  if (last === 7 || last === 8) return `${n}-мо`;
  return `${n}-то`;
}

interface PeriodShape {
  periodKey: string;
  description: string;
  keyColumns: string;
  label(row: Row): string;
}

const SHAPES: Record<Period, PeriodShape> = {
  days: {
    periodKey: 'day_of_month',
    description: 'Payment totals by day of the month (1-31), summed over every month in the window.',
    keyColumns: 'day_of_month',
    label: (row) => `${bulgarianOrdinal(Number(row.day_of_month))} число`,
  },
  months: {
    periodKey: 'month',
    description: 'Payment totals by calendar month; each month of each year is its own row.',
    keyColumns: 'year, month',
    label: (row) => BULGARIAN_MONTHS[Number(row.month) - 1],
  },
  weekdays: {
    periodKey: 'weekday',
    description: 'Payment totals by weekday (Monday = 0 ... Sunday = 6), summed over the window.',
    keyColumns: 'weekday',
    label: (row) => BULGARIAN_WEEKDAYS[Number(row.weekday)],
  },
};

/** An item's fields in order: the period's key columns, then the label and the measures. */
function itemFields(shape: PeriodShape): string[] {
  return [...shape.keyColumns.split(', '), 'label', 'currency', 'total_amount', 'payment_count', 'observed_days', 'rank'];
}

/** A daily total's period key: the day of month, the weekday (Monday = 0) or [year, month]. */
const PERIOD_KEYS: Record<Period, (day: string) => number[]> = {
  days: (day) => [Number(day.slice(8, 10))],
  weekdays: (day) => [(new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7],
  months: (day) => [Number(day.slice(0, 4)), Number(day.slice(5, 7))],
};

interface PeriodTotal {
  currency: string;
  key: number[];
  cents: bigint;
  payment_count: number;
  observed_days: number;
}

/** Amount descending, then payment count descending, then the key ascending: a total order within a currency. */
function byRank(a: PeriodTotal, b: PeriodTotal): number {
  if (a.cents !== b.cents) return a.cents > b.cents ? -1 : 1;
  if (a.payment_count !== b.payment_count) return b.payment_count - a.payment_count;
  for (let i = 0; i < a.key.length; i++) if (a.key[i] !== b.key[i]) return a.key[i] - b.key[i];
  return 0;
}

/**
 * Every period's totals over the window's days (sebra_daily held in memory: at most one row per day
 * and currency), ranked per currency (amounts in different currencies are not comparable) and cut at
 * `limit`, ordered by currency, then rank. The sums are exact (cents as bigint), as the running totals
 * of the running-totals shape this replaced were; a statement's fixed cost was most of this answer's time.
 */
async function periodRows(db: Database, period: Period, window: DateWindow, currency: string | undefined, limit: number): Promise<Row[]> {
  rejectEmptyWindow(window);
  const { from, to } = windowBounds(window);
  const { rows, days } = await dailyTotals(db);
  const keyOf = PERIOD_KEYS[period];
  const totals = new Map<string, PeriodTotal>();
  for (const row of rows) {
    if (row.day < from || row.day > to || (currency !== undefined && row.currency !== currency)) continue;
    const key = keyOf(row.day);
    const id = `${row.currency}|${key.join('|')}`;
    const total = totals.get(id);
    if (total) {
      total.cents += row.cents;
      total.payment_count += row.payment_count;
      total.observed_days += 1;
    } else {
      totals.set(id, { currency: row.currency, key, cents: row.cents, payment_count: row.payment_count, observed_days: 1 });
    }
  }
  const byCurrency = new Map<string, PeriodTotal[]>();
  for (const total of totals.values()) {
    const list = byCurrency.get(total.currency) ?? [];
    list.push(total);
    byCurrency.set(total.currency, list);
  }
  const keyColumns = SHAPES[period].keyColumns.split(', ');
  const out: Row[] = [];
  for (const code of [...byCurrency.keys()].sort()) {
    const ranked = byCurrency.get(code)!.sort(byRank);
    ranked.slice(0, Math.max(0, Math.min(limit, ranked.length))).forEach((total, index) => {
      const row: Row = {};
      keyColumns.forEach((column, i) => (row[column] = total.key[i]));
      row.currency = total.currency;
      row.total_amount = centsDecimal(total.cents);
      row.payment_count = total.payment_count;
      row.observed_days = total.observed_days;
      row.rank = index + 1;
      out.push(row);
    });
  }
  // Rows come only from payment days inside the window: none at all (in any currency) is the 404.
  if (out.length === 0 && windowPaymentDays(days, from, to) === null) throw noPaymentDays(window);
  return out;
}

const periodsInputs = { window: dayWindow({ year: ['query'], yearWithWindow: 'intersect' }), ranked: rankedLimit };

type PeriodsParams = CurrencyParams & Resolved<typeof periodsInputs> & { period: Period };

export const getPeriodsWithMostPayments = defineRoute<PeriodsParams>({
  id: 'getPeriodsWithMostPayments',
  method: 'GET',
  tag: 'sebra',
  paths: ['/api/sebra/getPeriodsWithMostPayments'],
  examples: [
    '/api/sebra/getPeriodsWithMostPayments?days&limit=10',
    '/api/sebra/getPeriodsWithMostPayments?months&currency=BGN&year=2025',
    '/api/sebra/getPeriodsWithMostPayments?period=weekdays&from=01-2026&to=10-2026',
  ],
  summary: 'Days of month, months or weekdays with the most SEBRA payments',
  description:
    'Sums the payments of every HAS_PAYMENTS day in the window by day of month, calendar month or weekday, ' +
    'per currency, and ranks the periods by total amount (ties: payment count, then the period). ' +
    'The period may be given as a bare flag: ?days, ?months or ?weekdays. year restricts the window to one calendar year ' +
    'and may be combined with from/to (their intersection).',
  paid: true,
  params: {
    period: {
      in: ['query'],
      required: true,
      description: 'days (day of month), months (calendar months) or weekdays; also as a bare flag ?days, ?months, ?weekdays.',
      schema: { type: 'string', enum: ['days', 'months', 'weekdays'] },
      bareFlags: ['days', 'months', 'weekdays'],
      normalize: 'lower',
    },
    currency: currencyParam,
  },
  inputs: periodsInputs,
  response: periodsResponse,
  listRows: (body) => body.items as Row[],
  listColumns: (body) => itemFields(SHAPES[body.period as Period]),
  async handle(params, { db }) {
    const shape = SHAPES[params.period];
    const rows = await periodRows(db, params.period, params.window.window, params.currency, params.ranked.limit ?? Number.MAX_SAFE_INTEGER);
    const fields = itemFields(shape);
    const items = rows.map((row) => {
      const withLabel: Row = { ...row, label: shape.label(row) };
      return Object.fromEntries(fields.map((field) => [field, withLabel[field]]));
    });
    const body: ResponseBody = {
      endpoint: 'getPeriodsWithMostPayments',
      period: params.period,
      period_key: shape.periodKey,
      description: shape.description,
      ordered_by: 'total_amount',
      filters: { ...windowFilters(params.window, params.currency), limit: params.ranked.limit },
      count: items.length,
      items,
    };
    return body;
  },
});
