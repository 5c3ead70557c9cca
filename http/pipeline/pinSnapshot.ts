// Each request is answered from one snapshot: the generation current when it starts, even if a new
// one is swapped in meanwhile (http/snapshotHolder.ts).
import type Koa from 'koa';
import type { SnapshotHolder } from '../snapshotHolder.ts';

export function pinSnapshot(snapshots: SnapshotHolder): Koa.Middleware {
  return (_ctx, next) => snapshots.run(next);
}
