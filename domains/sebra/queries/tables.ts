// SEBRA tables and the precomputed shapes every SEBRA endpoint reads. Only days with status
// HAS_PAYMENTS enter them; a line without a stated payment count counts as one payment.
//
// Shapes (each keyed by what the questions filter on, so a request costs O(result), not O(lines)):
//   sebra_daily               one row per day and currency (the z-scores of days, the 404 rule; held in
//                             memory per database for the period totals: dailyTotals.ts)
//   sebra_programmes          one id per programme and currency (the key of the programme shapes)
//   sebra_programme_daily     one row per programme id and day, sorted by id: read once into memory
//                             for unusual programme payouts (programmeScores.ts)
//   PROGRAMME_SUMS            running totals per programme id and day (days, payments, sum, sum of squares)
//   sebra_accounts            one id per account (code, description, bucket) and currency
//   sebra_account_daily       one row per account id and day (the source of ACCOUNT_SUMS)
//   ACCOUNT_SUMS              running totals per account id and day
//   sebra_category_daily      one row per day, currency and bucket (monthly expense spikes)
//   sebra_month_spans         every run of whole months with payment days (span_id, first_day, last_day:
//                             its first and last payment day); the key of the answers precomputed per
//                             span (load.ts): a window selects the same days as a span exactly when its
//                             first and last payment days are the span's
import type { Database } from '../../../engine/database.ts';
import { loadDataset } from '../../../engine/dataset.ts';
import { buildWindowSumsSql, type WindowSums } from '../../../queries/shared/windowSums.ts';
import { SEBRA_DAYS, SEBRA_PAYMENTS } from '../datasets.ts';
import { CATEGORIES, categoryKeyFor } from './categories.ts';

/** Per programme id (sebra_programmes): paying days, payments, amount and the sum of squared daily amounts in cents. */
export const PROGRAMME_SUMS: WindowSums = {
  table: 'sebra_programme_sums',
  keys: ['programme_id'],
  sums: { payment_count: 'BIGINT', total_amount: 'DECIMAL(38,2)', amount_cents_squared: 'HUGEINT' },
};

/** Per account id (sebra_accounts): days with spend, payments and amount. */
export const ACCOUNT_SUMS: WindowSums = {
  table: 'sebra_account_sums',
  keys: ['account_id'],
  sums: { payment_count: 'BIGINT', total_amount: 'DECIMAL(38,2)' },
};

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

  // One row per payment line of a HAS_PAYMENTS day, with its bucket (dropped once the shapes are built).
  await db.run(`CREATE TABLE sebra_lines AS
    SELECT p.payment_date, p.currency, p.programme, p.account_code, p.account_description, a.category_key,
           p.amount, coalesce(p.payment_count, 1) AS payment_count
    FROM sebra_payments p
    JOIN sebra_days d ON d.payment_date = p.payment_date AND d.currency = p.currency AND d.status = 'HAS_PAYMENTS'
    JOIN sebra_account_categories a ON a.account_code = p.account_code AND a.account_description = p.account_description`);

  await db.run(`CREATE TABLE sebra_daily AS
    SELECT payment_date, currency, CAST(sum(amount) AS DECIMAL(38,2)) AS total_amount, sum(payment_count)::BIGINT AS payment_count
    FROM sebra_lines GROUP BY payment_date, currency ORDER BY payment_date, currency`);
  await loadProgrammeShapes(db);
  await loadAccountShapes(db);
  await db.run('DROP TABLE sebra_lines');
  await db.run(`CREATE TABLE sebra_month_spans AS
    WITH months AS (
      SELECT date_trunc('month', payment_date) AS month, min(payment_date) AS first_day, max(payment_date) AS last_day
      FROM sebra_daily GROUP BY ALL
    )
    SELECT CAST(row_number() OVER (ORDER BY a.first_day, b.last_day) AS INTEGER) AS span_id, a.first_day, b.last_day
    FROM months a JOIN months b ON b.month >= a.month
    ORDER BY span_id`);
}

/**
 * The span of a window (bound as $from and $to, ISO dates): the id of the run of whole months whose
 * first and last payment days are the window's (null when the window has none, or is not such a run).
 * Everything a SEBRA answer reads from a window is a function of its payment days, so an answer
 * precomputed for a span is the answer of every window with that span.
 */
export const WINDOW_SPAN_SQL = `(SELECT span_id FROM sebra_month_spans
    WHERE first_day = (SELECT min(payment_date) FROM sebra_daily WHERE payment_date BETWEEN CAST($from AS DATE) AND CAST($to AS DATE))
      AND last_day = (SELECT max(payment_date) FROM sebra_daily WHERE payment_date BETWEEN CAST($from AS DATE) AND CAST($to AS DATE)))`;

/** Per month span: `lo` (the last position of the shape's calendar before it) and `hi` (its last day's position). */
export function spanPositionsSql(shape: WindowSums): string {
  const calendar = `${shape.table}_days`;
  return `SELECT s.span_id,
      (SELECT max(position) FROM ${calendar} c WHERE c.day < s.first_day) AS lo,
      (SELECT max(position) FROM ${calendar} c WHERE c.day <= s.last_day) AS hi
    FROM sebra_month_spans s`;
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

async function loadProgrammeShapes(db: Database): Promise<void> {
  await db.run(`CREATE TABLE sebra_programme_days_named AS
    SELECT currency, programme, payment_date, CAST(sum(amount) AS DECIMAL(38,2)) AS total_amount, sum(payment_count)::BIGINT AS payment_count
    FROM sebra_lines GROUP BY ALL`);
  // Programme ids, so the shapes (one row per programme and day) carry an integer, not a name. Ids follow
  // (currency, name): within a currency, ordering by id is ordering by name (the programmes' tie-break).
  await db.run(`CREATE TABLE sebra_programmes AS
    SELECT CAST(row_number() OVER (ORDER BY currency, programme) AS INTEGER) AS programme_id, currency, programme
    FROM (SELECT DISTINCT currency, programme FROM sebra_programme_days_named) ORDER BY programme_id`);
  await db.run(`CREATE TABLE sebra_programme_daily AS
    SELECT p.programme_id, d.payment_date, d.total_amount, d.payment_count
    FROM sebra_programme_days_named d JOIN sebra_programmes p USING (currency, programme)
    ORDER BY p.programme_id, d.payment_date`);
  await db.run('DROP TABLE sebra_programme_days_named');
  const source = `SELECT programme_id, payment_date AS day, payment_count, total_amount,
      CAST(total_amount * 100 AS HUGEINT) * CAST(total_amount * 100 AS HUGEINT) AS amount_cents_squared
    FROM sebra_programme_daily`;
  for (const sql of buildWindowSumsSql(PROGRAMME_SUMS, source)) await db.run(sql);
}

async function loadAccountShapes(db: Database): Promise<void> {
  await db.run(`CREATE TABLE sebra_account_days_named AS
    SELECT currency, category_key, account_code, account_description, payment_date,
           CAST(sum(amount) AS DECIMAL(38,2)) AS total_amount, sum(payment_count)::BIGINT AS payment_count
    FROM sebra_lines GROUP BY ALL`);
  await db.run(`CREATE TABLE sebra_accounts AS
    SELECT CAST(row_number() OVER (ORDER BY currency, category_key, account_code, account_description) AS INTEGER) AS account_id,
           currency, category_key, account_code, account_description
    FROM (SELECT DISTINCT currency, category_key, account_code, account_description FROM sebra_account_days_named)
    ORDER BY account_id`);
  await db.run(`CREATE TABLE sebra_account_daily AS
    SELECT a.account_id, d.payment_date, d.total_amount, d.payment_count
    FROM sebra_account_days_named d JOIN sebra_accounts a USING (currency, category_key, account_code, account_description)
    ORDER BY a.account_id, d.payment_date`);
  await db.run('DROP TABLE sebra_account_days_named');
  await db.run(`CREATE TABLE sebra_category_daily AS
    SELECT a.currency, a.category_key, d.payment_date, CAST(sum(d.total_amount) AS DECIMAL(38,2)) AS total_amount
    FROM sebra_account_daily d JOIN sebra_accounts a USING (account_id)
    GROUP BY ALL ORDER BY d.payment_date, a.currency, a.category_key`);
  const source = 'SELECT account_id, payment_date AS day, total_amount, payment_count FROM sebra_account_daily';
  for (const sql of buildWindowSumsSql(ACCOUNT_SUMS, source)) await db.run(sql);
}
