// Agri-food tables, built once at load from the per-dataset snapshot files (each holds only the
// latest import of its dataset):
//   agri_prices        every price row of the three datasets (the union), with price_order, a total
//                      order newest first that every list follows;
//   agri_price_stats   the rows with a price, with the LAG change against the previous observation of
//                      their series, the population z-score of the price within the series and
//                      whether the row is the series' newest;
//   agri_commodities   one row per commodity id; agri_countries one row per member state of the data.
// A series is (dataset, commodity_id, member_state_code, market_name, stage_name, unit).
import type { Database } from '../../../engine/database.ts';
import { createTableSql, insertDataset } from '../../../engine/dataset.ts';
import { lagChangesSql } from '../../../queries/shared/changes.ts';
import { zScore } from '../../../queries/shared/sql.ts';
import { AGRIFOOD_DATASETS, AGRIFOOD_PRICES } from '../datasets.ts';

export { AGRIFOOD_DATASETS, type AgrifoodDatasetId } from '../datasets.ts';

export const SERIES_COLUMNS = ['dataset', 'commodity_id', 'member_state_code', 'market_name', 'stage_name', 'unit'] as const;
const SERIES = SERIES_COLUMNS.join(', ');

/** Newest first, then the series, then the file position: total (dataset + source_row is unique). */
export const PRICE_ORDER =
  'begin_date DESC, dataset, commodity_id, member_state_code, market_name NULLS FIRST, stage_name NULLS FIRST, ' +
  'unit NULLS FIRST, end_date NULLS FIRST, source_row';

/** Series order (for one row per series): total because a series has one newest row. */
export const SERIES_ORDER = 'dataset, commodity_id, member_state_code, market_name NULLS FIRST, stage_name NULLS FIRST, unit NULLS FIRST';

export async function loadAgrifood(db: Database, dataDir: string): Promise<void> {
  // The three files have the same columns: one table holds them all.
  await db.run(createTableSql(AGRIFOOD_PRICES.cereals_prices, 'agri_price_rows'));
  for (const dataset of AGRIFOOD_DATASETS) await insertDataset(db, AGRIFOOD_PRICES[dataset], dataDir, 'agri_price_rows');
  await db.run(`CREATE TABLE agri_prices AS
    SELECT row_number() OVER (ORDER BY ${PRICE_ORDER})::INTEGER AS price_order, *
      FROM agri_price_rows ORDER BY price_order`);
  await db.run('DROP TABLE agri_price_rows');

  // Within a series, observations run by begin_date; equal dates by end_date and file position.
  const changes = lagChangesSql({
    from: 'agri_prices',
    value: 'price',
    period: 'begin_date',
    partitionBy: SERIES_COLUMNS,
    tieBreak: ['end_date NULLS FIRST', 'source_row'],
  });
  await db.run(`CREATE TABLE agri_price_stats AS
    SELECT changes.*,
      ${zScore('price', SERIES)} AS zscore,
      avg(price) OVER (PARTITION BY ${SERIES}) AS series_mean,
      stddev_pop(price) OVER (PARTITION BY ${SERIES}) AS series_stddev,
      count(*) OVER (PARTITION BY ${SERIES}) AS series_observations,
      row_number() OVER (PARTITION BY ${SERIES} ORDER BY begin_date DESC, end_date DESC NULLS LAST, source_row DESC) = 1 AS is_latest
    FROM (${changes}) AS changes
    ORDER BY price_order`);

  await db.run(`CREATE TABLE agri_commodities AS
    SELECT commodity_id, dataset, product_name, min(product_code) AS product_code, product_type, pig_class,
           list(DISTINCT unit ORDER BY unit) FILTER (WHERE unit IS NOT NULL) AS units,
           count(DISTINCT member_state_code)::INTEGER AS country_count,
           count(*)::INTEGER AS observations, count(price)::INTEGER AS priced_observations,
           min(begin_date) AS first_date, max(begin_date) AS last_date
      FROM agri_prices GROUP BY commodity_id, dataset, product_name, product_type, pig_class
      ORDER BY commodity_id`);

  // A code's name: the most frequent spelling in the data (ties: alphabetical).
  await db.run(`CREATE TABLE agri_countries AS
    WITH names AS (
      SELECT member_state_code AS code, member_state_name AS name, count(*) AS n FROM agri_prices GROUP BY ALL
    ), picked AS (
      SELECT code, name FROM (SELECT *, row_number() OVER (PARTITION BY code ORDER BY n DESC, name) AS pick FROM names) WHERE pick = 1
    )
    SELECT p.member_state_code AS code, picked.name,
           list(DISTINCT p.dataset ORDER BY p.dataset) AS datasets,
           count(*)::INTEGER AS observations, min(p.begin_date) AS first_date, max(p.begin_date) AS last_date
      FROM agri_prices p JOIN picked ON picked.code = p.member_state_code
      GROUP BY p.member_state_code, picked.name ORDER BY code`);
}
