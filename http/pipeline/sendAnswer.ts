// The encoded answer as the response: its content type, a CSV's Content-Disposition, the bytes.
import type Koa from 'koa';
import { writeEncoded } from '../formats.ts';
import { validatedMatchOf } from './requestMatch.ts';

export function sendAnswer(): Koa.Middleware {
  return (ctx) => {
    const { answer } = validatedMatchOf(ctx);
    if (!answer) throw new Error(`no answer was computed for ${ctx.method} ${ctx.path}`);
    writeEncoded(ctx, answer);
  };
}
