// Answers are immutable between snapshot loads, so a bounded in-memory cache keyed by
// (route, normalised parameters, today) is safe. Least recently used entries go first.
import type { ResponseBody } from '../queries/catalog.ts';

export class ResponseCache {
  private readonly entries = new Map<string, Promise<ResponseBody>>();

  constructor(private readonly maxEntries = 1000) {}

  static key(routeId: string, params: Record<string, unknown>, today: string): string {
    const sorted = Object.keys(params).sort().map((name) => [name, params[name]]);
    return JSON.stringify([routeId, sorted, today]);
  }

  /** The cached answer, or the computed one; a failed computation is not kept. */
  async getOrCompute(key: string, compute: () => Promise<ResponseBody>): Promise<ResponseBody> {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const pending = compute();
    this.entries.set(key, pending);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    try {
      return await pending;
    } catch (error) {
      this.entries.delete(key);
      throw error;
    }
  }
}
