// Who is served a paid route without paying: loopback clients when the exemption is on
// (development), and the owner's allowlist. The client address is the socket's, or, behind
// TRUST_PROXY trusted proxies, the X-Forwarded-For entry the outermost trusted proxy appended.
import type { IncomingMessage } from 'node:http';
import { BlockList, isIPv4, isIPv6 } from 'node:net';

/** What the exemption reads of a request: its socket's address and its X-Forwarded-For header (Koa's ctx.req). */
export type ClientRequest = Pick<IncomingMessage, 'headers'> & { socket: { remoteAddress?: string } };

export interface ExemptionRules {
  exemptLoopback: boolean;
  allowlist: readonly string[];
  /** How many reverse proxies in front of the server append to X-Forwarded-For (0: none, trust no header). */
  proxyHops: number;
}

/** An IPv4-mapped IPv6 address ("::ffff:127.0.0.1") as plain IPv4. */
function unmapped(address: string): string {
  const match = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return match ? match[1]! : address;
}

/**
 * One X-Forwarded-For entry as a bare address: "[2001:db8::1]:443" and "192.0.2.1:5000" lose their
 * port; anything that is not an IP address (e.g. nginx's "unknown") is ''.
 */
function forwardedAddress(entry: string): string {
  let address = entry.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) address = bracketed[1]!;
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(':'));
  address = unmapped(address);
  return isIPv4(address) || isIPv6(address) ? address : '';
}

/**
 * The client's address. With `proxyHops` = n trusted proxies, each appends the address it was
 * reached from, so the last n X-Forwarded-For entries were written by them and the n-th from the
 * right is the one the outermost trusted proxy appended: the client. Entries further left were sent
 * by the client and are never read. With fewer entries than hops the request did not pass through
 * every proxy: the socket's address. An entry that is not an IP address gives '' (no exemption).
 */
export function clientAddress(request: ClientRequest, proxyHops: number): string {
  const socket = unmapped(request.socket.remoteAddress ?? '');
  if (proxyHops <= 0) return socket;
  // Node joins repeated X-Forwarded-For lines with ", " (as a proxy would have appended them).
  const forwarded = request.headers['x-forwarded-for'];
  const header = Array.isArray(forwarded) ? forwarded.join(', ') : forwarded ?? '';
  const entries = header === '' ? [] : header.split(',');
  if (entries.length < proxyHops) return socket;
  return forwardedAddress(entries[entries.length - proxyHops]!);
}

function buildBlockList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address, prefix] = entry.split('/') as [string, string | undefined];
    const type = isIPv4(address) ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list;
}

const LOOPBACK = buildBlockList(['127.0.0.0/8', '::1/128']);

/** Returns a predicate telling whether the request's client is served without payment. */
export function exemption(rules: ExemptionRules): (request: ClientRequest) => boolean {
  // Nobody is exempt (the production default): no address to read per paid request.
  if (!rules.exemptLoopback && rules.allowlist.length === 0) return () => false;
  const allowlist = buildBlockList(rules.allowlist);
  return (request) => {
    const address = clientAddress(request, rules.proxyHops);
    if (!address) return false;
    const type = isIPv4(address) ? 'ipv4' : 'ipv6';
    if (rules.exemptLoopback && LOOPBACK.check(address, type)) return true;
    return allowlist.check(address, type);
  };
}
