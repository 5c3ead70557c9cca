// The seeded randomness of every sample generator: mulberry32 seeded by FNV-1a of a key (mixed
// with a generator's own seed), so each stream (one per day, year, series...) is fixed whatever
// else is generated.

function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function fnv1a(text: string, seed: number): number {
  let hash = 0x811c9dc5 ^ seed;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

export class Random {
  readonly next: () => number;
  constructor(key: string, seed = 0) {
    this.next = mulberry32(fnv1a(key, seed));
  }
  chance(probability: number): boolean {
    return this.next() < probability;
  }
  between(low: number, high: number): number {
    return low + (high - low) * this.next();
  }
  /** Two independent standard normal values (Box-Muller). */
  gaussianPair(): [number, number] {
    const u = Math.max(this.next(), 1e-12);
    const v = this.next();
    const r = Math.sqrt(-2 * Math.log(u));
    return [r * Math.cos(2 * Math.PI * v), r * Math.sin(2 * Math.PI * v)];
  }
  /** Multiplicative noise around 1 (log-normal, sigma on the log scale). */
  noise(sigma: number): number {
    const u = Math.max(this.next(), 1e-12);
    const v = this.next();
    return Math.exp(sigma * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v));
  }
}
