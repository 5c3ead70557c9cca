// The snapshot a request is answered from, and the hot swap to a new generation.
//
// Each request is pinned, when it starts, to the snapshot current at that moment (an
// AsyncLocalStorage store): every query it runs, its gate and its cache entry use that snapshot's
// database, whatever happens meanwhile. A swap makes a new snapshot current (one assignment, between
// two requests), empties the answer cache, waits until the requests pinned to the old snapshot have
// finished (drain) and closes its database. So no request sees two generations and none fails.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Database } from '../engine/database.ts';
import { releaseHeldState } from '../engine/held.ts';
import { ResponseCache, type CachedAnswer, type CacheOptions } from './cache.ts';

export interface Snapshot {
  db: Database;
  /** The generation's id (engine/generation.ts); null for a flat snapshot folder. */
  generation: string | null;
  /** The newest import record's time (ISO, UTC), as /healthz shows it. */
  importDate: string | null;
}

interface Entry {
  snapshot: Snapshot;
  inFlight: number;
  retired: boolean;
  drained: Promise<void>;
  resolveDrained: () => void;
}

function entryOf(snapshot: Snapshot): Entry {
  let resolveDrained!: () => void;
  const drained = new Promise<void>((resolve) => (resolveDrained = resolve));
  return { snapshot, inFlight: 0, retired: false, drained, resolveDrained };
}

export interface Lease {
  snapshot: Snapshot;
  release(): void;
}

export class SnapshotHolder {
  private entry: Entry;
  private readonly pinnedStore = new AsyncLocalStorage<Snapshot>();
  private readonly swapListeners: Array<(next: Snapshot, previous: Snapshot) => void> = [];
  private swapping: Promise<void> = Promise.resolve();

  constructor(initial: Snapshot) {
    this.entry = entryOf(initial);
  }

  /** The snapshot new requests are pinned to. */
  current(): Snapshot {
    return this.entry.snapshot;
  }

  /** The snapshot the running request is pinned to (outside a request: the current one). */
  pinned(): Snapshot {
    return this.pinnedStore.getStore() ?? this.entry.snapshot;
  }

  /** Pins the caller to the current snapshot until release(); a swap waits for it before closing that snapshot. */
  acquire(): Lease {
    const entry = this.entry;
    entry.inFlight++;
    let released = false;
    return {
      snapshot: entry.snapshot,
      release: () => {
        if (released) return;
        released = true;
        entry.inFlight--;
        if (entry.retired && entry.inFlight === 0) entry.resolveDrained();
      },
    };
  }

  /** Runs fn pinned to the current snapshot (pinned() inside it answers that snapshot). */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    const lease = this.acquire();
    try {
      return await this.pinnedStore.run(lease.snapshot, fn);
    } finally {
      lease.release();
    }
  }

  /** Called on every swap, right after the new snapshot became current (the app empties its answer cache). */
  onSwap(listener: (next: Snapshot, previous: Snapshot) => void): void {
    this.swapListeners.push(listener);
  }

  /**
   * Makes `next` current, then drains and closes the previous snapshot's database. Resolves once the
   * previous one is closed. Swaps run one after the other.
   */
  swap(next: Snapshot): Promise<void> {
    const run = this.swapping.then(async () => {
      const previous = this.entry;
      this.entry = entryOf(next);
      previous.retired = true;
      for (const listener of this.swapListeners) listener(next, previous.snapshot);
      if (previous.inFlight === 0) previous.resolveDrained();
      await previous.drained;
      // Its held views go with it (engine/held.ts): their budget is the new snapshot's again.
      releaseHeldState(previous.snapshot.db);
      await previous.snapshot.db.close();
    });
    this.swapping = run.catch(() => {});
    return run;
  }

  /** Requests pinned to the current snapshot right now. */
  inFlight(): number {
    return this.entry.inFlight;
  }

  /** Closes the current snapshot's database (shutdown), after any swap under way. */
  async close(): Promise<void> {
    await this.swapping;
    await this.entry.snapshot.db.close();
  }
}

/**
 * An answer cache whose keys carry the generation of the request's snapshot: a request pinned to
 * the old generation during a swap can neither read nor fill an entry that a request on the new
 * one would get (nor share its computation). Emptied on swap by the app (SnapshotHolder.onSwap).
 */
export class GenerationCache extends ResponseCache {
  constructor(
    options: CacheOptions | number,
    private readonly generationOf: () => string | null,
  ) {
    super(options);
  }

  override getOrCompute(key: string, compute: () => Promise<CachedAnswer>): Promise<CachedAnswer> {
    return super.getOrCompute(`${this.generationOf() ?? '-'}\u0000${key}`, compute);
  }
}
