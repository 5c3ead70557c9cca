// The documentation as MCP resources, built by the free documents' own builders (http/docs) so they
// say what the HTTP documents say: the agents' brief (llms.txt), the catalog (every tool with its
// HTTP method and paths, its full description and its full input and response schemas: what the
// short tools/list leaves out), each domain's documentation (Markdown: every route's description,
// parameters, rules, examples and example answer) and, as a template, one tool's documentation.
// Built on each read (milliseconds; nothing is held beyond the fixed list of URIs).
import type { Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import type { Route } from '../../queries/catalog.ts';
import { SERVICE_TITLE } from '../docs/content.ts';
import { groupByDomain } from '../docs/domains.ts';
import { buildLlmsTxt } from '../docs/llms.ts';
import { dataNotice, routeMarkdown, type DocsInput } from '../docs/markdown.ts';

export const LLMS_URI = 'docs://llms.txt';
export const CATALOG_URI = 'docs://catalog.json';
const DOMAIN_PREFIX = 'docs://domains/';
const TOOL_PREFIX = 'docs://tools/';

export function domainDocsUri(tag: string): string {
  return `${DOMAIN_PREFIX}${tag}.md`;
}

export function toolDocsUri(name: string): string {
  return `${TOOL_PREFIX}${name}.md`;
}

export interface ResourceText {
  uri: string;
  mimeType: string;
  text: string;
}

export interface McpResources {
  list(): Resource[];
  templates(): ResourceTemplate[];
  /** The resource's text; null for a URI that names none. */
  read(uri: string): Promise<ResourceText | null>;
}

function catalogOf(routes: readonly Route[]): unknown {
  return {
    tools: routes.map((route) => ({
      name: route.id,
      domain: route.tag,
      summary: route.summary,
      description: route.description,
      paid: route.paid,
      http: { method: route.method, paths: route.paths },
      parameters: Object.fromEntries(Object.entries(route.params).map(([name, spec]) => [name, { in: spec.in, required: spec.required === true, description: spec.description, schema: spec.schema }])),
      ...(route.requestBody ? { body: route.requestBody.schema } : {}),
      response: route.response,
      examples: route.examples,
    })),
  };
}

function domainMarkdown(input: DocsInput, tag: string): string | null {
  const group = groupByDomain(input.routes).find(({ domain }) => domain.tag === tag);
  if (!group) return null;
  const notice = dataNotice(input.dataOrigin);
  const lines = [`# ${group.domain.title} (${tag})`, '', ...(notice ? [`> **${notice}**`, ''] : []), ...(group.domain.description ? [group.domain.description, ''] : [])];
  for (const route of group.routes) lines.push(routeMarkdown(route, input.baseUrl, input.payment, input.examples, input.dataOrigin));
  return lines.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd() + '\n';
}

function toolMarkdown(input: DocsInput, route: Route): string {
  return [
    routeMarkdown(route, input.baseUrl, input.payment, input.examples, input.dataOrigin).trimEnd(),
    '',
    'Response schema (the tool\'s structuredContent):',
    '',
    '```json',
    JSON.stringify(route.response, null, 2),
    '```',
    '',
  ].join('\n');
}

/** The resources over the documents' input (read per request: the served snapshot's example answers). */
export function mcpResources(routes: readonly Route[], documentInput: () => Promise<DocsInput>): McpResources {
  const listed: Resource[] = [
    { uri: LLMS_URI, name: 'llms.txt', title: `${SERVICE_TITLE}: brief for agents`, mimeType: 'text/plain' },
    { uri: CATALOG_URI, name: 'catalog.json', title: 'Every tool in full: description, HTTP paths, input and response schemas', mimeType: 'application/json' },
    ...groupByDomain(routes).map(({ domain }) => ({ uri: domainDocsUri(domain.tag), name: `${domain.tag}.md`, title: `${domain.title}: documentation`, mimeType: 'text/markdown' })),
  ];
  return {
    list: () => listed,
    templates() {
      return [
        { uriTemplate: `${DOMAIN_PREFIX}{domain}.md`, name: 'domain documentation', title: 'A domain\'s documentation: each tool\'s description, parameters, rules and examples', mimeType: 'text/markdown' },
        { uriTemplate: `${TOOL_PREFIX}{name}.md`, name: 'tool documentation', title: 'One tool\'s documentation and its full response schema', mimeType: 'text/markdown' },
      ];
    },
    async read(uri) {
      const input = await documentInput();
      if (uri === LLMS_URI) return { uri, mimeType: 'text/plain', text: buildLlmsTxt(input) };
      if (uri === CATALOG_URI) return { uri, mimeType: 'application/json', text: JSON.stringify(catalogOf(input.routes), null, 2) };
      const domain = uri.startsWith(DOMAIN_PREFIX) && uri.endsWith('.md') ? uri.slice(DOMAIN_PREFIX.length, -'.md'.length) : null;
      if (domain !== null) {
        const text = domainMarkdown(input, domain);
        return text === null ? null : { uri, mimeType: 'text/markdown', text };
      }
      const name = uri.startsWith(TOOL_PREFIX) && uri.endsWith('.md') ? uri.slice(TOOL_PREFIX.length, -'.md'.length) : null;
      const route = name === null ? undefined : input.routes.find((candidate) => candidate.id === name);
      return route ? { uri, mimeType: 'text/markdown', text: toolMarkdown(input, route) } : null;
    },
  };
}
