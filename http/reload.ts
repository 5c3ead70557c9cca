// Hot snapshot reload: watches DATA_DIR/CURRENT (a poll of its content every second, plus reload()
// on SIGHUP from bin/start.ts); when it names another generation, opens that generation in a new
// database beside the served one (loads and rollups: the warm-up), then swaps it in (SnapshotHolder).
// A failed load keeps the old generation serving and logs why; the same generation is retried only
// when the pointer changes again or on reload().
import { readCurrentId } from '../engine/generation.ts';
import type { EventLog } from './log.ts';
import type { Snapshot, SnapshotHolder } from './snapshotHolder.ts';

export const DEFAULT_RELOAD_POLL_MS = 1000;

export interface ReloaderOptions {
  dataDir: string;
  holder: SnapshotHolder;
  /** Opens, loads and warms a generation (http/openSnapshot.ts openGeneration). */
  open: (id: string) => Promise<Snapshot>;
  /** Default: a line on the console. */
  log?: EventLog;
  pollMs?: number;
}

export class SnapshotReloader {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<string | null> | null = null;
  /** The generation whose load failed last (not retried by the poll until the pointer changes). */
  private failed: string | null = null;
  private pointerProblem: string | null = null;
  private readonly log: EventLog;

  constructor(private readonly options: ReloaderOptions) {
    this.log = options.log ?? ((message, error) => (error === undefined ? console.log(message) : console.error(message, error)));
  }

  start(): this {
    this.timer ??= setInterval(() => void this.check(false), this.options.pollMs ?? DEFAULT_RELOAD_POLL_MS);
    this.timer.unref();
    return this;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Reloads now if the pointer names another generation (SIGHUP): also retries a generation that failed. */
  reload(): Promise<string | null> {
    return this.check(true);
  }

  /** Resolves with the generation swapped in, or null when nothing changed (or the load failed). */
  private check(force: boolean): Promise<string | null> {
    if (this.running) return this.running;
    this.running = this.attempt(force).finally(() => (this.running = null));
    return this.running;
  }

  private async attempt(force: boolean): Promise<string | null> {
    let id: string | null;
    try {
      id = readCurrentId(this.options.dataDir);
    } catch (error) {
      // Logged once per distinct problem, not at every poll.
      const text = String(error);
      if (force || text !== this.pointerProblem) this.log(`snapshot reload: cannot read the pointer in ${this.options.dataDir}; still serving ${this.options.holder.current().generation}`, error, { event: 'generation_pointer_unreadable' });
      this.pointerProblem = text;
      return null;
    }
    this.pointerProblem = null;
    const served = this.options.holder.current().generation;
    if (id === null || id === served) return null;
    if (id === this.failed && !force) return null;
    this.log(`snapshot reload: loading generation ${id} (serving ${served ?? 'the flat snapshot'})`, undefined, { event: 'generation_loading', generation: id, previous: served });
    const started = Date.now();
    let next: Snapshot;
    try {
      next = await this.options.open(id);
    } catch (error) {
      this.failed = id;
      this.log(`snapshot reload: generation ${id} failed to load; still serving ${served ?? 'the flat snapshot'}`, error, { event: 'generation_load_failed', generation: id, previous: served });
      return null;
    }
    this.failed = null;
    await this.options.holder.swap(next);
    const loadMs = Date.now() - started;
    this.log(`snapshot reload: now serving generation ${id} (loaded in ${(loadMs / 1000).toFixed(1)} s; ${served ?? 'the flat snapshot'} drained and closed)`, undefined, {
      event: 'generation_swap', generation: id, previous: served, load_ms: loadMs,
    });
    return id;
  }
}
