// Held state: copies of DuckDB rows kept in JavaScript per loaded database (a snapshot does not change
// while it is served), so that a keyed lookup needs no statement. Every copy is DECLARED here through
// heldView: its statements, key, order and bounds, how its JavaScript shape is built from the rows, and
// what the generated parity test (test/engine/held-parity.test.ts) needs to compare it with its own SQL.
// One registry lists every view; one memory budget is shared by all of them; warm-up, release and
// stats are here. A view over its bounds, over the budget, or refused by a guard (engine/heldGuards.ts)
// is not held: its accessor gives null and its requests keep their statement. A keyed family of views
// (heldFamily: one member per key, such as a dataset) is declared once too; its members are read on
// demand, each counted in the same budget.
// Keyed by Database.identity, so a wrapped database (the benchmark's recording proxy) shares it.
import type { Database, SqlParams } from './database.ts';
import type { Row } from './json.ts';

const ROW_OVERHEAD_BYTES = 64;
const VALUE_OVERHEAD_BYTES = 16;

/**
 * The bytes a row of db.all takes in V8, estimated: a fixed cost per row and per value, UTF-16 text, 8
 * per number and list item (within 15% of the heap's growth for 200,000 twelve-column rows).
 */
export function estimatedRowBytes(row: Row): number {
  let bytes = ROW_OVERHEAD_BYTES;
  for (const value of Object.values(row)) {
    bytes += VALUE_OVERHEAD_BYTES + (typeof value === 'string' ? 2 * value.length : Array.isArray(value) ? 16 * value.length : 8);
  }
  return bytes;
}

/** The rows of each statement of a view, by the statement's name in `sql`. */
export type HeldRows = Record<string, Row[]>;

/** What the generated parity test compares: for each probe, the held answer with the keyed statement's rows. */
export interface HeldParity<T> {
  /** Which part of the shape this checks, when a view has several checks. */
  part?: string;
  /** SQL giving the probes, one row each (its columns are the keyed statement's parameters); ordered and limited. */
  probes: string;
  /** The statement the held view replaces, for one probe (parameters named as the probe's columns). */
  keyed: string;
  /** The held answer to that statement for the probe, rows as db.all gives them; null: JavaScript declines (a guard). */
  answer(value: T, probe: Row): readonly Row[] | null | Promise<readonly Row[] | null>;
}

export interface HeldViewSpec<T> {
  /** Unique: `<domain>.<view>`. */
  name: string;
  /** The statements read, by name; each read whole with db.all, in this order (unless `read` is given). */
  sql: Readonly<Record<string, string>>;
  /** The key a lookup uses and the order rows are held in (documentation for stats and reviewers). */
  key: readonly string[];
  order: string;
  /** Bounds: more rows (all statements together) or more estimated bytes and the view is not held. */
  rowsMax: number;
  bytesMax: number;
  /**
   * 'sql' (default): over bounds or budget the accessor gives null and the caller keeps its statement.
   * 'none': the callers have no statement to fall back to; the view is always held, its bytes still counted.
   */
  fallback?: 'sql' | 'none';
  /** A statement giving `n`, the rows `sql` would read: checked before reading (a large table is not read at all). */
  count?: string;
  /** A bespoke reader (statements with parameters, read in batches); its rows are named as `sql`'s. */
  read?(db: Database): Promise<HeldRows>;
  /**
   * A bespoke index whose reading and building interleave (columns read as text and parsed into typed
   * arrays): gives the shape itself (null: not held), instead of `read` and `build`; `rowsOf` counts its rows.
   */
  load?(db: Database): Promise<T | null>;
  rowsOf?(value: T): number;
  /** The JavaScript shape from the rows; null when a guard refuses a value (the view is then not held). Given `load`, unused. */
  build?(rows: HeldRows): T | null;
  /** The shape's bytes when it is not the rows themselves (typed arrays); default: the rows' estimate. */
  bytesOf?(value: T, rows: HeldRows): number;
  /** How the generated test checks the view against SQL (one check per part of the shape); or why it cannot be. */
  parity: HeldParity<T> | readonly HeldParity<T>[] | { exempt: string };
  /** Set by heldFamily: the view is a family's list of members; each member's statements and bound in rows. */
  family?: { sql: Readonly<Record<string, string>>; memberRowsMax: number };
}

/**
 * A keyed family of views: one member per key (a dataset, say), listed by one statement and each read
 * on its first use by statements taking the key as $member. The family is one view of the registry
 * (warmed, released and reported with the others; its shape is a HeldFamily); its bounds are the
 * family's, the list and every held member together, and each member's bytes count in the one budget.
 */
export interface HeldFamilySpec<T> {
  /** Unique: `<domain>.<family>`. */
  name: string;
  /** The members' keys, one row each (column `member`), read with the family: another key is no member (client text cannot grow it). */
  members: string;
  /** One member's statements, by name, each with the parameter $member; read whole in this order. */
  sql: Readonly<Record<string, string>>;
  /** A statement giving `n`, the rows `sql` would read for one member ($member): checked before reading it. */
  count?: string;
  key: readonly string[];
  order: string;
  /** The family's bounds, its list and held members together: a member that would take it past them is not held, nor a list over them. */
  rowsMax: number;
  bytesMax: number;
  /** One member's bound in rows: a member with more is not held. */
  memberRowsMax: number;
  /** One member's JavaScript shape from its rows; null when a guard refuses a value (that member is then not held). */
  build(rows: HeldRows, member: string): T | null;
  /** A member's bytes when its shape is not its rows; default: the rows' estimate. */
  bytesOf?(value: T, rows: HeldRows): number;
  /** Checks over the family (its answer reads members through `member`); or why it cannot be. */
  parity: HeldParity<HeldFamily<T>> | readonly HeldParity<HeldFamily<T>>[] | { exempt: string };
}

/** A family as held for one database. */
export interface HeldFamily<T> {
  /** The keys listed. */
  readonly members: ReadonlySet<string>;
  /**
   * The member's shape, read on first use (shared by concurrent callers; a failed read is retried); null
   * when `key` is no member or the member is not held (over its bounds, the family's, the budget, or refused).
   * Read through `db` when given (the request's, so that its statements are the request's), else through
   * the database the list was read with.
   */
  member(key: string, db?: Database): Promise<T | null>;
}

/**
 * held; not held: over-bounds, over-budget, refused (a guard), failed (retried on demand), not-read, reading;
 * a required view over its bounds or the budget is held anyway: held-over-bounds, held-over-budget.
 */
export type HeldState = 'held' | 'held-over-bounds' | 'held-over-budget' | 'over-bounds' | 'over-budget' | 'refused' | 'failed' | 'not-read' | 'reading';

interface Entry {
  value: Promise<unknown>;
  /** The shape once held (peek). */
  held?: unknown;
  state: HeldState;
  rows: number;
  bytes: number;
}

interface DatabaseState {
  entries: Map<string, Entry>;
  /** Estimated bytes of every view held for this database. */
  bytes: number;
  slots: Map<string, unknown>;
}

/** A declared view, as the registry lists it. */
export interface HeldView<T> {
  readonly spec: HeldViewSpec<T>;
  /** The held shape for db, read on first use (shared by concurrent callers; a failed read is retried). */
  (db: Database): Promise<T | null>;
  /** The shape if already read and held, without waiting (null otherwise); starts the read if not started. */
  peek(db: Database): T | null;
}

/** A view whose callers have no statement to fall back to (fallback 'none'): never null. */
export interface RequiredHeldView<T> extends HeldView<T> {
  (db: Database): Promise<T>;
}

const registry = new Map<string, HeldView<unknown>>();
const states = new WeakMap<object, DatabaseState>();

/** One memory budget for every view of a database (estimated bytes); HELD_STATE_BUDGET_BYTES overrides it. */
const DEFAULT_BUDGET_BYTES = 1024 * 2 ** 20;
let budgetBytes = Number(process.env.HELD_STATE_BUDGET_BYTES) > 0 ? Number(process.env.HELD_STATE_BUDGET_BYTES) : DEFAULT_BUDGET_BYTES;

/** Sets the shared budget (tests; a deployment sets HELD_STATE_BUDGET_BYTES). Applies to views read afterwards. */
export function setHeldBudget(bytes: number): void {
  budgetBytes = bytes;
}

function stateOf(db: Database): DatabaseState {
  let state = states.get(db.identity);
  if (!state) {
    state = { entries: new Map(), bytes: 0, slots: new Map() };
    states.set(db.identity, state);
  }
  return state;
}

/** Whether `count` (given `params`) says more than rowsMax rows; never asked for a view without bounds (rowsMax Infinity). */
async function overCount(db: Database, count: string | undefined, rowsMax: number, params: SqlParams = {}): Promise<boolean> {
  if (!count || rowsMax === Infinity) return false;
  const [{ n }] = await db.all(count, params);
  return Number(n) > rowsMax;
}

/** The rows of `sql`'s statements, each read whole with `params`; 'over-bounds' past rowsMax rows (counted first given `count`). */
async function readStatements(db: Database, sql: Readonly<Record<string, string>>, count: string | undefined, rowsMax: number, params: SqlParams = {}): Promise<HeldRows | 'over-bounds'> {
  if (await overCount(db, count, rowsMax, params)) return 'over-bounds';
  const rows: HeldRows = {};
  let total = 0;
  for (const [part, statement] of Object.entries(sql)) {
    rows[part] = await db.all(statement, params);
    total += rows[part].length;
    if (total > rowsMax) return 'over-bounds';
  }
  return rows;
}

async function readRows<T>(spec: HeldViewSpec<T>, db: Database): Promise<HeldRows | 'over-bounds'> {
  // A required view is read whatever its size.
  const rowsMax = spec.fallback === 'none' ? Infinity : spec.rowsMax;
  if (spec.read) return (await overCount(db, spec.count, rowsMax)) ? 'over-bounds' : spec.read(db);
  return readStatements(db, spec.sql, spec.count, rowsMax);
}

function rowsBytes(rows: HeldRows): number {
  let bytes = 0;
  for (const list of Object.values(rows)) for (const row of list) bytes += estimatedRowBytes(row);
  return bytes;
}

async function load<T>(spec: HeldViewSpec<T>, db: Database, state: DatabaseState, entry: Entry): Promise<T | null> {
  // A required view is held whatever its size (its callers have no statement); stats say it is over.
  const required = spec.fallback === 'none';
  if (spec.load) return loadIndex(spec, db, state, entry);
  const rows = await readRows(spec, db);
  if (rows === 'over-bounds') {
    entry.state = 'over-bounds';
    return null;
  }
  entry.rows = Object.values(rows).reduce((total, list) => total + list.length, 0);
  if (entry.rows > spec.rowsMax && !required) {
    entry.state = 'over-bounds';
    return null;
  }
  const value = spec.build!(rows);
  if (value === null) {
    if (required) throw new Error(`held view ${spec.name}: a guard refused its rows and its callers have no statement`);
    entry.state = 'refused';
    return null;
  }
  entry.bytes = spec.bytesOf ? spec.bytesOf(value, rows) : rowsBytes(rows);
  return hold(spec, state, entry, value);
}

/** Counts a built shape against its bounds and the budget: the shape, or null when not held. */
function hold<T>(spec: HeldViewSpec<T>, state: DatabaseState, entry: Entry, value: T): T | null {
  const required = spec.fallback === 'none';
  const overBounds = entry.rows > spec.rowsMax || entry.bytes > spec.bytesMax;
  const overBudget = state.bytes + entry.bytes > budgetBytes;
  if (!required && (overBounds || overBudget)) {
    entry.state = overBounds ? 'over-bounds' : 'over-budget';
    return null;
  }
  state.bytes += entry.bytes;
  entry.state = overBounds ? 'held-over-bounds' : overBudget ? 'held-over-budget' : 'held';
  entry.held = value;
  return value;
}

async function loadIndex<T>(spec: HeldViewSpec<T>, db: Database, state: DatabaseState, entry: Entry): Promise<T | null> {
  if (await overCount(db, spec.count, spec.fallback === 'none' ? Infinity : spec.rowsMax)) {
    entry.state = 'over-bounds';
    return null;
  }
  const value = await spec.load!(db);
  if (value === null) {
    if (spec.fallback === 'none') throw new Error(`held view ${spec.name}: not built and its callers have no statement`);
    entry.state = 'refused';
    return null;
  }
  entry.rows = spec.rowsOf ? spec.rowsOf(value) : 0;
  entry.bytes = spec.bytesOf ? spec.bytesOf(value, {}) : 0;
  const held = hold(spec, state, entry, value);
  // A held family's members count in its entry and in the database's budget from now on.
  if (held instanceof FamilyMembers) held.countIn(state, entry);
  return held;
}

function declare<T>(spec: HeldViewSpec<T>): HeldView<T> {
  if (registry.has(spec.name)) throw new Error(`held view ${spec.name} declared twice`);
  if (!spec.build === !spec.load) throw new Error(`held view ${spec.name}: give build or load`);
  const view = ((db: Database): Promise<T | null> => {
    const state = stateOf(db);
    let entry = state.entries.get(spec.name);
    if (!entry) {
      const created: Entry = { value: Promise.resolve(null), state: 'reading', rows: 0, bytes: 0 };
      created.value = load(spec, db, state, created).catch((error: unknown) => {
        created.state = 'failed';
        // Retried on the next call (a snapshot without that domain's tables fails every time; cheap).
        if (state.entries.get(spec.name) === created) state.entries.delete(spec.name);
        throw error;
      });
      state.entries.set(spec.name, created);
      entry = created;
    }
    return entry.value as Promise<T | null>;
  }) as HeldView<T>;
  Object.defineProperty(view, 'spec', { value: spec });
  view.peek = (db) => {
    view(db).catch(() => undefined);
    return (stateOf(db).entries.get(spec.name)?.held as T | undefined) ?? null;
  };
  registry.set(spec.name, view as HeldView<unknown>);
  return view;
}

/** Declares a held view whose callers keep their statement when it is not held (null). */
export function heldView<T>(spec: HeldViewSpec<T> & { fallback?: 'sql' }): HeldView<T> {
  return declare(spec);
}

/** Declares a held view its callers cannot do without (no statement to fall back to): it is always held. */
export function requiredHeldView<T>(spec: Omit<HeldViewSpec<T>, 'fallback'>): RequiredHeldView<T> {
  return declare({ ...spec, fallback: 'none' }) as RequiredHeldView<T>;
}

interface MemberEntry {
  value: Promise<unknown>;
  state: HeldState;
  rows: number;
  bytes: number;
}

/** A family's shape for one database: its listed keys and the members read so far. */
class FamilyMembers<T> implements HeldFamily<T> {
  readonly entries = new Map<string, MemberEntry>();
  private counted: { state: DatabaseState; family: Entry } | null = null;

  constructor(
    private readonly spec: HeldFamilySpec<T>,
    private readonly db: Database,
    readonly members: ReadonlySet<string>,
    readonly listRows: number,
    readonly listBytes: number,
  ) {}

  countIn(state: DatabaseState, family: Entry): void {
    this.counted = { state, family };
  }

  member(key: string, db: Database = this.db): Promise<T | null> {
    // Only listed keys get an entry, so client text cannot grow the map.
    if (!this.members.has(key) || this.counted === null) return Promise.resolve(null);
    let entry = this.entries.get(key);
    if (!entry) {
      const created: MemberEntry = { value: Promise.resolve(null), state: 'reading', rows: 0, bytes: 0 };
      this.entries.set(key, created);
      created.value = this.read(db, key, created, this.counted).catch((error: unknown) => {
        created.state = 'failed';
        // Retried on the next call.
        if (this.entries.get(key) === created) this.entries.delete(key);
        throw error;
      });
      entry = created;
    }
    return entry.value as Promise<T | null>;
  }

  /** Reads one member and holds it when it fits its bound, the family's bounds and the budget. */
  private async read(db: Database, key: string, member: MemberEntry, { state, family }: { state: DatabaseState; family: Entry }): Promise<T | null> {
    const { spec } = this;
    const rows = await readStatements(db, spec.sql, spec.count, spec.memberRowsMax, { member: key });
    if (rows === 'over-bounds') {
      member.state = 'over-bounds';
      return null;
    }
    member.rows = Object.values(rows).reduce((total, list) => total + list.length, 0);
    const value = spec.build(rows, key);
    if (value === null) {
      member.state = 'refused';
      return null;
    }
    member.bytes = spec.bytesOf ? spec.bytesOf(value, rows) : rowsBytes(rows);
    if (family.rows + member.rows > spec.rowsMax || family.bytes + member.bytes > spec.bytesMax) {
      member.state = 'over-bounds';
      return null;
    }
    if (state.bytes + member.bytes > budgetBytes) {
      member.state = 'over-budget';
      return null;
    }
    state.bytes += member.bytes;
    family.rows += member.rows;
    family.bytes += member.bytes;
    member.state = 'held';
    return value;
  }
}

/**
 * Declares a keyed family of views (members read on demand; null when not held, and the callers keep
 * their statement). The family itself is one view: its list is read like a view's rows (warm-up included).
 */
export function heldFamily<T>(spec: HeldFamilySpec<T>): HeldView<HeldFamily<T>> {
  return declare<HeldFamily<T>>({
    name: spec.name,
    sql: { members: spec.members },
    family: { sql: spec.sql, memberRowsMax: spec.memberRowsMax },
    key: spec.key,
    order: spec.order,
    count: `SELECT count(*) AS n FROM (${spec.members})`,
    rowsMax: spec.rowsMax,
    bytesMax: spec.bytesMax,
    load: async (db) => {
      const listed = await db.all(spec.members);
      return new FamilyMembers(spec, db, new Set(listed.map((row) => String(row.member))), listed.length, rowsBytes({ listed }));
    },
    rowsOf: (family) => (family as FamilyMembers<T>).listRows,
    bytesOf: (family) => (family as FamilyMembers<T>).listBytes,
    parity: spec.parity,
  });
}

/** Every declared view, by name (the generated parity test iterates them). */
export function heldViews(): ReadonlyMap<string, HeldView<unknown>> {
  return registry;
}

export interface WarmResult {
  holders: number;
  /** Views whose read failed (a snapshot without that domain's tables): read again on demand. */
  failed: number;
  ms: number;
}

/**
 * Reads every declared view for `db`, one at a time (requests keep the other connections), in the
 * order they were declared. A failed read is left to the request that needs it.
 */
export async function warmHeldState(db: Database): Promise<WarmResult> {
  const started = performance.now();
  let failed = 0;
  const views = [...registry.values()];
  for (const view of views) await view(db).catch(() => failed++);
  return { holders: views.length, failed, ms: performance.now() - started };
}

/** Drops everything held for a retired snapshot (call before closing its database); its budget is free again. */
export function releaseHeldState(db: Database): void {
  states.delete(db.identity);
}

export interface HeldViewStats {
  name: string;
  state: HeldState;
  rows: number;
  bytes: number;
  rows_max: number;
  bytes_max: number;
  /** false: the callers have no statement (always held). */
  falls_back_to_sql: boolean;
  /** A family's members (its rows and bytes above include the held ones'). */
  members?: HeldFamilyStats;
}

export interface HeldFamilyStats {
  /** Keys listed (members that may be read). */
  listed: number;
  /** One member's bound in rows. */
  member_rows_max: number;
  /** The members read so far, by state. */
  read: Partial<Record<HeldState, number>>;
}

export interface HeldStateStats {
  /** Estimated bytes held for this database, and the budget they share. */
  bytes: number;
  budget_bytes: number;
  views: HeldViewStats[];
}

/** Per view (by name): held or why not, rows and estimated bytes; the total and the budget (for /healthz). */
export function heldStateStats(db: Database): HeldStateStats {
  const state = states.get(db.identity);
  const views = [...registry.values()].map(({ spec }): HeldViewStats => {
    const entry = state?.entries.get(spec.name);
    return {
      name: spec.name,
      state: entry?.state ?? 'not-read',
      rows: entry?.rows ?? 0,
      bytes: entry?.bytes ?? 0,
      rows_max: spec.rowsMax,
      bytes_max: spec.bytesMax,
      falls_back_to_sql: spec.fallback !== 'none',
      ...(spec.family ? { members: familyStats(spec.family.memberRowsMax, entry?.held) } : {}),
    };
  });
  views.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { bytes: state?.bytes ?? 0, budget_bytes: budgetBytes, views };
}

function familyStats(memberRowsMax: number, held: unknown): HeldFamilyStats {
  const read: Partial<Record<HeldState, number>> = {};
  const family = held instanceof FamilyMembers ? held : null;
  for (const member of family?.entries.values() ?? []) read[member.state] = (read[member.state] ?? 0) + 1;
  return { listed: family?.members.size ?? 0, member_rows_max: memberRowsMax, read };
}

/**
 * Per-database state that is not a copy of rows (a registry the loader fills, a cache of counts): kept
 * beside the views and released with them, so that no module keeps its own per-database map.
 */
export function heldSlot<T>(name: string, create: () => T): (db: Database) => T {
  return (db) => {
    const { slots } = stateOf(db);
    if (!slots.has(name)) slots.set(name, create());
    return slots.get(name) as T;
  };
}
