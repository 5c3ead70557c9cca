// The request pipeline: every request to the app passes these stages, in this order.
//
//  0. (before Koa) the server's listener gives the request its id and record (http/observe.ts: its log
//     line and metrics once answered), then replays a recorded answer that needs no payment
//     (http/fastAnswers.ts); everything else enters the list below.
// 0a. request record: X-Request-Id on every answer, the route label;
//  1. fast answers: records the 200 answers that needed no payment (catalog answers and free
//     documents, as sent: coded and tagged), for that replay;
//  2. pin snapshot: the request is answered from the generation current when it starts;
//  3. compression: br or gzip of what every later stage answers (koa-compress; Vary: Accept-Encoding);
//  4. entity tags: a weak ETag on free documents and answers served without payment; If-None-Match: 304;
//  5. errors: any failure below becomes the JSON error shape; 404 and 405 get their JSON body; every
//     error body names the request id (`request_id`);
//  6. bound query: a query past 4 KB (414) or 100 parameters (400) is refused before anything reads
//     it; else it is parsed once (queryOf; Koa's ctx.query is never read);
//  7. match route: the method and path are matched once against the catalog; the RequestMatch (route,
//     path form, paid, needs payment) travels with the request (matchOf) and every later stage reads it;
//  8. headers: nosniff, CORS (preflights end here), Vary, Cache-Control and X-Data-Source, all decided here;
//  9. health: /healthz, the liveness route;
// 10. readiness: /readyz, for load balancers (a snapshot loaded; payment store and facilitator reachable);
// 11. docs: the free documents and discovery paths (their own router);
// 11a. mcp: POST /mcp, the MCP endpoint (Streamable HTTP, stateless; http/pipeline/mcp.ts): tools/list
//     and the resources are free; each tools/call is an in-process request through this same pipeline
//     from stage 0 (so it is validated, rate limited and paid as over HTTP);
// 12. method not allowed: a catalog path asked with another method: 405 with Allow (or OPTIONS' 200);
// 13. rate limit: a client past RATE_LIMIT_PER_MINUTE on a data route gets 429 (http/pipeline/rateLimit.ts);
// 14. validate: parameters, body, format and gate (4xx before any payment; no match: 404);
// 15. payment: the x402 check of a paid route for a client that must pay (402, verify; settle after);
// 16. answer: from the answer cache, or the route's handler encoded in the negotiated format; computing
//     waits for a slot of CONCURRENT_ANSWERS (past ANSWER_QUEUE waiting: 503; http/pipeline/concurrency.ts);
// 17. send: the encoded bytes with their content type, and a list page's Link (next, prev; kept with a paid answer).
import type Koa from 'koa';
import type { Database } from '../../engine/database.ts';
import type { Route } from '../../queries/catalog.ts';
import type { ResponseCache } from '../cache.ts';
import type { Dispatcher } from '../dispatch.ts';
import type { FastAnswers } from '../fastAnswers.ts';
import type { ClientRequest } from '../payments/exemption.ts';
import type { ReadinessCheck } from '../readiness.ts';
import type { SnapshotHolder } from '../snapshotHolder.ts';
import { answer } from './answer.ts';
import { boundQuery } from './boundQuery.ts';
import { compression } from './compression.ts';
import { entityTags } from './entityTags.ts';
import { errorAnswers } from './errorAnswers.ts';
import { health, type HealthOptions } from './health.ts';
import { matchRoute } from './matchRoute.ts';
import { methodNotAllowed } from './methodNotAllowed.ts';
import type { ClientRateLimit } from '../rateLimiter.ts';
import type { AnswerSlots } from './concurrency.ts';
import { pinSnapshot } from './pinSnapshot.ts';
import { rateLimit } from './rateLimit.ts';
import { readiness } from './readiness.ts';
import { requestRecord } from './requestRecord.ts';
import { responseHeaders } from './responseHeaders.ts';
import { sendAnswer } from './sendAnswer.ts';
import { validateRequest } from './validateRequest.ts';

export interface PipelineParts {
  fastAnswers: FastAnswers;
  /** The swappable snapshot; without it every request uses `db`. */
  snapshots?: SnapshotHolder;
  /** The database of the snapshot the request is pinned to. */
  db: () => Database;
  /** The import date /healthz names for a single snapshot. */
  importDate: string | null;
  cache: ResponseCache;
  dispatcher: Dispatcher;
  needsPayment: (route: Route, request: ClientRequest) => boolean;
  logError: (error: unknown) => void;
  /** What /readyz checks besides the snapshot (the payment store and the facilitator, when configured). */
  readinessChecks: readonly ReadinessCheck[];
  /** Why a readiness check failed (not sent to the client). */
  log: (message: string, error?: unknown) => void;
  docs: Koa.Middleware;
  /** The MCP endpoint (http/pipeline/mcp.ts); none: no /mcp. */
  mcp?: Koa.Middleware;
  /** The payment check (http/payments), run between validation and the answer. */
  payment: readonly Koa.Middleware[];
  /** The per-client rate limit of data routes; none: off. */
  rateLimit?: ClientRateLimit;
  /** The bound on answers computed at once; none: unbounded. */
  answerSlots?: AnswerSlots;
  /** The configured public base URL (BASE_URL): absolute Link targets of list pages; none: root-relative. */
  publicBaseUrl?: string | null;
  /** Per source fetch freshness for /healthz (engine/fetchState.ts); none: not shown. */
  freshness?: HealthOptions['freshness'];
}

export function requestPipeline(parts: PipelineParts): Koa.Middleware[] {
  return [
    requestRecord(),
    parts.fastAnswers.recorder(),
    ...(parts.snapshots ? [pinSnapshot(parts.snapshots)] : []),
    compression(),
    entityTags({ generation: () => parts.snapshots?.pinned().generation ?? null }),
    errorAnswers(parts.logError),
    boundQuery(),
    matchRoute({ dispatcher: parts.dispatcher, needsPayment: parts.needsPayment }),
    responseHeaders({ db: parts.db }),
    health({ cache: parts.cache, snapshots: parts.snapshots, importDate: parts.importDate, db: parts.db, freshness: parts.freshness }),
    readiness({
      snapshot: () => (parts.snapshots ? parts.snapshots.current() : { generation: null }),
      checks: parts.readinessChecks,
      log: parts.log,
    }),
    parts.docs,
    ...(parts.mcp ? [parts.mcp] : []),
    methodNotAllowed(),
    ...(parts.rateLimit ? [rateLimit(parts.rateLimit)] : []),
    validateRequest(parts.dispatcher),
    ...parts.payment,
    answer(parts.dispatcher, parts.answerSlots),
    sendAnswer({ publicBaseUrl: parts.publicBaseUrl }),
  ];
}

export { matchOf, validatedMatchOf, type RequestMatch, type ValidatedRequest } from './requestMatch.ts';
