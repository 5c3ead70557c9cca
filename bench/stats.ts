// Summary statistics of timing samples, and ratios against a floor or ceiling measured in the same run.

export interface Summary {
  /** Number of samples. */
  n: number;
  p50: number;
  p99: number;
  mean: number;
  min: number;
  max: number;
}

/** Nearest-rank percentile of an ascending array: the smallest value with at least p% of samples at or below it. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) throw new RangeError('percentile of no samples');
  if (!(p > 0 && p <= 100)) throw new RangeError(`percentile must be in (0, 100], got ${p}`);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    mean: sorted.reduce((sum, x) => sum + x, 0) / sorted.length,
    min: sorted[0],
    max: sorted[sorted.length - 1],
  };
}

/** value / reference, or null when the reference is not a positive number (nothing to compare with). */
export function ratio(value: number | null, reference: number | null): number | null {
  if (value === null || reference === null || !(reference > 0) || !Number.isFinite(value)) return null;
  return value / reference;
}

/** Rows per second, or null for an empty or instant run. */
export function perSecond(rows: number, milliseconds: number): number | null {
  return milliseconds > 0 && rows > 0 ? (rows * 1000) / milliseconds : null;
}

/** Times `run` `runs` times after `warmup` untimed runs; returns the samples in milliseconds. */
export async function timeRuns(run: () => Promise<unknown>, runs: number, warmup = 1): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await run();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return samples;
}

// A single ingest or floor run of a small source varies by a third from run to run on this shared
// 2-core machine: a source with a floor whose first ingest takes under REPEAT_UNDER_MS is timed
// TIMED_RUNS times (ingest and floor alike) and the median run is reported (bench/data.ts). The bulk
// sources keep one run each.
export const TIMED_RUNS = 3;
export const REPEAT_UNDER_MS = 10_000;

/** The run with the median value (the lower middle of an even count). */
export function medianBy<T>(runs: readonly T[], value: (run: T) => number): T {
  return [...runs].sort((a, b) => value(a) - value(b))[Math.floor((runs.length - 1) / 2)]!;
}
