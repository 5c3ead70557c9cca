// The stdio MCP server of `npm run mcp` (bin/mcp.ts, its command line): its two callers and the
// server over them.
// - local: answers from an open snapshot through the API's own validation, handlers and encoders
//   (http/dispatch.ts); nothing is paid;
// - remote: calls the deployment over HTTP and pays each call with the official x402 client
//   (@x402/fetch, a viem account from the payer's key), each amount priced in its asset's own
//   decimals (http/payments/assets.ts); never more than the per-call cap, never more than the
//   session budget signed: an authorization counts as spent when it is signed, whatever the
//   deployment answers.
// The tools, their results and the documentation resources are http/mcp's, shared with POST /mcp.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client, type PaymentRequirements } from '@x402/fetch';
import type { SettleResponse } from '@x402/core/types';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import type { Database } from '../engine/database.ts';
import { snapshotOriginsOf } from '../engine/dataOrigin.ts';
import type { Route } from '../queries/catalog.ts';
import { isoToday } from '../queries/shared/window.ts';
import { Dispatcher, errorAnswer } from '../http/dispatch.ts';
import { defaultPaymentInfo } from '../http/docs/paymentInfo.ts';
import type { DocsInput } from '../http/docs/markdown.ts';
import { mcpResources } from '../http/mcp/resources.ts';
import { createMcpServer as createSharedMcpServer, type CallOutcome, type Caller, type Payment } from '../http/mcp/server.ts';
import type { ToolRequest } from '../http/mcp/tools.ts';
import {
  formatUsd, knownAssetsText, usdOfMicros, usdOfRequirement, USDC_DECIMALS, type AllowedAsset, type Usd,
} from '../http/payments/assets.ts';

export type { CallOutcome, Caller, Payment } from '../http/mcp/server.ts';

// ---------------------------------------------------------------------------------------------
// Callers: what answers a tool call

/** Local mode: the dispatcher on an open snapshot, no payment. */
export function localCaller(options: { db: Database; routes: readonly Route[]; now?: () => Date }): Caller {
  const now = options.now ?? (() => new Date());
  const dispatcher = new Dispatcher({ db: options.db, routes: options.routes, today: () => isoToday(now(), 'Europe/Sofia') });
  return async (_route, request) => {
    try {
      const { encoded, answer } = await dispatcher.dispatch(request);
      return { ok: true, json: answer, text: String(encoded.body), dataSource: (await snapshotOriginsOf(options.db)).data };
    } catch (error) {
      const json = errorAnswer(error);
      if (json.error.status >= 500) console.error('mcp: internal error', error);
      return { ok: false, json, text: JSON.stringify(json) };
    }
  };
}

export interface RemoteOptions {
  baseUrl: string;
  payerKey: Hex;
  /** Per-call cap and per-session budget, in micro-USD (USD * 10^6, USDC's units). */
  maxAtomic: bigint;
  budgetAtomic: bigint;
  /** The local chain's test token (X402_TEST_TOKEN): paid too, as a 6-decimal USD token. */
  allowAsset?: string;
  /** Other tokens allowed by address (--allow-asset), each with its decimals; taken for USD stablecoins. */
  allowAssets?: readonly AllowedAsset[];
  fetch?: typeof fetch;
}

function refusal(status: number, code: string, message: string, payment: Payment | null = null): CallOutcome {
  const json = { error: { status, code, message, param: null } };
  return { ok: false, json, text: JSON.stringify(json), payment };
}

/**
 * Remote mode: the deployment over HTTP, paid with the official client. The budget is debited when
 * an authorization is signed (its amount, in the asset's decimals), before it is sent, and never
 * credited back on the strength of the deployment's answer (no receipt, an error, a receipt of a
 * smaller amount): the deployment can settle what was signed until it expires. A payment that would
 * take the signed total above the budget is not signed. Calls run one at a time so the budget check
 * and the signing it guards cannot interleave.
 */
export function remoteCaller(options: RemoteOptions): Caller & { spent(): bigint } {
  const account = privateKeyToAccount(options.payerKey);
  const base = options.baseUrl.replace(/(?<!\/)\/+$/, '');
  const baseFetch = options.fetch ?? fetch;
  const allowed: AllowedAsset[] = [
    ...(options.allowAsset ? [{ address: options.allowAsset, decimals: USDC_DECIMALS }] : []),
    ...(options.allowAssets ?? []),
  ];
  const maxUsd = usdOfMicros(options.maxAtomic);
  const budgetUsd = usdOfMicros(options.budgetAtomic);
  /** The sum of every authorization signed in this session, in USD. */
  let spent: Usd = 0n;
  let queue: Promise<unknown> = Promise.resolve();

  async function callOnce(request: ToolRequest): Promise<CallOutcome> {
    let refused: string | null = null;
    let signed: { requirements: PaymentRequirements; usd: Usd } | null = null;
    const client = new x402Client();
    client.register('eip155:*', new ExactEvmScheme(account));
    // The library's USD caps (on the assets of its own table) are replaced by the ones below: per
    // call and per session, in each asset's own decimals, known or allowed assets only.
    client.setSpendControls(false);
    client.registerPolicy((_version, requirements) => {
      const priced = requirements.flatMap((requirement) => {
        const price = usdOfRequirement(requirement, allowed);
        return price ? [{ requirement, usd: price.usd }] : [];
      });
      if (priced.length === 0) {
        const extra = [options.allowAsset, ...(options.allowAssets ?? []).map((asset) => asset.address)].filter(Boolean);
        refused = `the deployment asks for no asset this client pays with (${knownAssetsText()}${extra.length > 0 ? `, or ${extra.join(', ')}` : ''}; `
          + `offered: ${requirements.map((r) => `${r.asset} on ${r.network}`).join(', ')}); nothing was paid`;
      }
      // The cheapest offer first (in USD): if it does not fit the caps, none does.
      return priced.sort((a, b) => (a.usd < b.usd ? -1 : a.usd > b.usd ? 1 : 0)).map((offer) => offer.requirement);
    });
    client.onBeforePaymentCreation(async ({ selectedRequirements }) => {
      const price = usdOfRequirement(selectedRequirements, allowed);
      if (!price) refused = `the deployment's offer (${selectedRequirements.asset} on ${selectedRequirements.network}) is not an asset this client pays with; nothing was paid`;
      else if (price.usd > maxUsd) refused = `the price ${formatUsd(price.usd)} USD is above --max-usd ${formatUsd(maxUsd)}; nothing was paid`;
      else if (spent + price.usd > budgetUsd) {
        refused = `the session budget is exhausted: ${formatUsd(spent)} of --budget-usd ${formatUsd(budgetUsd)} spent, this call costs ${formatUsd(price.usd)} USD; nothing was paid `
          + '(spent is every authorization signed in this session, whatever the deployment answered: it can settle them until they expire)';
      }
      if (refused) return { abort: true, reason: refused };
    });
    // Signed: debited now, before the request is sent, for good.
    client.onAfterPaymentCreation(async ({ selectedRequirements }) => {
      const usd = usdOfRequirement(selectedRequirements, allowed)!.usd;
      spent += usd;
      signed = { requirements: selectedRequirements, usd };
    });
    const init: RequestInit = request.body === undefined
      ? { method: request.method }
      : { method: request.method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(request.body) };
    const paymentOf = (settled: SettleResponse | null): Payment | null => {
      const done = signed as { requirements: PaymentRequirements; usd: Usd } | null;
      if (!done) return null;
      const success = settled?.success === true;
      return {
        usd: formatUsd(done.usd), atomic: done.requirements.amount, network: done.requirements.network, asset: done.requirements.asset,
        transaction: success ? settled.transaction : null, settled: success, payer: settled?.payer ?? account.address, session_usd: formatUsd(spent),
      };
    };
    let response: Response;
    try {
      response = await wrapFetchWithPayment(baseFetch, client)(base + request.target, init);
    } catch (error) {
      if (refused) return refusal(402, 'payment_refused', refused);
      const payment = paymentOf(null);
      if (payment) {
        return refusal(502, 'remote_unavailable', `the call to ${base} failed after an authorization of ${payment.usd} USD was signed and sent: ${(error as Error).message}; `
          + `it counts as spent (the deployment can still settle it); session total ${payment.session_usd} USD`, payment);
      }
      return refusal(502, 'remote_unavailable', `the call to ${base} failed: ${(error as Error).message}; nothing was paid`);
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = { error: { status: response.status, code: 'bad_response', message: `the deployment answered ${response.status} with a body that is not JSON`, param: null } };
    }
    let settled: SettleResponse | null = null;
    const receipt = response.headers.get('PAYMENT-RESPONSE');
    if (receipt) {
      try {
        settled = decodePaymentResponseHeader(receipt);
      } catch {
        settled = null;
      }
    }
    const dataSource = response.ok ? response.headers.get('X-Data-Source') ?? undefined : undefined;
    return { ok: response.ok, json, text: response.ok ? text : JSON.stringify(json), payment: paymentOf(settled), ...(dataSource ? { dataSource } : {}) };
  }

  const caller = (_route: Route, request: ToolRequest) => {
    const run = queue.then(() => callOnce(request));
    queue = run.catch(() => undefined);
    return run;
  };
  // In micro-USD (USDC's units), rounded up.
  return Object.assign(caller, { spent: () => (spent + usdOfMicros(1n) - 1n) / usdOfMicros(1n) });
}

// ---------------------------------------------------------------------------------------------
// The server

/** Where the resources' documents point: the deployment (remote mode), else BASE_URL or the local default. */
function documentsBase(remote: string | undefined): Pick<DocsInput, 'baseUrl' | 'payment'> {
  const baseUrl = (remote ?? process.env.BASE_URL ?? 'http://127.0.0.1:3000').replace(/(?<!\/)\/+$/, '');
  return { baseUrl, payment: defaultPaymentInfo() };
}

/** The stdio MCP server (not yet connected) whose tools are the routes, answered by `call`. */
export function createMcpServer(options: { routes: readonly Route[]; call: Caller; remote: boolean; baseUrl?: string }): McpServer {
  const docs = documentsBase(options.baseUrl);
  return createSharedMcpServer({
    routes: options.routes,
    call: options.call,
    instructions: options.remote
      ? 'Each tool is one paid API operation; every result states what was paid. Tool errors carry the API\'s JSON error. Full documentation: the resources.'
      : 'Each tool is one API operation answered from the local data snapshot (no payment). Tool errors carry the API\'s JSON error. Full documentation: the resources.',
    resources: mcpResources(options.routes, async () => ({ routes: options.routes, ...docs })),
    saysPaidNothing: options.remote,
  });
}
