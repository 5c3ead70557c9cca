// The request pipeline: every request to the app passes these stages, in this order.
//
//  0. (before Koa) the server's listener gives the request its id and record (http/observe.ts: its log
//     line and metrics once answered), then replays a recorded answer that needs no payment
//     (http/fastAnswers.ts); everything else enters the list below.
// 0a. request record: X-Request-Id on every answer, `request_id` in every JSON error body, the route label;
//  1. fast answers: records the 200 answers that needed no payment, for that replay;
//  2. pin snapshot: the request is answered from the generation current when it starts;
//  3. errors: any failure below becomes the JSON error shape; 404 and 405 get their JSON body;
//  4. match route: the method and path are matched once against the catalog; the RequestMatch (route,
//     path form, paid, needs payment) travels with the request (matchOf) and every later stage reads it;
//  5. headers: nosniff, CORS (preflights end here), Vary, Cache-Control and X-Data-Source, all decided here;
//  6. health: /healthz;
//  7. docs: the free documents and discovery paths (their own router);
//  8. method not allowed: a catalog path asked with another method: 405 with Allow (or OPTIONS' 200);
//  9. validate: parameters, body, format and gate (4xx before any payment; no match: 404);
// 10. payment: the x402 check of a paid route for a client that must pay (402, verify; settle after);
// 11. answer: from the answer cache, or the route's handler encoded in the negotiated format;
// 12. send: the encoded bytes with their content type.
import type Koa from 'koa';
import type { Database } from '../../engine/database.ts';
import type { Route } from '../../queries/catalog.ts';
import type { ResponseCache } from '../cache.ts';
import type { Dispatcher } from '../dispatch.ts';
import type { FastAnswers } from '../fastAnswers.ts';
import type { ClientRequest } from '../payments/exemption.ts';
import type { SnapshotHolder } from '../snapshotHolder.ts';
import { answer } from './answer.ts';
import { errorAnswers } from './errorAnswers.ts';
import { health } from './health.ts';
import { matchRoute } from './matchRoute.ts';
import { methodNotAllowed } from './methodNotAllowed.ts';
import { pinSnapshot } from './pinSnapshot.ts';
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
  docs: Koa.Middleware;
  /** The payment check (http/payments), run between validation and the answer. */
  payment: readonly Koa.Middleware[];
}

export function requestPipeline(parts: PipelineParts): Koa.Middleware[] {
  return [
    requestRecord(),
    parts.fastAnswers.recorder(),
    ...(parts.snapshots ? [pinSnapshot(parts.snapshots)] : []),
    errorAnswers(parts.logError),
    matchRoute({ dispatcher: parts.dispatcher, needsPayment: parts.needsPayment }),
    responseHeaders({ db: parts.db }),
    health({ cache: parts.cache, snapshots: parts.snapshots, importDate: parts.importDate, db: parts.db }),
    parts.docs,
    methodNotAllowed(),
    validateRequest(parts.dispatcher),
    ...parts.payment,
    answer(parts.dispatcher),
    sendAnswer(),
  ];
}

export { matchOf, validatedMatchOf, type RequestMatch, type ValidatedRequest } from './requestMatch.ts';
