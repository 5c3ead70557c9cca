// Sample or imported, said where a user looks: `/healthz` gains `data` (the snapshot as a whole) and
// `sources` (per source id of the import records: sample, imported or mixed), and every data answer
// (a catalog route's 2xx, any format) carries `X-Data-Source: sample | imported | mixed`.
//
// Decision: the header describes the served snapshot as a whole, not the tables one route reads
// (routes do not declare their tables): a snapshot of real imports says `imported` everywhere, a fresh
// clone's sample says `sample`, and real data ingested beside samples says `mixed` until the samples
// are gone. `unknown` (no import record has an address) happens only with hand-made test snapshots.
// The origins are read from the import records once per loaded snapshot (engine/dataOrigin.ts).
import type Koa from 'koa';
import type { Database } from '../engine/database.ts';
import { snapshotOriginsOf } from '../engine/dataOrigin.ts';

export const DATA_SOURCE_HEADER = 'X-Data-Source';

/** `db` gives the database the request is answered from (the pinned snapshot's, when they are swapped). */
export function dataSourceMiddleware(db: () => Database): Koa.Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.path === '/healthz') {
      if (ctx.status === 200 && ctx.body && typeof ctx.body === 'object' && !Buffer.isBuffer(ctx.body)) {
        const origins = await snapshotOriginsOf(db());
        ctx.body = { ...(ctx.body as Record<string, unknown>), data: origins.data, sources: origins.sources };
      }
      return;
    }
    if (ctx.state.route && ctx.status >= 200 && ctx.status < 300) {
      ctx.set(DATA_SOURCE_HEADER, (await snapshotOriginsOf(db())).data);
    }
  };
}
