// Output format negotiation: JSON by default; CSV (?format=csv or Accept: text/csv) and an
// Arrow IPC stream (?format=arrow or Accept: application/vnd.apache.arrow.stream) for list responses.
import type Koa from 'koa';
import { rowsToArrowStream } from '../engine/encode/arrow.ts';
import { rowsToCsv } from '../engine/encode/csv.ts';
import { declaredListColumns, type ResponseBody, type Route } from '../queries/catalog.ts';
import { invalidParameter } from '../queries/shared/errors.ts';

export type OutputFormat = 'json' | 'csv' | 'arrow';

export const ARROW_STREAM_TYPE = 'application/vnd.apache.arrow.stream';
const FORMATS: readonly OutputFormat[] = ['json', 'csv', 'arrow'];

export function negotiateFormat(ctx: Koa.Context, route: Route): OutputFormat {
  const explicit = ctx.query.format;
  if (explicit !== undefined) {
    if (typeof explicit !== 'string' || !FORMATS.includes(explicit as OutputFormat)) {
      throw invalidParameter('format', 'format must be one of: json, csv, arrow');
    }
    if (explicit !== 'json' && !route.listRows) throw invalidParameter('format', `${route.id} returns no list; only format=json`);
    return explicit as OutputFormat;
  }
  if (!route.listRows) return 'json';
  const preferred = ctx.accepts('application/json', 'text/csv', ARROW_STREAM_TYPE);
  if (preferred === 'text/csv') return 'csv';
  if (preferred === ARROW_STREAM_TYPE) return 'arrow';
  return 'json';
}

/**
 * JSON text per answer object: a cached answer is the same object on every hit, so it is encoded
 * once, not on every request (bench: encoding was the largest cost of a cache hit after routing).
 */
const jsonTexts = new WeakMap<ResponseBody, string>();

function jsonText(body: ResponseBody): string {
  let text = jsonTexts.get(body);
  if (text === undefined) {
    text = JSON.stringify(body);
    jsonTexts.set(body, text);
  }
  return text;
}

export function writeBody(ctx: Koa.Context, route: Route, body: ResponseBody, format: OutputFormat): void {
  if (format === 'json' || !route.listRows) {
    // The bytes Koa would write for the object (JSON.stringify, application/json; charset=utf-8).
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = jsonText(body);
    return;
  }
  const rows = route.listRows(body);
  if (format === 'csv') {
    ctx.type = 'text/csv; charset=utf-8';
    ctx.set('Content-Disposition', `inline; filename="${route.id}.csv"`);
    ctx.body = rowsToCsv(rows, declaredListColumns(route, body));
    return;
  }
  ctx.type = ARROW_STREAM_TYPE;
  ctx.body = Buffer.from(rowsToArrowStream(rows, declaredListColumns(route, body)));
}
