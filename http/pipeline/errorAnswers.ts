// Every failure as the JSON error shape (http/errors.ts): thrown errors by their status (a bare 500
// otherwise), and the answers nothing gave a body: 404 for unknown paths, 405 for a method not taken.
// Every error body, thrown or set by a later stage (a 402), names the request's id.
import type Koa from 'koa';
import { emptyResponseHandler, errorHandler } from '../errors.ts';
import { tagErrorBody } from './requestRecord.ts';

export function errorAnswers(logError: (error: unknown) => void): Koa.Middleware {
  const onError = errorHandler(logError);
  return async (ctx, next) => {
    await onError(ctx, () => emptyResponseHandler(ctx, next));
    tagErrorBody(ctx);
  };
}
