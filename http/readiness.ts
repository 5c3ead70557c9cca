// What /readyz asks before it says "ready" (http/pipeline/readiness.ts): named checks, each resolving
// when its dependency can be used now. A check that reaches over the network is cached, so a load
// balancer polling every second (or a client hammering the free route) costs one call per period.

export interface ReadinessCheck {
  /** The name the 503 body gives when it fails (`payment_store`, `facilitator`). */
  name: string;
  /** Resolves when ready; rejects otherwise (the reason is logged, never sent: it may name a URL). */
  check(): Promise<void>;
}

export interface CachedCheckOptions {
  /** How long a success is trusted, in milliseconds. */
  okMs: number;
  /** How long a failure stands before the dependency is asked again, in milliseconds. */
  failedMs: number;
  now?: () => number;
}

/** `check` asked at most once per period; concurrent callers share the call in flight. */
export function cachedCheck(check: () => Promise<void>, options: CachedCheckOptions): () => Promise<void> {
  const now = options.now ?? Date.now;
  let last: { result: Promise<void>; until: number } | undefined;
  return () => {
    if (last && now() < last.until) return last.result;
    const result = check();
    const entry = { result, until: Infinity };
    last = entry;
    result.then(
      () => { entry.until = now() + options.okMs; },
      () => { entry.until = now() + options.failedMs; },
    );
    return result;
  };
}
