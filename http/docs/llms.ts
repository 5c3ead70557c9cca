// /llms.txt: a plain-text brief for agents (llmstxt.org layout): what the service offers, how to
// pay, where the machine-readable description is, and one line per endpoint (per path form).
import { FREE_PATHS, SERVICE_SUMMARY, SERVICE_TITLE, paymentFacts, payingSteps } from './content.ts';
import { groupByDomain } from './domains.ts';
import type { DocsInput } from './markdown.ts';
import { describeSchema, operationsOf, type Operation } from './operations.ts';

function endpointLine(operation: Operation, baseUrl: string, price: string): string {
  const { route } = operation;
  const params = operation.params
    .map((param) => `${param.name} (${param.in}, ${describeSchema(param.schema)}${param.required ? ', required' : ''})`)
    .join('; ');
  const example = operation.examples[0] ? ` Example: ${baseUrl}${operation.examples[0]}` : '';
  const cost = route.paid ? `paid USD ${price}` : 'free';
  const spec = operation.requestBody;
  const required = new Set(spec?.schema.required ?? []);
  const body = spec
    ? ` JSON body (Content-Type: application/json): ${Object.entries(spec.schema.properties ?? {}).map(([name, schema]) => `${name} (${describeSchema({ ...schema, description: undefined })}${required.has(name) ? ', required' : ''})`).join('; ')}.` +
      (spec.example !== undefined ? ` Example body: ${JSON.stringify(spec.example)}` : '')
    : '';
  return `- ${route.method} ${baseUrl}${operation.path} [${route.id}, ${cost}]: ${route.summary}. Parameters: ${params || 'none'}.${body}${example}`;
}

export function buildLlmsTxt(input: DocsInput): string {
  const { baseUrl, payment } = input;
  const lines: string[] = [
    `# ${SERVICE_TITLE}`,
    '',
    `> ${SERVICE_SUMMARY}`,
    '',
    `Base address: ${baseUrl}`,
    `OpenAPI 3.1 (every endpoint, parameter and response schema): ${baseUrl}/openapi.json`,
    `Payment discovery (paid resources and their x402 requirements): ${baseUrl}/.well-known/x402`,
    `Documentation: ${baseUrl}/api (HTML), ${baseUrl}/api/docs.md (Markdown)`,
    '',
    '## How to pay (x402 v2)',
    '',
    ...paymentFacts(payment).map((fact) => `- ${fact}`),
    '- Errors are JSON {"error": {"status", "code", "message", "param"}}: 400 invalid parameters (never charged), 402 payment required, 404 not found.',
    '',
    'The 402 round trip:',
    '',
    ...payingSteps(payment).map((step, index) => `${index + 1}. ${step}`),
    '',
    '## Free paths',
    '',
    ...FREE_PATHS.map((free) => `- ${baseUrl}${free.path}: ${free.title}`),
    '',
  ];
  for (const { domain, routes } of groupByDomain(input.routes)) {
    lines.push(`## ${domain.title} (${domain.tag})`, '');
    if (domain.description) lines.push(domain.description, '');
    for (const route of routes) {
      for (const operation of operationsOf(route)) lines.push(endpointLine(operation, baseUrl, payment.price.usd));
    }
    lines.push('');
  }
  return lines.join('\n').trimEnd() + '\n';
}
