// The refresh worker of `npm run refresh`: fetches each source on its own schedule (croner expressions,
// Europe/Berlin time: the operator file's, else the source's default in sources.ts), one fetch at a time
// (the publication takes the data folder's lock as every ingest does). Croner computes the next time of each
// schedule; the waiting is the worker's own, on an injectable clock and sleep, so a test can run a week of
// schedules in milliseconds. stop() ends the wait at once and lets a running fetch finish.
import { Cron } from 'croner';
import { SCHEDULE_TIMEZONE } from './sources.ts';

export interface Schedule {
  source: string;
  /** Croner expression, read in SCHEDULE_TIMEZONE. */
  pattern: string;
}

export interface RefreshWorkerOptions {
  schedules: readonly Schedule[];
  /** Fetches one source (ingest/fetch/run.ts fetchSources); its errors are logged, the worker goes on. */
  fetch: (source: string) => Promise<{ exitCode: number }>;
  now?: () => Date;
  /** Waits `ms` or until the signal aborts (stop()). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  log: (message: string, fields: Record<string, unknown>) => void;
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** The longest single wait: a long one is split so that a clock change (suspend, NTP step) is noticed. */
const MAX_WAIT_MS = 60 * 60 * 1000;

export class RefreshWorker {
  private readonly crons: Array<{ source: string; cron: Cron }>;
  private readonly now: () => Date;
  private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  private readonly stopping = new AbortController();
  private loop: Promise<void> | null = null;

  constructor(private readonly options: RefreshWorkerOptions) {
    this.now = options.now ?? (() => new Date());
    this.sleep = options.sleep ?? abortableSleep;
    // paused: croner only computes the times; it runs nothing by itself.
    this.crons = options.schedules.map(({ source, pattern }) => ({ source, cron: new Cron(pattern, { timezone: SCHEDULE_TIMEZONE, paused: true }) }));
  }

  /** The next time each source is due after `from`, earliest first (ties by name). */
  nextRuns(from: Date = this.now()): Array<{ source: string; at: Date }> {
    return this.crons
      .map(({ source, cron }) => ({ source, at: cron.nextRun(from) }))
      .filter((entry): entry is { source: string; at: Date } => entry.at !== null)
      .sort((a, b) => a.at.getTime() - b.at.getTime() || (a.source < b.source ? -1 : 1));
  }

  /** Starts the loop; the promise settles when stop() has ended it. */
  start(): Promise<void> {
    this.loop ??= this.run();
    return this.loop;
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.loop;
  }

  private async run(): Promise<void> {
    const { log } = this.options;
    const due = new Map(this.nextRuns().map(({ source, at }) => [source, at]));
    for (const [source, at] of due) log(`refresh: ${source} next at ${at.toISOString()}`, { event: 'refresh_scheduled', source, next: at.toISOString() });
    while (!this.stopping.signal.aborted) {
      const [soonest] = [...due.entries()].sort(([a, x], [b, y]) => x.getTime() - y.getTime() || (a < b ? -1 : 1));
      if (!soonest) {
        log('refresh: no schedule left', { event: 'refresh_idle' });
        return;
      }
      const wait = soonest[1].getTime() - this.now().getTime();
      if (wait > 0) {
        await this.sleep(Math.min(wait, MAX_WAIT_MS), this.stopping.signal);
        continue;
      }
      const [source] = soonest;
      const started = this.now();
      log(`refresh: fetching ${source}`, { event: 'refresh_start', source });
      try {
        const { exitCode } = await this.options.fetch(source);
        log(`refresh: ${source} done, exit code ${exitCode}`, { event: 'refresh_done', source, exit_code: exitCode, duration_ms: this.now().getTime() - started.getTime() });
      } catch (error) {
        log(`refresh: ${source} failed: ${error instanceof Error ? error.message : String(error)}`, { event: 'refresh_error', source });
      }
      const cron = this.crons.find((entry) => entry.source === source)!.cron;
      // The next time after both the due time and the end of this fetch: a long fetch skips the times it overran.
      const after = new Date(Math.max(this.now().getTime(), soonest[1].getTime()));
      const next = cron.nextRun(after);
      if (next === null) due.delete(source);
      else {
        due.set(source, next);
        log(`refresh: ${source} next at ${next.toISOString()}`, { event: 'refresh_scheduled', source, next: next.toISOString() });
      }
    }
  }
}
