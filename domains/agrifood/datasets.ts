// The agri-food snapshot tables, declared once for the writer (ingest/snapshot.ts) and the loader
// (queries/tables.ts): one file per price dataset, agrifood_<dataset>.parquet, all with the same columns.
import { defineDataset, type Dataset, type DatasetColumn } from '../../engine/dataset.ts';

/** The dataset ids of the specification. */
export const AGRIFOOD_DATASETS = ['cereals_prices', 'oilseeds_prices', 'pigmeat_prices'] as const;
export type AgrifoodDatasetId = (typeof AGRIFOOD_DATASETS)[number];

const PRICE_COLUMNS: readonly DatasetColumn[] = [
  { name: 'dataset', type: 'VARCHAR', notNull: true },
  { name: 'commodity_id', type: 'VARCHAR', notNull: true },
  { name: 'product_name', type: 'VARCHAR', notNull: true },
  { name: 'product_code', type: 'VARCHAR' },
  { name: 'product_type', type: 'VARCHAR' },
  { name: 'pig_class', type: 'VARCHAR' },
  { name: 'member_state_code', type: 'VARCHAR', notNull: true },
  { name: 'member_state_name', type: 'VARCHAR', notNull: true },
  { name: 'market_name', type: 'VARCHAR' },
  { name: 'market_code', type: 'VARCHAR' },
  { name: 'stage_name', type: 'VARCHAR' },
  { name: 'stage_code', type: 'VARCHAR' },
  { name: 'begin_date', type: 'DATE', notNull: true },
  { name: 'end_date', type: 'DATE' },
  { name: 'week_number', type: 'INTEGER' },
  { name: 'marketing_year', type: 'VARCHAR' },
  { name: 'reference_period', type: 'VARCHAR' },
  { name: 'unit', type: 'VARCHAR' },
  { name: 'price', type: 'DECIMAL(18,4)' },
  { name: 'source_file', type: 'VARCHAR', notNull: true },
  /** Position in the source file: rows keep their file order, and the file is written in it. */
  { name: 'source_row', type: 'INTEGER', notNull: true },
  { name: 'file_hash', type: 'VARCHAR', notNull: true },
];

function priceDataset(id: AgrifoodDatasetId): Dataset {
  return defineDataset({ name: `agrifood_${id}`, columns: PRICE_COLUMNS, orderBy: ['source_row'] });
}

/** Each dataset's price rows (only its latest export: a new export replaces the file). */
export const AGRIFOOD_PRICES: Readonly<Record<AgrifoodDatasetId, Dataset>> = {
  cereals_prices: priceDataset('cereals_prices'),
  oilseeds_prices: priceDataset('oilseeds_prices'),
  pigmeat_prices: priceDataset('pigmeat_prices'),
};
