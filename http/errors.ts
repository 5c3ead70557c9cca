// The error shape of every failure: {"error": {"status", "code", "message", "param"}}.
// Client errors carry their message; anything unexpected is a 500 that reveals no internals.
import type Koa from 'koa';
import { QueryTimeoutError } from '../engine/database.ts';
import { ApiError, type ErrorCode } from '../queries/shared/errors.ts';

export interface ErrorBody {
  error: { status: number; code: ErrorCode | 'payment_required'; message: string; param: string | null };
}

export function errorBody(status: number, code: ErrorBody['error']['code'], message: string, param: string | null = null): ErrorBody {
  return { error: { status, code, message, param } };
}

function toErrorBody(error: unknown): ErrorBody {
  if (error instanceof ApiError) return errorBody(error.status, error.code, error.message, error.param);
  if (error instanceof QueryTimeoutError) return errorBody(503, 'timeout', 'the query took too long; try a narrower window');
  const status = (error as { status?: number }).status;
  if (status === 405) return errorBody(405, 'method_not_allowed', (error as Error).message);
  if (status === 501) return errorBody(405, 'method_not_allowed', 'method not supported');
  if (typeof status === 'number' && status >= 400 && status < 500 && (error as { expose?: boolean }).expose) {
    return errorBody(status, 'invalid_parameter', (error as Error).message);
  }
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

/** Any path nothing answered: a JSON 404, never an HTML page. */
export const notFoundHandler: Koa.Middleware = async (ctx, next) => {
  await next();
  if (ctx.body === undefined && ctx.status === 404) {
    ctx.status = 404;
    ctx.body = errorBody(404, 'not_found', `no such path: ${ctx.path}`);
  }
};
