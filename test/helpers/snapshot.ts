// Writes a hand-made SEBRA snapshot (the Parquet files ingest would write) for query tests,
// so query tests do not depend on the parsers.
import path from 'node:path';
import { Database } from '../../engine/database.ts';
import { sqlStringLiteral } from '../../engine/parquet.ts';
import { tempDirUntilExit } from './tmp.ts';

export interface FixturePayment {
  date: string;
  currency: 'BGN' | 'EUR';
  programme: string;
  code: string;
  description: string;
  amount: string;
  count: number | null;
}

export interface FixtureDay {
  date: string;
  currency: 'BGN' | 'EUR';
  status: 'HAS_PAYMENTS' | 'NO_PAYMENTS';
}

export async function writeSebraSnapshot(payments: FixturePayment[], days: FixtureDay[], dir?: string): Promise<string> {
  const dataDir = dir ?? (await tempDirUntilExit('sebra-fixture-'));
  const db = await Database.open({ connections: 1 });
  try {
    await db.run(`CREATE TABLE p (payment_date VARCHAR, currency VARCHAR, programme VARCHAR, programme_code VARCHAR,
      account_code VARCHAR, account_description VARCHAR, amount VARCHAR, payment_count INTEGER, source_file VARCHAR)`);
    await db.appendRows('p', payments.map((p) => [p.date, p.currency, p.programme, null, p.code, p.description, p.amount, p.count, 'fixture']));
    await db.run(`CREATE TABLE d (payment_date VARCHAR, currency VARCHAR, status VARCHAR, source_file VARCHAR)`);
    await db.appendRows('d', days.map((d) => [d.date, d.currency, d.status, 'fixture']));
    await db.run(`CREATE TABLE i (dataset VARCHAR, source VARCHAR, source_file VARCHAR, file_hash VARCHAR, import_date VARCHAR, row_count INTEGER)`);
    await db.appendRows('i', [['sebra_payments', 'fixture', 'fixture', 'f'.repeat(64), '2026-11-01 10:00:00', payments.length]]);
    const out = (name: string) => sqlStringLiteral(path.join(dataDir, `${name}.parquet`));
    await db.run(`COPY (SELECT CAST(payment_date AS DATE) AS payment_date, currency, programme, programme_code, account_code,
      account_description, CAST(amount AS DECIMAL(18,2)) AS amount, payment_count, source_file FROM p) TO ${out('sebra_payments')} (FORMAT PARQUET)`);
    await db.run(`COPY (SELECT CAST(payment_date AS DATE) AS payment_date, currency, status, source_file FROM d) TO ${out('sebra_days')} (FORMAT PARQUET)`);
    await db.run(`COPY (SELECT dataset, source, source_file, NULL::VARCHAR AS source_url, file_hash,
      CAST(import_date AS TIMESTAMP) AS import_date, row_count FROM i) TO ${out('imports')} (FORMAT PARQUET)`);
  } finally {
    await db.close();
  }
  return dataDir;
}
