// Content coding of every answer below this stage (koa-compress): br or gzip, as the client's
// Accept-Encoding prefers, for a body of at least COMPRESSION_THRESHOLD_BYTES whose type is
// compressible (JSON, CSV, HTML, Markdown, text, XML) or an Arrow stream. The coded bytes are kept
// only when smaller than the body (an Arrow stream of dense numbers may not shrink); otherwise the
// body goes out as it is. The coded answer is collected into a Buffer, so it keeps a Content-Length
// and the fast answers (http/fastAnswers.ts, keyed by Accept-Encoding) can record it. Every answer
// that passes here says `Vary: Accept-Encoding`. HEAD, 204 and 304 carry no body and are not coded.
import { Readable } from 'node:stream';
import compress from 'koa-compress';
import type Koa from 'koa';
import { ARROW_STREAM_TYPE } from '../formats.ts';

/** Bodies smaller than 1 KiB are sent as they are: coding them saves less than it costs. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export function compression(): Koa.Middleware {
  const coder = compress({ threshold: COMPRESSION_THRESHOLD_BYTES, br: {}, gzip: {}, deflate: false, zstd: false });
  return async (ctx, next) => {
    let original: unknown;
    await coder(ctx, async () => {
      await next();
      // An Arrow stream is not in the compressible list: it is coded, and kept only if that is smaller.
      if (ctx.response.is(ARROW_STREAM_TYPE)) ctx.compress = true;
      original = ctx.body;
    });
    const encoding = ctx.response.get('Content-Encoding');
    // A body that was a stream already (none of ours) stays streamed.
    if (!encoding || ctx.body === original || original instanceof Readable) return;
    const coded = await collect(ctx.body as Readable);
    // koa-compress writes a JSON object as its text first; compare against those bytes.
    const plain = typeof original === 'string' || Buffer.isBuffer(original) ? original : JSON.stringify(original);
    if (coded.length < Buffer.byteLength(plain)) {
      ctx.body = coded;
    } else {
      ctx.remove('Content-Encoding');
      ctx.body = plain;
    }
  };
}
