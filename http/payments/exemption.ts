// Who is served a paid route without paying: loopback clients when the exemption is on
// (development), and the owner's allowlist. The client address is the socket's, or the first
// X-Forwarded-For hop only when TRUST_PROXY says a proxy in front sets it.
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import type Koa from 'koa';

export interface ExemptionRules {
  exemptLoopback: boolean;
  allowlist: readonly string[];
  trustProxy: boolean;
}

/** An IPv4-mapped IPv6 address ("::ffff:127.0.0.1") as plain IPv4. */
function unmapped(address: string): string {
  const match = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return match ? match[1]! : address;
}

export function clientAddress(ctx: Koa.Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = ctx.get('X-Forwarded-For').split(',')[0]?.trim();
    if (forwarded && (isIPv4(unmapped(forwarded)) || isIPv6(forwarded))) return unmapped(forwarded);
  }
  return unmapped(ctx.socket.remoteAddress ?? '');
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
export function exemption(rules: ExemptionRules): (ctx: Koa.Context) => boolean {
  const allowlist = buildBlockList(rules.allowlist);
  return (ctx) => {
    const address = clientAddress(ctx, rules.trustProxy);
    if (!address) return false;
    const type = isIPv4(address) ? 'ipv4' : 'ipv6';
    if (rules.exemptLoopback && LOOPBACK.check(address, type)) return true;
    return allowlist.check(address, type);
  };
}
