// HTTP load on loopback with autocannon: a mix of the catalog's examples against the app (answer
// cache warm), a bare Koa route as the ceiling, and the same mix paid through the local facilitator.
import autocannon from 'autocannon';
import { x402HTTPClient } from '@x402/core/client';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import type { Hex } from 'viem';
import { x402Client } from '@x402/fetch';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount } from 'viem/accounts';

export interface LoadResult {
  label: string;
  connections: number;
  durationS: number;
  requests: number;
  /** Answers other than 2xx (must be 0 for a valid run) and socket errors. */
  non2xx: number;
  errors: number;
  reqPerSec: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** The server process's CPU (user + system) per request during the run, when measured. */
  serverCpuMsPerRequest?: number | null;
  /** The part of it on the server's main (JavaScript) thread, where the OS tells it. */
  serverMainThreadCpuMsPerRequest?: number | null;
}

export interface LoadOptions {
  base: string;
  /** Paths (with query) cycled through by every connection. */
  paths: readonly string[];
  connections: number;
  durationS?: number;
  /** Stop after this many requests instead of after durationS. */
  amount?: number;
  /** Per request: the path and headers to send next (paid runs: one fresh signature each). */
  next?: () => { path: string; headers: Record<string, string> };
}

export async function runLoad(label: string, options: LoadOptions): Promise<LoadResult> {
  const requests = options.next
    ? [{ method: 'GET' as const, setupRequest: (request: autocannon.Request) => {
        const { path, headers } = options.next!();
        return { ...request, path, headers: { ...request.headers, ...headers } };
      } }]
    : options.paths.map((path) => ({ method: 'GET' as const, path }));
  const result = await autocannon({
    url: options.base,
    connections: options.connections,
    ...(options.amount ? { amount: options.amount } : { duration: options.durationS ?? 5 }),
    requests,
  });
  return {
    label,
    connections: options.connections,
    durationS: result.duration,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    reqPerSec: result.requests.total / result.duration,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
  };
}

/** Fetches each path once, so the answer cache holds every answer of the mix; throws on a non-200. */
export async function warm(base: string, paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    const response = await fetch(base + path);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`warm-up: ${path} answered ${response.status}`);
  }
}

/**
 * `count` PAYMENT-SIGNATURE headers, each a fresh authorization signed by the official client for the
 * server's own challenge of its path (paths taken in turn), so every request of the paid run pays once.
 */
export async function presignPayments(base: string, paths: readonly string[], count: number, payerKey: Hex): Promise<Array<{ path: string; headers: Record<string, string> }>> {
  const signer = new x402Client();
  signer.register('eip155:*', new ExactEvmScheme(privateKeyToAccount(payerKey)));
  signer.setSpendControls(false);
  const client = new x402HTTPClient(signer);
  const challenges = new Map<string, ReturnType<typeof decodePaymentRequiredHeader>>();
  const signed: Array<{ path: string; headers: Record<string, string> }> = [];
  for (let i = 0; i < count; i++) {
    const path = paths[i % paths.length];
    let challenge = challenges.get(path);
    if (!challenge) {
      const response = await fetch(base + path);
      await response.arrayBuffer();
      const header = response.headers.get('payment-required');
      if (response.status !== 402 || !header) throw new Error(`paid run: ${path} answered ${response.status} without a challenge`);
      challenge = decodePaymentRequiredHeader(header);
      challenges.set(path, challenge);
    }
    const payload = await client.createPaymentPayload(challenge);
    signed.push({ path, headers: client.encodePaymentSignatureHeader(payload) as Record<string, string> });
  }
  return signed;
}
