// getPeriodsWithMostPayments: payment totals by day of month, calendar month or weekday.
import { defineRoute, type ResponseBody } from '../../../queries/catalog.ts';
import { money, rank } from '../../../queries/shared/sql.ts';
import { dayWindow, type Resolved } from '../../../queries/kinds/index.ts';
import { currencyParam, rankedLimit, type CurrencyParams } from './params.ts';
import { periodsResponse } from './schemas.ts';
import { windowTotalsSql } from '../../../queries/shared/windowSums.ts';
import { PERIOD_SUMS } from './tables.ts';
import { CURRENCY_SQL, sebraBindings, sebraBoundsSql, windowFilters, windowRows } from './window.ts';
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
  /** SELECT list of the key columns, from PERIOD_SUMS's period_year and period_value. */
  keySelect: string;
  keyColumns: string;
  label(row: Row): string;
}

const SHAPES: Record<Period, PeriodShape> = {
  days: {
    periodKey: 'day_of_month',
    description: 'Payment totals by day of the month (1-31), summed over every month in the window.',
    keySelect: 'period_value AS day_of_month',
    keyColumns: 'day_of_month',
    label: (row) => `${bulgarianOrdinal(Number(row.day_of_month))} число`,
  },
  months: {
    periodKey: 'month',
    description: 'Payment totals by calendar month; each month of each year is its own row.',
    keySelect: 'period_year AS year, period_value AS month',
    keyColumns: 'year, month',
    label: (row) => BULGARIAN_MONTHS[Number(row.month) - 1],
  },
  weekdays: {
    periodKey: 'weekday',
    description: 'Payment totals by weekday (Monday = 0 ... Sunday = 6), summed over the window.',
    keySelect: 'period_value AS weekday',
    keyColumns: 'weekday',
    label: (row) => BULGARIAN_WEEKDAYS[Number(row.weekday)],
  },
};

/** An item's fields in order: the period's key columns, then the label and the measures. */
function itemFields(shape: PeriodShape): string[] {
  return [...shape.keyColumns.split(', '), 'label', 'currency', 'total_amount', 'payment_count', 'observed_days', 'rank'];
}

/**
 * Ranked per currency (amounts in different currencies are not comparable); ties by count, then key.
 * Each period's window totals are two lookups in PERIOD_SUMS.
 */
function periodsSql(period: Period, shape: PeriodShape): string {
  return `
    WITH bounds AS (${sebraBoundsSql(PERIOD_SUMS)}),
    totals AS (${windowTotalsSql(PERIOD_SUMS, 'bounds')}),
    grouped AS (
      SELECT ${shape.keySelect}, currency, total_amount AS amount, payment_count, days AS observed_days
      FROM totals WHERE period = '${period}' AND ${CURRENCY_SQL}
    ), ranked AS (
      SELECT *, ${rank(`amount DESC, payment_count DESC, ${shape.keyColumns}`, 'currency')} AS rank FROM grouped
    )
    SELECT ${shape.keyColumns}, currency, ${money('amount')} AS total_amount, payment_count, observed_days, rank
    FROM ranked
    WHERE rank <= $limit
    ORDER BY currency, rank`;
}

const PERIODS_SQL: Record<Period, string> = {
  days: periodsSql('days', SHAPES.days),
  months: periodsSql('months', SHAPES.months),
  weekdays: periodsSql('weekdays', SHAPES.weekdays),
};

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
    const rows = await windowRows(db, params.window.window, PERIODS_SQL[params.period], {
      ...sebraBindings(params.window.window, params.currency),
      limit: params.ranked.limit ?? Number.MAX_SAFE_INTEGER,
    });
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
