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
