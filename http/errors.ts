// The error shape of every failure: {"error": {"status", "code", "message", "param"}}; over HTTP the
// error also names the request's id, `request_id` (http/pipeline/requestRecord.ts).
// Client errors carry their message; anything unexpected is a 500 that reveals no internals.
import type Koa from 'koa';
import { QueryTimeoutError } from '../engine/database.ts';
import { ApiError, codeForStatus, type ErrorCode } from '../queries/shared/errors.ts';

export interface ErrorBody {
  error: { status: number; code: ErrorCode; message: string; param: string | null; request_id?: string };
}

export function errorBody(status: number, code: ErrorBody['error']['code'], message: string, param: string | null = null): ErrorBody {
  return { error: { status, code, message, param } };
}

/** The JSON error of any failure: ApiErrors as declared, HTTP-layer errors by their status, anything else a bare 500. */
export function toErrorBody(error: unknown): ErrorBody {
  if (error instanceof ApiError) return errorBody(error.status, error.code, error.message, error.param);
  if (error instanceof QueryTimeoutError) return errorBody(503, 'timeout', 'the query took too long; try a narrower window');
  const status = (error as { status?: number }).status;
  const code = typeof status === 'number' && status >= 400 && status < 500 && (error as { expose?: boolean }).expose ? codeForStatus(status) : null;
  if (code) return errorBody(status!, code, (error as Error).message);
  return errorBody(500, 'internal_error', 'internal error');
}

export function errorHandler(log: (error: unknown) => void): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const body = toErrorBody(error);
      if (body.error.status >= 500) log(error);
      ctx.status = body.error.status;
      ctx.type = 'application/json';
      ctx.body = body;
    }
  };
}

/**
 * Answers nothing else gave a body: a JSON 404 for unknown paths, and a JSON 405 for a method the
 * path does not take (the method stage or the docs router has already set the Allow header; the docs
 * router's 501 for a method no router implements becomes a 405 too).
 */
export const emptyResponseHandler: Koa.Middleware = async (ctx, next) => {
  await next();
  if (ctx.body !== undefined && ctx.body !== null && ctx.body !== '') return;
  if (ctx.status === 404) {
    ctx.body = errorBody(404, 'not_found', `no such path: ${ctx.path}`);
    ctx.status = 404;
  } else if (ctx.status === 405 || ctx.status === 501) {
    // A method nothing implements (TRACE, PROPFIND, ...) is a 405 like any other (the docs router
    // answers 501 for those, on any path it does not serve).
    ctx.body = errorBody(405, 'method_not_allowed', `${ctx.method} is not allowed on ${ctx.path}; allowed: ${ctx.response.get('Allow') || 'none'}`);
    ctx.status = 405;
  }
};
