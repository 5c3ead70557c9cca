// Output format negotiation: JSON by default; CSV (?format=csv or Accept: text/csv) and an
// Arrow IPC stream (?format=arrow or Accept: application/vnd.apache.arrow.stream) for list responses.
// An Accept that takes none of the route's types (`application/xml`) is 406 not_acceptable, before any payment.
import type Koa from 'koa';
import { rowsToCsv } from '../engine/encode/csv.ts';
import { declaredListColumns, pagePositionOf, type ResponseBody, type Route } from '../queries/catalog.ts';
import type { PagePosition } from '../queries/kinds/page.ts';
import { ApiError, invalidParameter } from '../queries/shared/errors.ts';
import { loadOnFirstUse } from '../queries/shared/firstUse.ts';

export type OutputFormat = 'json' | 'csv' | 'arrow';

export const ARROW_STREAM_TYPE = 'application/vnd.apache.arrow.stream';
const FORMATS: readonly OutputFormat[] = ['json', 'csv', 'arrow'];

/** `explicit`: the `format` query value (the request's parsed query, http/pipeline/boundQuery.ts). */
export function negotiateFormat(ctx: Koa.Context, route: Route, explicit: unknown): OutputFormat {
  return chooseFormat(route, explicit, () => {
    const offered = route.listRows ? ['application/json', 'text/csv', ARROW_STREAM_TYPE] : ['application/json'];
    const preferred = ctx.accepts(offered);
    if (preferred === false) {
      throw new ApiError(406, 'not_acceptable', `Accept takes none of the types ${route.id} answers in: ${offered.join(', ')}${route.listRows ? ' (or ask with ?format=json|csv|arrow)' : ''}`, 'Accept');
    }
    if (preferred === 'text/csv') return 'csv';
    if (preferred === ARROW_STREAM_TYPE) return 'arrow';
    return 'json';
  });
}

/**
 * The output format of an answer, without a transport: `explicit` is the `format` query value (400
 * unless json/csv/arrow, and json only for a route without a list); otherwise the preferred format
 * (HTTP: the Accept header) for a list route, JSON for any other.
 */
export function chooseFormat(route: Route, explicit: unknown, preferred: () => OutputFormat = () => 'json'): OutputFormat {
  if (explicit !== undefined) {
    if (typeof explicit !== 'string' || !FORMATS.includes(explicit as OutputFormat)) {
      throw invalidParameter('format', 'format must be one of: json, csv, arrow');
    }
    if (explicit !== 'json' && !route.listRows) throw invalidParameter('format', `${route.id} returns no list; only format=json`);
    return explicit as OutputFormat;
  }
  // Without a list only JSON is offered: `preferred` may still refuse an Accept that does not take it (406).
  const format = preferred();
  return route.listRows ? format : 'json';
}

/**
 * An encoded answer: its content type, bytes (text for JSON and CSV), a CSV's Content-Disposition, and
 * for a paged list where its page sits (read from the answer before encoding, so a CSV or Arrow page
 * of the list knows it too: http/links.ts builds the Link header from it).
 */
export interface EncodedBody {
  type: string;
  body: string | Buffer;
  disposition?: string;
  page?: PagePosition;
}

export async function encodeBody(route: Route, body: ResponseBody, format: OutputFormat): Promise<EncodedBody> {
  const page = pagePositionOf(route, body);
  const encoded = await encodeAs(route, body, format);
  return page ? { ...encoded, page } : encoded;
}

/** apache-arrow loads with the first Arrow answer: the server starts without it. */
const arrowEncoder = loadOnFirstUse(() => import('../engine/encode/arrow.ts'));

async function encodeAs(route: Route, body: ResponseBody, format: OutputFormat): Promise<EncodedBody> {
  if (format === 'json' || !route.listRows) {
    // The bytes Koa would write for the object (JSON.stringify, application/json; charset=utf-8).
    return { type: 'application/json; charset=utf-8', body: JSON.stringify(body) };
  }
  const rows = route.listRows(body);
  if (format === 'csv') {
    return { type: 'text/csv; charset=utf-8', body: rowsToCsv(rows, declaredListColumns(route, body)), disposition: `inline; filename="${route.id}.csv"` };
  }
  const { rowsToArrowStream } = await arrowEncoder();
  return { type: ARROW_STREAM_TYPE, body: Buffer.from(rowsToArrowStream(rows, declaredListColumns(route, body))) };
}

export async function writeBody(ctx: Koa.Context, route: Route, body: ResponseBody, format: OutputFormat): Promise<void> {
  writeEncoded(ctx, await encodeBody(route, body, format));
}

/** Sends an encoded answer (the cache's bytes as they are). */
export function writeEncoded(ctx: Koa.Context, encoded: EncodedBody): void {
  ctx.type = encoded.type;
  if (encoded.disposition) ctx.set('Content-Disposition', encoded.disposition);
  ctx.body = encoded.body;
}
