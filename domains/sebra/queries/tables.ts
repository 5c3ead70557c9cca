// SEBRA tables and the rollups every SEBRA endpoint reads. Only days with status
// HAS_PAYMENTS enter the rollups; a line without a stated payment count counts as one payment.
import type { Database } from '../../../engine/database.ts';
import { loadDataset } from '../../../engine/dataset.ts';
import { SEBRA_DAYS, SEBRA_PAYMENTS } from '../datasets.ts';
import { CATEGORIES, categoryKeyFor } from './categories.ts';

export async function loadSebra(db: Database, dataDir: string): Promise<void> {
  await loadDataset(db, SEBRA_PAYMENTS, dataDir);
  await loadDataset(db, SEBRA_DAYS, dataDir);

  await db.run(`CREATE TABLE sebra_categories (
    category_key VARCHAR PRIMARY KEY, category VARCHAR NOT NULL, always_present BOOLEAN NOT NULL, sort_order INTEGER NOT NULL)`);
  for (const c of CATEGORIES) {
    await db.run('INSERT INTO sebra_categories VALUES ($key, $label, $always, $order)', {
      key: c.key, label: c.label, always: c.alwaysPresent, order: c.order,
    });
  }
  await loadAccountCategories(db);

  // One row per payment line of a HAS_PAYMENTS day, with its bucket.
  await db.run(`CREATE TABLE sebra_lines AS
    SELECT p.payment_date, p.currency, p.programme, p.account_code, p.account_description, a.category_key,
           p.amount, coalesce(p.payment_count, 1) AS payment_count
    FROM sebra_payments p
    JOIN sebra_days d ON d.payment_date = p.payment_date AND d.currency = p.currency AND d.status = 'HAS_PAYMENTS'
    JOIN sebra_account_categories a ON a.account_code = p.account_code AND a.account_description = p.account_description`);

  await db.run(`CREATE TABLE sebra_daily AS
    SELECT payment_date, currency, CAST(sum(amount) AS DECIMAL(38,2)) AS total_amount, sum(payment_count)::BIGINT AS payment_count
    FROM sebra_lines GROUP BY payment_date, currency ORDER BY payment_date, currency`);
  await db.run(`CREATE TABLE sebra_programme_daily AS
    SELECT payment_date, currency, programme, CAST(sum(amount) AS DECIMAL(38,2)) AS total_amount, sum(payment_count)::BIGINT AS payment_count
    FROM sebra_lines GROUP BY payment_date, currency, programme ORDER BY payment_date, currency, programme`);
  await db.run(`CREATE TABLE sebra_account_daily AS
    SELECT payment_date, currency, category_key, account_code, account_description,
           CAST(sum(amount) AS DECIMAL(38,2)) AS total_amount, sum(payment_count)::BIGINT AS payment_count
    FROM sebra_lines GROUP BY ALL ORDER BY payment_date, currency, category_key, account_code, account_description`);
}

/** The bucket of every (code, description) pair present, computed by the one mapping function. */
async function loadAccountCategories(db: Database): Promise<void> {
  await db.run(`CREATE TABLE sebra_account_categories (
    account_code VARCHAR NOT NULL, account_description VARCHAR NOT NULL, category_key VARCHAR NOT NULL)`);
  const pairs = await db.all('SELECT DISTINCT account_code, account_description FROM sebra_payments ORDER BY ALL');
  await db.appendRows(
    'sebra_account_categories',
    pairs.map((p) => {
      const code = String(p.account_code);
      const description = String(p.account_description);
      return [code, description, categoryKeyFor(code, description)];
    }),
  );
}
