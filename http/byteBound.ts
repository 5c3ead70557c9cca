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
