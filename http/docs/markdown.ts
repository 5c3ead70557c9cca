// /api/docs.md: the documentation as Markdown, the same content as the HTML page.
import type { Route } from '../../queries/catalog.ts';
import { CLIENT_EXAMPLE_PATH, ERRORS_SUMMARY, FREE_PATHS, SERVICE_SUMMARY, SERVICE_TITLE, clientSnippet, paymentFacts, payingSteps } from './content.ts';
import { groupByDomain } from './domains.ts';
import { bodyRows, curlCommand, operationsOf, paramRows } from './operations.ts';
import type { PaymentInfo } from './paymentInfo.ts';
import type { DataOrigin } from '../../engine/dataOrigin.ts';
import { routeExample, trimNote, type ExampleAnswer, type ExampleAnswers } from './exampleAnswers.ts';

export interface DocsInput {
  routes: readonly Route[];
  baseUrl: string;
  payment: PaymentInfo;
  /** Example answers by catalog example URL, from the served snapshot (none: no example answers shown). */
  examples?: ExampleAnswers;
  /** Whether the served data are the invented samples (the documents then say so first). */
  dataOrigin?: DataOrigin;
}

/** What the documents say first when the served data are not (all) real imports; null otherwise. */
export function dataNotice(origin: DataOrigin | undefined): string | null {
  if (origin === 'sample') {
    return 'Sample data: every figure served here is invented by the project\'s sample generator (in the real sources\' file ' +
      'formats), not published data. The operator serves real data by ingesting the real files. Each data answer says which in its ' +
      '`X-Data-Source` header, and `/healthz` per source.';
  }
  if (origin === 'mixed') {
    return 'Partly sample data: some sources served here are invented by the project\'s sample generator, not published data. ' +
      '`/healthz` says per source which are samples; each data answer carries `X-Data-Source: mixed`.';
  }
  return null;
}

/** The lead-in of an example answer: the request, the data it ran on, the trimming. */
export function exampleLead(example: ExampleAnswer, origin: DataOrigin | undefined): string {
  const data = origin === 'sample' ? 'the sample data' : origin === 'mixed' ? 'the served data (partly sample)' : 'the served data';
  const body = example.body !== undefined ? ` with the body ${JSON.stringify(example.body)}` : '';
  return `Answer to \`${example.method} ${example.url}\`${body} on ${data}, as the server built its documentation. ${trimNote(example)}`.trim();
}

/** A table cell: no pipes or line breaks may leak into the table structure. */
function cell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

function codeSpan(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return longest > 0 ? `${fence} ${text} ${fence}` : `${fence}${text}${fence}`;
}

export function routeMarkdown(route: Route, baseUrl: string, payment: PaymentInfo, answers?: ExampleAnswers, dataOrigin?: DataOrigin): string {
  const lines: string[] = [`### ${route.id}`, '', route.summary, ''];
  for (const path of route.paths) lines.push(`- ${codeSpan(`${route.method} ${path}`)}`);
  lines.push('', route.paid ? `Paid: USD ${payment.price.usd} per request (x402).` : 'Free.', '', route.description, '');
  const rows = paramRows(route);
  if (rows.length > 0) {
    lines.push('| Parameter | In | Required | Type and limits | Description |', '|---|---|---|---|---|');
    for (const row of rows) {
      lines.push(`| ${codeSpan(row.name)} | ${row.location} | ${row.required} | ${cell(row.type)} | ${cell(row.description)} |`);
    }
    lines.push('');
  }
  const body = bodyRows(route);
  if (body.length > 0) {
    lines.push('Request body (`Content-Type: application/json`):', '', '| Field | Required | Type and limits | Description |', '|---|---|---|---|');
    for (const row of body) lines.push(`| ${codeSpan(row.name)} | ${row.required} | ${cell(row.type)} | ${cell(row.description)} |`);
    lines.push('');
  }
  for (const check of route.checks ?? []) lines.push(`- Rule: ${check.description}.`);
  if (route.checks?.length) lines.push('');
  if (route.gate) lines.push(`- ${route.gate.status} ${codeSpan(route.gate.code)}: ${route.gate.description}`, '');
  const examples = operationsOf(route).flatMap((operation) => operation.examples.map((example) => curlCommand(baseUrl, operation, example)));
  if (examples.length > 0) lines.push('Examples:', '', '```sh', ...examples, '```', '');
  const example = routeExample(route, answers);
  if (example) lines.push(`Example answer. ${exampleLead(example, dataOrigin)}`, '', '```json', JSON.stringify(example.value, null, 2), '```', '');
  return lines.join('\n');
}

export function buildMarkdown(input: DocsInput): string {
  const { routes, baseUrl, payment } = input;
  const groups = groupByDomain(routes);
  const lines: string[] = [
    `# ${SERVICE_TITLE}`,
    '',
    SERVICE_SUMMARY,
    '',
    ...(dataNotice(input.dataOrigin) ? [`> **${dataNotice(input.dataOrigin)}**`, ''] : []),
    `Base address: ${codeSpan(baseUrl)}. Machine-readable description: [OpenAPI 3.1](${baseUrl}/openapi.json). ` +
      `Agent brief: [llms.txt](${baseUrl}/llms.txt). Payment discovery: [/.well-known/x402](${baseUrl}/.well-known/x402).`,
    '',
    '## Paying for requests (x402)',
    '',
    ...paymentFacts(payment).map((fact) => `- ${fact}`),
    '',
    'The 402 round trip:',
    '',
    ...payingSteps(payment).map((step, index) => `${index + 1}. ${step}`),
    '',
    'Loopback clients of a development server and the operator\'s allowlisted addresses are served without payment.',
    '',
    'A client in TypeScript:',
    '',
    '```ts',
    clientSnippet(baseUrl, CLIENT_EXAMPLE_PATH),
    '```',
    '',
    '## Errors',
    '',
    `Every failure is JSON: \`{"error": {"status": 400, "code": "invalid_parameter", "message": "...", "param": "from"}}\`. ${ERRORS_SUMMARY}`,
    '',
    '## Free documentation and discovery',
    '',
    ...FREE_PATHS.map((free) => `- [${free.path}](${baseUrl}${free.path}): ${free.title}`),
    '',
    '## Domains',
    '',
    ...groups.map(({ domain, routes: domainRoutes }) =>
      `- [${domain.title}](${baseUrl}/docs/${domain.tag}/) (${codeSpan(domain.tag)}): ${domainRoutes.length} endpoint${domainRoutes.length === 1 ? '' : 's'}`),
    '',
  ];
  for (const { domain, routes: domainRoutes } of groups) {
    lines.push(`## ${domain.title} (${codeSpan(domain.tag)})`, '');
    if (domain.description) lines.push(domain.description, '');
    for (const route of domainRoutes) lines.push(routeMarkdown(route, baseUrl, payment, input.examples, input.dataOrigin));
  }
  return lines.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd() + '\n';
}
