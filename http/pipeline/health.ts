// GET /healthz, free: the snapshot served (generation, import date), the answer cache's figures, the
// held views' state against their one budget (engine/held.ts), and
// whether the data is the sample or imported (`data` for the snapshot, `sources` per source id;
// engine/dataOrigin.ts), and per fetchable source when it was last fetched from its publisher and last
// changed, with its status (`freshness`; engine/fetchState.ts). Built here only; its Cache-Control is decided with the others (responseHeaders).
import type Koa from 'koa';
import type { Database } from '../../engine/database.ts';
import { snapshotOriginsOf } from '../../engine/dataOrigin.ts';
import type { SourceFetchState } from '../../engine/fetchState.ts';
import { heldStateStats } from '../../engine/held.ts';
import type { ResponseCache } from '../cache.ts';
import { errorBody } from '../errors.ts';
import type { SnapshotHolder } from '../snapshotHolder.ts';

export const HEALTH_PATH = '/healthz';

export interface HealthOptions {
  cache: ResponseCache;
  /** The served snapshot when it is swappable: its generation and import date are named. */
  snapshots?: SnapshotHolder;
  /** The import date of the single snapshot (without `snapshots`). */
  importDate: string | null;
  /** The database the request is pinned to. */
  db: () => Database;
  /** Per source: last_fetch, last_change, status (ok, failed with the reason, never); absent: not shown. */
  freshness?: () => Promise<Record<string, SourceFetchState>>;
}

export function health(options: HealthOptions): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.path !== HEALTH_PATH) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD');
      ctx.status = 405;
      ctx.body = errorBody(405, 'method_not_allowed', `${ctx.method} is not allowed on ${HEALTH_PATH}; allowed: GET, HEAD`);
      return;
    }
    const served = options.snapshots?.pinned();
    const status = served
      ? { status: 'ok', generation: served.generation, import_date: served.importDate, cache: options.cache.stats() }
      : { status: 'ok', import_date: options.importDate, cache: options.cache.stats() };
    const db = options.db();
    const origins = await snapshotOriginsOf(db);
    const freshness = options.freshness ? { freshness: await options.freshness() } : {};
    ctx.body = { ...status, held: heldStateStats(db), data: origins.data, sources: origins.sources, ...freshness };
  };
}
