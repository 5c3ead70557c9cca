// The MCP server of the catalog, shared by the stdio server (bin/mcp.ts) and the Streamable HTTP
// endpoint (http/pipeline/mcp.ts): the tools (http/mcp/tools.ts) answered by a Caller, and the
// documentation as resources (http/mcp/resources.ts).
//
// A tool result carries the API's JSON answer twice: as text (the exact bytes the API sends) and as
// `structuredContent` (an answer that is a JSON array as {"items": [...]}). A paged list with rows
// left says so, in a text item and in `_meta.next` ({name, arguments}: the call for the next page).
// Over x402 (the transport of x402 v2's `mcp.md`): a paid tool called without payment is a tool error
// whose structuredContent is the x402 PaymentRequired and whose text is the same JSON; the payment is
// given in the call's `_meta["x402/payment"]`, and the settlement comes back in the result's
// `_meta["x402/payment-response"]`.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CallToolRequestSchema, ErrorCode as McpErrorCode, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ListToolsRequestSchema, McpError,
  ReadResourceRequestSchema, type CallToolResult, type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { PaymentRequired, SettleResponse } from '@x402/core/types';
import { sampleDataNote, type DataOrigin } from '../../engine/dataOrigin.ts';
import type { Route } from '../../queries/catalog.ts';
import { errorAnswer } from '../dispatch.ts';
import type { McpResources } from './resources.ts';
import { ARRAY_ANSWER_FIELD, nextCall, requestFor, toolsOf, type NextCall, type ToolRequest } from './tools.ts';

export const SERVER_INFO = { name: 'public-data-service', version: '0.1.0' };

/** The `_meta` keys of the x402 MCP transport. */
export const PAYMENT_META_KEY = 'x402/payment';
export const PAYMENT_RESPONSE_META_KEY = 'x402/payment-response';

/**
 * What a call signed (the stdio server's remote mode). An authorization counts as spent once signed,
 * whatever the deployment answers: it can settle a signed authorization at any time until it expires.
 */
export interface Payment {
  /** USD, from the amount in the asset's own decimals. */
  usd: string;
  /** The amount signed, in the asset's units. */
  atomic: string;
  network: string;
  asset: string;
  /** The settlement transaction of the deployment's receipt; null without a receipt of success. */
  transaction: string | null;
  /** Whether the deployment sent a receipt of success. The amount counts as spent either way. */
  settled: boolean;
  payer: string | null;
  /** Signed in this session so far, including this call. */
  session_usd: string;
}

export interface CallOutcome {
  ok: boolean;
  /** The API's JSON answer, or its JSON error (or a refusal of this server's own, same shape). */
  json: unknown;
  /** The JSON text as the API sent it. */
  text: string;
  /** Remote mode: what was signed, or null for nothing. */
  payment?: Payment | null;
  /** An answer's data origin (the API's X-Data-Source: sample, imported, mixed); absent on errors. */
  dataSource?: string;
  /** The x402 challenge of a paid tool called without (a valid) payment: the result is that. */
  paymentRequired?: PaymentRequired;
  /** The settlement of the payment that bought this answer (or its failure). */
  paymentResponse?: SettleResponse;
}

/** What the call carried besides its arguments. */
export interface CallContext {
  /** `_meta["x402/payment"]`: the client's x402 PaymentPayload, as sent (not yet checked). */
  payment?: unknown;
}

export type Caller = (route: Route, request: ToolRequest, context: CallContext) => Promise<CallOutcome>;

/** The tool list, built once from the catalog (the same for every connection and request). */
export interface ToolCatalog {
  tools: Tool[];
  byName: Map<string, Route>;
}

export function toolCatalog(routes: readonly Route[]): ToolCatalog {
  return { tools: toolsOf(routes), byName: new Map(routes.map((route) => [route.id, route])) };
}

function paymentText(payment: Payment | null | undefined): string {
  if (payment === undefined) return '';
  if (payment === null) return 'paid: nothing';
  const what = `${payment.usd} USD (${payment.atomic} atomic units of ${payment.asset}) on ${payment.network}`;
  if (payment.settled) return `paid: ${what}, transaction ${payment.transaction}; session total ${payment.session_usd} USD`;
  return `signed: ${what}, without a receipt of settlement from the deployment; counted as spent (it can settle the authorization until it expires); session total ${payment.session_usd} USD`;
}

function nextText(next: NextCall, answer: Record<string, unknown>): string {
  const { offset, count, total } = answer as { offset: number; count: number; total: number };
  return `Rows ${offset + 1} to ${offset + count} of ${total}; the next page: call ${next.name} with ${JSON.stringify(next.arguments)} (also in _meta.next).`;
}

/** The tool result of an outcome. */
export function toolResult(route: Route, args: Record<string, unknown>, outcome: CallOutcome): CallToolResult {
  if (outcome.paymentRequired) {
    // x402 over MCP: the challenge is the result (and its text); a failed settlement rides along in it.
    const structured = { ...outcome.paymentRequired, ...(outcome.paymentResponse ? { [PAYMENT_RESPONSE_META_KEY]: outcome.paymentResponse } : {}) };
    return { isError: true, structuredContent: structured, content: [{ type: 'text', text: JSON.stringify(structured) }] };
  }
  const content: CallToolResult['content'] = [{ type: 'text', text: outcome.text }];
  const answer = Array.isArray(outcome.json) ? { [ARRAY_ANSWER_FIELD]: outcome.json } : outcome.json;
  const structured = answer !== null && typeof answer === 'object' ? answer as Record<string, unknown> : undefined;
  const next = outcome.ok && structured ? nextCall(route, args, structured) : null;
  if (next) content.push({ type: 'text', text: nextText(next, structured!) });
  const paid = paymentText(outcome.payment);
  if (paid) content.push({ type: 'text', text: paid });
  const note = outcome.dataSource === undefined ? null : sampleDataNote(outcome.dataSource as DataOrigin);
  if (note) content.push({ type: 'text', text: `Note: ${note} (data_source: ${outcome.dataSource}).` });
  const meta = {
    ...(outcome.dataSource !== undefined ? { data_source: outcome.dataSource } : {}),
    ...(next ? { next } : {}),
    ...(outcome.payment !== undefined ? { payment: outcome.payment } : {}),
    ...(outcome.paymentResponse ? { [PAYMENT_RESPONSE_META_KEY]: outcome.paymentResponse } : {}),
  };
  return {
    content,
    ...(structured ? { structuredContent: structured } : {}),
    ...(outcome.ok ? {} : { isError: true }),
    ...(Object.keys(meta).length > 0 ? { _meta: meta } : {}),
  };
}

export interface McpServerOptions {
  routes: readonly Route[];
  call: Caller;
  /** What the server tells the agent about payment. */
  instructions: string;
  /** The documentation as resources; none: no resources. */
  resources?: McpResources;
  /** The tool list, when already built (the HTTP endpoint builds it once); default: from `routes`. */
  catalog?: ToolCatalog;
  /** Whether a failed call that paid nothing says so (`paid: nothing`: the stdio server's remote mode). */
  saysPaidNothing?: boolean;
}

/** An MCP server (not yet connected) whose tools are the routes, answered by `call`. */
export function createMcpServer(options: McpServerOptions): McpServer {
  const resources = options.resources;
  const mcp = new McpServer(SERVER_INFO, {
    capabilities: { tools: {}, ...(resources ? { resources: {} } : {}) },
    instructions: options.instructions,
  });
  const { tools, byName } = options.catalog ?? toolCatalog(options.routes);
  mcp.server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const route = byName.get(request.params.name);
    if (!route) throw new McpError(McpErrorCode.InvalidParams, `unknown tool ${request.params.name}`);
    const args = request.params.arguments ?? {};
    const meta = request.params._meta;
    const context: CallContext = meta !== undefined && Object.hasOwn(meta, PAYMENT_META_KEY) ? { payment: meta[PAYMENT_META_KEY] } : {};
    let outcome: CallOutcome;
    try {
      outcome = await options.call(route, requestFor(route, args), context);
    } catch (error) {
      // A bad argument found while building the request (an object where a value goes): the API's 400.
      const json = errorAnswer(error);
      outcome = { ok: false, json, text: JSON.stringify(json), ...(options.saysPaidNothing ? { payment: null } : {}) };
    }
    return toolResult(route, args, outcome);
  });
  if (resources) {
    mcp.server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: resources.list() }));
    mcp.server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: resources.templates() }));
    mcp.server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
      const found = await resources.read(request.params.uri);
      if (!found) throw new McpError(McpErrorCode.InvalidParams, `no resource ${request.params.uri}; resources/list names them`);
      return { contents: [found] };
    });
  }
  return mcp;
}
