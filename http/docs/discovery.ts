// /.well-known/x402: x402scan's discovery document ({version: 1, resources: [absolute URLs]}) with
// an `items` array in the Bazaar DiscoveryResource shape: per paid path form, what its 402
// challenge offers (accepts) and the bazaar extension describing its input and output.
// Each resource is the path form's first sample request, so fetching it unpaid yields the 402
// (a bare path with a required parameter would be a 400 and not be indexed).
// Each paid route's MCP tool is an item too (type `mcp`, its resource the MCP endpoint, the bazaar
// extension describing the tool: input.type `mcp`, transport `streamable-http`); `resources` lists
// the HTTP resources only (fetching one unpaid yields its 402; the MCP endpoint takes POSTed JSON-RPC).
// When the served data are generated samples, each item's description and the instructions say so.
import { bazaarResourceServerExtension } from '@x402/extensions/bazaar';
import { sampleDataNote, type DataOrigin } from '../../engine/dataOrigin.ts';
import type { Route } from '../../queries/catalog.ts';
import { describedResource, discoveryExtension, mcpDiscoveryExtension } from '../payments/challenge.ts';
import { MCP_PATH } from '../mcp/tools.ts';
import { koaPath } from '../dispatch.ts';
import { SERVICE_TITLE, networksText, priceText } from './content.ts';
import { allOperations, type Operation } from './operations.ts';
import type { PaymentInfo, PaymentRequirementsFor, PaymentRequirementsForResult } from './paymentInfo.ts';

export interface DiscoveryInput {
  routes: readonly Route[];
  baseUrl: string;
  payment: PaymentInfo;
  paymentRequirementsFor?: PaymentRequirementsFor;
  /** ISO time stamped on every item (when the documents were built). */
  lastUpdated: string;
  /** The served snapshot's data origin (sample or mixed: said in every item). */
  dataOrigin?: DataOrigin;
}

/** The recipient shown while payments are not configured (the challenge uses the same). */
const UNCONFIGURED_PAY_TO = '0x0000000000000000000000000000000000000000';

/** The accepts of the documented payment facts, as the challenge builds them. */
export function defaultAccepts(payment: PaymentInfo): object[] {
  return payment.networks.map((network) => ({
    scheme: payment.scheme,
    network: network.network,
    amount: payment.price.amount,
    asset: network.asset,
    payTo: payment.payTo ?? UNCONFIGURED_PAY_TO,
    maxTimeoutSeconds: payment.maxTimeoutSeconds ?? 300,
    extra: { name: network.assetName ?? 'USD Coin', version: network.assetVersion ?? '2' },
  }));
}

/**
 * The bazaar extension of one path form as the running server sends it: the catalog's declaration,
 * enriched by the official server extension with the method, route template and path values.
 */
export function bazaarExtension(operation: Operation, resourceUrl: string): Record<string, unknown> {
  const declared = discoveryExtension(operation.route, operation.path) as { bazaar: unknown };
  const context = {
    method: operation.route.method,
    routePattern: koaPath(operation.path),
    adapter: { getPath: () => new URL(resourceUrl).pathname },
  };
  const enrich = bazaarResourceServerExtension.enrichDeclaration as (declaration: unknown, transport: unknown) => unknown;
  return { bazaar: enrich(declared.bazaar, context) };
}

export function resourceUrlOf(operation: Operation, baseUrl: string): string {
  return baseUrl + (operation.examples[0] ?? operation.path);
}

export function buildWellKnownX402(input: DiscoveryInput): Record<string, unknown> {
  const paid = allOperations(input.routes).filter((operation) => operation.route.paid);
  const items = paid.map((operation) => {
    const resource = resourceUrlOf(operation, input.baseUrl);
    const requirements: PaymentRequirementsForResult = input.paymentRequirementsFor
      ? input.paymentRequirementsFor(operation.route, resource, operation.path)
      : { accepts: defaultAccepts(input.payment), extensions: bazaarExtension(operation, resource) };
    return {
      resource,
      type: 'http',
      x402Version: input.payment.x402Version,
      accepts: requirements.accepts,
      lastUpdated: input.lastUpdated,
      description: describedResource(operation.route.summary, input.dataOrigin),
      mimeType: 'application/json',
      serviceName: SERVICE_TITLE,
      tags: [operation.route.tag],
      ...(requirements.extensions ? { extensions: requirements.extensions } : {}),
    };
  });
  const tools = input.routes.filter((route) => route.paid).map((route) => {
    const operation = allOperations([route])[0]!;
    const accepts = input.paymentRequirementsFor
      ? input.paymentRequirementsFor(route, resourceUrlOf(operation, input.baseUrl), operation.path).accepts
      : defaultAccepts(input.payment);
    return {
      resource: `${input.baseUrl}${MCP_PATH}`,
      type: 'mcp',
      toolName: route.id,
      x402Version: input.payment.x402Version,
      accepts,
      lastUpdated: input.lastUpdated,
      description: describedResource(route.summary, input.dataOrigin),
      mimeType: 'application/json',
      serviceName: SERVICE_TITLE,
      tags: [route.tag],
      extensions: mcpDiscoveryExtension(route),
    };
  });
  const note = input.dataOrigin === undefined ? null : sampleDataNote(input.dataOrigin);
  return {
    version: 1,
    resources: items.map((item) => item.resource),
    instructions:
      `# ${SERVICE_TITLE}\n\n${note ? `**${note[0]!.toUpperCase()}${note.slice(1)}** (every data answer says so in its X-Data-Source header).\n\n` : ''}Every paid endpoint costs ${priceText(input.payment)} per request (x402 v2, scheme exact) on ` +
      `${networksText(input.payment)}. Full description: ${input.baseUrl}/openapi.json; documentation: ${input.baseUrl}/api. ` +
      `MCP (Streamable HTTP, stateless): POST ${input.baseUrl}${MCP_PATH}, one tool per operation, paid with x402 in the tool call's _meta.`,
    items: [...items, ...tools],
  };
}
