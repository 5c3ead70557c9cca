// What the server records of each request, from the listener's first look at it (before the fast
// answers and before Koa, http/app.ts) to its last byte: its request id (X-Request-Id), its route
// label, whether the answer cache answered it, and for a paid request the payment's payer, network
// and transaction. When the response is done, one JSON log line and the request metrics.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from './log.ts';
import type { PaymentOutcome, ServerMetrics } from './metrics.ts';

export const REQUEST_ID_HEADER = 'X-Request-Id';
/** A proxy's request id is kept only when it is this: short, and characters that cannot forge anything. */
const SAFE_REQUEST_ID = /^[\w.:-]{1,128}$/;

/** The route label of a request outside the catalog. */
export type RouteKind = 'health' | 'readiness' | 'docs' | 'mcp' | 'unknown';

export interface PaymentFacts {
  outcome: PaymentOutcome;
  payer: string;
  network: string;
  transaction: string | null;
}

export interface RequestRecord {
  readonly id: string;
  /** The catalog route id, or the kind of a request outside the catalog; bounded (a metrics label). */
  route: string;
  /** Answered from the answer cache or the fast path. */
  cacheHit: boolean;
  /** Set by the payment check for a request that paid (or was answered from an earlier payment). */
  payment?: PaymentFacts;
}

const records = new WeakMap<IncomingMessage, RequestRecord>();

/** The record of a request (undefined for a request that did not enter through an observing listener). */
export function requestRecordOf(request: IncomingMessage): RequestRecord | undefined {
  return records.get(request);
}

/** The request id: the trusted proxy's X-Request-Id when it is safe, else a new UUID. */
export function requestIdOf(request: IncomingMessage, trustProxy: boolean): string {
  const given = trustProxy ? request.headers['x-request-id'] : undefined;
  return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : randomUUID();
}

export interface ObserveOptions {
  /** Where the request lines go; none: no lines. */
  logger?: Logger;
  metrics?: ServerMetrics;
  /** TRUST_PROXY: a proxy's X-Request-Id is taken (validated); otherwise ids are always generated. */
  trustProxy?: boolean;
}

export class RequestObserver {
  constructor(private readonly options: ObserveOptions = {}) {}

  /** Gives the request its record and id; logs and counts it once its response is done. */
  begin(request: IncomingMessage, response: ServerResponse): RequestRecord {
    const record: RequestRecord = { id: requestIdOf(request, this.options.trustProxy ?? false), route: 'unknown', cacheHit: false };
    records.set(request, record);
    const { logger, metrics } = this.options;
    if (!logger?.isLevelEnabled('info') && !metrics) return record;
    const started = process.hrtime.bigint();
    const socket: Socket | null = request.socket;
    const bytesBefore = socket?.bytesWritten ?? 0;
    // 'finish': the whole answer was handed to the connection (an in-process MCP tool call's mock
    // socket never reports writableFinished, so that flag would call every such answer aborted).
    let finished = false;
    response.once('finish', () => {
      finished = true;
    });
    response.once('close', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      metrics?.request(record.route, response.statusCode, seconds);
      if (!logger?.isLevelEnabled('info')) return;
      const line: Record<string, unknown> = {
        request_id: record.id,
        route: record.route,
        method: request.method,
        path: (request.url ?? '').slice(0, 512),
        status: response.statusCode,
        duration_ms: Math.round(seconds * 1e6) / 1e3,
        bytes: (socket?.bytesWritten ?? 0) - bytesBefore,
        cache_hit: record.cacheHit,
      };
      if (!finished) line.aborted = true;
      if (record.payment) {
        const { outcome, payer, network, transaction } = record.payment;
        Object.assign(line, { payment: outcome, payer, network, transaction });
      }
      if (response.statusCode >= 500) logger.warn(line, 'request');
      else logger.info(line, 'request');
    });
    return record;
  }
}
