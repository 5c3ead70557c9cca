// One ETag rule for everything a client may revalidate: a 200 GET or HEAD that is a free document or
// a catalog answer served without payment gets a weak ETag over the snapshot generation and the
// body's bytes before any content coding (weak: the br, gzip and identity forms of one body share it);
// a matching If-None-Match turns the answer into a 304 without a body. An answer a client must pay
// for gets none: a paid answer has no 304 shortcut (and is `private, no-store` anyway).
import { createHash } from 'node:crypto';
import type Koa from 'koa';
import { documentAnswerOf } from './documentAnswer.ts';
import { matchOf } from './requestMatch.ts';

export interface EntityTagOptions {
  /** The generation the request is pinned to (null: a single snapshot). */
  generation: () => string | null;
}

/** Tags already computed, per body: a document's and a cached answer's bytes are the same Buffer on every request. */
const computed = new WeakMap<Buffer, { generation: string; tag: string }>();

/** The weak entity tag of `body` served from `generation`. */
export function entityTagOf(generation: string, body: Buffer): string {
  const known = computed.get(body);
  if (known?.generation === generation) return known.tag;
  const tag = `W/"${createHash('sha256').update(generation).update('\n').update(body).digest('base64url').slice(0, 27)}"`;
  computed.set(body, { generation, tag });
  return tag;
}

function revalidatable(ctx: Koa.Context): boolean {
  if (ctx.status !== 200 || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return false;
  if (documentAnswerOf(ctx) === 'document') return true;
  const match = matchOf(ctx);
  return match?.validated !== undefined && !match.needsPayment;
}

export function entityTags(options: EntityTagOptions): Koa.Middleware {
  return async (ctx, next) => {
    await next();
    if (!revalidatable(ctx)) return;
    const { body } = ctx;
    const bytes = Buffer.isBuffer(body) ? body : typeof body === 'string' ? Buffer.from(body, 'utf8') : null;
    if (bytes === null) return;
    ctx.set('ETag', entityTagOf(options.generation() ?? '', bytes));
    if (ctx.fresh) {
      ctx.status = 304;
      ctx.body = null;
    }
  };
}
