// A catalog path asked with a method its routes do not take: a JSON 405 naming the methods in Allow
// (the errors stage writes the body), or for a plain OPTIONS (no preflight: CORS answered those) an
// empty 200 with Allow. A GET route takes HEAD too.
import type Koa from 'koa';
import { matchOf } from './requestMatch.ts';

export function methodNotAllowed(): Koa.Middleware {
  return (ctx, next) => {
    const match = matchOf(ctx);
    if (!match || match.methodTaken) return next();
    const allow = [...new Set(match.routeMethods.flatMap((method) => (method === 'GET' ? ['HEAD', 'GET'] : [method])))].join(', ');
    if (ctx.method === 'OPTIONS') {
      ctx.status = 200;
      ctx.body = '';
    } else {
      ctx.status = 405;
    }
    ctx.set('Allow', allow);
  };
}
