// The SEBRA snapshot tables, declared once for the writer (ingest/snapshot.ts) and the loader
// (queries/tables.ts).
import { defineDataset } from '../../engine/dataset.ts';

/** One row per payment line of a day's report. */
export const SEBRA_PAYMENTS = defineDataset({
  name: 'sebra_payments',
  columns: [
    { name: 'payment_date', type: 'DATE', notNull: true },
    { name: 'currency', type: 'VARCHAR', notNull: true },
    { name: 'programme', type: 'VARCHAR', notNull: true },
    { name: 'programme_code', type: 'VARCHAR' },
    { name: 'account_code', type: 'VARCHAR', notNull: true },
    { name: 'account_description', type: 'VARCHAR', notNull: true },
    { name: 'amount', type: 'DECIMAL(18,2)', notNull: true },
    /** Null when the source does not state it (counts as one payment). */
    { name: 'payment_count', type: 'INTEGER' },
    { name: 'source_file', type: 'VARCHAR' },
  ],
  orderBy: ['payment_date', 'currency', 'programme', 'account_code', 'account_description', 'programme_code', 'amount', 'source_file'],
});

/** One row per reported day and currency, with its status (HAS_PAYMENTS or NO_PAYMENTS). */
export const SEBRA_DAYS = defineDataset({
  name: 'sebra_days',
  columns: [
    { name: 'payment_date', type: 'DATE', notNull: true },
    { name: 'currency', type: 'VARCHAR', notNull: true },
    { name: 'status', type: 'VARCHAR', notNull: true },
    { name: 'source_file', type: 'VARCHAR' },
  ],
  orderBy: ['payment_date', 'currency'],
});
