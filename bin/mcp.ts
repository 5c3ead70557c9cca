// npm run mcp [-- --data-dir DIR]                                       (local: the snapshot, no payment)
// npm run mcp -- --remote <base-url> [--max-usd 0.01] [--budget-usd 1]   (remote: pays each call with x402)
// An MCP server over stdio (the official @modelcontextprotocol/sdk): one tool per catalog route, named
// after its operation id, whose input is the route's parameters as JSON Schema (the path and query
// forms folded into one object; a POST route's JSON body as the field `body`).
// - local (default): answers from the snapshot in DATA_DIR through the API's own validation, handlers
//   and encoders (http/dispatch.ts); nothing is paid;
// - remote: calls the deployment over HTTP and pays each call with the official x402 client
//   (@x402/fetch, a viem account from X402_PAYER_KEY) in USDC only (or the local chain's test token
//   named by X402_TEST_TOKEN, counted like USDC), never more than --max-usd per call nor
//   --budget-usd in the session; each result
//   says what was paid; a refused payment or an exhausted budget is a tool error, not a crash.
// The API's errors (400, 404, 451, ...) are tool errors carrying the API's JSON error.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ErrorCode as McpErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client, type PaymentRequirements } from '@x402/fetch';
import { findDefaultAsset } from '@x402/evm';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { privateKeyToAccount } from 'viem/accounts';
import type { Hex } from 'viem';
import { routes as catalogRoutes } from '../domains/index.ts';
import type { Database } from '../engine/database.ts';
import { pathParamNames, type JsonSchema, type Route } from '../queries/catalog.ts';
import { invalidParameter } from '../queries/shared/errors.ts';
import { isoToday } from '../queries/shared/window.ts';
import { Dispatcher, errorAnswer } from '../http/dispatch.ts';
import { openSnapshot } from '../http/server.ts';

const SERVER_INFO = { name: 'public-data-service', version: '0.1.0' };

const USAGE = [
  'usage: npm run mcp [-- --data-dir DIR]',
  '       X402_PAYER_KEY=0x... npm run mcp -- --remote <base-url> [--max-usd 0.01] [--budget-usd 1]',
].join('\n');

// ---------------------------------------------------------------------------------------------
// Tools from the catalog

/** Whether a parameter must be given whichever path form is used. */
function requiredInEveryForm(route: Route, name: string): boolean {
  const spec = route.params[name];
  return route.paths.every((template) => pathParamNames(template).includes(name) || (spec.required === true && spec.in.includes('query')));
}

/** The route's parameters as one JSON Schema object (a family `dim.<key>` is an object `dim`; a body is `body`). */
export function toolInputSchema(route: Route): Tool['inputSchema'] {
  const properties: Record<string, object> = {};
  const required: string[] = [];
  for (const [name, spec] of Object.entries(route.params)) {
    if (spec.family) {
      properties[name] = {
        type: 'object',
        description: `${spec.description} Given as {"<key>": value}; sent as ${spec.family.prefix}<key>=value (at most ${spec.family.maxKeys} keys).`,
        propertyNames: { pattern: spec.family.keyPattern },
        additionalProperties: spec.schema,
        maxProperties: spec.family.maxKeys,
      };
      continue;
    }
    const forms = route.paths.length > 1 && spec.in.includes('path') && !spec.in.includes('query') ? ` Only in the path form ${route.paths.find((p) => pathParamNames(p).includes(name))}.` : '';
    properties[name] = { ...spec.schema, description: `${spec.description}${forms}` };
    if (requiredInEveryForm(route, name)) required.push(name);
  }
  if (route.requestBody) {
    properties.body = { ...route.requestBody.schema, description: route.requestBody.description ?? 'The JSON request body.' } satisfies JsonSchema;
    if (route.requestBody.required !== false) required.push('body');
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

export function toolsOf(routes: readonly Route[]): Tool[] {
  return routes.map((route) => ({
    name: route.id,
    title: route.summary,
    description: `${route.summary}\n\n${route.description}\n\nHTTP: ${route.method} ${route.paths.join(' or ')}${route.paid ? ' (paid per call)' : ''}.`,
    inputSchema: toolInputSchema(route),
    annotations: { title: route.summary, readOnlyHint: true, idempotentHint: true, destructiveHint: false },
  }));
}

function textOf(name: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') return String(value);
  throw invalidParameter(name, `${name} must be a string, a number or true/false`);
}

/** A request for one API path form. */
export interface ToolRequest {
  method: 'GET' | 'POST';
  /** Path and query, e.g. `/api/sebra/getTaxonomyForYear/2024?currency=EUR`. */
  target: string;
  body?: unknown;
}

/**
 * The tool's arguments as an API request: the first path form whose path parameters are all given
 * and whose other arguments all go in its query (the query form first), else the first whose path
 * parameters are given; the API's validation then judges every value as it would over HTTP.
 */
export function requestFor(route: Route, args: Record<string, unknown>): ToolRequest {
  const given = new Map<string, unknown>();
  let body: unknown;
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue;
    // The API's own `format` query key is not a tool input: tools answer JSON (CSV and Arrow: npm run query).
    if (name === 'format' && !Object.hasOwn(route.params, 'format')) throw invalidParameter('format', 'tools answer JSON; for CSV or Arrow use npm run query -- --format csv|arrow');
    if (name === 'body' && route.requestBody) body = value;
    else given.set(name, value);
  }
  const fits = (template: string, strict: boolean) => {
    const inPath = pathParamNames(template);
    if (!inPath.every((name) => given.has(name))) return false;
    if (!strict) return true;
    return [...given.keys()].every((name) => {
      if (inPath.includes(name)) return true;
      const spec = Object.hasOwn(route.params, name) ? route.params[name] : undefined;
      return spec !== undefined && (spec.family !== undefined || spec.in.includes('query'));
    });
  };
  const template = route.paths.find((t) => fits(t, true)) ?? route.paths.find((t) => fits(t, false)) ?? route.paths[0];
  const inPath = pathParamNames(template);
  let pathname = template;
  for (const name of inPath) pathname = pathname.replace(`{${name}}`, encodeURIComponent(textOf(name, given.get(name))));
  const query = new URLSearchParams();
  for (const [name, value] of given) {
    if (inPath.includes(name)) continue;
    const spec = Object.hasOwn(route.params, name) ? route.params[name] : undefined;
    if (spec?.family) {
      if (typeof value !== 'object' || Array.isArray(value)) throw invalidParameter(name, `${name} must be an object {"<key>": value}`);
      for (const [key, item] of Object.entries(value as Record<string, unknown>)) query.append(`${spec.family.prefix}${key}`, textOf(`${spec.family.prefix}${key}`, item));
      continue;
    }
    // Unknown names go in the query too: the API's validation names them.
    query.append(name, textOf(name, value));
  }
  const search = query.toString();
  return { method: route.method, target: search ? `${pathname}?${search}` : pathname, ...(body !== undefined ? { body } : {}) };
}

// ---------------------------------------------------------------------------------------------
// Callers: what answers a tool call

/** What a call paid (remote mode). */
export interface Payment {
  /** USD, from the asset's 6-decimal units. */
  usd: string;
  atomic: string;
  network: string;
  asset: string;
  transaction: string;
  payer: string | null;
  /** Spent in this session so far, including this call. */
  session_usd: string;
}

export interface CallOutcome {
  ok: boolean;
  /** The API's JSON answer, or its JSON error (or a refusal of this server's own, same shape). */
  json: unknown;
  /** The JSON text as the API sent it. */
  text: string;
  payment?: Payment | null;
}

export type Caller = (route: Route, request: ToolRequest) => Promise<CallOutcome>;

/** Local mode: the dispatcher on an open snapshot, no payment. */
export function localCaller(options: { db: Database; routes: readonly Route[]; now?: () => Date }): Caller {
  const now = options.now ?? (() => new Date());
  const dispatcher = new Dispatcher({ db: options.db, routes: options.routes, today: () => isoToday(now(), 'Europe/Sofia') });
  return async (_route, request) => {
    try {
      const { encoded, answer } = await dispatcher.dispatch(request);
      return { ok: true, json: answer, text: String(encoded.body) };
    } catch (error) {
      const json = errorAnswer(error);
      if (json.error.status >= 500) console.error('mcp: internal error', error);
      return { ok: false, json, text: JSON.stringify(json) };
    }
  };
}

const MICRO = 1_000_000n;

/** A 6-decimal amount in USD: 10000 -> "0.01". */
export function usdOf(atomic: bigint): string {
  const whole = atomic / MICRO;
  const fraction = (atomic % MICRO).toString().padStart(6, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}

/** "0.01" -> 10000n; null unless a non-negative decimal with at most 6 places. */
export function atomicOf(usd: string): bigint | null {
  const match = /^(\d{1,9})(?:\.(\d{1,6}))?$/.exec(usd);
  if (!match) return null;
  return BigInt(match[1]) * MICRO + BigInt((match[2] ?? '').padEnd(6, '0'));
}

export interface RemoteOptions {
  baseUrl: string;
  payerKey: Hex;
  /** Per-call cap and per-session budget, in atomic units (USD * 10^6). */
  maxAtomic: bigint;
  budgetAtomic: bigint;
  /**
   * A token paid besides USDC, by address (the local chain's test token, X402_TEST_TOKEN); it is
   * counted in 6-decimal units like USDC.
   */
  allowAsset?: string;
  fetch?: typeof fetch;
}

/** USDC (6 decimals) where the EVM scheme knows it, or the one token allowed by address: the caps are in its units. */
function payableAsset(requirement: PaymentRequirements, allowAsset: string | undefined): boolean {
  if (allowAsset && requirement.asset.toLowerCase() === allowAsset.toLowerCase()) return true;
  const known = findDefaultAsset(requirement.asset, requirement.network);
  return known?.symbol === 'USDC' && known.decimals === 6;
}

function refusal(status: number, code: string, message: string): CallOutcome {
  const json = { error: { status, code, message, param: null } };
  return { ok: false, json, text: JSON.stringify(json), payment: null };
}

/**
 * Remote mode: the deployment over HTTP, paid with the official client. Calls run one at a time so
 * the budget check and the spending it guards cannot interleave.
 */
export function remoteCaller(options: RemoteOptions): Caller & { spent(): bigint } {
  const account = privateKeyToAccount(options.payerKey);
  const base = options.baseUrl.replace(/\/+$/, '');
  const baseFetch = options.fetch ?? fetch;
  let spent = 0n;
  let queue: Promise<unknown> = Promise.resolve();

  async function callOnce(request: ToolRequest): Promise<CallOutcome> {
    let refused: string | null = null;
    let selected: PaymentRequirements | null = null;
    const client = new x402Client();
    client.register('eip155:*', new ExactEvmScheme(account));
    // The library's USD caps are replaced by the ones below (per call and per session, in USDC's
    // units), so only USDC, or the one token allowed by address, is paid.
    client.setSpendControls(false);
    client.registerPolicy((_version, requirements) => {
      const payable = requirements.filter((requirement) => payableAsset(requirement, options.allowAsset));
      if (payable.length === 0) {
        refused = `the deployment asks for no asset this client pays with (USDC${options.allowAsset ? ` or ${options.allowAsset}` : ''}; offered: ${requirements.map((r) => `${r.asset} on ${r.network}`).join(', ')}); nothing was paid`;
      }
      // The cheapest offer first: if it does not fit the caps, none does.
      return payable.sort((a, b) => (BigInt(a.amount) < BigInt(b.amount) ? -1 : BigInt(a.amount) > BigInt(b.amount) ? 1 : 0));
    });
    client.onBeforePaymentCreation(async ({ selectedRequirements }) => {
      const amount = BigInt(selectedRequirements.amount);
      if (amount > options.maxAtomic) refused = `the price ${usdOf(amount)} USD is above --max-usd ${usdOf(options.maxAtomic)}; nothing was paid`;
      else if (spent + amount > options.budgetAtomic) {
        refused = `the session budget is exhausted: ${usdOf(spent)} of --budget-usd ${usdOf(options.budgetAtomic)} spent, this call costs ${usdOf(amount)} USD; nothing was paid`;
      }
      if (refused) return { abort: true, reason: refused };
      selected = selectedRequirements;
    });
    const init: RequestInit = request.body === undefined
      ? { method: request.method }
      : { method: request.method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(request.body) };
    let response: Response;
    try {
      response = await wrapFetchWithPayment(baseFetch, client)(base + request.target, init);
    } catch (error) {
      if (refused) return refusal(402, 'payment_refused', refused);
      return refusal(502, 'remote_unavailable', `the call to ${base} failed: ${(error as Error).message}; nothing was paid`);
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = { error: { status: response.status, code: 'bad_response', message: `the deployment answered ${response.status} with a body that is not JSON`, param: null } };
    }
    let payment: Payment | null = null;
    const receipt = response.headers.get('PAYMENT-RESPONSE');
    const chosen = selected as PaymentRequirements | null;
    if (receipt && chosen) {
      const settled = decodePaymentResponseHeader(receipt);
      if (settled.success) {
        const amount = BigInt(settled.amount ?? chosen.amount);
        spent += amount;
        payment = {
          usd: usdOf(amount), atomic: amount.toString(), network: settled.network, asset: chosen.asset,
          transaction: settled.transaction, payer: settled.payer ?? account.address, session_usd: usdOf(spent),
        };
      }
    }
    return { ok: response.ok, json, text: response.ok ? text : JSON.stringify(json), payment };
  }

  const caller = (_route: Route, request: ToolRequest) => {
    const run = queue.then(() => callOnce(request));
    queue = run.catch(() => undefined);
    return run;
  };
  return Object.assign(caller, { spent: () => spent });
}

// ---------------------------------------------------------------------------------------------
// The server

function paymentText(payment: Payment | null | undefined): string {
  if (payment === undefined) return '';
  if (payment === null) return 'paid: nothing';
  return `paid: ${payment.usd} USD (${payment.atomic} atomic units of ${payment.asset}) on ${payment.network}, transaction ${payment.transaction}; session total ${payment.session_usd} USD`;
}

/** An MCP server (not yet connected) whose tools are the routes, answered by `call`. */
export function createMcpServer(options: { routes: readonly Route[]; call: Caller; remote: boolean }): McpServer {
  const mcp = new McpServer(SERVER_INFO, {
    capabilities: { tools: {} },
    instructions: options.remote
      ? 'Each tool is one paid API operation; every result states what was paid. Tool errors carry the API\'s JSON error.'
      : 'Each tool is one API operation answered from the local data snapshot (no payment). Tool errors carry the API\'s JSON error.',
  });
  const tools = toolsOf(options.routes);
  const byName = new Map(options.routes.map((route) => [route.id, route]));
  mcp.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const route = byName.get(request.params.name);
    if (!route) throw new McpError(McpErrorCode.InvalidParams, `unknown tool ${request.params.name}`);
    let outcome: CallOutcome;
    try {
      outcome = await options.call(route, requestFor(route, request.params.arguments ?? {}));
    } catch (error) {
      // A bad argument found while building the request (an object where a value goes): the API's 400.
      const json = errorAnswer(error);
      outcome = { ok: false, json, text: JSON.stringify(json), ...(options.remote ? { payment: null } : {}) };
    }
    const content: CallToolResult['content'] = [{ type: 'text', text: outcome.text }];
    const paid = paymentText(outcome.payment);
    if (paid) content.push({ type: 'text', text: paid });
    return {
      content,
      ...(outcome.json !== null && typeof outcome.json === 'object' && !Array.isArray(outcome.json) ? { structuredContent: outcome.json as Record<string, unknown> } : {}),
      ...(outcome.ok ? {} : { isError: true }),
      ...(outcome.payment !== undefined ? { _meta: { payment: outcome.payment } } : {}),
    };
  });
  return mcp;
}

// ---------------------------------------------------------------------------------------------
// Command line

class UsageError extends Error {}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      remote: { type: 'string' },
      'max-usd': { type: 'string', default: '0.01' },
      'budget-usd': { type: 'string', default: '1' },
      'data-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  // stdout is the protocol's: anything a library logs goes to stderr.
  console.log = (...args: unknown[]) => console.error(...args);
  let call: Caller;
  let db: Database | undefined;
  if (values.remote !== undefined) {
    try {
      const url = new URL(values.remote);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error();
    } catch {
      throw new UsageError(`--remote must be the deployment's http(s) base address (got ${values.remote})`);
    }
    const maxAtomic = atomicOf(values['max-usd']!);
    const budgetAtomic = atomicOf(values['budget-usd']!);
    if (maxAtomic === null) throw new UsageError(`--max-usd must be a decimal amount in USD (got ${values['max-usd']})`);
    if (budgetAtomic === null) throw new UsageError(`--budget-usd must be a decimal amount in USD (got ${values['budget-usd']})`);
    const key = process.env.X402_PAYER_KEY;
    if (!key || !/^0x[0-9a-fA-F]{64}$/.test(key)) throw new UsageError('set X402_PAYER_KEY to the payer\'s 0x-prefixed private key');
    const allowAsset = process.env.X402_TEST_TOKEN || undefined;
    if (allowAsset !== undefined && !/^0x[0-9a-fA-F]{40}$/.test(allowAsset)) throw new UsageError(`X402_TEST_TOKEN must be a token address (got ${allowAsset})`);
    call = remoteCaller({ baseUrl: values.remote, payerKey: key as Hex, maxAtomic, budgetAtomic, allowAsset });
  } else {
    const dataDir = path.resolve(values['data-dir'] ?? process.env.DATA_DIR ?? 'data/parquet');
    if (!existsSync(dataDir)) throw new UsageError(`no snapshot at ${dataDir}: set DATA_DIR (or --data-dir), or run npm start once to build the sample`);
    db = await openSnapshot(dataDir);
    call = localCaller({ db, routes: catalogRoutes });
  }
  const server = createMcpServer({ routes: catalogRoutes, call, remote: values.remote !== undefined });
  const transport = new StdioServerTransport();
  transport.onclose = () => {
    void db?.close();
  };
  await server.connect(transport);
  process.stderr.write(`mcp: ${catalogRoutes.length} tools, ${values.remote !== undefined ? `remote ${values.remote}` : 'local snapshot'}; waiting on stdio\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  try {
    await main(process.argv.slice(2));
  } catch (error) {
    const usage = error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    process.stderr.write(`mcp: ${(error as Error).message}\n${usage ? `${USAGE}\n` : ''}`);
    process.exit(usage ? 2 : 1);
  }
}
