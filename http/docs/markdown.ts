// /api/docs.md: the documentation as Markdown, the same content as the HTML page.
import type { Route } from '../../queries/catalog.ts';
import { FREE_PATHS, SERVICE_SUMMARY, SERVICE_TITLE, paymentFacts, payingSteps } from './content.ts';
import { groupByDomain } from './domains.ts';
import { bodyRows, curlCommand, operationsOf, paramRows } from './operations.ts';
import type { PaymentInfo } from './paymentInfo.ts';

export interface DocsInput {
  routes: readonly Route[];
  baseUrl: string;
  payment: PaymentInfo;
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

export function routeMarkdown(route: Route, baseUrl: string, payment: PaymentInfo): string {
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
    '## Errors',
    '',
    'Every failure is JSON: `{"error": {"status": 400, "code": "invalid_parameter", "message": "...", "param": "from"}}`. ' +
      '`400` invalid or missing parameters (never charged), `402` payment required, `404` not found.',
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
    for (const route of domainRoutes) lines.push(routeMarkdown(route, baseUrl, payment));
  }
  return lines.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd() + '\n';
}
