// Response schemas of the SEBRA endpoints, as the specification's field tables give them.
import type { JsonSchema } from '../../../queries/catalog.ts';
import { decimalString, enumOf, integer, isoDate, listOf, nullable, object, text } from '../../../queries/shared/schema.ts';

const currency = enumOf('BGN', 'EUR');
const nullableDate = nullable(isoDate);
const nullableYear = nullable(integer);
const nullableCurrency = nullable(currency);

const windowFilters = { currency: nullableCurrency, year: nullableYear, from: nullableDate, to: nullableDate };

export const periodsResponse: JsonSchema = object({
  endpoint: { const: 'getPeriodsWithMostPayments' },
  period: enumOf('days', 'months', 'weekdays'),
  period_key: enumOf('day_of_month', 'month', 'weekday'),
  description: text,
  ordered_by: { const: 'total_amount' },
  filters: object({ ...windowFilters, limit: nullable(integer) }),
  count: integer,
  items: listOf(
    object(
      {
        day_of_month: { type: 'integer', minimum: 1, maximum: 31 },
        year: integer,
        month: { type: 'integer', minimum: 1, maximum: 12 },
        weekday: { type: 'integer', minimum: 0, maximum: 6 },
        label: text,
        currency,
        total_amount: decimalString,
        payment_count: integer,
        observed_days: integer,
        rank: integer,
      },
      ['day_of_month', 'year', 'month', 'weekday'],
    ),
  ),
});

const account = object({ code: text, description: text, total_amount: decimalString, payment_count: integer, rank: integer });
const taxonomyItem = object({
  category: text,
  category_key: text,
  currency,
  total_amount: decimalString,
  share_percent: decimalString,
  payment_count: integer,
  account_count: integer,
  rank: integer,
  accounts: listOf(account),
});
const currencyTotals = listOf(object({ currency, total_amount: decimalString }));

export const taxonomyForYearResponse: JsonSchema = object({
  endpoint: { const: 'getTaxonomyForYear' },
  year: integer,
  ordered_by: { const: 'total_amount' },
  filters: object(windowFilters),
  year_totals: currencyTotals,
  count: integer,
  items: listOf(taxonomyItem),
});

export const taxonomyForPeriodResponse: JsonSchema = object({
  endpoint: { const: 'getTaxonomyForPeriod' },
  ordered_by: { const: 'total_amount' },
  filters: object({ currency: nullableCurrency, from: isoDate, to: isoDate }),
  period_totals: currencyTotals,
  count: integer,
  items: listOf(taxonomyItem),
});

const rankedFilters = object({ ...windowFilters, limit: nullable(integer) });

export const programmesResponse: JsonSchema = object({
  endpoint: { const: 'getMostSponsoredProgramme' },
  ordered_by: { const: 'total_amount' },
  filters: rankedFilters,
  count: integer,
  items: listOf(object({ programme: text, payment_count: integer, total_amount: decimalString, currency, rank: integer })),
});

export const unusualResponse: JsonSchema = object({
  endpoint: { const: 'getUnusualPayments' },
  method: text,
  filters: object({ ...windowFilters, limit: integer }),
  unusual_days: listOf(object({
    payment_date: isoDate, currency, total_amount: decimalString, mean_amount: decimalString,
    zscore: decimalString, payment_count: integer, rank: integer,
  })),
  unusual_programmes: listOf(object({
    programme: text, payment_date: isoDate, currency, total_amount: decimalString, mean_amount: decimalString,
    zscore: decimalString, observed_days: integer, rank: integer,
  })),
  expense_spikes: listOf(object({
    category: text, category_key: text, currency, month: { type: 'string', pattern: '^\\d{4}-\\d{2}$' },
    total_amount: decimalString, previous_amount: decimalString, increase_ratio: decimalString, rank: integer,
  })),
  unusual_payment_counts: listOf(object({
    payment_date: isoDate, currency, payment_count: integer, mean_count: decimalString,
    zscore: decimalString, total_amount: decimalString, rank: integer,
  })),
});
