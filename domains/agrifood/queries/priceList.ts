// One page of price rows and its total, for /api/v1/prices and the commodity routes, in one
// statement whose cost follows the rows matched, not the table:
//   - without text, period or exact-date filters, the rows of a date window are one price_order run
//     (agri_price_dates), so the page is a range of agri_price_facts and the total its length;
//   - with an exact date, that date's run of price_order (at most one row per key) is filtered;
//   - with text filters, the keys matched (agri_price_keys) select their slices of agri_price_index
//     (sorted by key), which give the count and the page's price_orders; with only a period (a week
//     or a marketing year), its slice of the index sorted by it. The page's rows are then looked up.
// Text columns come from the row's key.
import type { Database } from '../../../engine/database.ts';
import type { Row } from '../../../engine/json.ts';
import type { ListPage, PageOfRows } from '../../../queries/kinds/index.ts';
import {
  DATE_FILTER_SQL, dateFilterBindings, filtersKeys, KEY_FILTER_SQL, keyFilterBindings, PRICE_ITEM_SQL,
  ROW_FILTER_SQL, rowFilterBindings, type PriceFilter,
} from './filters.ts';
import { agriState, dateWindow, gridPage, matchedKeys, periodPage } from './keyGrid.ts';
import { limitBindings, pageWithTotal, rowsAtPageSql, sqlPerSliceCount } from './pages.ts';

/** price_order ASC is newest first; DESC oldest first. */
export type PriceDirection = 'ASC' | 'DESC';

// The page is the price_orders lo + offset .. (at most hi): the join on them reads only that range.
const DATE_RUN_SQL = `WITH bounds AS (
    SELECT min(first_order) AS lo, max(last_order) AS hi FROM agri_price_dates WHERE ${DATE_FILTER_SQL}
  ), page AS (
    SELECT unnest(generate_series(lo + $page_offset, least(hi, lo + $page_offset + $page_limit - 1))) AS price_order
      FROM bounds WHERE lo + $page_offset <= hi
  )
  SELECT counted.total, r.* EXCLUDE (price_order)
    FROM (SELECT coalesce(hi - lo + 1, 0)::INTEGER AS total FROM bounds) AS counted
    LEFT JOIN (
      SELECT f.price_order, ${PRICE_ITEM_SQL}
        FROM agri_price_facts f JOIN agri_price_keys k ON k.key_id = f.key_id
       WHERE f.price_order IN (SELECT price_order FROM page)
    ) AS r ON true
   ORDER BY r.price_order`;

/** Where a filtered list finds the price_orders it matches: slices of an index sorted by its filter. */
const MATCHED_SQL = {
  /** An exact date (with any other filter): that date's price_order run of agri_price_facts, one row per key at most. */
  date: `SELECT price_order FROM agri_price_facts
     WHERE price_order IN (
             SELECT unnest(generate_series(first_order, last_order)) FROM agri_price_dates WHERE begin_date = CAST($date AS DATE))
       AND key_id IN (SELECT key_id FROM agri_price_keys WHERE ${KEY_FILTER_SQL}) AND ${ROW_FILTER_SQL}`,
  /** Text filters (and any row filters but an exact date): the keys' slices of agri_price_index. */
  keys: `SELECT price_order FROM agri_price_index
     WHERE key_id IN (SELECT key_id FROM agri_price_keys WHERE ${KEY_FILTER_SQL}) AND ${ROW_FILTER_SQL}`,
  /** A week number without text filters: its slice of agri_price_weeks. */
  week: `SELECT price_order FROM agri_price_weeks WHERE week_number = CAST($week AS INTEGER) AND ${DATE_FILTER_SQL}`,
  /** A marketing year without text filters: its slice of agri_price_marketing_years. */
  marketingYear: `SELECT price_order FROM agri_price_marketing_years WHERE marketing_year = $marketing_year AND ${DATE_FILTER_SQL}`,
};
type Matched = keyof typeof MATCHED_SQL;

// The price_orders matched (narrow: sorting them for a deep page moves 4 bytes a row), then the
// page's rows read from agri_price_facts by index lookups (see pages.ts).
const matchedPageSql = (matched: Matched, direction: PriceDirection, slots: number) => `WITH matched AS MATERIALIZED (
    ${MATCHED_SQL[matched]}
  ), page AS (
    SELECT price_order, row_number() OVER (ORDER BY price_order ${direction}) AS slot
      FROM (SELECT price_order FROM matched ORDER BY price_order ${direction} LIMIT $page_limit OFFSET $page_offset)
  ), picked AS MATERIALIZED (
    ${rowsAtPageSql('agri_price_facts', slots)}
  )
  SELECT counted.total, r.* EXCLUDE (price_order)
    FROM (SELECT count(*)::INTEGER AS total FROM matched) AS counted
    LEFT JOIN (SELECT f.price_order, ${PRICE_ITEM_SQL} FROM picked f JOIN agri_price_keys k ON k.key_id = f.key_id) AS r ON true
   ORDER BY r.price_order ${direction}`;

const MATCHED_PAGE_SQL = Object.fromEntries(
  (Object.keys(MATCHED_SQL) as Matched[]).flatMap((matched) =>
    (['ASC', 'DESC'] as const).map((direction) => [`${matched} ${direction}`, sqlPerSliceCount((slots) => matchedPageSql(matched, direction, slots))])),
) as Record<`${Matched} ${PriceDirection}`, (limit: number) => string>;

/** The page of price rows matching `filter`, newest first (ASC) or oldest first (DESC); ties as price_order. */
export async function pricePage(db: Database, filter: PriceFilter, page: ListPage, direction: PriceDirection): Promise<PageOfRows<Row>> {
  if (!filter.period) {
    // Text and date filters only: the keys and the page's range from the grid, then one range read.
    const state = await agriState(db);
    return gridPage(db, state, 'prices', matchedKeys(state, filter), dateWindow(state, filter), page, direction);
  }
  // A period with text filters: the keys' rows of the window from the key-major copy, when few.
  const state = await agriState(db);
  const keys = matchedKeys(state, filter);
  if (keys !== null) {
    const period = { week: filter.period.weekNumber ?? null, marketingYear: filter.period.marketingYear ?? null };
    const paged = await periodPage(db, state, keys, dateWindow(state, filter), period, page, direction);
    if (paged) return paged;
  }
  const dates = dateFilterBindings(filter);
  const limits = limitBindings(page);
  const week = filter.period?.weekNumber ?? null;
  const marketingYear = filter.period?.marketingYear ?? null;
  const keyed = filtersKeys(filter);
  if (!keyed && week === null && marketingYear === null && direction === 'ASC') {
    return pageWithTotal(db, DATE_RUN_SQL, { ...dates, ...limits }, page, 'dataset');
  }
  let matched: Matched = 'keys';
  let bindings = { ...keyFilterBindings(filter), ...rowFilterBindings(filter), ...limits };
  if (filter.date) {
    matched = 'date';
  } else if (!keyed && week !== null) {
    matched = 'week';
    bindings = { week, ...dates, ...limits };
  } else if (!keyed && marketingYear !== null) {
    matched = 'marketingYear';
    bindings = { marketing_year: marketingYear, ...dates, ...limits };
  }
  return pageWithTotal(db, MATCHED_PAGE_SQL[`${matched} ${direction}`](page.limit), bindings, page, 'dataset');
}
