// Answers are immutable between snapshot loads, so an in-memory cache keyed by (route, normalised
// parameters, today, format) is safe. It keeps one representation of an answer, the encoded bytes
// sent to the client, and is bounded by their size: least recently used answers go first once the
// total passes the bound, and an answer larger than the per-answer limit is never kept. The bound is
// shared with the fast answers (http/byteBound.ts): the two together stay under ANSWER_CACHE_MB.
import { BoundedEntries, ByteBound } from './byteBound.ts';
import type { EncodedBody } from './formats.ts';
import type { PagePosition } from '../queries/kinds/page.ts';
import { ConfigError } from './configError.ts';

/** 64 MiB of answers unless ANSWER_CACHE_MB says otherwise. */
export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;
/** Answers above 1 MiB (or a sixteenth of the bound when that is smaller) are not cached. */
export const DEFAULT_MAX_ANSWER_BYTES = 1024 * 1024;
/** What an entry costs besides its bytes (the key's text, the map slot, the object): an estimate. */
const ENTRY_OVERHEAD = 200;

/** An encoded answer as the cache keeps it: the bytes, their content type, a CSV's Content-Disposition and a list page's position. */
export interface CachedAnswer {
  type: string;
  body: Buffer;
  disposition?: string;
  page?: PagePosition;
}

export interface CacheStats {
  /** Bytes held (answers plus an estimate of each entry's overhead). */
  bytes: number;
  max_bytes: number;
  max_answer_bytes: number;
  entries: number;
  hits: number;
  misses: number;
  /** hits / (hits + misses), 4 decimals; null before the first lookup. */
  hit_rate: number | null;
}

export interface CacheOptions {
  /** The bound on the bytes held; 0 turns the cache off. */
  maxBytes?: number;
  /** The largest answer kept; default min(1 MiB, maxBytes / 16). */
  maxAnswerBytes?: number;
}

/** A bad ANSWER_CACHE_MB: refused at start in one line like any other setting. */
export class CacheConfigError extends ConfigError {
  constructor(message: string) {
    super(message);
    this.name = 'CacheConfigError';
  }
}

/** ANSWER_CACHE_MB: the cache bound in MiB (an integer, 0 = off); a message naming the variable otherwise. */
export function cacheBytesFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.ANSWER_CACHE_MB?.trim();
  if (raw === undefined || raw === '') return DEFAULT_CACHE_BYTES;
  if (!/^[0-9]{1,6}$/.test(raw)) throw new CacheConfigError(`ANSWER_CACHE_MB must be a whole number of MiB, 0 to turn the answer cache off (got "${env.ANSWER_CACHE_MB}")`);
  return Number(raw) * 1024 * 1024;
}

/** The bytes of an encoded answer as the cache keeps them. */
export function toCached(encoded: EncodedBody): CachedAnswer {
  const body = typeof encoded.body === 'string' ? Buffer.from(encoded.body, 'utf8') : encoded.body;
  return {
    type: encoded.type,
    body,
    ...(encoded.disposition ? { disposition: encoded.disposition } : {}),
    ...(encoded.page ? { page: encoded.page } : {}),
  };
}

interface Entry {
  answer: CachedAnswer;
  size: number;
  /** The bound's use stamp of its last store or hit. */
  used: number;
}

export class ResponseCache {
  /** Settled answers in least-recently-used order. */
  private readonly entries: BoundedEntries<Entry>;
  /** Answers being computed: concurrent requests for one key share the computation. */
  private readonly pending = new Map<string, Promise<CachedAnswer>>();
  private hits = 0;
  private misses = 0;
  readonly maxBytes: number;
  readonly maxAnswerBytes: number;
  /** The bound on the bytes this cache and the fast answers hold together (maxBytes). */
  readonly bound: ByteBound;

  /** A number is the bound in bytes (the benchmark passes 0 to time misses). */
  constructor(options: CacheOptions | number = {}) {
    const given = typeof options === 'number' ? { maxBytes: options } : options;
    this.maxBytes = Math.max(0, given.maxBytes ?? DEFAULT_CACHE_BYTES);
    this.maxAnswerBytes = given.maxAnswerBytes ?? Math.min(DEFAULT_MAX_ANSWER_BYTES, Math.floor(this.maxBytes / 16));
    this.bound = new ByteBound(this.maxBytes);
    this.entries = new BoundedEntries(this.bound);
  }

  static key(routeId: string, params: Record<string, unknown>, today: string, format = 'json'): string {
    const sorted = Object.keys(params).sort().map((name) => [name, params[name]]);
    return JSON.stringify([routeId, sorted, today, format]);
  }

  /** The cached answer, or the computed one (kept when it fits); a failed computation is not kept. `counted` hears whether it was a hit. */
  async getOrCompute(key: string, compute: () => Promise<CachedAnswer>, counted?: (hit: boolean) => void): Promise<CachedAnswer> {
    const hit = this.entries.get(key);
    if (hit) {
      this.hits++;
      counted?.(true);
      return hit.answer;
    }
    const shared = this.pending.get(key);
    if (shared) {
      this.hits++;
      counted?.(true);
      return shared;
    }
    this.misses++;
    counted?.(false);
    if (this.maxBytes === 0) return compute();
    const computing = compute();
    this.pending.set(key, computing);
    try {
      const answer = await computing;
      this.store(key, answer);
      return answer;
    } finally {
      this.pending.delete(key);
    }
  }

  private store(key: string, answer: CachedAnswer): void {
    if (answer.body.length > this.maxAnswerBytes) return;
    const size = answer.body.length + key.length * 2 + ENTRY_OVERHEAD;
    this.entries.set(key, { answer, size, used: this.bound.use() });
  }

  /** Counts a hit served by the fast path (http/fastAnswers.ts) from bytes this cache's answers produced. */
  countHit(): void {
    this.hits++;
  }

  /** Empties the cache (a new snapshot); the counters stay. */
  clear(): void {
    this.entries.clear();
  }

  stats(): CacheStats {
    const lookups = this.hits + this.misses;
    return {
      bytes: this.entries.bytes,
      max_bytes: this.maxBytes,
      max_answer_bytes: this.maxAnswerBytes,
      entries: this.entries.count,
      hits: this.hits,
      misses: this.misses,
      hit_rate: lookups === 0 ? null : Math.round((this.hits / lookups) * 10_000) / 10_000,
    };
  }
}
