// One bound on the bytes several in-memory stores hold together: the answer cache (http/cache.ts) and
// the fast answers replayed by the listener (http/fastAnswers.ts) draw on the same ANSWER_CACHE_MB,
// so that setting is the real ceiling, not half of it per store. Past the bound, the least recently
// used entry of all the stores goes first (each entry carries a use stamp from this bound's counter).

/** A store drawing on a ByteBound: it can say when its least recently used entry was used, and drop it. */
export interface BoundedStore {
  /** The use stamp of the store's least recently used entry; undefined when it holds none. */
  oldestUse(): number | undefined;
  /** Drops that entry (and releases its bytes from the bound). */
  evictOldest(): void;
}

export class ByteBound {
  private held = 0;
  private uses = 0;
  private readonly stores = new Set<BoundedStore>();

  /** `maxBytes` 0: nothing is kept (the stores are off). */
  constructor(readonly maxBytes: number) {}

  join(store: BoundedStore): void {
    this.stores.add(store);
  }

  /** A stamp for an entry stored or used now (larger: more recent). */
  use(): number {
    return ++this.uses;
  }

  add(bytes: number): void {
    this.held += bytes;
  }

  release(bytes: number): void {
    this.held -= bytes;
  }

  /** Evicts the least recently used entries, whichever store holds them, until the bytes held fit the bound. */
  trim(): void {
    while (this.held > this.maxBytes) {
      let oldest: BoundedStore | undefined;
      let oldestUse = Infinity;
      for (const store of this.stores) {
        const use = store.oldestUse();
        if (use !== undefined && use < oldestUse) {
          oldest = store;
          oldestUse = use;
        }
      }
      if (!oldest) return;
      oldest.evictOldest();
    }
  }

  /** Bytes held by all the stores together. */
  get bytes(): number {
    return this.held;
  }
}

/** An entry of a BoundedEntries: its bytes, and the bound's use stamp of its last store or hit. */
export interface BoundedEntry {
  size: number;
  used: number;
}

/**
 * Entries by key in least-recently-used order (a Map iterates in insertion order), drawing on a
 * ByteBound: the one store both the answer cache and the fast answers keep their entries in.
 */
export class BoundedEntries<E extends BoundedEntry> implements BoundedStore {
  private readonly entries = new Map<string, E>();
  private held = 0;

  constructor(readonly bound: ByteBound) {
    bound.join(this);
  }

  /** The entry, made the most recently used. */
  get(key: string): E | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      hit.used = this.bound.use();
    }
    return hit;
  }

  /** Stores the entry (replacing one under the same key), then trims every store of the bound. */
  set(key: string, entry: E): void {
    const previous = this.entries.get(key);
    if (previous) {
      this.held -= previous.size;
      this.bound.release(previous.size);
      this.entries.delete(key);
    }
    this.entries.set(key, entry);
    this.held += entry.size;
    this.bound.add(entry.size);
    this.bound.trim();
  }

  oldestUse(): number | undefined {
    for (const entry of this.entries.values()) return entry.used;
    return undefined;
  }

  evictOldest(): void {
    for (const [key, entry] of this.entries) {
      this.entries.delete(key);
      this.held -= entry.size;
      this.bound.release(entry.size);
      return;
    }
  }

  clear(): void {
    this.entries.clear();
    this.bound.release(this.held);
    this.held = 0;
  }

  /** Bytes held by this store's entries. */
  get bytes(): number {
    return this.held;
  }

  get count(): number {
    return this.entries.size;
  }
}
