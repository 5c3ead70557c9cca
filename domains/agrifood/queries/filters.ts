// The one WHERE clause every agri-food list uses over agri_prices / agri_price_stats. Each filter is
// bound (null = not applied), so the SQL text is fixed and its prepared statement is reused.
import type { SqlParams } from '../../../engine/database.ts';
import { ID_SEPARATOR, type Period } from './params.ts';

export const PRICE_FILTER_SQL = `(CAST($dataset AS VARCHAR) IS NULL OR dataset = $dataset)
  AND (CAST($country AS VARCHAR) IS NULL OR member_state_code = $country)
  AND (CAST($commodities AS VARCHAR) IS NULL OR list_contains(string_split($commodities, chr(31)), commodity_id))
  AND (CAST($date AS DATE) IS NULL OR begin_date = CAST($date AS DATE))
  AND (CAST($date_from AS DATE) IS NULL OR begin_date >= CAST($date_from AS DATE))
  AND (CAST($date_to AS DATE) IS NULL OR begin_date <= CAST($date_to AS DATE))
  AND (CAST($market AS VARCHAR) IS NULL OR lower(market_name) = lower($market) OR lower(market_code) = lower($market))
  AND (CAST($week AS INTEGER) IS NULL OR week_number = CAST($week AS INTEGER))
  AND (CAST($marketing_year AS VARCHAR) IS NULL OR marketing_year = $marketing_year)
  AND (CAST($unit AS VARCHAR) IS NULL OR lower(unit) = lower($unit))
  AND (CAST($stage AS VARCHAR) IS NULL OR lower(stage_name) = lower($stage) OR lower(stage_code) = lower($stage))
  AND (CAST($product_type AS VARCHAR) IS NULL OR lower(product_type) = lower($product_type))
  AND (CAST($pig_class AS VARCHAR) IS NULL OR lower(pig_class) = lower($pig_class))`;

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

export function priceFilterBindings(filter: PriceFilter): SqlParams {
  return {
    dataset: filter.dataset ?? null,
    country: filter.country ?? null,
    commodities: filter.commodities ? filter.commodities.join(ID_SEPARATOR) : null,
    date: filter.date ?? null,
    date_from: filter.dateFrom ?? null,
    date_to: filter.dateTo ?? null,
    market: filter.market ?? null,
    week: filter.period?.weekNumber ?? null,
    marketing_year: filter.period?.marketingYear ?? null,
    unit: filter.unit ?? null,
    stage: filter.stage ?? null,
    product_type: filter.productType ?? null,
    pig_class: filter.pigClass ?? null,
  };
}

/** Price as an exact decimal string with at least two decimals ("524.00", "18.175"). */
export function priceText(expression: string): string {
  return `regexp_replace(CAST(${expression} AS VARCHAR), '(\\.\\d{2}\\d*?)0+$', '\\1')`;
}

/** The fields of a price row item, in output order. */
export const PRICE_ITEM_SQL = `dataset, commodity_id, product_name, product_code, product_type, pig_class, member_state_code,
  member_state_name, market_name, market_code, stage_name, stage_code, begin_date, end_date, week_number, marketing_year,
  reference_period, unit, ${priceText('price')} AS price`;

/** The fields naming a series (and its commodity), in output order. */
export const SERIES_ITEM_SQL = `dataset, commodity_id, product_name, product_type, pig_class, member_state_code, member_state_name,
  market_name, stage_name, unit`;
