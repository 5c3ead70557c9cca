// The encoded answer as the response: its content type, a CSV's Content-Disposition, the bytes, and
// for a page of a paged list its Link header (next, prev; http/links.ts) in every format. Set here,
// below the payment check, so a paid answer keeps it when replayed to a retry (http/payments).
import type Koa from 'koa';
import { writeEncoded } from '../formats.ts';
import { pageLinks } from '../links.ts';
import { validatedMatchOf } from './requestMatch.ts';

export interface SendAnswerOptions {
  /** The configured public base URL (BASE_URL): absolute Link targets; none: root-relative ones. */
  publicBaseUrl?: string | null;
}

export function sendAnswer(options: SendAnswerOptions = {}): Koa.Middleware {
  return (ctx) => {
    const { answer } = validatedMatchOf(ctx);
    if (!answer) throw new Error(`no answer was computed for ${ctx.method} ${ctx.path}`);
    writeEncoded(ctx, answer);
    const links = answer.page ? pageLinks(ctx.originalUrl, answer.page, options.publicBaseUrl) : null;
    if (links) ctx.set('Link', links);
  };
}
