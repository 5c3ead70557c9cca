// The PostgreSQL payment store's schema, as versioned migrations: each is applied once, in order,
// and recorded in schema_migrations. They run in one transaction holding an advisory lock, so two
// replicas starting at once apply them once between them (the second waits, then finds them done).
// Append new migrations; never edit one that has shipped.
import type { PoolClient } from 'pg';

export interface Migration {
  version: number;
  sql: string;
}

/** The advisory lock the migrations take (any constant shared by every replica: "pds" 1). */
export const MIGRATION_LOCK = 0x7064_7301;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE settlements (
        key text COLLATE "C" PRIMARY KEY, -- byte order: ties sort the same as in the file store
        payment_id text,
        state text NOT NULL CHECK (state IN ('pending', 'settled', 'unknown', 'unpaid')),
        valid_before bigint NOT NULL,
        route text NOT NULL,
        resource text NOT NULL,
        payer text NOT NULL,
        network text NOT NULL,
        asset text NOT NULL,
        pay_to text NOT NULL,
        amount text NOT NULL,
        payload jsonb NOT NULL,
        requirements jsonb NOT NULL,
        request text NOT NULL,
        answer_status integer,
        answer_headers jsonb,
        answer_body bytea,
        transaction text,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL,
        CHECK ((answer_status IS NULL) = (answer_headers IS NULL) AND (answer_status IS NULL) = (answer_body IS NULL))
      );
      CREATE UNIQUE INDEX settlements_payment_id_unique ON settlements (payment_id) WHERE payment_id IS NOT NULL;
      CREATE UNIQUE INDEX settlements_transaction_unique ON settlements (transaction) WHERE transaction IS NOT NULL;
      -- reconcile's list, oldest first
      CREATE INDEX settlements_unresolved ON settlements (created_at, key) WHERE state IN ('pending', 'unknown');
      -- eviction: settled settlements still holding an answer or a payment id, oldest first
      CREATE INDEX settlements_evictable ON settlements (updated_at, key)
        WHERE state = 'settled' AND (answer_status IS NOT NULL OR payment_id IS NOT NULL);

      CREATE TABLE locks (
        name text PRIMARY KEY,
        expires_at timestamptz NOT NULL
      );

      CREATE TABLE refusals (
        payload_hash text PRIMARY KEY,
        reason text NOT NULL,
        valid_before bigint NOT NULL
      );
      CREATE INDEX refusals_valid_before ON refusals (valid_before);

      CREATE TABLE counters (
        name text NOT NULL,
        window_start bigint NOT NULL,
        window_end bigint NOT NULL,
        count integer NOT NULL,
        PRIMARY KEY (name, window_start)
      );
      CREATE INDEX counters_window_end ON counters (window_end);
    `,
  },
  {
    // The X-Request-Id of the request that paid (null for settlements recorded before it).
    version: 2,
    sql: 'ALTER TABLE settlements ADD COLUMN request_id text',
  },
];

/** Applies the migrations not applied yet; returns their versions. */
export async function migrate(client: PoolClient, migrations: readonly Migration[] = MIGRATIONS): Promise<number[]> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((row) => row.version));
    const ran: number[] = [];
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (applied.has(migration.version)) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [migration.version]);
      ran.push(migration.version);
    }
    await client.query('COMMIT');
    return ran;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
