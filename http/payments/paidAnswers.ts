// The store of settled answers behind safe paid retries (the x402 `payment-identifier` extension).
// A paid request that carries a payment identifier and was settled leaves its answer here (status,
// headers including the original PAYMENT-RESPONSE, body bytes), keyed by the identifier, with the
// fingerprint of the request and the terms of the payment that bought it. A retry with the same
// identifier is answered from here without a second verify or settle.
//
// Bounds (README "Configuration"): the answers kept weigh at most `maxBytes` (their JSON lines;
// default 64 MiB, PAID_ANSWERS_MAX_BYTES) and are at most `maxAgeSeconds` old (default 86,400 s =
// 24 h, PAID_ANSWERS_MAX_AGE_SECONDS); the oldest go first. An answer heavier than the whole bound
// is not kept (a retry of it is a new request and is paid again).
//
// Durability, like the revenue ledger: one JSON line per answer, appended and fsynced before the
// paid answer leaves. A crash mid-write leaves at most a torn last line, which reading skips. The
// file is rewritten without the evicted answers (temporary file, fsync, rename) when it opens and
// whenever it grows past twice the bound, so on disk it stays under 2 x maxBytes plus one answer.
import { mkdir, open, readFile, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { appendLineDurably } from './jsonLines.ts';

/** The terms of the payment that bought an answer: a retry must be paid by the same payer on the same terms. */
export interface PaymentTerms {
  /** The payer's address, lower case. */
  payer: string;
  network: string;
  asset: string;
  payTo: string;
  amount: string;
}

export interface PaidAnswer {
  /** The client's payment identifier (16-128 characters of [A-Za-z0-9_-]). */
  id: string;
  /** ISO time the answer was kept. */
  savedAt: string;
  /** Fingerprint of the request (method, path, sorted query, format, body): see requestFingerprint. */
  request: string;
  payment: PaymentTerms;
  status: number;
  /** Response headers as sent, PAYMENT-RESPONSE included (lower-case names). */
  headers: Record<string, string>;
  body: Buffer;
}

export interface PaidAnswerStoreOptions {
  path: string;
  maxBytes: number;
  maxAgeSeconds: number;
  now?: () => Date;
  log?: (message: string, error?: unknown) => void;
}

export const DEFAULT_PAID_ANSWERS_MAX_BYTES = 64 * 1024 * 1024;
export const DEFAULT_PAID_ANSWERS_MAX_AGE_SECONDS = 24 * 60 * 60;

interface Entry {
  answer: PaidAnswer;
  /** Bytes of its JSON line (newline included). */
  bytes: number;
  savedMs: number;
}

function serialise(answer: PaidAnswer): string {
  return `${JSON.stringify({ ...answer, body: answer.body.toString('base64') })}\n`;
}

function isRecordOfStrings(value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string');
}

/** One line of the file as an answer, or null for a torn or foreign line. */
function parseLine(line: string): PaidAnswer | null {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return null;
  }
  if (typeof raw !== 'object' || raw === null) return null;
  const { id, savedAt, request, payment, status, headers, body } = raw;
  if (typeof id !== 'string' || typeof savedAt !== 'string' || Number.isNaN(Date.parse(savedAt)) || typeof request !== 'string') return null;
  if (typeof status !== 'number' || !isRecordOfStrings(headers) || typeof body !== 'string' || !isRecordOfStrings(payment)) return null;
  const terms = payment as unknown as PaymentTerms;
  if (![terms.payer, terms.network, terms.asset, terms.payTo, terms.amount].every((v) => typeof v === 'string')) return null;
  return { id, savedAt, request, payment: terms, status, headers, body: Buffer.from(body, 'base64') };
}

export class PaidAnswerStore {
  private readonly entries = new Map<string, Entry>();
  private liveBytes = 0;
  private fileBytes = 0;
  private loaded: Promise<void> | undefined;
  private pending: Promise<void> = Promise.resolve();
  private readonly now: () => Date;
  private readonly log: (message: string, error?: unknown) => void;

  constructor(readonly options: PaidAnswerStoreOptions) {
    this.now = options.now ?? (() => new Date());
    this.log = options.log ?? (() => undefined);
  }

  get path(): string {
    return this.options.path;
  }

  /** Answers kept and their bytes (after the file was read). */
  async stats(): Promise<{ answers: number; bytes: number; fileBytes: number }> {
    await this.load();
    this.expire();
    return { answers: this.entries.size, bytes: this.liveBytes, fileBytes: this.fileBytes };
  }

  /** The settled answer bought with this identifier, if it is still kept. */
  async get(id: string): Promise<PaidAnswer | undefined> {
    await this.load();
    this.expire();
    return this.entries.get(id)?.answer;
  }

  /**
   * Keeps a settled answer durably (appended and fsynced before this resolves); writes are
   * serialised in call order. Resolves false when the answer is heavier than the whole bound.
   */
  put(answer: PaidAnswer): Promise<boolean> {
    const write = this.pending.then(() => this.write(answer));
    this.pending = write.then(() => undefined, () => undefined);
    return write;
  }

  private load(): Promise<void> {
    // An unreadable file is logged and the store starts empty: retries are then paid again, the service goes on.
    this.loaded ??= this.read().catch((error: unknown) => this.log(`paid answers: ${this.path} could not be read`, error));
    return this.loaded;
  }

  private async read(): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    let dropped = false;
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      const answer = parseLine(line);
      if (!answer) {
        dropped = true; // a torn line from an interrupted write
        continue;
      }
      if (this.entries.has(answer.id)) dropped = true;
      this.remember(answer, Buffer.byteLength(`${line}\n`));
    }
    this.fileBytes = Buffer.byteLength(text);
    const before = this.entries.size;
    this.expire();
    this.evictTo(this.options.maxBytes);
    if (dropped || this.entries.size < before) await this.compact();
  }

  /** Adds (or replaces) an entry as the newest. */
  private remember(answer: PaidAnswer, bytes: number): void {
    const previous = this.entries.get(answer.id);
    if (previous) {
      this.entries.delete(answer.id);
      this.liveBytes -= previous.bytes;
    }
    this.entries.set(answer.id, { answer, bytes, savedMs: Date.parse(answer.savedAt) });
    this.liveBytes += bytes;
  }

  /** Drops answers older than maxAgeSeconds (the Map holds them oldest first). */
  private expire(): void {
    const oldest = this.now().getTime() - this.options.maxAgeSeconds * 1000;
    for (const [id, entry] of this.entries) {
      if (entry.savedMs > oldest) continue;
      this.entries.delete(id);
      this.liveBytes -= entry.bytes;
    }
  }

  private evictTo(maxBytes: number): void {
    for (const [id, entry] of this.entries) {
      if (this.liveBytes <= maxBytes) break;
      this.entries.delete(id);
      this.liveBytes -= entry.bytes;
    }
  }

  private async write(answer: PaidAnswer): Promise<boolean> {
    await this.load();
    const line = serialise(answer);
    const bytes = Buffer.byteLength(line);
    if (bytes > this.options.maxBytes) {
      this.log(`paid answers: an answer of ${bytes} bytes exceeds PAID_ANSWERS_MAX_BYTES (${this.options.maxBytes}) and is not kept for retries`);
      return false;
    }
    const { sizeBefore, written } = await appendLineDurably(this.path, line);
    this.fileBytes = sizeBefore + written;
    this.remember(answer, bytes);
    this.expire();
    this.evictTo(this.options.maxBytes);
    if (this.fileBytes > 2 * this.options.maxBytes) await this.compact();
    return true;
  }

  /** Rewrites the file with the kept answers only: temporary file, fsync, rename. */
  private async compact(): Promise<void> {
    const temporary = `${this.path}.${process.pid}.tmp`;
    await mkdir(dirname(this.path), { recursive: true });
    const file = await open(temporary, 'w');
    try {
      for (const { answer } of this.entries.values()) await file.appendFile(serialise(answer));
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temporary, this.path);
    this.fileBytes = this.liveBytes;
  }
}
