// The Link header of a paged list answer (RFC 8288), so a client can walk the list without knowing
// its paging rules: `rel="next"` while rows follow the page, `rel="prev"` when the page does not start
// the list. Each target is the request as the client sent it (path and query, in its order and
// encoding) with only `limit` and `offset` set. The targets are absolute on the public base URL when
// the operator configured one (BASE_URL), else root-relative references, which a client resolves
// against the URL it asked (RFC 8288 section 3.2): the Host header is never used, since it is the
// client's to choose and a recorded answer is replayed to any client asking the same path.
import type { PagePosition } from '../queries/kinds/page.ts';

/** The offset of the page after this one; null when no row follows it. */
export function nextOffset(page: PagePosition): number | null {
  const next = page.offset + page.limit;
  return next < page.total ? next : null;
}

/**
 * The offset of the page before this one: the `limit` rows before its first row, or before the end of
 * the list when the offset is past it (so the last rows); null when the page starts the list.
 */
export function prevOffset(page: PagePosition): number | null {
  if (page.offset <= 0) return null;
  return Math.max(0, Math.min(page.offset, page.total) - page.limit);
}

/** Bytes a URI reference in a Link header may not hold as they are (RFC 3986 and `<>`): percent-encoded. */
const UNSAFE_URI_CHAR = /[^\x21-\x7e]|[<>"\\^`{|}]/g;

function percentEncoded(char: string): string {
  const code = char.charCodeAt(0);
  // Node reads the request line as latin1: a code up to 0xff is one byte as sent.
  return code <= 0xff ? `%${code.toString(16).toUpperCase().padStart(2, '0')}` : encodeURIComponent(char);
}

function queryKey(part: string): string {
  const key = part.split('=', 1)[0]!.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(key);
  } catch {
    return key;
  }
}

/** `target` (path and query as sent) with `limit` and `offset` set: each where the client put it, else appended. */
export function withPage(target: string, limit: number, offset: number): string {
  const cut = target.indexOf('?');
  const path = cut < 0 ? target : target.slice(0, cut);
  const parts = cut < 0 ? [] : target.slice(cut + 1).split('&').filter((part) => part !== '');
  const paging = new Map([['limit', `limit=${limit}`], ['offset', `offset=${offset}`]]);
  const query: string[] = [];
  for (const part of parts) {
    const key = queryKey(part);
    if (!paging.has(key)) query.push(part);
    else if (paging.get(key)) {
      // The first occurrence keeps its place; a repeated one is dropped.
      query.push(paging.get(key)!);
      paging.set(key, '');
    }
  }
  for (const part of paging.values()) if (part) query.push(part);
  return `${path}?${query.join('&')}`.replace(UNSAFE_URI_CHAR, percentEncoded);
}

/**
 * The Link header value of a page (null when it has neither a next nor a previous page). `target` is
 * the request's path and query as sent; `publicBaseUrl` the configured public address (absolute
 * targets), or none (root-relative targets).
 */
export function pageLinks(target: string, page: PagePosition, publicBaseUrl?: string | null): string | null {
  const base = publicBaseUrl?.endsWith('/') ? publicBaseUrl.slice(0, -1) : (publicBaseUrl ?? '');
  const links: string[] = [];
  const next = nextOffset(page);
  if (next !== null) links.push(`<${base}${withPage(target, page.limit, next)}>; rel="next"`);
  const prev = prevOffset(page);
  if (prev !== null) links.push(`<${base}${withPage(target, page.limit, prev)}>; rel="prev"`);
  return links.length > 0 ? links.join(', ') : null;
}
