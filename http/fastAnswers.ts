// Cheap cache hits. A repeated request (same URL, Accept, Accept-Encoding and Origin, same generation
// and day) whose answer needs no payment (a free route, or a client the payment check exempts, or a
// free document) is answered from the bytes and headers the full pipeline sent the first time, by
// the server's request listener itself (`serve`): before Koa builds a context, before routing,
// validation, snapshot pinning or any middleware (a hit then costs less than a bare Koa route).
// The bytes are recorded as sent, coded (br, gzip) or not: the raw Accept-Encoding is part of the
// key, so a client is only ever replayed the coding it was sent by the pipeline for that same header.
// A request carrying If-None-Match goes to the pipeline, whose entity-tag stage answers it (304).
// Anything else (a paid request, a miss, another method) goes through the full pipeline, whose first
// middleware (`recorder`) records its 200 answers here when they needed no payment.
//
// Bounded in bytes together with the answer cache: both draw on the cache's ByteBound (ANSWER_CACHE_MB),
// so the two never hold more than that between them (an entry's headers and key count too); emptied
// with the cache on every snapshot swap, and keyed by the generation as well.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Koa from 'koa';
import type { Route } from '../queries/catalog.ts';
import { BoundedEntries, type ByteBound } from './byteBound.ts';
import { documentAnswerOf } from './pipeline/documentAnswer.ts';
import type { RequestRecord } from './observe.ts';
import { matchOf } from './pipeline/requestMatch.ts';
import { queryWithinBounds } from './query.ts';
import type { ClientRequest } from './payments/exemption.ts';

interface FastAnswer {
  /** The catalog route answered; null for a free document. */
  route: Route | null;
  /** Name, value, name, value, ...: the recorded headers and the body's Content-Length, as writeHead takes them. */
  headers: string[];
  body: Buffer;
  size: number;
  /** The bound's use stamp of its last store or replay. */
  used: number;
}

/** Headers Koa or Node write per response, the request's own id and its rate-limit count: never replayed. */
const PER_RESPONSE = new Set(['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding', 'x-request-id', 'ratelimit', 'ratelimit-policy']);
const ENTRY_OVERHEAD = 200;

export interface FastAnswerOptions {
  /** The bound shared with the answer cache (its `bound`); a bound of 0 bytes turns the fast path off. */
  bound: ByteBound;
  /** The largest answer kept. */
  maxAnswerBytes: number;
  /** Whether this request for this route must go through the payment check (paid and not exempt). */
  needsPayment: (route: Route, request: ClientRequest) => boolean;
  /** The generation new requests are pinned to (null: a single unswappable snapshot). */
  generation: () => string | null;
  /** Today's date as the answers see it (part of the key: default windows end today). */
  today: () => string;
  /** Counts a hit in the answer cache's statistics (/healthz). */
  countHit: () => void;
}

export class FastAnswers {
  private readonly entries: BoundedEntries<FastAnswer>;

  constructor(private readonly options: FastAnswerOptions) {
    this.entries = new BoundedEntries(options.bound);
  }

  /** The answer's key: what the recorded answer depends on besides the route's own parameters. */
  private keyOf(url: string, headers: IncomingMessage['headers']): string {
    return `${this.options.generation() ?? ''}\n${this.options.today()}\n${url}\n${headers.accept ?? ''}\n${headers['accept-encoding'] ?? ''}\n${headers.origin ?? ''}`;
  }

  /** Answers a recorded GET from the listener (true), or leaves the request to Koa (false); a hit gets the request's id and route. */
  serve(request: IncomingMessage, response: ServerResponse, record?: RequestRecord): boolean {
    if (request.method !== 'GET' || this.options.bound.maxBytes === 0 || this.entries.count === 0) return false;
    // A query past its bounds is never hashed into a key: the pipeline refuses it (http/pipeline/boundQuery.ts).
    if (!queryWithinBounds(request.url ?? '')) return false;
    // A conditional request is the entity-tag stage's to answer (304 or the body).
    if (request.headers['if-none-match'] !== undefined) return false;
    const key = this.keyOf(request.url ?? '', request.headers);
    const hit = this.entries.get(key);
    // Recorded for a client that needed no payment; this one may (exemption is per client).
    if (!hit || (hit.route && this.options.needsPayment(hit.route, request))) return false;
    if (hit.route) this.options.countHit();
    if (record) {
      record.route = hit.route?.id ?? 'docs';
      record.cacheHit = true;
    }
    response.writeHead(200, record ? [...hit.headers, 'x-request-id', record.id] : hit.headers);
    response.end(hit.body);
    return true;
  }

  /** The first middleware of the app: records the 200 answers that needed no payment, and free documents. */
  recorder(): Koa.Middleware {
    return async (ctx, next) => {
      if (ctx.method !== 'GET' || this.options.bound.maxBytes === 0 || !queryWithinBounds(ctx.url)) return next();
      const key = this.keyOf(ctx.url, ctx.req.headers);
      await next();
      // Only a catalog answer that passed validation, for a client that needed no payment; or a free document.
      if (ctx.status !== 200) return;
      const match = matchOf(ctx);
      const document = documentAnswerOf(ctx) === 'document';
      if (!document && (!match?.validated || match.needsPayment)) return;
      const route = document ? null : match!.route;
      const body = typeof ctx.body === 'string' ? Buffer.from(ctx.body, 'utf8') : Buffer.isBuffer(ctx.body) ? ctx.body : null;
      if (body === null || body.length > this.options.maxAnswerBytes) return;
      const headers = Object.entries(ctx.response.headers)
        .filter(([name]) => !PER_RESPONSE.has(name))
        .flatMap(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : String(value)]);
      headers.push('content-length', String(body.length));
      const size = body.length + key.length * 2 + headers.reduce((sum, text) => sum + text.length, 0) * 2 + ENTRY_OVERHEAD;
      this.entries.set(key, { route, headers, body, size, used: this.options.bound.use() });
    };
  }

  /** Empties the fast path (a new snapshot). */
  clear(): void {
    this.entries.clear();
  }

  /** Bytes held (answers, headers, keys and an estimate of each entry's overhead). */
  get bytes(): number {
    return this.entries.bytes;
  }
}
