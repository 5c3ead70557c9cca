// The embedded payment store (the default without DATABASE_URL): one process, local files.
//
// Settlements live in memory and in a durable JSON-lines journal (settlementsPath): each begin and
// each finish appends one line, fsynced before its promise resolves (lines that arrive while a
// write is on its way share the next fsync). A change reaches memory only once its line is on
// disk, so memory never holds what a crash would lose; begins on their way to disk hold their key
// and payment id meanwhile, so two begins of one key never both succeed. Opening replays the
// journal (a torn last line is skipped) and rewrites it with the live settlements only (temporary
// file, fsync, rename); so does any append that leaves it over twice their size.
//
// Evictions (kept answers over the byte or age bound) and pruning (resolved settlements without
// an answer or payment id, whose authorization can no longer move money) are not journaled: they
// follow from the recorded times, so a replay makes them again, and the next rewrite forgets them.
//
// The revenue ledger (ledgerPath, read by `npm run revenue`) gets a line when a settlement becomes
// settled or unknown, when an unknown one is settled, and a retraction (state "unpaid") when an
// unknown one turns out unpaid; it is written before the journal line, and read folded by key.
//
// Locks, refusals and rate-limit counters only concern this one process: in memory, bounded.
import { access, constants, mkdir, open, readFile, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { AppendFile, DurableLineWriter, type AppendedLine } from '../jsonLines.ts';
import { byTimeThenKey, checkBegin, checkFinish, finished, ledgerRecordOf } from './settlements.ts';
import {
  PaymentStoreUnavailableError,
  SettlementExistsError,
  type KeptAnswer,
  type LedgerRecord,
  type PaymentStore,
  type PaymentStoreStats,
  type Settlement,
  type SettlementChange,
  type SettlementState,
} from './types.ts';

export interface FilePaymentStoreOptions {
  /** The settlements journal (JSON lines). */
  settlementsPath: string;
  /** The revenue ledger (JSON lines), as `npm run revenue` reads it. */
  ledgerPath: string;
  /** Bound on the body bytes of the answers kept for settled settlements. */
  maxAnswerBytes: number;
  /** Bound on the age (since updatedAt) of the answers kept for settled settlements. */
  maxAnswerAgeSeconds: number;
  now?: () => Date;
  log?: (message: string, error?: unknown) => void;
}

/** Refusals remembered at most; past it, the ones whose validBefore comes first are forgotten first. */
export const MAX_REFUSALS = 100_000;
/** Settlements are looked over for pruning, and counters for ended windows, at most this often. */
const SWEEP_EVERY_MS = 60_000;
/** Below this, the journal is never rewritten for its size (a small journal is cheap to replay). */
const MIN_REWRITE_BYTES = 1024 * 1024;

type JournalEntry = { settlement: Settlement } | { finish: { key: string; change: SettlementChange } };

/** A line of the ledger file: a ledger record, or the retraction of an unknown one found unpaid. */
type LedgerLine = Omit<LedgerRecord, 'state'> & { state: LedgerRecord['state'] | 'unpaid' };

const STATES: readonly SettlementState[] = ['pending', 'settled', 'unknown', 'unpaid'];

/** A kept answer as JSON: the body in base64. Keeps undefined (omitted) and null apart. */
function answerJson(answer: KeptAnswer | null | undefined) {
  return answer && { ...answer, body: answer.body.toString('base64') };
}

function journalLine(entry: JournalEntry): string {
  const json =
    'settlement' in entry
      ? { settlement: { ...entry.settlement, answer: answerJson(entry.settlement.answer) } }
      : { finish: entry.finish };
  return `${JSON.stringify(json)}\n`;
}

/** About the bytes of a settlement's line in a rewritten journal (the body as base64, uncounted characters otherwise). */
function approximateLineBytes(settlement: Settlement): number {
  const { answer } = settlement;
  const withoutBody = JSON.stringify({ ...settlement, answer: answer && { ...answer, body: '' } }).length;
  return withoutBody + 4 * Math.ceil((answer?.body.length ?? 0) / 3) + 16;
}

const bodyBytes = (settlement: Settlement) => settlement.answer?.body.length ?? 0;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return isObject(value) && Object.values(value).every((item) => typeof item === 'string');
}

const isStringOrNull = (value: unknown) => typeof value === 'string' || value === null;

/** A journal answer back as a kept answer; undefined when absent, false when malformed. */
function readAnswer(value: unknown): KeptAnswer | null | undefined | false {
  if (value === undefined || value === null) return value;
  if (!isObject(value) || typeof value.status !== 'number' || !isStringRecord(value.headers) || typeof value.body !== 'string') return false;
  return { status: value.status, headers: value.headers, body: Buffer.from(value.body, 'base64') };
}

function readSettlement(value: unknown): Settlement | null {
  if (!isObject(value)) return null;
  const { key, paymentId, state, validBefore, route, resource, terms, request, transaction, createdAt, updatedAt } = value;
  const answer = readAnswer(value.answer);
  const valid =
    typeof key === 'string' && isStringOrNull(paymentId) && STATES.includes(state as SettlementState) && typeof validBefore === 'number' &&
    typeof route === 'string' && typeof resource === 'string' && isStringRecord(terms) && typeof request === 'string' &&
    isStringOrNull(transaction) && typeof createdAt === 'string' && typeof updatedAt === 'string' && answer !== false && answer !== undefined;
  // requestId: absent from journals written before request ids.
  const requestId = typeof value.requestId === 'string' ? value.requestId : null;
  return valid ? ({ ...value, answer, requestId } as unknown as Settlement) : null;
}

/** One journal line as an entry, or null for a torn or foreign line. */
function readJournalLine(line: string): JournalEntry | null {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return null;
  }
  if (!isObject(raw)) return null;
  if ('settlement' in raw) {
    const settlement = readSettlement(raw.settlement);
    return settlement && { settlement };
  }
  const finish = raw.finish;
  if (!isObject(finish) || typeof finish.key !== 'string' || !isObject(finish.change)) return null;
  const { state, transaction, updatedAt, addHeaders } = finish.change;
  if (!['settled', 'unknown', 'unpaid'].includes(state as string) || typeof updatedAt !== 'string') return null;
  if (transaction !== undefined && !isStringOrNull(transaction)) return null;
  if (addHeaders !== undefined && !isStringRecord(addHeaders)) return null;
  const change = { state, updatedAt, ...(transaction !== undefined && { transaction }), ...(addHeaders !== undefined && { addHeaders }) } as SettlementChange;
  return { finish: { key: finish.key, change } };
}

async function readTextIfAny(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * The revenue ledger file folded by key, oldest first: the last line of a key wins, a retracted key
 * (state "unpaid") is left out, torn lines are skipped. Lines written before the payment store (no
 * state, no key) read as settled payments, each its own (key `line:<its line number>`).
 */
export async function readLedgerFile(path: string): Promise<LedgerRecord[]> {
  const text = (await readTextIfAny(path)) ?? '';
  const byKey = new Map<string, LedgerLine>();
  for (const [index, line] of text.split('\n').entries()) {
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      continue; // an empty line, or a torn one from an interrupted write
    }
    if (!isObject(raw) || typeof raw.time !== 'string' || typeof raw.amount !== 'string') continue;
    const state = raw.state ?? 'settled';
    if (!['settled', 'unknown', 'pending', 'unpaid'].includes(state as string)) continue;
    const key = typeof raw.key === 'string' ? raw.key : `line:${index + 1}`;
    const text = (field: string) => (typeof raw[field] === 'string' ? raw[field] : '');
    byKey.delete(key); // the last line of a key decides its place too
    byKey.set(key, {
      time: raw.time,
      key,
      state: state as LedgerLine['state'],
      route: text('route'),
      resource: text('resource'),
      network: text('network'),
      payer: text('payer'),
      amount: raw.amount,
      asset: text('asset'),
      transaction: typeof raw.transaction === 'string' ? raw.transaction : null,
      requestId: typeof raw.requestId === 'string' ? raw.requestId : null,
    });
  }
  return [...byKey.values()].filter((line): line is LedgerRecord => line.state !== 'unpaid').sort(byTimeThenKey);
}

/** The ledger line a finish writes, if any (see the file's header). */
function ledgerLineOf(before: Settlement, after: Settlement): LedgerLine | undefined {
  if (after.state === before.state) return undefined;
  if (after.state === 'settled' || after.state === 'unknown') return ledgerRecordOf(after);
  if (after.state === 'unpaid' && before.state === 'unknown') return { ...ledgerRecordOf(before), state: 'unpaid' };
  return undefined;
}

/** Makes a rename in `folder` durable; a file system that cannot fsync a folder is left as it is. */
async function syncFolder(folder: string): Promise<void> {
  try {
    const handle = await open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // not every file system fsyncs folders; the rename itself already happened
  }
}

interface Counter {
  windowStart: number;
  windowEnd: number;
  count: number;
}

export class FilePaymentStore implements PaymentStore {
  readonly kind = 'file';

  private readonly settlements = new Map<string, { settlement: Settlement; bytes: number }>();
  private readonly keyByPaymentId = new Map<string, string>();
  /** Settled settlements still holding an answer or a payment id, oldest first (in the order they were settled): what eviction drops. */
  private readonly evictable = new Map<string, number>();
  /** Body bytes of the answers of `evictable`. */
  private evictableBytes = 0;
  /** About the bytes of a rewritten journal. */
  private liveBytes = 0;
  private journalBytes = 0;
  /** Keys and payment ids of begins on their way to disk. */
  private readonly beginningKeys = new Set<string>();
  private readonly beginningIds = new Set<string>();
  /** The last finish of each key still running: finishes of one key run one after the other. */
  private readonly finishing = new Map<string, Promise<void>>();
  /** Entries whose lines the journal writer holds, in the order it writes them. */
  private readonly unwritten: JournalEntry[] = [];
  private readonly writes = new Set<Promise<unknown>>();
  private readonly journal: DurableLineWriter;
  /** The journal kept open between appends (rewriteJournal's rename makes it reopen). */
  private readonly journalFile: AppendFile;
  private readonly ledgerFile: DurableLineWriter;

  private readonly locks = new Map<string, number>();
  private readonly refusals = new Map<string, { reason: string; validBefore: number }>();
  private readonly counters = new Map<string, Counter>();
  private lastSweepMs = -Infinity;
  private lastCounterSweepMs = -Infinity;
  private opened = false;
  private opening: Promise<void> | undefined;
  private readonly now: () => Date;
  private readonly log: (message: string, error?: unknown) => void;

  constructor(readonly options: FilePaymentStoreOptions) {
    this.now = options.now ?? (() => new Date());
    this.log = options.log ?? (() => undefined);
    this.journalFile = new AppendFile(options.settlementsPath);
    this.journal = new DurableLineWriter(options.settlementsPath, (path, lines) => this.writeJournal(path, lines));
    this.ledgerFile = new DurableLineWriter(options.ledgerPath);
  }

  open(): Promise<void> {
    this.opening ??= this.load().catch((error: unknown) => {
      this.opening = undefined; // a later open() tries again
      throw error;
    });
    return this.opening;
  }

  /** Replays the journal into memory, then rewrites it with the live settlements only. */
  private async load(): Promise<void> {
    const path = this.options.settlementsPath;
    let text: string | undefined;
    try {
      text = await readTextIfAny(path);
    } catch (error) {
      throw new PaymentStoreUnavailableError(`payment store: ${path} could not be read`, error);
    }
    this.settlements.clear();
    this.keyByPaymentId.clear();
    this.evictable.clear();
    this.evictableBytes = 0;
    this.liveBytes = 0;
    for (const line of (text ?? '').split('\n')) {
      const entry = line.trim() ? readJournalLine(line) : null;
      if (entry) this.apply(entry); // torn and foreign lines are skipped
    }
    this.lastSweepMs = -Infinity;
    this.tidy();
    if (text !== undefined) {
      try {
        await this.rewriteJournal();
      } catch (error) {
        throw new PaymentStoreUnavailableError(`payment store: ${path} could not be rewritten`, error);
      }
    }
    this.opened = true;
  }

  async close(): Promise<void> {
    this.opened = false;
    this.opening = undefined;
    await Promise.allSettled([...this.writes]);
    await Promise.all([this.journalFile.close(), this.ledgerFile.close()]);
  }

  /** Open, and the folders of the journal and the ledger still writable (a volume unmounted or made read-only is not). */
  async ping(): Promise<void> {
    this.ready();
    for (const path of new Set([this.options.settlementsPath, this.options.ledgerPath])) {
      try {
        await access(dirname(path), constants.W_OK);
      } catch (error) {
        throw new PaymentStoreUnavailableError(`payment store: the folder of ${path} cannot be written`, error);
      }
    }
  }

  async tryLock(name: string, ttlMs: number, nowMs: number): Promise<boolean> {
    this.ready();
    const expiresMs = this.locks.get(name);
    if (expiresMs !== undefined && expiresMs > nowMs) return false;
    this.locks.set(name, nowMs + ttlMs);
    return true;
  }

  async unlock(name: string): Promise<void> {
    this.ready();
    this.locks.delete(name);
  }

  async begin(settlement: Settlement): Promise<void> {
    this.ready();
    checkBegin(settlement);
    this.tidy();
    const { key, paymentId } = settlement;
    if (this.settlements.has(key) || this.beginningKeys.has(key)) throw new SettlementExistsError('key');
    if (paymentId !== null && (this.keyByPaymentId.has(paymentId) || this.beginningIds.has(paymentId))) throw new SettlementExistsError('paymentId');
    this.beginningKeys.add(key);
    if (paymentId !== null) this.beginningIds.add(paymentId);
    try {
      await this.record({ settlement: { ...settlement } });
    } finally {
      this.beginningKeys.delete(key);
      if (paymentId !== null) this.beginningIds.delete(paymentId);
    }
  }

  async finish(key: string, change: SettlementChange): Promise<void> {
    this.ready();
    const previous = this.finishing.get(key) ?? Promise.resolve();
    const run = previous.then(() => this.finishNow(key, change));
    const settledEither = run.catch(() => undefined);
    this.finishing.set(key, settledEither);
    try {
      await run;
    } finally {
      if (this.finishing.get(key) === settledEither) this.finishing.delete(key);
    }
  }

  private async finishNow(key: string, change: SettlementChange): Promise<void> {
    this.tidy();
    const current = this.settlements.get(key)?.settlement;
    checkFinish(key, current?.state);
    const ledgerLine = ledgerLineOf(current!, finished(current!, change));
    if (ledgerLine) {
      try {
        await this.ledgerFile.append(`${JSON.stringify(ledgerLine)}\n`);
      } catch (error) {
        throw new PaymentStoreUnavailableError(`payment store: the revenue ledger ${this.options.ledgerPath} could not be written`, error);
      }
    }
    await this.record({ finish: { key, change } });
  }

  async byKey(key: string): Promise<Settlement | undefined> {
    this.ready();
    this.tidy();
    const settlement = this.settlements.get(key)?.settlement;
    return settlement && { ...settlement };
  }

  async byPaymentId(paymentId: string): Promise<Settlement | undefined> {
    this.ready();
    this.tidy();
    const key = this.keyByPaymentId.get(paymentId);
    return key === undefined ? undefined : this.byKey(key);
  }

  async unresolved(): Promise<Settlement[]> {
    this.ready();
    return [...this.settlements.values()]
      .map(({ settlement }) => settlement)
      .filter((settlement) => settlement.state === 'pending' || settlement.state === 'unknown')
      .sort((a, b) => byTimeThenKey({ time: a.createdAt, key: a.key }, { time: b.createdAt, key: b.key }))
      .map((settlement) => ({ ...settlement }));
  }

  async ledger(): Promise<LedgerRecord[]> {
    this.ready();
    let recorded: LedgerRecord[];
    try {
      recorded = await readLedgerFile(this.options.ledgerPath);
    } catch (error) {
      throw new PaymentStoreUnavailableError(`payment store: the revenue ledger ${this.options.ledgerPath} could not be read`, error);
    }
    // Pending settlements have no ledger line yet: they come from memory.
    const inFile = new Set(recorded.map((record) => record.key));
    const pending = [...this.settlements.values()]
      .filter(({ settlement }) => settlement.state === 'pending' && !inFile.has(settlement.key))
      .map(({ settlement }) => ledgerRecordOf(settlement));
    return [...recorded, ...pending].sort(byTimeThenKey);
  }

  async rememberRefusal(payloadHash: string, reason: string, validBefore: number): Promise<void> {
    this.ready();
    this.refusals.delete(payloadHash); // re-inserted as the newest
    this.refusals.set(payloadHash, { reason, validBefore });
    if (this.refusals.size <= MAX_REFUSALS) return;
    const nowSeconds = this.now().getTime() / 1000;
    for (const [hash, refusal] of this.refusals) if (refusal.validBefore <= nowSeconds) this.refusals.delete(hash);
    if (this.refusals.size <= MAX_REFUSALS) return;
    // Still full of live ones: forget a tenth at once, the ones that lapse first, so this sort stays rare.
    const byValidBefore = [...this.refusals].sort(([, a], [, b]) => a.validBefore - b.validBefore);
    for (const [hash] of byValidBefore.slice(0, this.refusals.size - Math.floor(MAX_REFUSALS * 0.9))) this.refusals.delete(hash);
  }

  async refusal(payloadHash: string, nowSeconds: number): Promise<string | undefined> {
    this.ready();
    const refusal = this.refusals.get(payloadHash);
    if (!refusal) return undefined;
    if (nowSeconds >= refusal.validBefore) {
      this.refusals.delete(payloadHash);
      return undefined;
    }
    return refusal.reason;
  }

  async hit(name: string, windowSeconds: number, nowMs: number): Promise<number> {
    this.ready();
    if (nowMs - this.lastCounterSweepMs >= SWEEP_EVERY_MS) {
      this.lastCounterSweepMs = nowMs;
      for (const [counterName, counter] of this.counters) if (counter.windowEnd * 1000 <= nowMs) this.counters.delete(counterName);
    }
    const windowStart = Math.floor(nowMs / 1000 / windowSeconds) * windowSeconds;
    const counter = this.counters.get(name);
    if (counter && counter.windowStart === windowStart) return ++counter.count;
    this.counters.set(name, { windowStart, windowEnd: windowStart + windowSeconds, count: 1 });
    return 1;
  }

  async stats(): Promise<PaymentStoreStats> {
    this.ready();
    this.tidy();
    const stats: PaymentStoreStats = { settlements: this.settlements.size, unresolved: 0, answers: 0, answerBytes: 0 };
    for (const { settlement } of this.settlements.values()) {
      if (settlement.state === 'pending' || settlement.state === 'unknown') stats.unresolved += 1;
      if (settlement.answer) {
        stats.answers += 1;
        stats.answerBytes += settlement.answer.body.length;
      }
    }
    return stats;
  }

  private ready(): void {
    if (!this.opened) throw new PaymentStoreUnavailableError('payment store: the file store is not open');
  }

  /** Appends an entry to the journal; resolves once it is on disk and in memory. */
  private async record(entry: JournalEntry): Promise<void> {
    this.unwritten.push(entry);
    const write = this.journal.append(journalLine(entry));
    this.writes.add(write);
    try {
      await write;
    } catch (error) {
      throw new PaymentStoreUnavailableError(`payment store: the journal ${this.options.settlementsPath} could not be written`, error);
    } finally {
      this.writes.delete(write);
    }
  }

  /** The journal writer's append: its lines go to disk, then their entries to memory; no other write runs meanwhile. */
  private async writeJournal(path: string, lines: readonly string[]): Promise<AppendedLine[]> {
    const entries = this.unwritten.splice(0, lines.length);
    const appended = await this.journalFile.appendLines(lines);
    const last = appended[appended.length - 1]!;
    this.journalBytes = last.sizeBefore + last.written;
    for (const entry of entries) this.apply(entry);
    if (this.journalBytes > 2 * Math.max(this.liveBytes, MIN_REWRITE_BYTES)) {
      // These lines are on disk already: a failed rewrite only leaves the journal longer.
      await this.rewriteJournal().catch((error: unknown) => this.log(`payment store: ${path} could not be rewritten`, error));
    }
    return appended;
  }

  /** Applies a journal entry to memory (when it was written, and when the journal is replayed). */
  private apply(entry: JournalEntry): void {
    if ('settlement' in entry) {
      this.put(entry.settlement);
    } else {
      const current = this.settlements.get(entry.finish.key)?.settlement;
      if (current) this.put(finished(current, entry.finish.change)); // a finish of a pruned settlement has nothing left to change
    }
    this.evictOverBytes();
  }

  private put(settlement: Settlement): void {
    // A settled answer heavier than the whole bound is not kept (evicting the others would not make room for it).
    if (settlement.state === 'settled' && bodyBytes(settlement) > this.options.maxAnswerBytes) settlement = { ...settlement, answer: null, paymentId: null };
    this.remove(settlement.key);
    if (settlement.paymentId !== null) {
      // Only in a replay: an older holder of this id was evicted, which the journal does not record.
      const holder = this.keyByPaymentId.get(settlement.paymentId);
      if (holder !== undefined) this.evict(holder);
      this.keyByPaymentId.set(settlement.paymentId, settlement.key);
    }
    const bytes = approximateLineBytes(settlement);
    this.settlements.set(settlement.key, { settlement, bytes });
    this.liveBytes += bytes;
    if (settlement.state === 'settled' && (settlement.answer !== null || settlement.paymentId !== null)) {
      this.evictable.set(settlement.key, Date.parse(settlement.updatedAt));
      this.evictableBytes += bodyBytes(settlement);
    }
  }

  private remove(key: string): void {
    const kept = this.settlements.get(key);
    if (!kept) return;
    const { settlement } = kept;
    this.settlements.delete(key);
    this.liveBytes -= kept.bytes;
    if (settlement.paymentId !== null && this.keyByPaymentId.get(settlement.paymentId) === key) this.keyByPaymentId.delete(settlement.paymentId);
    if (this.evictable.delete(key)) this.evictableBytes -= bodyBytes(settlement);
  }

  /** Drops a settled settlement's answer and frees its payment id. */
  private evict(key: string): void {
    const settlement = this.settlements.get(key)?.settlement;
    if (settlement) this.put({ ...settlement, answer: null, paymentId: null });
  }

  private evictOverBytes(): void {
    for (const key of this.evictable.keys()) {
      if (this.evictableBytes <= this.options.maxAnswerBytes) break;
      this.evict(key);
    }
  }

  /** Before each use: evicts answers past their age; now and then, prunes the settlements that can no longer matter. */
  private tidy(): void {
    const nowMs = this.now().getTime();
    const oldestKept = nowMs - this.options.maxAnswerAgeSeconds * 1000;
    for (const [key, updatedMs] of this.evictable) {
      if (updatedMs > oldestKept) break;
      this.evict(key);
    }
    if (nowMs - this.lastSweepMs < SWEEP_EVERY_MS) return;
    this.lastSweepMs = nowMs;
    const nowSeconds = nowMs / 1000;
    for (const [key, { settlement }] of this.settlements) {
      const resolved = settlement.state === 'settled' || settlement.state === 'unpaid';
      // Its authorization has lapsed, so it can never be sent again; the ledger keeps the payment.
      if (resolved && settlement.answer === null && settlement.paymentId === null && settlement.validBefore <= nowSeconds) this.remove(key);
    }
  }

  /** Rewrites the journal with the live settlements only: temporary file, fsync, rename. */
  private async rewriteJournal(): Promise<void> {
    const path = this.options.settlementsPath;
    const temporary = `${path}.${process.pid}.tmp`;
    const live = [...this.settlements.values()].map(({ settlement }) => settlement);
    await mkdir(dirname(path), { recursive: true });
    const file = await open(temporary, 'w');
    let written = 0;
    try {
      let chunk = '';
      for (const settlement of live) {
        chunk += journalLine({ settlement });
        if (chunk.length < 1024 * 1024 && settlement !== live[live.length - 1]) continue;
        written += Buffer.byteLength(chunk);
        await file.write(chunk);
        chunk = '';
      }
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, path);
    await syncFolder(dirname(path));
    this.journalBytes = written;
  }
}
