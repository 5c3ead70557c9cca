// The MCP endpoint over Streamable HTTP (POST /mcp) on the full generated sample, driven by the
// official SDK's client and transport on loopback: every tool with its output schema, a call whose
// structured answer validates (the SDK checks it against the output schema; here also with ajv
// against the outline and against the route's full response schema), the documentation resources,
// the next page of a paged list, statelessness (no session header), the 405s and the body bound.
// No payment is configured: loopback clients of a development server are served free (the exemption).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { routes } from '../../domains/index.ts';
import { MCP_BODY_MAX_BYTES } from '../../http/pipeline/mcp.ts';
import { startSampleApp } from '../http/sample-app.ts';
import type { TestApp } from '../helpers/app.ts';

let app: TestApp & { dataDir: string };
let base: string;
const clients: Client[] = [];

before(async () => {
  app = await startSampleApp('mcp-http-');
  // The app's address: a free path's absolute URL is not needed, the request helper knows it.
  const response = await app.request('/healthz');
  base = new URL(response.url).origin;
});
after(async () => {
  for (const client of clients) await client.close();
  await app?.close();
});

async function connect(): Promise<Client> {
  const client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
  clients.push(client);
  return client;
}

const ajv = new Ajv({ strict: false, allowUnionTypes: true });
type Result = Awaited<ReturnType<Client['callTool']>>;
/** A resource's text. */
async function read(client: Client, uri: string): Promise<string> {
  const content = (await client.readResource({ uri })).contents[0]!;
  assert.ok('text' in content, uri);
  return content.text;
}
const texts = (result: Result) => (result.content as Array<{ type: string; text: string }>).map((item) => item.text);

/** A JSON-RPC message posted by hand (what an agent without the SDK sends). */
async function post(message: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body: typeof message === 'string' ? message : JSON.stringify(message),
  });
}

describe('tools over Streamable HTTP', () => {
  test('every route is a tool with its input and output schema; a call answers the API\'s JSON, which validates', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name), routes.map((route) => route.id));
    for (const tool of tools) {
      const route = routes.find((candidate) => candidate.id === tool.name)!;
      assert.equal(tool.outputSchema?.type, 'object', tool.name);
      // The outline names the response's top-level fields (an array answer: its rows under items).
      const fields = route.response.type === 'object' ? Object.keys(route.response.properties ?? {}) : ['items'];
      assert.deepEqual(Object.keys(tool.outputSchema!.properties ?? {}), fields, tool.name);
      assert.ok(tool.description!.startsWith(`${route.summary}.`), tool.name);
      assert.equal(tool.annotations?.readOnlyHint, true);
    }
    const http = await app.request('/api/sebra/getTaxonomyForYear/2024');
    assert.equal(http.status, 200);
    const expected = await http.text();
    const result = await client.callTool({ name: 'getTaxonomyForYear', arguments: { year: 2024 } });
    assert.equal(result.isError, undefined);
    assert.equal(texts(result)[0], expected);
    assert.deepEqual(result.structuredContent, JSON.parse(expected));
    assert.deepEqual(result._meta, { data_source: 'sample' });
    const tool = tools.find((candidate) => candidate.name === 'getTaxonomyForYear')!;
    assert.ok(ajv.validate(tool.outputSchema!, result.structuredContent), ajv.errorsText());
    const route = routes.find((candidate) => candidate.id === 'getTaxonomyForYear')!;
    assert.ok(ajv.validate(route.response, result.structuredContent), ajv.errorsText());
  });

  test('an answer that is a JSON array is structured as {items: [...]}', async () => {
    const client = await connect();
    const http = await app.request('/api/v1/datasets');
    const expected = await http.json() as unknown[];
    assert.ok(Array.isArray(expected) && expected.length > 0);
    const result = await client.callTool({ name: 'listDatasets', arguments: {} });
    assert.deepEqual(result.structuredContent, { items: expected });
  });

  test('a paged list with rows left names the next call, and following it gives the next page', async () => {
    const client = await connect();
    const first = await (await app.request('/api/v1/trade?limit=2')).json() as { total: number; items: unknown[] };
    assert.ok(first.total > 4, `the sample has ${first.total} trade rows`);
    const result = await client.callTool({ name: 'listTrade', arguments: { limit: 2 } });
    const next = (result._meta as { next: { name: string; arguments: Record<string, unknown> } }).next;
    assert.deepEqual(next, { name: 'listTrade', arguments: { limit: 2, offset: 2 } });
    assert.match(texts(result)[1], new RegExp(`^Rows 1 to 2 of ${first.total}; the next page: call listTrade with \\{"limit":2,"offset":2\\}`));
    const second = await client.callTool(next);
    const expected = await (await app.request('/api/v1/trade?limit=2&offset=2')).json();
    assert.deepEqual(second.structuredContent, expected);
    // The last page names none.
    const last = await client.callTool({ name: 'listTrade', arguments: { limit: 2, offset: first.total - 1 } });
    assert.equal((last.structuredContent as { count: number }).count, 1);
    assert.equal((last._meta as Record<string, unknown>).next, undefined);
  });

  test('an invalid argument is the API\'s 400 as a tool error', async () => {
    const client = await connect();
    const result = await client.callTool({ name: 'getTaxonomyForYear', arguments: { year: 1800 } });
    assert.equal(result.isError, true);
    const error = (result.structuredContent as { error: { status: number; code: string; param: string } }).error;
    assert.deepEqual([error.status, error.code, error.param], [400, 'invalid_parameter', 'year']);
  });
});

describe('resources', () => {
  test('the catalog, llms.txt and each domain\'s documentation are listed and read', async () => {
    const client = await connect();
    const { resources } = await client.listResources();
    const uris = resources.map((resource) => resource.uri);
    const tags = [...new Set(routes.map((route) => route.tag))];
    assert.deepEqual(new Set(uris), new Set(['docs://llms.txt', 'docs://catalog.json', ...tags.map((tag) => `docs://domains/${tag}.md`)]));
    const llms = await client.readResource({ uri: 'docs://llms.txt' });
    assert.equal(llms.contents[0]!.mimeType, 'text/plain');
    assert.equal((llms.contents[0] as { text: string }).text, await (await app.request('/llms.txt')).text());
    const catalog = JSON.parse(await read(client, 'docs://catalog.json')) as { tools: Array<{ name: string; response: unknown }> };
    assert.deepEqual(catalog.tools.map((tool) => tool.name), routes.map((route) => route.id));
    assert.deepEqual(catalog.tools[0]!.response, routes[0]!.response);
    const sebra = await read(client, 'docs://domains/sebra.md');
    for (const route of routes.filter((candidate) => candidate.tag === 'sebra')) assert.ok(sebra.includes(`### ${route.id}\n`), route.id);
    assert.ok(sebra.includes(routes.find((route) => route.tag === 'sebra')!.description));
    const tool = await read(client, 'docs://tools/listTrade.md');
    assert.ok(tool.startsWith('### listTrade\n'));
    await assert.rejects(client.readResource({ uri: 'docs://domains/nothing.md' }), /no resource docs:\/\/domains\/nothing\.md/);
  });
});

describe('the endpoint', () => {
  test('stateless: calls without initialize or session header are answered, and no session id is given', async () => {
    for (const id of [1, 2]) {
      const response = await post({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'getTaxonomyForYear', arguments: { year: 2024 } } });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('mcp-session-id'), null);
      assert.match(response.headers.get('x-request-id') ?? '', /^[\w-]{36}$/);
      const body = await response.json() as { id: number; result: { structuredContent: { endpoint: string } } };
      assert.equal(body.id, id);
      assert.equal(body.result.structuredContent.endpoint, 'getTaxonomyForYear');
    }
  });

  test('GET and DELETE are 405 JSON naming POST', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${base}/mcp`, { method });
      assert.equal(response.status, 405);
      assert.equal(response.headers.get('allow'), 'POST');
      const body = await response.json() as { error: { code: string } };
      assert.equal(body.error.code, 'method_not_allowed');
    }
  });

  test('a body past the bound is 413 before the SDK reads it; a body that is not JSON is a JSON-RPC parse error', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { pad: 'x'.repeat(MCP_BODY_MAX_BYTES) } });
    const tooLarge = await post(big);
    assert.equal(tooLarge.status, 413);
    assert.equal((await tooLarge.json() as { error: { code: string } }).error.code, 'payload_too_large');
    const broken = await post('{"jsonrpc":');
    assert.equal(broken.status, 400);
    assert.equal((await broken.json() as { error: { code: number } }).error.code, -32700);
  });
});
