// The request's record (given by the listener, http/observe.ts) on the answer: its id as
// X-Request-Id on every answer, and its route label for the log line and the metrics: the catalog
// route's id, else health, readiness, docs, mcp or unknown (never the raw path). The id in JSON error bodies
// is added by the errors stage (`tagErrorBody`), inside compression, while the body is still an object.
import type Koa from 'koa';
import type { ErrorBody } from '../errors.ts';
import { REQUEST_ID_HEADER, requestRecordOf } from '../observe.ts';
import { documentAnswerOf } from './documentAnswer.ts';
import { HEALTH_PATH } from './health.ts';
import { MCP_PATH } from '../mcp/tools.ts';
import { READINESS_PATH } from './readiness.ts';
import { matchOf } from './requestMatch.ts';

export function requestRecord(): Koa.Middleware {
  return async (ctx, next) => {
    const record = requestRecordOf(ctx.req);
    if (!record) return next();
    ctx.set(REQUEST_ID_HEADER, record.id);
    await next();
    record.route = matchOf(ctx)?.route.id ?? (ctx.path === HEALTH_PATH ? 'health' : ctx.path === READINESS_PATH ? 'readiness' : ctx.path === MCP_PATH ? 'mcp' : documentAnswerOf(ctx) ? 'docs' : 'unknown');
  };
}

/** Names the request's id as `request_id` in a JSON error body (any status, the 402's too). */
export function tagErrorBody(ctx: Koa.Context): void {
  const record = requestRecordOf(ctx.req);
  const body = ctx.body;
  if (!record || !isErrorBody(body)) return;
  // A new object: an error body may be shared; the status stays the one already set.
  const status = ctx.status;
  ctx.body = { ...body, error: { ...body.error, request_id: record.id } };
  ctx.status = status;
}

function isErrorBody(body: unknown): body is ErrorBody {
  if (typeof body !== 'object' || body === null || Buffer.isBuffer(body) || !Object.hasOwn(body, 'error')) return false;
  const error = (body as { error: unknown }).error;
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string';
}
