// Agri-food tables, built once at load from the per-dataset snapshot files (each holds only the
// latest import of its dataset). A series is (dataset, commodity_id, member_state_code, market_name,
// stage_name, unit); series_id numbers the series in that order. Every answer reads a shape below
// whose rows it needs are contiguous (sorted by what it filters on) or looked up by key:
//
//   agri_prices            the contract table: every price row of the three datasets (the union), as
//                          the snapshot files hold them.
//   agri_price_keys        one row per distinct combination of a row's text columns (dataset,
//                          commodity, product, member state, market, stage, unit, ...), numbered
//                          key_id, with the row's series_id. Text filters are evaluated here, on a
//                          few thousand rows, and answers take their text columns from here.
//   agri_price_facts       every price row, narrow (key_id and the row's own values), numbered and
//                          sorted by price_order (with a unique index on it): newest first, then the
//                          series, end_date and file position (a total order every list follows).
//   agri_price_index       (key_id, price_order and the row filters' columns) sorted by key: a
//                          filtered list reads the slices of the keys it matched.
//   agri_price_weeks,      the same by week number and by marketing year, for a period filter
//   agri_price_marketing_years  without text filters.
//   agri_price_dates       per begin_date, its run of price_order (price_order is date-major), so a
//                          date window of the unfiltered list is one price_order range.
//   agri_series            per series: mean, population standard deviation and number of its priced
//                          rows, and the price_order of its newest priced row.
//   agri_price_stats       the priced rows (by price_order, with a unique index on it): the LAG change
//                          against the series' previous priced row and the z-score within the series.
//   agri_price_rows,       the rendered rows of the price list and of the changes (priced rows with a
//   agri_change_rows       previous one), with key_id, sorted by price_order: a page is one range read;
//                          their _by_key copies, sorted by key_id then price_order (kpos numbers them).
//   agri_key_grid          per key, its number of rows and of changes at each begin_date, newest first:
//                          held in JavaScript (keyGrid.ts), it gives a list's total and its page's range.
//   agri_moves_by_percent  |percent change| and |z-score| of the priced rows, largest first, so the rows
//   agri_moves_by_z        at or over a threshold are a prefix.
//   agri_latest            the newest priced row of every series, rendered, in series order, with its
//                          position in the list of each filter (all, dataset, member state, both).
//   agri_commodities, agri_countries, agri_dataset_facts: one row per commodity id, member state,
//                          dataset (from per-key counts).
import type { Database } from '../../../engine/database.ts';
import { createTableSql, insertDataset } from '../../../engine/dataset.ts';
import { lagChangesSql } from '../../../queries/shared/changes.ts';
import { decimal2 } from '../../../queries/shared/sql.ts';
import { AGRIFOOD_DATASETS, AGRIFOOD_PRICES } from '../datasets.ts';
import { anomalyItemSql, decimalText, PRICE_ITEM_SQL, priceText, SERIES_ITEM_SQL } from './filters.ts';
import { MIN_PERCENT_DEFAULT, Z_DEFAULT } from './params.ts';

export { AGRIFOOD_DATASETS, type AgrifoodDatasetId } from '../datasets.ts';

/** Series order: total because series_id numbers the distinct series in it. */
const SERIES_ORDER = 'dataset, commodity_id, member_state_code, market_name NULLS FIRST, stage_name NULLS FIRST, unit NULLS FIRST';

/** The columns that name a series. */
const SERIES_COLUMNS = ['dataset', 'commodity_id', 'member_state_code', 'market_name', 'stage_name', 'unit'] as const;

/** Every text column of a price row but the per-week ones (marketing year, reference period). */
const KEY_COLUMNS = [
  ...SERIES_COLUMNS, 'market_code', 'stage_code', 'product_type', 'pig_class', 'product_name', 'product_code', 'member_state_name',
] as const;
const KEY_ORDER = KEY_COLUMNS.map((column) => `${column} NULLS FIRST`).join(', ');
const SAME_KEY = KEY_COLUMNS.map((column) => `p.${column} IS NOT DISTINCT FROM k.${column}`).join(' AND ');

/**
 * Rewrites a rendered table as its `keep` columns (what requests filter and position on) and `item`:
 * the JSON text of the answer's columns (all but the positions, keys and sizes), in table order (an
 * answer's item, keys in output order). A page
 * then reads one text column, not a score of them: each column read back from the file costs per
 * vector it touches, and a filtered page's rows are spread over many vectors. The values are strings,
 * integers, dates and lists, which JSON carries exactly (JSON.parse gives what the driver would).
 * `uncompressed` stores the items as plain text: a page whose rows are spread over the table (a
 * threshold's or a filter's few rows) then reads only its rows' text, where a compressed vector is
 * decoded whole; kept for the small tables (anomalies, latest), where the size does not matter.
 */
async function itemAsJson(db: Database, table: string, keep: readonly string[], orderBy: string, storage: 'compressed' | 'uncompressed' = 'compressed'): Promise<void> {
  // The columns kept that are not part of the answer: the rest (filter columns included) make the item.
  const hidden = ['price_order', 'key_id', 'list_pos', 'series_id', 'percent_size', 'z_size', 'pos_all', 'pos_dataset', 'pos_country', 'pos_both'];
  const described = await db.all(`SELECT column_name, column_type FROM (DESCRIBE ${table})`);
  const columns = described.map((row) => String(row.column_name)).filter((column) => !hidden.includes(column));
  const typeOf = new Map(described.map((row) => [String(row.column_name), String(row.column_type)]));
  const select = `SELECT ${keep.join(', ')}, to_json(struct_pack(${columns.map((column) => `"${column}" := "${column}"`).join(', ')}))::VARCHAR AS item
      FROM ${table}_wide ORDER BY ${orderBy}`;
  await db.run(`ALTER TABLE ${table} RENAME TO ${table}_wide`);
  if (storage === 'compressed') {
    await db.run(`CREATE TABLE ${table} AS ${select}`);
  } else {
    await db.run(`CREATE TABLE ${table} (${keep.map((column) => `${column} ${typeOf.get(column)}`).join(', ')}, item VARCHAR USING COMPRESSION uncompressed)`);
    await db.run(`INSERT INTO ${table} ${select}`);
  }
  await db.run(`DROP TABLE ${table}_wide`);
}

export async function loadAgrifood(db: Database, dataDir: string): Promise<void> {
  // The three files have the same columns: one table holds them all.
  await db.run(createTableSql(AGRIFOOD_PRICES.cereals_prices, 'agri_prices'));
  for (const dataset of AGRIFOOD_DATASETS) await insertDataset(db, AGRIFOOD_PRICES[dataset], dataDir, 'agri_prices');

  await db.run(`CREATE TABLE agri_price_keys AS
    SELECT row_number() OVER (ORDER BY ${KEY_ORDER})::INTEGER AS key_id,
           dense_rank() OVER (ORDER BY ${SERIES_ORDER})::INTEGER AS series_id, *
      FROM (SELECT DISTINCT ${KEY_COLUMNS.join(', ')} FROM agri_prices)
     ORDER BY key_id`);

  // Newest first, then the series (series_id is the series order), end_date and file position:
  // total, since dataset + source_row is unique. Numbered on the narrow rows (a cheap sort).
  await db.run(`CREATE TABLE agri_price_facts AS
    SELECT row_number() OVER (ORDER BY p.begin_date DESC, k.series_id, p.end_date NULLS FIRST, p.source_row)::INTEGER AS price_order,
           k.key_id, k.series_id, p.begin_date, p.end_date, p.week_number, p.marketing_year, p.reference_period, p.price, p.source_row
      FROM agri_prices p JOIN agri_price_keys k ON ${SAME_KEY}
     ORDER BY price_order`);
  // Pages of filtered lists read their rows here by price_order (see pages.ts).
  await db.run('CREATE UNIQUE INDEX agri_price_facts_order ON agri_price_facts (price_order)');
  await db.run(`CREATE TABLE agri_price_index AS
    SELECT key_id, price_order, begin_date, week_number, marketing_year FROM agri_price_facts ORDER BY key_id, price_order`);
  await db.run(`CREATE TABLE agri_price_weeks AS
    SELECT week_number, price_order, begin_date FROM agri_price_facts WHERE week_number IS NOT NULL ORDER BY week_number, price_order`);
  await db.run(`CREATE TABLE agri_price_marketing_years AS
    SELECT marketing_year, price_order, begin_date FROM agri_price_facts WHERE marketing_year IS NOT NULL ORDER BY marketing_year, price_order`);
  await db.run(`CREATE TABLE agri_price_dates AS
    SELECT begin_date, min(price_order) AS first_order, max(price_order) AS last_order
      FROM agri_price_facts GROUP BY begin_date ORDER BY begin_date`);

  // Per series, over its priced rows: the mean and population standard deviation the z-scores use,
  // and the newest row (begin_date, then end_date and file position, latest first).
  await db.run(`CREATE TABLE agri_series AS
    SELECT k.series_id, ${SERIES_COLUMNS.map((column) => `k.${column}`).join(', ')},
           s.series_mean, s.series_stddev, coalesce(s.series_observations, 0) AS series_observations, s.latest_order
      FROM (SELECT DISTINCT series_id, ${SERIES_COLUMNS.join(', ')} FROM agri_price_keys) AS k
      LEFT JOIN (
        SELECT series_id, avg(price) AS series_mean, stddev_pop(price) AS series_stddev, count(*) AS series_observations,
               first(price_order ORDER BY begin_date DESC, end_date DESC NULLS LAST, source_row DESC) AS latest_order
          FROM agri_price_facts WHERE price IS NOT NULL GROUP BY series_id
      ) AS s USING (series_id)
     ORDER BY k.series_id`);

  // Within a series, observations run by begin_date; equal dates by end_date and file position.
  const changes = lagChangesSql({
    from: 'agri_price_facts',
    value: 'price',
    period: 'begin_date',
    partitionBy: ['series_id'],
    tieBreak: ['end_date NULLS FIRST', 'source_row'],
  });
  await db.run(`CREATE TABLE agri_price_stats AS
    SELECT c.price_order, c.key_id, c.series_id, c.begin_date, c.week_number, c.marketing_year, c.price,
           c.previous_value, c.previous_period, c.absolute_change, c.percent_change,
           (c.price - s.series_mean) / nullif(s.series_stddev, 0) AS zscore
      FROM (${changes}) AS c JOIN agri_series s USING (series_id)
     ORDER BY c.price_order`);
  // Pages of changes and anomalies read their rows here by price_order (see pages.ts).
  await db.run('CREATE UNIQUE INDEX agri_price_stats_order ON agri_price_stats (price_order)');

  // The rendered rows of the price lists and of the changes, sorted by price_order (a page is a
  // price_order range of them, pruned by zone maps and kept in table order), with key_id so that a
  // filtered list keeps its keys' rows; agri_key_grid says, per key, how many rows and changes it has
  // at each begin_date (newest first), from which the page's range is computed (keyGrid.ts).
  await db.run(`CREATE TABLE agri_price_rows AS
    SELECT f.price_order, f.key_id, ${PRICE_ITEM_SQL}
      FROM agri_price_facts f JOIN agri_price_keys k ON k.key_id = f.key_id
     ORDER BY f.price_order`);
  await db.run(`CREATE TABLE agri_change_rows AS
    SELECT st.price_order, st.key_id, row_number() OVER (ORDER BY st.price_order)::INTEGER AS list_pos, 'price' AS metric, ${SERIES_ITEM_SQL}, st.begin_date AS period, st.previous_period, st.week_number,
           st.marketing_year, ${priceText('st.previous_value')} AS previous_value, ${priceText('st.price')} AS current_value,
           ${priceText('st.absolute_change')} AS absolute_change, ${decimalText(decimal2('st.percent_change'))} AS percentage_change
      FROM agri_price_stats st JOIN agri_price_keys k ON k.key_id = st.key_id
     WHERE st.previous_value IS NOT NULL
     ORDER BY st.price_order`);
  // The anomalies at the default thresholds, rendered, in price_order, with their sizes (see series.ts).
  await db.run(`CREATE TABLE agri_anomaly_rows AS
    SELECT st.price_order, st.key_id, abs(st.percent_change) AS percent_size, abs(st.zscore) AS z_size,
           row_number() OVER (ORDER BY st.price_order)::INTEGER AS pos_all,
           row_number() OVER (PARTITION BY k.dataset ORDER BY st.price_order)::INTEGER AS pos_dataset,
           row_number() OVER (PARTITION BY k.member_state_code ORDER BY st.price_order)::INTEGER AS pos_country,
           row_number() OVER (PARTITION BY k.dataset, k.member_state_code ORDER BY st.price_order)::INTEGER AS pos_both,
           ${anomalyItemSql(String(MIN_PERCENT_DEFAULT), String(Z_DEFAULT))}
      FROM agri_price_stats st JOIN agri_price_keys k ON k.key_id = st.key_id JOIN agri_series se ON se.series_id = st.series_id
     WHERE coalesce(abs(st.percent_change) >= ${MIN_PERCENT_DEFAULT}, false) OR coalesce(abs(st.zscore) >= ${Z_DEFAULT}, false)
     ORDER BY st.price_order`);
  await db.run(`CREATE TABLE agri_key_grid AS
    WITH dates AS (
      SELECT begin_date, (row_number() OVER (ORDER BY begin_date DESC) - 1)::INTEGER AS date_index FROM agri_price_dates
    ), cells AS (
      SELECT f.key_id, f.begin_date, count(*)::INTEGER AS prices, count(st.previous_value)::INTEGER AS changes
        FROM agri_price_facts f LEFT JOIN agri_price_stats st ON st.price_order = f.price_order
       GROUP BY f.key_id, f.begin_date
    )
    SELECT k.key_id, (SELECT count(*) FROM agri_anomaly_rows a WHERE a.key_id = k.key_id)::INTEGER AS anomalies,
           string_agg(chr(48 + coalesce(c.prices, 0)), '' ORDER BY d.date_index) AS prices,
           string_agg(chr(48 + coalesce(c.changes, 0)), '' ORDER BY d.date_index) AS changes
      FROM agri_price_keys k CROSS JOIN dates d LEFT JOIN cells c ON c.key_id = k.key_id AND c.begin_date = d.begin_date
     GROUP BY k.key_id ORDER BY k.key_id`);

  // With the series' dataset and member state, the filters of /api/v1/anomalies.
  await db.run(`CREATE TABLE agri_moves_by_percent AS
    SELECT abs(st.percent_change) AS size, st.price_order, se.dataset, se.member_state_code
      FROM agri_price_stats st JOIN agri_series se USING (series_id)
     WHERE st.percent_change IS NOT NULL ORDER BY size DESC, st.price_order`);
  await db.run(`CREATE TABLE agri_moves_by_z AS
    SELECT abs(st.zscore) AS size, abs(st.percent_change) AS percent_size, st.price_order, se.dataset, se.member_state_code
      FROM agri_price_stats st JOIN agri_series se USING (series_id)
     WHERE st.zscore IS NOT NULL ORDER BY size DESC, st.price_order`);

  await db.run(`CREATE TABLE agri_latest AS
    SELECT se.series_id, row_number() OVER (ORDER BY se.series_id)::INTEGER AS pos_all,
           row_number() OVER (PARTITION BY se.dataset ORDER BY se.series_id)::INTEGER AS pos_dataset,
           row_number() OVER (PARTITION BY se.member_state_code ORDER BY se.series_id)::INTEGER AS pos_country,
           row_number() OVER (PARTITION BY se.dataset, se.member_state_code ORDER BY se.series_id)::INTEGER AS pos_both, ${SERIES_ITEM_SQL}, st.begin_date, f.end_date, st.week_number, st.marketing_year,
           ${priceText('st.price')} AS price, ${priceText('st.previous_value')} AS previous_value, st.previous_period,
           ${priceText('st.absolute_change')} AS absolute_change, ${decimalText(decimal2('st.percent_change'))} AS percentage_change,
           se.series_observations::INTEGER AS observations
      FROM agri_series se
      JOIN agri_price_stats st ON st.price_order = se.latest_order
      JOIN agri_price_facts f ON f.price_order = se.latest_order
      JOIN agri_price_keys k ON k.key_id = st.key_id
     ORDER BY se.series_id`);

  // The rendered rows as JSON items (after agri_key_grid and the moves, which read their keys).
  const positions = ['pos_all', 'pos_dataset', 'pos_country', 'pos_both'];
  await itemAsJson(db, 'agri_price_rows', ['price_order', 'key_id'], 'price_order');
  await itemAsJson(db, 'agri_change_rows', ['price_order', 'key_id', 'list_pos'], 'price_order');
  await itemAsJson(db, 'agri_anomaly_rows', ['price_order', 'key_id', 'percent_size', 'z_size', ...positions, 'dataset', 'member_state_code'], 'price_order', 'uncompressed');
  await itemAsJson(db, 'agri_latest', ['series_id', ...positions, 'dataset', 'member_state_code'], 'series_id', 'uncompressed');
  // Key-major copies for filtered pages (keyGrid.ts): a key's rows are adjacent, newest first, and kpos
  // (0-based) numbers them, so the rows of a few keys in a date window are a short kpos range whose
  // items sit in a few vectors, where the price_order range holds every key's rows of those dates.
  // The price rows keep their period (week, marketing year): a period filter is applied there.
  await db.run(`CREATE TABLE agri_price_rows_by_key AS
    SELECT (row_number() OVER (ORDER BY r.key_id, r.price_order) - 1)::INTEGER AS kpos, r.price_order, r.key_id,
           f.week_number, f.marketing_year, r.item
      FROM agri_price_rows r JOIN agri_price_facts f ON f.price_order = r.price_order ORDER BY r.key_id, r.price_order`);
  await db.run(`CREATE TABLE agri_change_rows_by_key AS
    SELECT (row_number() OVER (ORDER BY key_id, price_order) - 1)::INTEGER AS kpos, price_order, key_id, item
      FROM agri_change_rows ORDER BY key_id, price_order`);

  // The lists of commodities, countries and datasets count rows per key first (a few thousand rows).
  await db.run(`CREATE TABLE agri_key_counts AS
    SELECT k.*, c.observations, c.priced_observations, c.first_date, c.last_date
      FROM agri_price_keys k JOIN (
        SELECT key_id, count(*) AS observations, count(price) AS priced_observations,
               min(begin_date) AS first_date, max(begin_date) AS last_date
          FROM agri_price_facts GROUP BY key_id
      ) AS c USING (key_id)`);

  await db.run(`CREATE TABLE agri_commodities AS
    SELECT commodity_id, dataset, product_name, min(product_code) AS product_code, product_type, pig_class,
           list(DISTINCT unit ORDER BY unit) FILTER (WHERE unit IS NOT NULL) AS units,
           count(DISTINCT member_state_code)::INTEGER AS country_count,
           sum(observations)::INTEGER AS observations, sum(priced_observations)::INTEGER AS priced_observations,
           min(first_date) AS first_date, max(last_date) AS last_date
      FROM agri_key_counts GROUP BY commodity_id, dataset, product_name, product_type, pig_class
      ORDER BY commodity_id`);

  // A code's name: the most frequent spelling in the data (ties: alphabetical).
  await db.run(`CREATE TABLE agri_countries AS
    WITH names AS (
      SELECT member_state_code AS code, member_state_name AS name, sum(observations) AS n FROM agri_key_counts GROUP BY ALL
    ), picked AS (
      SELECT code, name FROM (SELECT *, row_number() OVER (PARTITION BY code ORDER BY n DESC, name) AS pick FROM names) WHERE pick = 1
    )
    SELECT c.member_state_code AS code, picked.name,
           list(DISTINCT c.dataset ORDER BY c.dataset) AS datasets,
           sum(c.observations)::INTEGER AS observations, min(c.first_date) AS first_date, max(c.last_date) AS last_date
      FROM agri_key_counts c JOIN picked ON picked.code = c.member_state_code
      GROUP BY c.member_state_code, picked.name ORDER BY code`);

  // Every dataset of the specification has its facts, zero when it has no rows.
  const datasets = AGRIFOOD_DATASETS.map((dataset) => `('${dataset}')`).join(', ');
  await db.run(`CREATE TABLE agri_dataset_facts AS
    SELECT d.dataset, coalesce(sum(c.observations), 0)::INTEGER AS rows, coalesce(sum(c.priced_observations), 0)::INTEGER AS priced_rows,
           count(DISTINCT c.commodity_id)::INTEGER AS commodities, count(DISTINCT c.member_state_code)::INTEGER AS countries,
           min(c.first_date) AS first_date, max(c.last_date) AS last_date
      FROM (VALUES ${datasets}) AS d(dataset) LEFT JOIN agri_key_counts c ON c.dataset = d.dataset
     GROUP BY d.dataset ORDER BY d.dataset`);
  await db.run('DROP TABLE agri_key_counts');
}
