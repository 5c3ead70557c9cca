// The MCP tools of the catalog, whatever the transport (stdio: bin/mcp.ts; Streamable HTTP:
// http/pipeline/mcp.ts): one tool per route, named by its operation id, whose input is the route's
// parameters as one JSON Schema object and whose output schema is the outline of its response
// schema; and the way a tool call becomes an API request (requestFor) and a paged answer names the
// next call (nextCall).
//
// `tools/list` is sent to every agent that connects and is read into its context, so each tool is
// kept short (measured in test/mcp/toolsList.test.ts, stated in docs/agents.md): the summary and one
// line, each parameter's first sentence, and an outline of the response (its top-level fields by
// name, lists and objects typed) instead of the full response schema, which with its descriptions,
// patterns and nested rows weighs as much as the whole list did before (the full schemas are in the
// resources docs://catalog.json and docs://tools/<name>.md, http/mcp/resources.ts).
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { pathParamNames, type JsonSchema, type Route } from '../../queries/catalog.ts';
import { invalidParameter } from '../../queries/shared/errors.ts';

/** The MCP endpoint's path (http/pipeline/mcp.ts). */
export const MCP_PATH = '/mcp';

/** Whether a parameter must be given whichever path form is used. */
function requiredInEveryForm(route: Route, name: string): boolean {
  const spec = route.params[name];
  return route.paths.every((template) => pathParamNames(template).includes(name) || (spec.required === true && spec.in.includes('query')));
}

/** A description's first sentence (the rest is in the domain's documentation resource). */
export function firstSentence(text: string): string {
  let depth = 0;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char === '(') depth += 1;
    else if (char === ')') depth = Math.max(0, depth - 1);
    else if (depth === 0 && (char === '.' || char === ';') && (index + 1 === text.length || /\s/.test(text[index + 1]!))) return `${text.slice(0, index)}.`;
  }
  return text.trim();
}

/** String bounds and examples are the API's to check and the documents' to show: not repeated in every tool. */
function compactSchema(schema: JsonSchema): JsonSchema {
  const { minLength: _minLength, maxLength: _maxLength, examples: _examples, description: _description, ...kept } = schema;
  return kept;
}

/** A page parameter's description restates its schema (default, maximum): left out. */
const SCHEMA_SAYS_IT = /^(Page size|Most items returned) \(default \d+, at most \d+\)\.$|^Rows to skip before the page starts \(default 0\)\.$/;

/**
 * The route's parameters as one JSON Schema object (a family `dim.<key>` is an object `dim`; a body is
 * `body`), each described by its first sentence; an alias (the same first sentence as an earlier
 * parameter) says whose.
 */
export function toolInputSchema(route: Route): Tool['inputSchema'] {
  const properties: Record<string, object> = {};
  const required: string[] = [];
  const describedBy = new Map<string, string>();
  for (const [name, spec] of Object.entries(route.params)) {
    const sentence = firstSentence(spec.description);
    if (spec.family) {
      properties[name] = {
        type: 'object',
        description: `${sentence} Given as {"<key>": value}; sent as ${spec.family.prefix}<key>=value.`,
        propertyNames: { pattern: spec.family.keyPattern },
        additionalProperties: compactSchema(spec.schema),
        maxProperties: spec.family.maxKeys,
      };
      continue;
    }
    const forms = route.paths.length > 1 && spec.in.includes('path') && !spec.in.includes('query') ? ` Only in the path form ${route.paths.find((p) => pathParamNames(p).includes(name))}.` : '';
    const alias = describedBy.get(sentence);
    if (alias === undefined) describedBy.set(sentence, name);
    const description = alias !== undefined ? `Same as ${alias}.` : SCHEMA_SAYS_IT.test(sentence) ? '' : sentence;
    properties[name] = { ...compactSchema(spec.schema), ...(description || forms ? { description: `${description}${forms}`.trim() } : {}) };
    if (requiredInEveryForm(route, name)) required.push(name);
  }
  if (route.requestBody) {
    const { schema } = route.requestBody;
    properties.body = {
      ...schema,
      ...(schema.properties ? { properties: mapValues(schema.properties, (field) => ({ ...compactSchema(field), ...(field.description ? { description: firstSentence(field.description) } : {}) })) } : {}),
      description: route.requestBody.description ?? 'The JSON request body.',
    } satisfies JsonSchema;
    if (route.requestBody.required !== false) required.push('body');
  }
  // No additionalProperties: false (64 times in the list): the API's validation names an unknown parameter.
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

function hasType(schema: JsonSchema, type: 'object' | 'array'): boolean {
  return schema.type === type || (Array.isArray(schema.type) && schema.type.includes(type));
}

/**
 * The field under which an answer that is a JSON array is given as structured content (which must be
 * an object): `{"items": [...]}`.
 */
export const ARRAY_ANSWER_FIELD = 'items';

/**
 * The outline of a response schema: its top-level fields by name, lists and objects typed. The rows
 * of a list and the fields of nested objects are left to the full schema (the resources): with their
 * field names the outlines alone weighed 30% of the former tools/list. It names no field as required and forbids
 * none: an error result's structured content (the x402 PaymentRequired, the API's JSON error) must not
 * be refused by clients that check it against the output schema even on errors (the SDK's client
 * does, modelcontextprotocol/typescript-sdk#1943).
 */
export function outlineSchema(schema: JsonSchema): { type: 'object'; properties: Record<string, object> } {
  if (!hasType(schema, 'object')) return { type: 'object', properties: { [ARRAY_ANSWER_FIELD]: fieldOutline(schema) } };
  return { type: 'object', properties: mapValues(schema.properties ?? {}, fieldOutline) };
}

/** A field by name; a list or an object also by its type (a scalar's type is in the full schema). */
function fieldOutline(schema: JsonSchema): object {
  return hasType(schema, 'array') ? { type: 'array' } : hasType(schema, 'object') ? { type: 'object' } : {};
}

function mapValues<T, U>(record: Record<string, T>, map: (value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]));
}

export function toolsOf(routes: readonly Route[]): Tool[] {
  return routes.map((route) => ({
    name: route.id,
    description: `${route.summary}. ${route.paid ? 'Paid (x402).' : 'Free.'}`,
    inputSchema: toolInputSchema(route),
    outputSchema: outlineSchema(route.response),
    annotations: { readOnlyHint: true },
  }));
}

function textOf(name: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') return String(value);
  throw invalidParameter(name, `${name} must be a string, a number or true/false`);
}

/** A request for one API path form. */
export interface ToolRequest {
  method: 'GET' | 'POST';
  /** Path and query, e.g. `/api/sebra/getTaxonomyForYear/2024?currency=EUR`. */
  target: string;
  body?: unknown;
}

/**
 * The tool's arguments as an API request: the first path form whose path parameters are all given
 * and whose other arguments all go in its query (the query form first), else the first whose path
 * parameters are given; the API's validation then judges every value as it would over HTTP.
 */
export function requestFor(route: Route, args: Record<string, unknown>): ToolRequest {
  const given = new Map<string, unknown>();
  let body: unknown;
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue;
    // The API's own `format` query key is not a tool input: tools answer JSON (CSV and Arrow: npm run query).
    if (name === 'format' && !Object.hasOwn(route.params, 'format')) throw invalidParameter('format', 'tools answer JSON; for CSV or Arrow use npm run query -- --format csv|arrow');
    if (name === 'body' && route.requestBody) body = value;
    else given.set(name, value);
  }
  const fits = (template: string, strict: boolean) => {
    const inPath = pathParamNames(template);
    if (!inPath.every((name) => given.has(name))) return false;
    if (!strict) return true;
    return [...given.keys()].every((name) => {
      if (inPath.includes(name)) return true;
      const spec = Object.hasOwn(route.params, name) ? route.params[name] : undefined;
      return spec !== undefined && (spec.family !== undefined || spec.in.includes('query'));
    });
  };
  const template = route.paths.find((t) => fits(t, true)) ?? route.paths.find((t) => fits(t, false)) ?? route.paths[0];
  const inPath = pathParamNames(template);
  let pathname = template;
  for (const name of inPath) pathname = pathname.replace(`{${name}}`, encodeURIComponent(textOf(name, given.get(name))));
  const query = new URLSearchParams();
  for (const [name, value] of given) {
    if (inPath.includes(name)) continue;
    const spec = Object.hasOwn(route.params, name) ? route.params[name] : undefined;
    if (spec?.family) {
      if (typeof value !== 'object' || Array.isArray(value)) throw invalidParameter(name, `${name} must be an object {"<key>": value}`);
      for (const [key, item] of Object.entries(value as Record<string, unknown>)) query.append(`${spec.family.prefix}${key}`, textOf(`${spec.family.prefix}${key}`, item));
      continue;
    }
    // Unknown names go in the query too: the API's validation names them.
    query.append(name, textOf(name, value));
  }
  const search = query.toString();
  return { method: route.method, target: search ? `${pathname}?${search}` : pathname, ...(body !== undefined ? { body } : {}) };
}

/** The call that fetches the following page. */
export interface NextCall {
  name: string;
  arguments: Record<string, unknown>;
}

/**
 * The next page of a paged list answer (the envelope {count, limit, offset, total, items} of
 * queries/kinds/page.ts) when rows are left after this one: the same call with `offset` moved past
 * the rows sent; null when the answer is whole (or the route takes no offset).
 */
export function nextCall(route: Route, args: Record<string, unknown>, answer: unknown): NextCall | null {
  if (!Object.hasOwn(route.params, 'offset') || answer === null || typeof answer !== 'object' || Array.isArray(answer)) return null;
  const { count, offset, total } = answer as Record<string, unknown>;
  if (typeof count !== 'number' || typeof offset !== 'number' || typeof total !== 'number') return null;
  if (count === 0 || offset + count >= total) return null;
  return { name: route.id, arguments: { ...args, offset: offset + count } };
}
