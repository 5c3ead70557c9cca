// Shared by the SEBRA window tests: a seeded random sequence and the weekdays of a date range.

/** Deterministic pseudo-random numbers in [0, 1) (a linear congruential generator). */
export function randoms(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/** Monday-to-Friday dates (ISO) from `from` to `to`, both included. */
export function businessDays(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    const day = new Date(t);
    if (day.getUTCDay() !== 0 && day.getUTCDay() !== 6) days.push(day.toISOString().slice(0, 10));
  }
  return days;
}
