// The OpenAPI 3.1 document of the catalog: every path form of every route with its parameters,
// request body, response schema and error answers; paid operations declare the x402 security
// scheme and an `x-payment-info` block (price, networks) for agent indexers. The free
// documentation paths are listed under the `docs` tag without security.
import { isPagedRoute, type Route } from '../../queries/catalog.ts';
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

// The 200 answer is declared as JSON only, so a generated client types it as the JSON body without
// options (openapi-typescript with openapi-fetch type an answer as the union of its media types): the
// CSV and Arrow forms of a list are asked with the `format` parameter and described in text.
function successContent(route: Route, operation: Operation, examples: ExampleAnswers | undefined): Json {
  const first = operation.examples[0];
  const example = first === undefined ? undefined : examples?.get(first);
  return {
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
}

/** The 200 answer's description: the JSON body, and for a list the other formats and how to ask for them. */
function successDescription(route: Route): string {
  if (!route.listRows) return 'The result (JSON).';
  return (
    'The result as JSON. The same list is also served as CSV (`text/csv`, a header line then one line per row) with ' +
    `\`?format=csv\`, and as an Apache Arrow IPC stream (\`${ARROW_STREAM}\`) with \`?format=arrow\`; without \`format\` the ` +
    '`Accept` header chooses among the three (an `Accept` taking none of them is answered 406).'
  );
}

/** The 200 answer's headers: the payment receipt of a paid route, the Link of a paged list. */
function successHeaders(route: Route): Json | undefined {
  const headers: Json = {};
  if (route.paid) headers['PAYMENT-RESPONSE'] = { description: 'Base64 of the x402 settlement receipt.', schema: { type: 'string' } };
  if (isPagedRoute(route)) {
    headers.Link = {
      description:
        'RFC 8288 links to the neighbouring pages, in every format: `rel="next"` while rows follow this page (offset + limit), ' +
        '`rel="prev"` when the offset is above 0 (the `limit` rows before it). Each target is this request with only `limit` and ' +
        '`offset` changed: absolute on the service\'s public address when it is configured, else a root-relative reference to ' +
        'resolve against the request URL. Absent on a page with neither.',
      schema: { type: 'string' },
      example: '</api/v1/prices?country=BG&limit=2&offset=4>; rel="next", </api/v1/prices?country=BG&limit=2&offset=0>; rel="prev"',
    };
  }
  return Object.keys(headers).length > 0 ? headers : undefined;
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
  const headers = successHeaders(route);
  const responses: Json = {
    '200': {
      description: successDescription(route),
      ...(headers ? { headers } : {}),
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

/**
 * The free documents. A path with a trailing slash is no path key of the document (the standard
 * linters refuse one): `/api/` is the page of `/api`, said in its description, and the domain page
 * `/docs/{category}/` is described at `/docs/{category}`, which redirects to it.
 */
function docsOperations(tags: readonly string[]): Array<[string, Json]> {
  const entries: Array<[string, Json]> = [];
  for (const free of FREE_PATHS) {
    for (const path of [free.path, ...(free.aliases ?? [])]) {
      if (path.length > 1 && path.endsWith('/') && !path.includes('{category}')) continue;
      if (path.includes('{category}')) {
        entries.push([path.endsWith('/') ? path.slice(0, -1) : path, domainPageOperation(tags)]);
        continue;
      }
      const name = path.replace(/[^a-zA-Z0-9]+/g, ' ').trim().replace(/ (\w)/g, (_, c: string) => c.toUpperCase());
      entries.push([
        path,
        {
          operationId: `docs_${name || 'root'}`,
          summary: free.title,
          description: `${free.title}. Free, generated from the route catalog; sent with an ETag (304 on If-None-Match).`,
          tags: [DOCS_TAG],
          security: [],
          parameters: [],
          responses: {
            '200': { description: free.title, content: { [free.type]: { schema: free.type === 'application/json' ? { type: 'object' } : { type: 'string' } } } },
            '304': { description: 'Not modified (If-None-Match matched the ETag).' },
          },
        },
      ]);
    }
  }
  return entries;
}

function domainPageOperation(tags: readonly string[]): Json {
  return {
    operationId: 'docs_docsCategory',
    summary: 'HTML documentation of one domain',
    description:
      'The HTML documentation of one domain (its endpoints, parameters and examples) is the page `/docs/{category}/`, with the ' +
      'trailing slash: this address redirects there (302), so a client that follows redirects gets the page. Free.',
    tags: [DOCS_TAG],
    security: [],
    parameters: [{ name: 'category', in: 'path', required: true, description: 'The domain tag.', schema: { type: 'string', enum: [...tags] } }],
    responses: {
      '302': {
        description: 'The domain page is `/docs/{category}/`: an HTML page sent with an ETag (304 on If-None-Match).',
        headers: { Location: { description: 'The domain page, `/docs/{category}/`.', schema: { type: 'string' } } },
      },
      '404': { $ref: '#/components/responses/NotFound' },
    },
  };
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
