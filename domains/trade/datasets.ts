// The trade snapshot table, declared once for the writer (ingest/snapshot.ts) and the loader
// (queries/tables.ts).
import { defineDataset } from '../../engine/dataset.ts';

/** The key of an observation: a newer file replaces the held row of each key it carries. */
export const TRADE_KEY = ['reporter', 'partner', 'product', 'flow', 'period', 'indicator'] as const;

/** Comext observations, one row per indicator as published (VALUE_IN_EUROS, QUANTITY_IN_100KG). */
export const TRADE_OBSERVATIONS = defineDataset({
  name: 'trade_observations',
  columns: [
    { name: 'reporter', type: 'VARCHAR', notNull: true },
    { name: 'partner', type: 'VARCHAR', notNull: true },
    { name: 'product', type: 'VARCHAR', notNull: true },
    { name: 'flow', type: 'INTEGER', notNull: true },
    { name: 'freq', type: 'VARCHAR', notNull: true },
    { name: 'period', type: 'VARCHAR', notNull: true },
    { name: 'indicator', type: 'VARCHAR', notNull: true },
    { name: 'value', type: 'DECIMAL(20,2)' },
    { name: 'flag', type: 'VARCHAR' },
    { name: 'last_update', type: 'TIMESTAMP' },
    { name: 'dataflow', type: 'VARCHAR' },
    { name: 'source_file', type: 'VARCHAR', notNull: true },
    { name: 'source_row', type: 'INTEGER', notNull: true },
    { name: 'file_hash', type: 'VARCHAR', notNull: true },
  ],
  /** The key is unique in the table, so this order is total. */
  orderBy: TRADE_KEY,
});
