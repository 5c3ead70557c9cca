// The OpenAPI 3.1 document of the catalog: every path form of every route with its parameters,
// request body, response schema and error answers; paid operations declare the x402 security
// scheme and an `x-payment-info` block (price, networks) for agent indexers. The free
// documentation paths are listed under the `docs` tag without security.
import type { Route } from '../../queries/catalog.ts';
import { ERROR_CODES, type ErrorCode } from '../../queries/shared/errors.ts';
import { API_VERSION, FREE_PATHS, SERVICE_SUMMARY, SERVICE_TITLE, networksText, priceText } from './content.ts';
import { groupByDomain } from './domains.ts';
import { allOperations, type Operation } from './operations.ts';
import type { PaymentInfo } from './paymentInfo.ts';
import { trimNote, type ExampleAnswers } from './exampleAnswers.ts';

export interface OpenApiInput {
  routes: readonly Route[];
  baseUrl: string;
  payment: PaymentInfo;
  /** Example answers by catalog example URL: each operation's first example becomes its 200 response's example. */
  examples?: ExampleAnswers;
}

type Json = Record<string, unknown>;

const ARROW_STREAM = 'application/vnd.apache.arrow.stream';
const DOCS_TAG = 'docs';

const ERROR_SCHEMA: Json = {
  type: 'object',
  description: 'Every failure: the HTTP status, a machine-readable code, a message, and the parameter at fault (or null).',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['status', 'code', 'message', 'param'],
      properties: {
        status: { type: 'integer' },
        code: { type: 'string', examples: ['invalid_parameter', 'not_found', 'payment_required'] },
        message: { type: 'string' },
        param: { type: ['string', 'null'] },
        request_id: { type: 'string', description: 'The answer\'s X-Request-Id: quote it when reporting a problem.' },
      },
    },
  },
};

const PAYMENT_REQUIRED_SCHEMA: Json = {
  description: 'The error body of a 402; the challenge itself is the PAYMENT-REQUIRED header (decoded here for convenience).',
  allOf: [
    { $ref: '#/components/schemas/Error' },
    {
      type: 'object',
      properties: {
        reason: { type: 'string', description: 'The x402 reason, e.g. "Payment required" or the verification failure.' },
        challenge: { type: 'object', description: 'The decoded PAYMENT-REQUIRED challenge (x402Version 2, resource, accepts).' },
      },
    },
  ],
};

function errorResponse(description: string, schemaRef = '#/components/schemas/Error'): Json {
  return { description, content: { 'application/json': { schema: { $ref: schemaRef } } } };
}

function paymentInfoExtension(payment: PaymentInfo): Json {
  return {
    protocols: ['x402'],
    pricingMode: 'fixed',
    price: { mode: 'fixed', currency: payment.price.currency, amount: payment.price.usd },
    asset: payment.price.asset,
    amount: payment.price.amount,
    scheme: payment.scheme,
    x402Version: payment.x402Version,
    networks: payment.networks.map(({ network, name, asset }) => ({ network, name, asset })),
    ...(payment.payTo ? { payTo: payment.payTo } : {}),
  };
}

function successContent(route: Route, operation: Operation, examples: ExampleAnswers | undefined): Json {
  const first = operation.examples[0];
  const example = first === undefined ? undefined : examples?.get(first);
  const content: Json = {
    'application/json': {
      schema: route.response,
      ...(example
        ? {
            examples: {
              firstExample: {
                summary: `${example.method} ${example.url}`,
                description: `The answer to the operation's first example on the served data when the document was built. ${trimNote(example)}`.trim(),
                value: example.value,
              },
            },
          }
        : {}),
    },
  };
  if (route.listRows) {
    content['text/csv'] = { schema: { type: 'string', description: 'The list rows as CSV with a header line.' } };
    content[ARROW_STREAM] = { schema: { type: 'string', description: 'The list rows as an Apache Arrow IPC stream.' } };
  }
  return content;
}

/** The error codes an operation can answer, by status (ascending), from the error-code table. */
function errorStatusesOf(route: Route): Array<[number, ErrorCode[]]> {
  // Every data route: the query bounds, the rate limit and the bound on answers computed at once too.
  const codes: ErrorCode[] = ['invalid_parameter', 'not_found', 'not_acceptable', 'internal_error', 'timeout', 'uri_too_long', 'rate_limited', 'overloaded'];
  if (route.paid) codes.push('invalid_payment', 'payment_required', 'payment_in_progress', 'payment_identifier_conflict', 'facilitator_unavailable', 'settlement_unknown', 'payment_store_unavailable', 'payments_not_configured');
  if (route.gate) codes.push(route.gate.code);
  if (route.requestBody) codes.push('payload_too_large', 'unsupported_media_type');
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    for (const status of ERROR_CODES[code].statuses) {
      if (status === 501) continue;
      byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
    }
  }
  return [...byStatus.entries()].sort(([a], [b]) => a - b);
}

function operationObject(operation: Operation, payment: PaymentInfo, answers?: ExampleAnswers): Json {
  const { route } = operation;
  const responses: Json = {
    '200': {
      description: 'The result.',
      ...(route.paid
        ? { headers: { 'PAYMENT-RESPONSE': { description: 'Base64 of the x402 settlement receipt.', schema: { type: 'string' } } } }
        : {}),
      content: successContent(route, operation, answers),
    },
  };
  for (const [status, codes] of errorStatusesOf(route)) {
    responses[String(status)] =
      status === 402 ? { $ref: '#/components/responses/PaymentRequired' }
        : errorResponse(codes.map((code) => `\`${code}\`: ${code === route.gate?.code ? route.gate.description : ERROR_CODES[code].description}`).join(' '));
  }
  const examples = operation.examples.length > 0 ? `\n\nExample: \`${route.method} ${operation.examples[0]}\`` : '';
  const object: Json = {
    operationId: operation.operationId,
    summary: route.summary,
    description: route.description + examples,
    tags: [route.tag],
    parameters: operation.params.map((param) => ({
      name: param.name,
      in: param.in,
      required: param.required,
      description: param.description,
      schema: param.schema,
    })),
    responses,
  };
  if (operation.requestBody) {
    const body = operation.requestBody;
    object.requestBody = {
      required: body.required ?? true,
      ...(body.description ? { description: body.description } : {}),
      content: {
        [body.contentType ?? 'application/json']: {
          schema: body.schema,
          ...(body.example !== undefined ? { example: body.example } : {}),
        },
      },
    };
  }
  if (route.paid) {
    object.security = [{ x402: [] }];
    object['x-payment-info'] = paymentInfoExtension(payment);
  } else {
    // Free: said explicitly (an empty requirement list), not left to a global default.
    object.security = [];
  }
  return object;
}

function docsOperations(tags: readonly string[]): Array<[string, Json]> {
  const entries: Array<[string, Json]> = [];
  for (const free of FREE_PATHS) {
    for (const path of [free.path, ...(free.aliases ?? [])]) {
      const withCategory = path.includes('{category}');
      const name = path.replace(/[^a-zA-Z0-9]+/g, ' ').trim().replace(/ (\w)/g, (_, c: string) => c.toUpperCase());
      // `/api` and `/api/` are two operations: the trailing slash is part of the second one's id.
      const slash = path.length > 1 && path.endsWith('/') && !withCategory ? 'Slash' : '';
      entries.push([
        path,
        {
          operationId: `docs_${name || 'root'}${slash}`,
          summary: withCategory ? 'HTML documentation of one domain' : free.title,
          description: withCategory
            ? 'The HTML documentation of one domain (its endpoints, parameters and examples); `/docs/{category}` without the slash redirects here. Free.'
            : `${free.title}. Free, generated from the route catalog; sent with an ETag (304 on If-None-Match).`,
          tags: [DOCS_TAG],
          security: [],
          parameters: withCategory
            ? [{ name: 'category', in: 'path', required: true, description: 'The domain tag.', schema: { type: 'string', enum: [...tags] } }]
            : [],
          responses: {
            '200': { description: free.title, content: { [free.type]: { schema: free.type === 'application/json' ? { type: 'object' } : { type: 'string' } } } },
            '304': { description: 'Not modified (If-None-Match matched the ETag).' },
            ...(withCategory ? { '404': { $ref: '#/components/responses/NotFound' } } : {}),
          },
        },
      ]);
    }
  }
  return entries;
}

export function buildOpenApi(input: OpenApiInput): Json {
  const { routes, baseUrl, payment, examples } = input;
  const groups = groupByDomain(routes);
  const paths: Record<string, Json> = {};
  for (const operation of allOperations(routes)) {
    paths[operation.path] ??= {};
    paths[operation.path]![operation.route.method.toLowerCase()] = operationObject(operation, payment, examples);
  }
  for (const [path, operation] of docsOperations(groups.map((group) => group.domain.tag))) paths[path] = { get: operation };
  return {
    openapi: '3.1.0',
    info: {
      title: SERVICE_TITLE,
      version: API_VERSION,
      description:
        `${SERVICE_SUMMARY}\n\nPaid operations cost ${priceText(payment)} per request on ${networksText(payment)}. ` +
        'Call one without payment to get the 402 challenge in the PAYMENT-REQUIRED header, then retry with PAYMENT-SIGNATURE ' +
        '(see the x402 security scheme). The challenge returned at run time is authoritative.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: baseUrl }],
    tags: [
      { name: DOCS_TAG, description: 'Free human and machine-readable documentation and discovery.' },
      ...groups.map(({ domain }) => ({ name: domain.tag, description: domain.description ? `${domain.title}: ${domain.description}` : domain.title })),
    ],
    paths,
    components: {
      schemas: { Error: ERROR_SCHEMA, PaymentRequiredError: PAYMENT_REQUIRED_SCHEMA },
      responses: {
        PaymentRequired: {
          description: 'Payment required: the x402 v2 challenge is in the PAYMENT-REQUIRED header.',
          headers: { 'PAYMENT-REQUIRED': { description: 'Base64 of the x402 v2 PaymentRequired challenge.', schema: { type: 'string' } } },
          content: { 'application/json': { schema: { $ref: '#/components/schemas/PaymentRequiredError' } } },
        },
        NotFound: errorResponse('No such resource, or no data for the requested selection.'),
      },
      securitySchemes: {
        x402: {
          type: 'apiKey',
          in: 'header',
          name: 'PAYMENT-SIGNATURE',
          description:
            `x402 v2 payment per request: ${priceText(payment)}, scheme ${payment.scheme}, on ${networksText(payment)}. ` +
            'The payload (base64) answers the PAYMENT-REQUIRED challenge of a 402; the receipt comes back in PAYMENT-RESPONSE.',
        },
      },
    },
  };
}
