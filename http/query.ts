// The query string of a request, bounded and parsed once. Koa's ctx.query calls getAll() per key
// (quadratic: 8,000 keys held the event loop for 0.6-2 s), so nothing reads it: the raw query is
// bounded first (MAX_QUERY_BYTES, MAX_QUERY_PARAMETERS), before any cache key, route or payment, and
// parsed in one pass into a null-prototype object (a repeated key as an array of its values, in order).
import { ApiError, invalidParameter } from '../queries/shared/errors.ts';
import type { RawQuery } from './validate.ts';

/** The longest raw query (the text after `?`, before any `#`), in bytes: past it 414. */
export const MAX_QUERY_BYTES = 4096;
/** The most query parameters (non-empty `&`-separated pieces): past it 400 naming the first one refused. */
export const MAX_QUERY_PARAMETERS = 100;

/** The raw query of a request target (`/path?a=1#x` -> `a=1`); '' without one. */
export function rawQueryOf(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return '';
  const end = url.indexOf('#', start + 1);
  return end < 0 ? url.slice(start + 1) : url.slice(start + 1, end);
}

function decodedName(piece: string): string {
  const name = piece.split('=', 1)[0]!.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/** The refusal of a query past the bounds (414, or 400 naming the first parameter past the count), else null. Linear, no parsing. */
export function queryBoundsError(rawQuery: string): ApiError | null {
  if (rawQuery.length > MAX_QUERY_BYTES || Buffer.byteLength(rawQuery) > MAX_QUERY_BYTES) {
    return new ApiError(414, 'uri_too_long', `the query string is longer than ${MAX_QUERY_BYTES} bytes`, null);
  }
  let count = 0;
  let start = 0;
  while (start <= rawQuery.length) {
    let end = rawQuery.indexOf('&', start);
    if (end < 0) end = rawQuery.length;
    if (end > start) {
      count += 1;
      if (count > MAX_QUERY_PARAMETERS) {
        const name = decodedName(rawQuery.slice(start, end));
        return invalidParameter(name, `a request takes at most ${MAX_QUERY_PARAMETERS} query parameters; ${name} is past them`);
      }
    }
    start = end + 1;
  }
  return null;
}

/** Whether a request target's query is within the bounds (the fast-answer listener and recorder key no other). */
export function queryWithinBounds(url: string): boolean {
  return queryBoundsError(rawQueryOf(url)) === null;
}

/** The query parsed in one pass (URLSearchParams' decoding): one value per key, or the values of a repeated key in order. */
export function parseQuery(rawQuery: string): RawQuery {
  const query: RawQuery = Object.create(null) as RawQuery;
  for (const [key, value] of new URLSearchParams(rawQuery)) {
    const held = query[key];
    if (held === undefined) query[key] = value;
    else if (Array.isArray(held)) held.push(value);
    else query[key] = [held, value];
  }
  return query;
}
