// What a paid route asks for, built from the catalog and the payment settings: the x402 route
// table the resource server enforces (one entry per path form: an `exact` USDC option per network,
// the catalog's summary, a Bazaar discovery extension from the parameter and response schemas, and
// the payment-identifier extension (optional) that makes paid retries safe),
// and the same requirements in wire form for discovery documents, so the two cannot drift.
// A resource's description says so when the served data are generated samples (describedResource):
// the challenge gets it per request (labelSampleChallenge, from the pipeline's headers stage), the
// discovery document from the snapshot it was built on.
import type { RouteConfig, RoutesConfig } from '@x402/core/server';
import { isDeepStrictEqual } from 'node:util';
import type { PaymentPayload, PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { decodePaymentRequiredHeader, encodePaymentRequiredHeader } from '@x402/core/http';
import { BAZAAR, declareDiscoveryExtension } from '@x402/extensions/bazaar';
import { declarePaymentIdentifierExtension, PAYMENT_IDENTIFIER } from '@x402/extensions/payment-identifier';
import { sampleDataNote, type DataOrigin } from '../../engine/dataOrigin.ts';
import { pathParamNames, type Route } from '../../queries/catalog.ts';
import { koaPath } from '../dispatch.ts';
import { toolInputSchema } from '../mcp/tools.ts';
import type { PaymentSettings } from './config.ts';

export const SERVICE_NAME = 'Public data service';
/** Placeholder recipient in documents of a server without payment settings (development). */
const UNCONFIGURED_PAY_TO = '0x0000000000000000000000000000000000000000';

/** The key of a path form in the x402 route table: "GET /api/sebra/getTaxonomyForYear/:year". */
export function paymentRouteKey(route: Route, path: string): string {
  return `${route.method} ${koaPath(path)}`;
}

/** One `accepts` entry per configured network, in wire form. */
export function paymentRequirements(settings: PaymentSettings): PaymentRequirements[] {
  return settings.networks.map((network) => {
    const asset = settings.assets[network]!;
    return {
      scheme: 'exact',
      network: network as PaymentRequirements['network'],
      amount: settings.amount,
      asset: asset.address,
      payTo: settings.payTo ?? UNCONFIGURED_PAY_TO,
      maxTimeoutSeconds: settings.maxTimeoutSeconds,
      extra: { name: asset.name, version: asset.version },
    };
  });
}

function queryExample(route: Route, path: string): Record<string, string> {
  const pattern = new RegExp(`^${path.replace(/\{[^{}]+\}/g, '[^/?]+')}(\\?|$)`);
  const example = route.examples.find((candidate) => pattern.test(candidate));
  if (!example) return {};
  const query = new URL(example, 'http://example.invalid').searchParams;
  return Object.fromEntries([...query.entries()].map(([key, value]) => [key, value === '' ? 'true' : value]));
}

/** The Bazaar discovery extension of one path form: its query (or JSON body) and path parameters and output schema. */
export function discoveryExtension(route: Route, path: string): Record<string, unknown> {
  const inPath = new Set(pathParamNames(path));
  const schemaOf = (names: string[]) => ({
    properties: Object.fromEntries(names.map((name) => [name, { ...route.params[name]!.schema, description: route.params[name]!.description }])),
    required: names.filter((name) => inPath.has(name) || route.params[name]!.required),
  });
  const queryNames = Object.keys(route.params).filter((name) => !inPath.has(name) && route.params[name]!.in.includes('query'));
  const pathNames = [...inPath];
  const example = queryExample(route, path);
  if (route.requestBody) {
    // A JSON body route: the body's example and schema (the x402 Bazaar body form).
    return declareDiscoveryExtension({
      bodyType: 'json',
      input: (route.requestBody.example ?? {}) as Record<string, unknown>,
      inputSchema: route.requestBody.schema as Record<string, unknown>,
      ...(pathNames.length > 0 ? { pathParamsSchema: schemaOf(pathNames) } : {}),
      output: { schema: route.response as Record<string, unknown> },
    } as Parameters<typeof declareDiscoveryExtension>[0]);
  }
  return declareDiscoveryExtension({
    input: Object.fromEntries(Object.entries(example).filter(([name]) => queryNames.includes(name))),
    inputSchema: schemaOf(queryNames),
    ...(pathNames.length > 0 ? { pathParamsSchema: schemaOf(pathNames) } : {}),
    output: { schema: route.response as Record<string, unknown> },
  } as Parameters<typeof declareDiscoveryExtension>[0]);
}

/** The Bazaar discovery extension of a route's MCP tool (POST /mcp, Streamable HTTP). */
export function mcpDiscoveryExtension(route: Route): Record<string, unknown> {
  return declareDiscoveryExtension({
    toolName: route.id,
    description: route.summary,
    transport: 'streamable-http',
    inputSchema: toolInputSchema(route) as Record<string, unknown>,
    output: { schema: route.response as Record<string, unknown> },
  });
}

/** A route's challenge as its MCP tool answers it: the same terms, the Bazaar extension describing the tool. */
export function mcpChallenge(route: Route, challenge: PaymentRequired): PaymentRequired {
  return { ...challenge, extensions: { ...challenge.extensions, ...mcpDiscoveryExtension(route) } };
}

/**
 * A payment made for the MCP challenge, as the HTTP payment check takes it: a client echoes the
 * challenge's extensions, and the tool's Bazaar description (mcpChallenge) is not the route's, whose
 * echo the x402 server checks; that echo, and only an exact one, is left out (it is this server's own
 * text). Any other extension (a payment identifier) is kept.
 */
export function httpPaymentOfMcp(route: Route, payment: PaymentPayload): PaymentPayload {
  const echoed = payment.extensions?.[BAZAAR.key];
  if (echoed === undefined || !isDeepStrictEqual(echoed, mcpDiscoveryExtension(route)[BAZAAR.key])) return payment;
  const { [BAZAAR.key]: _tool, ...others } = payment.extensions!;
  return { ...payment, extensions: others };
}

export function paymentRouteConfig(route: Route, path: string, settings: PaymentSettings): RouteConfig {
  return {
    accepts: paymentRequirements(settings).map((requirement) => ({
      scheme: requirement.scheme,
      network: requirement.network,
      payTo: requirement.payTo,
      price: { amount: requirement.amount, asset: requirement.asset, extra: requirement.extra },
      maxTimeoutSeconds: requirement.maxTimeoutSeconds,
    })),
    description: route.summary,
    mimeType: 'application/json',
    serviceName: SERVICE_NAME,
    tags: [route.tag],
    // Bazaar discovery, and safe paid retries: a client may send a payment identifier (optional).
    extensions: { ...discoveryExtension(route, path), [PAYMENT_IDENTIFIER]: declarePaymentIdentifierExtension(false) },
  };
}

/** A paid resource's description: the route's summary, and what the data are when they are (partly) samples. */
export function describedResource(summary: string, origin: DataOrigin | undefined): string {
  const note = origin === undefined ? null : sampleDataNote(origin);
  return note ? `${summary} (${note})` : summary;
}

/**
 * The challenge of a 402 answer (its PAYMENT-REQUIRED header and the `challenge` of its JSON body)
 * with the resource description saying sample data when the served data are; unchanged otherwise.
 */
export function labelSampleChallenge(response: { get(name: string): string; set(name: string, value: string): void; body: unknown }, origin: DataOrigin): void {
  const header = response.get('PAYMENT-REQUIRED');
  if (!header || sampleDataNote(origin) === null) return;
  const label = (challenge: PaymentRequired): PaymentRequired => ({
    ...challenge,
    resource: { ...challenge.resource, description: describedResource(challenge.resource.description ?? '', origin) },
  });
  response.set('PAYMENT-REQUIRED', encodePaymentRequiredHeader(label(decodePaymentRequiredHeader(header))));
  const body = response.body;
  if (body !== null && typeof body === 'object' && Object.hasOwn(body, 'challenge')) {
    const withChallenge = body as { challenge: PaymentRequired };
    withChallenge.challenge = label(withChallenge.challenge);
  }
}

/** The x402 route table of every paid path form of the catalog. */
export function paymentRoutesConfig(routes: readonly Route[], settings: PaymentSettings): RoutesConfig {
  const table: Record<string, RouteConfig> = {};
  for (const route of routes) {
    if (!route.paid) continue;
    for (const path of route.paths) table[paymentRouteKey(route, path)] = paymentRouteConfig(route, path, settings);
  }
  return table;
}
