// POST /mcp: the Model Context Protocol over Streamable HTTP (the SDK's StreamableHTTPServerTransport),
// stateless: no session, each POST is served by a new server and transport (the SDK's stateless
// pattern) over the tool list built once, so any replica behind a load balancer answers any request.
// Answers are JSON (no event stream). GET and DELETE (a session's stream and its end) are 405.
// The body is read within MCP_BODY_MAX_BYTES before the SDK sees it. Listing tools and reading the
// documentation resources is free; a tool call is an in-process HTTP request through the app's own
// listener (http/mcp/innerCall.ts), which pays, or not, exactly as the same request over HTTP.
// The SDK (and zod with it) loads with the first POST: a server that is never asked over MCP does
// not load it.
import type { RequestListener } from 'node:http';
import type Koa from 'koa';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Route } from '../../queries/catalog.ts';
import { loadOnFirstUse } from '../../queries/shared/firstUse.ts';
import { readBodyBytes } from '../body.ts';
import { errorBody } from '../errors.ts';
import { innerCaller, type McpPaymentTerms } from '../mcp/innerCall.ts';
import type { McpResources } from '../mcp/resources.ts';
import type { createMcpServer, ToolCatalog } from '../mcp/server.ts';
import { MCP_PATH } from '../mcp/tools.ts';

export { MCP_PATH };
/** A call's JSON-RPC message: its arguments (a POST route's body is at most 64 KiB) and an x402 payment (about 1 KiB). */
export const MCP_BODY_MAX_BYTES = 128 * 1024;

export const MCP_INSTRUCTIONS =
  'Each tool is one operation of the public data API (same names as its operation ids). Paid tools follow the x402 MCP transport: ' +
  'a call without payment is a tool error whose structuredContent is the x402 PaymentRequired; sign one of its accepts and call again ' +
  'with the PaymentPayload in _meta["x402/payment"]; the settlement comes back in _meta["x402/payment-response"]. ' +
  'Invalid arguments are refused before any payment. A paged answer with rows left names the next call in _meta.next. ' +
  'Full documentation: the resources (docs://catalog.json, docs://domains/<domain>.md, docs://tools/<tool>.md, docs://llms.txt).';

export interface McpEndpointOptions {
  routes: readonly Route[];
  /** The app's request listener, for the tool calls (read per call: the app is built after its stages). */
  listener: () => RequestListener;
  resources: McpResources;
  /** How x402 over MCP differs from HTTP (the Bazaar extension describing the tool). */
  x402?: McpPaymentTerms;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** A JSON-RPC parse error, as the SDK answers one. */
function parseError(ctx: Koa.Context, message: string): void {
  ctx.status = 400;
  ctx.body = { jsonrpc: '2.0', error: { code: -32700, message: `Parse error: ${message}` }, id: null };
}

/** The SDK's parts and the tool list, loaded and built once, on the first POST. */
interface McpRuntime {
  createMcpServer: typeof createMcpServer;
  Transport: typeof StreamableHTTPServerTransport;
  catalog: ToolCatalog;
}

/** The MCP server module and the SDK's HTTP transport, loaded with the first POST /mcp. */
const mcpModules = loadOnFirstUse(() => Promise.all([import('../mcp/server.ts'), import('@modelcontextprotocol/sdk/server/streamableHttp.js')]));

async function loadMcpRuntime(routes: readonly Route[]): Promise<McpRuntime> {
  const [{ createMcpServer, toolCatalog }, { StreamableHTTPServerTransport }] = await mcpModules();
  return { createMcpServer, Transport: StreamableHTTPServerTransport, catalog: toolCatalog(routes) };
}

export function mcpEndpoint(options: McpEndpointOptions): Koa.Middleware {
  let runtime: Promise<McpRuntime> | undefined;
  return async (ctx, next) => {
    if (ctx.path !== MCP_PATH) return next();
    if (ctx.method !== 'POST') {
      ctx.set('Allow', 'POST');
      ctx.status = 405;
      ctx.body = errorBody(405, 'method_not_allowed', `${ctx.method} is not allowed on ${MCP_PATH}: the MCP endpoint is stateless (no session stream); send each JSON-RPC message as a POST`);
      return;
    }
    const bytes = await readBodyBytes(ctx, MCP_BODY_MAX_BYTES);
    let message: unknown;
    try {
      message = JSON.parse(UTF8.decode(bytes));
    } catch (error) {
      parseError(ctx, error instanceof TypeError ? 'the body is not UTF-8' : 'the body is not JSON');
      return;
    }
    const call = innerCaller({
      listener: options.listener,
      client: { remoteAddress: ctx.req.socket.remoteAddress, forwardedFor: ctx.req.headers['x-forwarded-for'] },
      x402: options.x402,
    });
    runtime ??= loadMcpRuntime(options.routes);
    const { createMcpServer, Transport, catalog } = await runtime;
    const server = createMcpServer({ routes: options.routes, catalog, call, instructions: MCP_INSTRUCTIONS, resources: options.resources });
    const transport = new Transport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    ctx.res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    // The transport writes the answer itself.
    ctx.respond = false;
    await transport.handleRequest(ctx.req, ctx.res, message);
  };
}
