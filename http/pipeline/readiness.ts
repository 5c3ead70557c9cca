// GET /readyz, free, for load balancers: 200 only when a snapshot generation is loaded and every
// readiness check passes (with payments configured: the payment store and the facilitator reachable,
// http/payments/index.ts); otherwise 503 with a JSON body naming what is not ready. Each check has
// READINESS_CHECK_MS to answer. /healthz stays the liveness route (the process answers at all).
import type Koa from 'koa';
import type { ReadinessCheck } from '../readiness.ts';
import { errorBody } from '../errors.ts';

export const READINESS_PATH = '/readyz';
/** A check that has not answered by then counts as not ready. */
export const READINESS_CHECK_MS = 2_000;

export interface ReadinessOptions {
  /** The snapshot new requests are pinned to (its generation id: null for a flat snapshot folder); undefined while none is loaded. */
  snapshot: () => { generation: string | null } | undefined;
  checks: readonly ReadinessCheck[];
  log: (message: string, error?: unknown) => void;
}

type Outcome = 'ok' | 'unreachable' | 'timed out';

async function outcomeOf(check: ReadinessCheck, log: ReadinessOptions['log']): Promise<Outcome> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => resolve('timed out'), READINESS_CHECK_MS);
  });
  const answered = check.check().then(
    (): Outcome => 'ok',
    (error: unknown): Outcome => {
      log(`readiness: ${check.name} is not ready`, error);
      return 'unreachable';
    },
  );
  try {
    return await Promise.race([answered, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

export function readiness(options: ReadinessOptions): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.path !== READINESS_PATH) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD');
      ctx.status = 405;
      ctx.body = errorBody(405, 'method_not_allowed', `${ctx.method} is not allowed on ${READINESS_PATH}; allowed: GET, HEAD`);
      return;
    }
    const snapshot = options.snapshot();
    const generation = snapshot?.generation ?? null;
    const checks: Record<string, Outcome | 'not loaded'> = { snapshot: snapshot ? 'ok' : 'not loaded' };
    const outcomes = await Promise.all(options.checks.map((check) => outcomeOf(check, options.log)));
    options.checks.forEach((check, index) => { checks[check.name] = outcomes[index]!; });
    const notReady = Object.keys(checks).filter((name) => checks[name] !== 'ok');
    ctx.status = notReady.length === 0 ? 200 : 503;
    ctx.body = notReady.length === 0
      ? { status: 'ready', generation, checks }
      : { status: 'not_ready', not_ready: notReady, generation, checks };
  };
}
