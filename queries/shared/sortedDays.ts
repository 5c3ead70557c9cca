// Binary search over ascending day numbers held in typed arrays (the running totals that several
// domains hold per database answer a window with two of these).

/** First index in [lo, hi) of the ascending `days` whose value is >= day (hi when none). */
export function firstAtOrAfter(days: Int32Array, day: number, lo = 0, hi = days.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (days[mid] < day) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
