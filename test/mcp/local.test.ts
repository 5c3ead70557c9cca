// The MCP server in local mode, driven by the SDK's own client over an in-memory transport pair, on
// the generated sample: one tool per route with the route's parameters as its input schema, and for
// every catalog sample request the tool's answer is the HTTP API's JSON text; errors are tool errors
// carrying the API's JSON error.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { routes } from '../../domains/index.ts';
import { exampleRequests, pathParamNames, type Route } from '../../queries/catalog.ts';
import { createMcpServer, localCaller } from '../../bin/mcpServer.ts';
import { FIXED_NOW, withoutRequestId, type TestApp } from '../helpers/app.ts';
import { startSampleApp } from '../http/sample-app.ts';

let app: TestApp;
let client: Client;
before(async () => {
  // Every domain's sample, as `npm start` serves it (built once per `npm test` run).
  app = await startSampleApp('mcp-local-');
  const server = createMcpServer({ routes, call: localCaller({ db: app.db, routes, now: () => FIXED_NOW }), remote: false });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: 'test-client', version: '1.0.0' });
  await client.connect(clientSide);
});
after(async () => {
  await client?.close();
  await app?.close();
});

/** A sample URL as the arguments an agent would send: path and query values typed by the route's schemas. */
function argumentsOf(route: Route, url: string): Record<string, unknown> {
  const [pathname, search = ''] = url.split('?');
  const args: Record<string, unknown> = {};
  const typed = (name: string, text: string): unknown => {
    const type = Object.hasOwn(route.params, name) ? route.params[name].schema.type : undefined;
    if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(text)) return Number(text);
    if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
    return text;
  };
  for (const template of route.paths) {
    const names = pathParamNames(template);
    const match = new RegExp(`^${template.replace(/\{[^{}]+\}/g, '([^/]+)')}$`).exec(pathname);
    if (!match) continue;
    names.forEach((name, index) => (args[name] = typed(name, decodeURIComponent(match[index + 1]))));
    break;
  }
  for (const [key, value] of new URLSearchParams(search)) {
    const family = Object.entries(route.params).find(([, spec]) => spec.family && key.startsWith(spec.family.prefix));
    if (family) {
      const object = (args[family[0]] ??= {}) as Record<string, string>;
      object[key.slice(family[1].family!.prefix.length)] = value;
      continue;
    }
    const flagOf = Object.entries(route.params).find(([, spec]) => spec.bareFlags?.includes(key));
    if (flagOf && value === '') args[flagOf[0]] = key;
    else args[key] = typed(key, value);
  }
  return args;
}

function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content = result.content as Array<{ type: string; text: string }>;
  return content[0].text;
}

describe('tools', () => {
  test('one tool per route, named by its operation id, with its summary and parameters', async () => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name), routes.map((route) => route.id));
    for (const tool of tools) {
      const route = routes.find((r) => r.id === tool.name)!;
      assert.ok(tool.description!.startsWith(route.summary), tool.name);
      assert.equal(tool.inputSchema.type, 'object');
      const names = Object.keys(tool.inputSchema.properties ?? {});
      assert.deepEqual(names.sort(), [...Object.keys(route.params), ...(route.requestBody ? ['body'] : [])].sort(), tool.name);
    }
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    // The path and query forms folded: year is required in both forms of getTaxonomyForYear.
    const taxonomy = byName.get('getTaxonomyForYear')!.inputSchema;
    assert.deepEqual(taxonomy.required, ['year']);
    assert.equal((taxonomy.properties!.year as { type: string }).type, 'integer');
    // card_class is only in the path form, class only in the query form: neither is required.
    assert.equal(byName.get('getCardsByClass')!.inputSchema.required, undefined);
    // A path-only parameter of a route with one form is required.
    assert.deepEqual(byName.get('getDataset')!.inputSchema.required, ['dataset_id']);
    // A family of query keys is one object; a POST route's JSON body is the field body.
    const series = byName.get('getEnergySeries')!.inputSchema.properties!.dim as { type: string; propertyNames: { pattern: string } };
    assert.equal(series.type, 'object');
    assert.ok(series.propertyNames.pattern);
    const post = routes.find((r) => r.requestBody)!;
    assert.deepEqual(byName.get(post.id)!.inputSchema.required, ['body']);
    assert.equal((byName.get(post.id)!.inputSchema.properties!.body as { type: string }).type, 'object');
  });
});

describe('every catalog sample request: the tool answers the API\'s JSON', () => {
  for (const route of routes) {
    for (const [index, { url, body }] of exampleRequests(route).entries()) {
      if (/[?&]format=/.test(url)) continue;
      test(`${route.id}: ${url}${body !== undefined ? ` (body ${index + 1})` : ''}`, async () => {
        const init: RequestInit | undefined = body === undefined ? undefined : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
        const http = await app.request(url, init);
        const expected = await http.text();
        assert.equal(http.status, 200, expected);
        const args = { ...argumentsOf(route, url), ...(body !== undefined ? { body } : {}) };
        const result = await client.callTool({ name: route.id, arguments: args });
        assert.ok(!result.isError, `${JSON.stringify(args)}: ${textOf(result)}`);
        assert.equal(textOf(result), expected, JSON.stringify(args));
        // Structured content is an object: an answer that is a bare JSON array is given as {items: [...]}.
        const parsed = JSON.parse(expected);
        assert.deepEqual(result.structuredContent, Array.isArray(parsed) ? { items: parsed } : parsed);
        // A paged list with rows left after this page names the call for the next one.
        const page = parsed as { count?: number; offset?: number; total?: number };
        const rowsLeft = Object.hasOwn(route.params, 'offset') && typeof page.total === 'number' && page.count! > 0 && page.offset! + page.count! < page.total;
        const next = rowsLeft ? { name: route.id, arguments: { ...args, offset: page.offset! + page.count! } } : undefined;
        // Local mode pays nothing and says nothing about payment; on the sample it says sample, as the API's header does.
        assert.equal(http.headers.get('X-Data-Source'), 'sample');
        assert.deepEqual(result._meta, { data_source: 'sample', ...(next ? { next } : {}) });
        const items = (result.content as Array<{ text: string }>).map((item) => item.text);
        assert.equal(items.length, next ? 3 : 2);
        if (next) assert.ok(items[1].startsWith(`Rows ${page.offset! + 1} to ${page.offset! + page.count!} of ${page.total}; the next page: call ${route.id} with `), items[1]);
        assert.match(items.at(-1)!, /^Note: sample data: .* \(data_source: sample\)\.$/);
      });
    }
  }
});

describe('errors are tool errors carrying the API\'s JSON error', () => {
  const cases: Array<[string, string, Record<string, unknown>, string]> = [
    ['an invalid value', 'getTaxonomyForYear', { year: 'abc' }, '/api/sebra/getTaxonomyForYear?year=abc'],
    ['an integer out of range', 'getTaxonomyForYear', { year: 1800 }, '/api/sebra/getTaxonomyForYear?year=1800'],
    ['an unknown argument', 'getTaxonomyForYear', { year: 2024, colour: 'red' }, '/api/sebra/getTaxonomyForYear?year=2024&colour=red'],
    ['a missing required argument', 'getTaxonomyForYear', {}, '/api/sebra/getTaxonomyForYear'],
    ['a value in the path form', 'getCardsByClass', { card_class: 'NOSUCHCLASS' }, '/api/cardgame/getCardsByClass/NOSUCHCLASS'],
    ['no such resource (404)', 'getDataset', { dataset_id: 'no-such-dataset' }, '/api/v1/datasets/no-such-dataset'],
  ];
  for (const [name, tool, args, url] of cases) {
    test(name, async () => {
      const http = await app.request(url);
      assert.ok(http.status >= 400 && http.status < 500, `${url}: ${http.status}`);
      const expected = withoutRequestId(await http.json());
      const result = await client.callTool({ name: tool, arguments: args });
      assert.equal(result.isError, true);
      assert.deepEqual(JSON.parse(textOf(result)), expected);
      assert.deepEqual(result.structuredContent, expected);
    });
  }

  test('an object where a value goes is a 400 naming the argument; an unknown tool is a protocol error', async () => {
    const result = await client.callTool({ name: 'getTaxonomyForYear', arguments: { year: { nested: 1 } } });
    assert.equal(result.isError, true);
    assert.equal(JSON.parse(textOf(result)).error.param, 'year');
    await assert.rejects(client.callTool({ name: 'noSuchTool', arguments: {} }), /unknown tool noSuchTool/);
    const format = await client.callTool({ name: 'getTaxonomyForYear', arguments: { year: 2024, format: 'csv' } });
    assert.equal(format.isError, true);
    assert.equal(JSON.parse(textOf(format)).error.param, 'format');
  });

  test('a POST route without its body, or with an unknown field, is the API\'s 400', async () => {
    const route = routes.find((r) => r.requestBody)!;
    const missing = await client.callTool({ name: route.id, arguments: {} });
    assert.equal(missing.isError, true);
    assert.equal(JSON.parse(textOf(missing)).error.param, 'body');
    const unknown = await client.callTool({ name: route.id, arguments: { body: { nope: 1 } } });
    const http = await app.request(route.examples[0], { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"nope":1}' });
    assert.deepEqual(JSON.parse(textOf(unknown)), withoutRequestId(await http.json()));
  });
});
