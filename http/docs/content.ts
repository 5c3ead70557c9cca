// The prose every document shares: what the service is and how paying works. Inline code is
// written in backticks; the HTML renderer turns it into <code>, Markdown and text keep it.
import type { PaymentInfo } from './paymentInfo.ts';

export const SERVICE_TITLE = 'Public data service';
export const API_VERSION = '1.0.0';

export const SERVICE_SUMMARY =
  'Public data and derived analytics as JSON over HTTP, grouped in domains. Every data endpoint costs the same small ' +
  'fixed price per request, paid with the open x402 protocol (version 2) in USDC; there are no API keys, accounts or tokens. ' +
  'Documentation and discovery are free.';

/** The free paths: the router serves exactly these, and the documents list them. */
export interface FreePath {
  path: string;
  /** Other paths with the same answer (`{category}` stands for a domain tag). */
  aliases?: readonly string[];
  title: string;
  /** Content type of the answer, without charset. */
  type: string;
}

export const FREE_PATHS: readonly FreePath[] = [
  { path: '/api', aliases: ['/api/', '/api/docs'], title: 'HTML documentation (also /api/ and /api/docs)', type: 'text/html' },
  { path: '/api/docs.md', title: 'the same documentation as Markdown', type: 'text/markdown' },
  { path: '/docs', aliases: ['/docs/{category}/'], title: 'HTML documentation per domain (/docs/<domain>/)', type: 'text/html' },
  { path: '/openapi.json', title: 'OpenAPI 3.1 description of every endpoint', type: 'application/json' },
  { path: '/llms.txt', title: 'plain-text brief for agents', type: 'text/plain' },
  { path: '/.well-known/x402', title: 'x402 payment discovery (paid resources, Bazaar items)', type: 'application/json' },
  { path: '/robots.txt', title: 'crawler rules', type: 'text/plain' },
  { path: '/sitemap.xml', title: 'sitemap of the documentation pages', type: 'application/xml' },
];

export function priceText(payment: PaymentInfo): string {
  return `USD ${payment.price.usd} in ${payment.price.asset} (${payment.price.amount} atomic units, 6 decimals)`;
}

export function networksText(payment: PaymentInfo): string {
  return payment.networks.map((network) => `${network.name} (\`${network.network}\`)`).join(', ');
}

/** The 402 round trip, step by step. */
export function payingSteps(payment: PaymentInfo): string[] {
  return [
    'Call a paid endpoint as usual. Without payment the answer is HTTP `402` with a JSON error body and the header ' +
      '`PAYMENT-REQUIRED`: base64 of the x402 v2 challenge (`x402Version` 2, the resource, and one `accepts` entry per network: ' +
      `scheme \`${payment.scheme}\`, network, amount \`${payment.price.amount}\`, the USDC contract, the receiving address).`,
    'Pick one `accepts` entry and sign a USDC transfer authorization (EIP-3009) for it with your wallet; an x402 client ' +
      'library (for example `@x402/fetch`) does this for you.',
    'Send the same request again with the header `PAYMENT-SIGNATURE`: base64 of the signed payment payload.',
    'The server checks your parameters, verifies the payment through its facilitator, runs the query and settles the payment ' +
      'only when the answer is a success: HTTP `200` with the data and the receipt header `PAYMENT-RESPONSE`. ' +
      'An invalid request is answered `400` and is never charged; one payment buys one answer.',
  ];
}

export function paymentFacts(payment: PaymentInfo): string[] {
  const facts = [
    `Price: ${priceText(payment)} per request, the same for every paid endpoint.`,
    `Scheme: \`${payment.scheme}\`, protocol x402 version ${payment.x402Version}.`,
    `Networks: ${networksText(payment)}.`,
    payment.payTo
      ? `Receiving address (the same on every network): \`${payment.payTo}\`.`
      : 'Receiving address: given in each challenge (the same on every network).',
    'The challenge a paid endpoint returns at run time is authoritative over this page.',
  ];
  return facts;
}

/** A copy-paste TypeScript client with the official x402 packages (docs/paying.md has the raw flow and safe retries). */
export function clientSnippet(baseUrl: string, examplePath: string): string {
  return [
    "// npm install @x402/fetch @x402/evm viem",
    "import { wrapFetchWithPayment, x402Client } from '@x402/fetch';",
    "import { ExactEvmScheme } from '@x402/evm/exact/client';",
    "import { privateKeyToAccount } from 'viem/accounts';",
    '',
    'const client = new x402Client();',
    "client.register('eip155:*', new ExactEvmScheme(privateKeyToAccount(process.env.X402_PAYER_KEY as `0x${string}`)));",
    "client.setSpendControls({ maxAmountPerPayment: '$0.01' }); // never more than the price",
    'const fetchWithPayment = wrapFetchWithPayment(fetch, client);',
    '',
    `const response = await fetchWithPayment('${baseUrl}${examplePath}');`,
    "console.log(response.status, response.headers.get('PAYMENT-RESPONSE'), await response.json());",
  ].join('\n');
}

/** Every status a client should expect, one line (the codes per operation are in the OpenAPI). */
export const ERRORS_SUMMARY =
  '`400` invalid or missing parameters or body (never charged), `402` payment required, `404` not found, `405` method not ' +
  'allowed, `406` format not offered, `409` a payment (or payment id) already in use, `413` body too large, `415` body not JSON, ' +
  '`451` a source series not licensed by the operator (never charged), `502`/`503` facilitator unavailable or query timeout (nothing charged).';

/** The request the client snippet makes. */
export const CLIENT_EXAMPLE_PATH = '/api/sebra/getTaxonomyForYear/2025';
