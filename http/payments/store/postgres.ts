// The shared payment store (DATABASE_URL): one PostgreSQL database for every replica. Exactly-once
// comes from the database: a settlement is one row whose key is the primary key and whose payment
// id is unique (a second `begin` is a unique violation), a lock is a row taken only when absent or
// lapsed, a counter is one upserted row. Every other failure, the connection's included, is thrown
// as PaymentStoreUnavailableError so the payment stage fails closed.
//
// Kept answers are bounded in age exactly (a read or a begin that meets an expired one evicts it
// first) and in bytes on a schedule: after a finish to settled, at most every EVICT_EVERY_MS or
// once an eighth of the bound was settled since, and in every stats().
import type pg from 'pg';
import type { QueryResult, QueryResultRow } from 'pg';
import { migrate } from './migrations.ts';
import { byTimeThenKey, checkBegin, checkFinish } from './settlements.ts';
import {
  PaymentStoreUnavailableError,
  SettlementExistsError,
  type LedgerRecord,
  type PaymentStore,
  type PaymentStoreStats,
  type Settlement,
  type SettlementChange,
  type SettlementState,
} from './types.ts';

/** pg's DatabaseError, set when a store first connects (pg loads then: a process without DATABASE_URL never loads it); no query fails before. */
let DatabaseError: typeof pg.DatabaseError | undefined;

export interface PostgresPaymentStoreOptions {
  /** postgres://user:password@host:port/database (the password never appears in a message). */
  connectionString: string;
  /** Bound on the body bytes of the answers kept for settled settlements. */
  maxAnswerBytes: number;
  /** Bound on the age (since updatedAt) of the answers kept for settled settlements. */
  maxAnswerAgeSeconds: number;
  now?: () => Date;
  log?: (message: string, error?: unknown) => void;
  /** Connections at most (default 10). */
  poolSize?: number;
}

const UNIQUE_VIOLATION = '23505';
const EVICT_EVERY_MS = 5_000;
/** Ended counter windows and lapsed refusals are deleted at most this often. */
const SWEEP_EVERY_MS = 60_000;
/** Refusals kept at most (as the file store). */
const MAX_REFUSALS = 100_000;
/** An unreachable server is reported after this long, not after the operating system's TCP timeout. */
const CONNECT_TIMEOUT_MS = 5_000;
/** A query the server does not answer fails after this long (a paid request never waits on it for ever). */
const QUERY_TIMEOUT_MS = 15_000;

/** Where a connection string points, without user or password: "host:port/database". */
export function describeServer(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    return `${url.hostname || 'localhost'}:${url.port || '5432'}${url.pathname.length > 1 ? url.pathname : ''}`;
  } catch {
    return 'the DATABASE_URL server';
  }
}

/** An error's message; a failed connection to every address of a host (AggregateError) gives each one's. */
function messageOf(error: unknown): string {
  if (error instanceof AggregateError && !error.message) return error.errors.map(messageOf).join('; ');
  return error instanceof Error ? error.message || error.name : String(error);
}

const isUniqueViolation = (error: unknown): error is pg.DatabaseError => DatabaseError !== undefined && error instanceof DatabaseError && error.code === UNIQUE_VIOLATION;

/** The field a failed settlement INSERT found taken, if that is why it failed. */
function existingField(error: unknown): SettlementExistsError['field'] | undefined {
  if (!isUniqueViolation(error)) return undefined;
  if (error.constraint === 'settlements_pkey') return 'key';
  if (error.constraint === 'settlements_payment_id_unique') return 'paymentId';
  return undefined;
}

/** SettlementExistsError for a taken key or payment id; any other unique violation (a transaction recorded twice) as an error of its own. */
function existingOrAsIs(error: unknown): Error {
  const field = existingField(error);
  if (field) return new SettlementExistsError(field);
  if (isUniqueViolation(error)) return new Error(`payment store: ${error.detail ?? 'a unique value'} is already recorded (${error.constraint})`, { cause: error });
  return error as Error;
}

interface SettlementRow {
  key: string;
  payment_id: string | null;
  state: SettlementState;
  valid_before: string;
  route: string;
  resource: string;
  payer: string;
  network: string;
  asset: string;
  pay_to: string;
  amount: string;
  payload: unknown;
  requirements: unknown;
  request: string;
  request_id: string | null;
  answer_status: number | null;
  answer_headers: Record<string, string> | null;
  answer_body: Buffer | null;
  transaction: string | null;
  created_at: Date;
  updated_at: Date;
}

function settlementOf(row: SettlementRow): Settlement {
  return {
    key: row.key,
    paymentId: row.payment_id,
    state: row.state,
    validBefore: Number(row.valid_before),
    route: row.route,
    resource: row.resource,
    terms: { payer: row.payer, network: row.network, asset: row.asset, payTo: row.pay_to, amount: row.amount },
    payload: row.payload,
    requirements: row.requirements,
    request: row.request,
    requestId: row.request_id,
    answer: row.answer_status === null ? null : { status: row.answer_status, headers: row.answer_headers!, body: row.answer_body! },
    transaction: row.transaction,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The columns an eviction clears: the answer, and the payment id (free again). */
const EVICTED = 'payment_id = NULL, answer_status = NULL, answer_headers = NULL, answer_body = NULL';
/** A settled settlement that eviction still has something to take from. */
const EVICTABLE = "state = 'settled' AND (answer_status IS NOT NULL OR payment_id IS NOT NULL)";

export class PostgresPaymentStore implements PaymentStore {
  readonly kind = 'postgres';
  /** host:port/database, for messages. */
  readonly server: string;

  private pool: pg.Pool | undefined;
  private opening: Promise<void> | undefined;
  private lastEvictionMs = -Infinity;
  private answerBytesSinceEviction = 0;
  private lastRefusalSweepMs = -Infinity;
  private lastCounterSweepMs = -Infinity;
  private readonly now: () => Date;
  private readonly log: (message: string, error?: unknown) => void;

  constructor(readonly options: PostgresPaymentStoreOptions) {
    this.server = describeServer(options.connectionString);
    this.now = options.now ?? (() => new Date());
    this.log = options.log ?? (() => undefined);
  }

  open(): Promise<void> {
    this.opening ??= this.connect().catch((error: unknown) => {
      this.opening = undefined; // a later open() tries again
      throw error;
    });
    return this.opening;
  }

  private async connect(): Promise<void> {
    const { default: pgModule } = await import('pg');
    DatabaseError = pgModule.DatabaseError;
    const pool = new pgModule.Pool({
      connectionString: this.options.connectionString,
      max: this.options.poolSize ?? 10,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      query_timeout: QUERY_TIMEOUT_MS,
    });
    // Without a listener, a connection dropped while idle would end the process.
    pool.on('error', (error) => this.log(`payment store: an idle connection to PostgreSQL at ${this.server} failed`, error));
    try {
      const client = await pool.connect();
      try {
        await migrate(client);
      } finally {
        client.release();
      }
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw new PaymentStoreUnavailableError(`payment store: PostgreSQL at ${this.server} cannot be used: ${messageOf(error)}`, error);
    }
    this.pool = pool;
  }

  async close(): Promise<void> {
    const pool = this.pool;
    this.pool = undefined;
    this.opening = undefined;
    await pool?.end();
  }

  async ping(): Promise<void> {
    await this.query('SELECT 1');
  }

  /** Runs one statement, its values bound; a unique violation is rethrown as is (the caller knows what it means), any other failure as unavailable. */
  private async query<Row extends QueryResultRow>(text: string, values: unknown[] = []): Promise<QueryResult<Row>> {
    if (!this.pool) throw new PaymentStoreUnavailableError('payment store: the PostgreSQL store is not open');
    try {
      return await this.pool.query<Row>(text, values);
    } catch (error) {
      if (isUniqueViolation(error)) throw error;
      throw new PaymentStoreUnavailableError(`payment store: PostgreSQL at ${this.server} failed: ${messageOf(error)}`, error);
    }
  }

  async tryLock(name: string, ttlMs: number, nowMs: number): Promise<boolean> {
    const { rowCount } = await this.query(
      `INSERT INTO locks (name, expires_at) VALUES ($1, $2)
       ON CONFLICT (name) DO UPDATE SET expires_at = excluded.expires_at WHERE locks.expires_at <= $3
       RETURNING name`,
      [name, new Date(nowMs + ttlMs), new Date(nowMs)],
    );
    return rowCount === 1;
  }

  async unlock(name: string): Promise<void> {
    await this.query('DELETE FROM locks WHERE name = $1', [name]);
  }

  async begin(settlement: Settlement): Promise<void> {
    checkBegin(settlement);
    try {
      await this.insert(settlement);
    } catch (error) {
      if (existingField(error) !== 'paymentId') throw existingOrAsIs(error);
      // The id may belong to an answer past its age that no eviction has reached yet: then it is free.
      if (!(await this.evictExpiredHolder(settlement.paymentId!))) throw new SettlementExistsError('paymentId');
      try {
        await this.insert(settlement);
      } catch (retryError) {
        throw existingOrAsIs(retryError);
      }
    }
  }

  private async insert(s: Settlement): Promise<void> {
    await this.query(
      `INSERT INTO settlements (key, payment_id, state, valid_before, route, resource, payer, network, asset, pay_to, amount,
         payload, requirements, request, answer_status, answer_headers, answer_body, transaction, created_at, updated_at, request_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::jsonb, $13::jsonb, $14, $15, $16::jsonb, $17, $18, $19, $20, $21)`,
      [
        s.key, s.paymentId, s.state, s.validBefore, s.route, s.resource,
        s.terms.payer, s.terms.network, s.terms.asset, s.terms.payTo, s.terms.amount,
        JSON.stringify(s.payload ?? null), JSON.stringify(s.requirements ?? null), s.request,
        s.answer?.status ?? null, s.answer ? JSON.stringify(s.answer.headers) : null, s.answer?.body ?? null,
        s.transaction, s.createdAt, s.updatedAt, s.requestId,
      ],
    );
  }

  async finish(key: string, change: SettlementChange): Promise<void> {
    let updated: QueryResult<{ answer_bytes: number }>;
    try {
      // An omitted (undefined) transaction stays; added headers join the kept answer's; unpaid drops the answer and frees the id.
      updated = await this.query(
        `UPDATE settlements SET
           state = $2::text,
           transaction = CASE WHEN $3::boolean THEN $4 ELSE transaction END,
           answer_status = CASE WHEN $2::text = 'unpaid' THEN NULL ELSE answer_status END,
           answer_headers = CASE WHEN $2::text = 'unpaid' THEN NULL WHEN $5::jsonb IS NULL THEN answer_headers ELSE answer_headers || $5::jsonb END,
           answer_body = CASE WHEN $2::text = 'unpaid' THEN NULL ELSE answer_body END,
           payment_id = CASE WHEN $2::text = 'unpaid' THEN NULL ELSE payment_id END,
           updated_at = $6
         WHERE key = $1 AND state IN ('pending', 'unknown')
         RETURNING coalesce(octet_length(answer_body), 0) AS answer_bytes`,
        [
          key, change.state, change.transaction !== undefined, change.transaction ?? null,
          change.addHeaders ? JSON.stringify(change.addHeaders) : null,
          change.updatedAt,
        ],
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw new Error(`payment store: the transaction ${change.transaction} is already recorded for another settlement`, { cause: error });
      throw error;
    }
    if (updated.rowCount === 0) {
      const { rows } = await this.query<{ state: SettlementState }>('SELECT state FROM settlements WHERE key = $1', [key]);
      checkFinish(key, rows[0]?.state);
      throw new Error(`payment store: the settlement ${key} could not be finished`); // not reached: checkFinish threw
    }
    if (change.state === 'settled') await this.evictOnSchedule(updated.rows[0]!.answer_bytes);
  }

  async byKey(key: string): Promise<Settlement | undefined> {
    const { rows } = await this.query<SettlementRow>('SELECT * FROM settlements WHERE key = $1', [key]);
    return rows[0] ? settlementOf(await this.withAgeEviction(rows[0])) : undefined;
  }

  async byPaymentId(paymentId: string): Promise<Settlement | undefined> {
    const { rows } = await this.query<SettlementRow>('SELECT * FROM settlements WHERE payment_id = $1', [paymentId]);
    if (!rows[0]) return undefined;
    const row = await this.withAgeEviction(rows[0]);
    return row.payment_id === paymentId ? settlementOf(row) : undefined;
  }

  async unresolved(): Promise<Settlement[]> {
    const { rows } = await this.query<SettlementRow>("SELECT * FROM settlements WHERE state IN ('pending', 'unknown') ORDER BY created_at, key");
    return rows.map(settlementOf);
  }

  async ledger(): Promise<LedgerRecord[]> {
    const { rows } = await this.query<{ created_at: Date } & Omit<LedgerRecord, 'time'>>(
      `SELECT created_at, key, state, route, resource, network, payer, amount, asset, transaction, request_id AS "requestId"
       FROM settlements WHERE state <> 'unpaid' ORDER BY created_at, key`,
    );
    // Sorted again as the file store sorts, so both give ties in the same order.
    return rows.map(({ created_at, ...record }) => ({ time: created_at.toISOString(), ...record })).sort(byTimeThenKey);
  }

  async rememberRefusal(payloadHash: string, reason: string, validBefore: number): Promise<void> {
    await this.query(
      `INSERT INTO refusals (payload_hash, reason, valid_before) VALUES ($1, $2, $3)
       ON CONFLICT (payload_hash) DO UPDATE SET reason = excluded.reason, valid_before = excluded.valid_before`,
      [payloadHash, reason, validBefore],
    );
    const nowMs = this.now().getTime();
    if (nowMs - this.lastRefusalSweepMs < SWEEP_EVERY_MS) return;
    this.lastRefusalSweepMs = nowMs;
    await this.sweep('refusals', async () => {
      await this.query('DELETE FROM refusals WHERE valid_before <= $1::numeric', [nowMs / 1000]);
      await this.query(
        'DELETE FROM refusals WHERE payload_hash IN (SELECT payload_hash FROM refusals ORDER BY valid_before DESC, payload_hash OFFSET $1)',
        [MAX_REFUSALS],
      );
    });
  }

  async refusal(payloadHash: string, nowSeconds: number): Promise<string | undefined> {
    const { rows } = await this.query<{ reason: string }>(
      'SELECT reason FROM refusals WHERE payload_hash = $1 AND valid_before > $2::numeric',
      [payloadHash, nowSeconds],
    );
    return rows[0]?.reason;
  }

  async hit(name: string, windowSeconds: number, nowMs: number): Promise<number> {
    const windowStart = Math.floor(nowMs / 1000 / windowSeconds) * windowSeconds;
    const { rows } = await this.query<{ count: number }>(
      `INSERT INTO counters (name, window_start, window_end, count) VALUES ($1, $2, $3, 1)
       ON CONFLICT (name, window_start) DO UPDATE SET count = counters.count + 1
       RETURNING count`,
      [name, windowStart, windowStart + windowSeconds],
    );
    if (nowMs - this.lastCounterSweepMs >= SWEEP_EVERY_MS) {
      this.lastCounterSweepMs = nowMs;
      await this.sweep('counters', () => this.query('DELETE FROM counters WHERE window_end <= $1::numeric', [nowMs / 1000]));
    }
    return rows[0]!.count;
  }

  async stats(): Promise<PaymentStoreStats> {
    await this.evictAnswers();
    const { rows } = await this.query<{ settlements: string; unresolved: string; answers: string; answer_bytes: string }>(
      `SELECT count(*) AS settlements,
              count(*) FILTER (WHERE state IN ('pending', 'unknown')) AS unresolved,
              count(answer_status) AS answers,
              coalesce(sum(octet_length(answer_body)), 0) AS answer_bytes
       FROM settlements`,
    );
    const row = rows[0]!;
    return { settlements: Number(row.settlements), unresolved: Number(row.unresolved), answers: Number(row.answers), answerBytes: Number(row.answer_bytes) };
  }

  /** The first answer at or past the age bound has this updated_at. */
  private ageCutoff(): Date {
    return new Date(this.now().getTime() - this.options.maxAnswerAgeSeconds * 1000);
  }

  /** A settled row whose answer (or payment id) is past its age, evicted now; any other row as it is. */
  private async withAgeEviction(row: SettlementRow): Promise<SettlementRow> {
    const cutoff = this.ageCutoff();
    const expired = row.state === 'settled' && (row.answer_status !== null || row.payment_id !== null) && row.updated_at <= cutoff;
    if (!expired) return row;
    const { rows } = await this.query<SettlementRow>(
      `UPDATE settlements SET ${EVICTED} WHERE key = $1 AND ${EVICTABLE} AND updated_at <= $2 RETURNING *`,
      [row.key, cutoff],
    );
    return rows[0] ?? { ...row, payment_id: null, answer_status: null, answer_headers: null, answer_body: null };
  }

  /** Frees `paymentId` if its holder's answer is past its age; true when it did. */
  private async evictExpiredHolder(paymentId: string): Promise<boolean> {
    const { rowCount } = await this.query(
      `UPDATE settlements SET ${EVICTED} WHERE payment_id = $1 AND ${EVICTABLE} AND updated_at <= $2`,
      [paymentId, this.ageCutoff()],
    );
    return rowCount === 1;
  }

  private async evictOnSchedule(addedBytes: number): Promise<void> {
    this.answerBytesSinceEviction += addedBytes;
    const due = this.now().getTime() - this.lastEvictionMs >= EVICT_EVERY_MS || this.answerBytesSinceEviction > this.options.maxAnswerBytes / 8;
    // The finish itself is done: a failed eviction is only logged, and the next one catches up.
    if (due) await this.evictAnswers().catch((error: unknown) => this.log('payment store: evicting kept answers failed', error));
  }

  /** Evicts settled answers past their age, then any heavier than maxAnswerBytes, then the oldest ones until the rest fit in it. */
  private async evictAnswers(): Promise<void> {
    this.lastEvictionMs = this.now().getTime();
    this.answerBytesSinceEviction = 0;
    await this.query(`UPDATE settlements SET ${EVICTED} WHERE ${EVICTABLE} AND updated_at <= $1`, [this.ageCutoff()]);
    // An answer heavier than the whole bound goes alone (evicting the others would not make room for it).
    await this.query(
      `UPDATE settlements SET ${EVICTED} WHERE state = 'settled' AND answer_status IS NOT NULL AND octet_length(answer_body) > $1`,
      [this.options.maxAnswerBytes],
    );
    // Keep the newest answers whose bytes add up to the bound; evict the older ones.
    await this.query(
      `UPDATE settlements SET ${EVICTED} WHERE key IN (
         SELECT key FROM (
           SELECT key, sum(octet_length(answer_body)) OVER (ORDER BY updated_at DESC, key DESC) AS bytes_up_to_here
           FROM settlements WHERE state = 'settled' AND answer_status IS NOT NULL
         ) AS kept WHERE bytes_up_to_here > $1)`,
      [this.options.maxAnswerBytes],
    );
  }

  /** Housekeeping after a successful operation: its failure is logged, never the operation's. */
  private async sweep(what: string, run: () => Promise<unknown>): Promise<void> {
    await run().catch((error: unknown) => this.log(`payment store: deleting lapsed ${what} failed`, error));
  }
}
