// One page of price rows and its total, for /api/v1/prices and the commodity routes, in one
// statement whose cost follows the rows matched, not the table:
//   - without text or period filters, the rows of a date window are one price_order run
//     (agri_price_dates), so the page is a range of agri_price_facts and the total its length;
//   - otherwise the keys matched (agri_price_keys) select their slices of agri_price_index (sorted by
//     key), which give the count and the page's price_orders; the page's rows are then looked up.
// Text columns come from the row's key.
import type { Database } from '../../../engine/database.ts';
import type { Row } from '../../../engine/json.ts';
import type { ListPage, PageOfRows } from '../../../queries/kinds/index.ts';
import {
  DATE_FILTER_SQL, dateFilterBindings, filtersKeys, filtersPeriod, KEY_FILTER_SQL, keyFilterBindings, PRICE_ITEM_SQL,
  ROW_FILTER_SQL, rowFilterBindings, type PriceFilter,
} from './filters.ts';
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

// The price_orders matched (narrow: sorting them for a deep page moves 4 bytes a row), then the
// page's rows read from agri_price_facts by index lookups (see pages.ts).
const keyedSql = (direction: PriceDirection, slots: number) => `WITH matched AS MATERIALIZED (
    SELECT price_order FROM agri_price_index
     WHERE key_id IN (SELECT key_id FROM agri_price_keys WHERE ${KEY_FILTER_SQL}) AND ${ROW_FILTER_SQL}
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
const KEYED_SQL: Record<PriceDirection, (limit: number) => string> = {
  ASC: sqlPerSliceCount((slots) => keyedSql('ASC', slots)),
  DESC: sqlPerSliceCount((slots) => keyedSql('DESC', slots)),
};

/** The page of price rows matching `filter`, newest first (ASC) or oldest first (DESC); ties as price_order. */
export function pricePage(db: Database, filter: PriceFilter, page: ListPage, direction: PriceDirection): Promise<PageOfRows<Row>> {
  if (direction === 'ASC' && !filtersKeys(filter) && !filtersPeriod(filter)) {
    return pageWithTotal(db, DATE_RUN_SQL, { ...dateFilterBindings(filter), ...limitBindings(page) }, page, 'dataset');
  }
  const bindings = { ...keyFilterBindings(filter), ...rowFilterBindings(filter), ...limitBindings(page) };
  return pageWithTotal(db, KEYED_SQL[direction](page.limit), bindings, page, 'dataset');
}
