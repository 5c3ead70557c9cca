// The filters of the agri-food price lists, split by where they are evaluated: the text filters
// (dataset, country, commodity, market, unit, stage, product type, pig class) on the small key table
// agri_price_keys, the row filters (dates, week, marketing year) on the rows of the keys matched.
// Each filter is bound (null = not applied), so the SQL text is fixed and its prepared statement is reused.
import type { SqlParams } from '../../../engine/database.ts';
import { decimal2 } from '../../../queries/shared/sql.ts';
import { ID_SEPARATOR, type Period } from './params.ts';

/** Over agri_price_keys (or any table with the key columns). */
export const KEY_FILTER_SQL = `(CAST($dataset AS VARCHAR) IS NULL OR dataset = $dataset)
  AND (CAST($country AS VARCHAR) IS NULL OR member_state_code = $country)
  AND (CAST($commodities AS VARCHAR) IS NULL OR list_contains(string_split($commodities, chr(31)), commodity_id))
  AND (CAST($market AS VARCHAR) IS NULL OR lower(market_name) = lower($market) OR lower(market_code) = lower($market))
  AND (CAST($unit AS VARCHAR) IS NULL OR lower(unit) = lower($unit))
  AND (CAST($stage AS VARCHAR) IS NULL OR lower(stage_name) = lower($stage) OR lower(stage_code) = lower($stage))
  AND (CAST($product_type AS VARCHAR) IS NULL OR lower(product_type) = lower($product_type))
  AND (CAST($pig_class AS VARCHAR) IS NULL OR lower(pig_class) = lower($pig_class))`;

/** The date filters, over any table with begin_date. */
export const DATE_FILTER_SQL = `(CAST($date AS DATE) IS NULL OR begin_date = CAST($date AS DATE))
  AND (CAST($date_from AS DATE) IS NULL OR begin_date >= CAST($date_from AS DATE))
  AND (CAST($date_to AS DATE) IS NULL OR begin_date <= CAST($date_to AS DATE))`;

/** The row filters, over agri_price_index. */
export const ROW_FILTER_SQL = `${DATE_FILTER_SQL}
  AND (CAST($week AS INTEGER) IS NULL OR week_number = CAST($week AS INTEGER))
  AND (CAST($marketing_year AS VARCHAR) IS NULL OR marketing_year = $marketing_year)`;

export interface PriceFilter {
  dataset?: string | null;
  country?: string | null;
  commodities?: readonly string[] | null;
  date?: string | null;
  dateFrom?: string | null;
  dateTo?: string | null;
  market?: string | null;
  period?: Period | null;
  unit?: string | null;
  stage?: string | null;
  productType?: string | null;
  pigClass?: string | null;
}

/** The bindings of KEY_FILTER_SQL. */
export function keyFilterBindings(filter: PriceFilter): SqlParams {
  return {
    dataset: filter.dataset ?? null,
    country: filter.country ?? null,
    commodities: filter.commodities ? filter.commodities.join(ID_SEPARATOR) : null,
    market: filter.market ?? null,
    unit: filter.unit ?? null,
    stage: filter.stage ?? null,
    product_type: filter.productType ?? null,
    pig_class: filter.pigClass ?? null,
  };
}

/** The bindings of DATE_FILTER_SQL. */
export function dateFilterBindings(filter: PriceFilter): SqlParams {
  return { date: filter.date ?? null, date_from: filter.dateFrom ?? null, date_to: filter.dateTo ?? null };
}

/** The bindings of ROW_FILTER_SQL. */
export function rowFilterBindings(filter: PriceFilter): SqlParams {
  return {
    ...dateFilterBindings(filter),
    week: filter.period?.weekNumber ?? null,
    marketing_year: filter.period?.marketingYear ?? null,
  };
}

/** Whether a filter narrows the keys (otherwise every key matches). */
export function filtersKeys(filter: PriceFilter): boolean {
  return Object.values(keyFilterBindings(filter)).some((value) => value !== null);
}

/** Price as an exact decimal string with at least two decimals ("524.00", "18.175"). */
export function priceText(expression: string): string {
  return `regexp_replace(CAST(${expression} AS VARCHAR), '(\\.\\d{2}\\d*?)0+$', '\\1')`;
}

/**
 * An exact decimal as the text the answer shows (DuckDB's text of a DECIMAL is the driver's: sign,
 * digits, '.', every scale digit). The rendered shapes hold no 128-bit decimals: each such column
 * costs ~2 ms to read back from a database file even for a page of 100 rows, text costs nothing.
 */
export function decimalText(expression: string): string {
  return `CAST(${expression} AS VARCHAR)`;
}

/**
 * The fields of a price row item, in output order: text columns from agri_price_keys (aliased `k`),
 * the row's own values from agri_price_facts or agri_price_index (aliased `f`).
 */
export const PRICE_ITEM_SQL = `k.dataset, k.commodity_id, k.product_name, k.product_code, k.product_type, k.pig_class, k.member_state_code,
  k.member_state_name, k.market_name, k.market_code, k.stage_name, k.stage_code, f.begin_date, f.end_date, f.week_number,
  f.marketing_year, f.reference_period, k.unit, ${priceText('f.price')} AS price`;

/** The fields naming a series (and its commodity), from agri_price_keys (aliased `k`), in output order. */
export const SERIES_ITEM_SQL = `k.dataset, k.commodity_id, k.product_name, k.product_type, k.pig_class, k.member_state_code,
  k.member_state_name, k.market_name, k.stage_name, k.unit`;

/**
 * The fields of an anomaly item, in output order, over agri_price_stats `st`, agri_price_keys `k` and
 * agri_series `se`; the thresholds are SQL expressions (bound parameters, or the defaults' literals).
 */
export function anomalyItemSql(minPercent: string, z: string): string {
  return `${SERIES_ITEM_SQL}, st.begin_date, st.week_number, st.marketing_year, ${priceText('st.price')} AS price,
           ${priceText('st.previous_value')} AS previous_value, st.previous_period,
           ${decimalText(decimal2('st.percent_change'))} AS percent_change, ${decimalText(decimal2('st.zscore'))} AS zscore,
           ${decimalText(decimal2('se.series_mean'))} AS series_mean, ${decimalText(decimal2('se.series_stddev'))} AS series_stddev,
           se.series_observations::INTEGER AS series_observations,
           list_filter(['percent_change', 'zscore'], reason ->
             (reason = 'percent_change' AND coalesce(abs(st.percent_change) >= ${minPercent}, false)) OR
             (reason = 'zscore' AND coalesce(abs(st.zscore) >= ${z}, false))) AS reasons`;
}
