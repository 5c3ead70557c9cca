// The generated documents against the catalog: every route and path form appears in each of them,
// the OpenAPI document passes a maintained validator, payment facts match the specification
// (USD 0.01 = 10000 USDC units on Base, Polygon and Arbitrum One), and text from the catalog is
// escaped in HTML. A few synthetic routes (a free one, a POST with a body, one with markup in its
// texts) are added to the real catalog to cover what the catalog does not have yet.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { pathParamNames, type Route } from '../../queries/catalog.ts';
import { routes } from '../../domains/index.ts';
import { buildRobots, buildSitemap } from '../../http/docs/crawler.ts';
import { buildWellKnownX402 } from '../../http/docs/discovery.ts';
import { buildApiPage, buildDocsIndex, buildDomainPage, escapeHtml } from '../../http/docs/html.ts';
import { buildLlmsTxt } from '../../http/docs/llms.ts';
import { buildMarkdown } from '../../http/docs/markdown.ts';
import { buildOpenApi } from '../../http/docs/openapi.ts';
import { allOperations, exampleMatches, shellQuote } from '../../http/docs/operations.ts';
import { defaultPaymentInfo, paymentInfoFromSettings } from '../../http/docs/paymentInfo.ts';
import { readPaymentSettings } from '../../http/payments/config.ts';

const BASE = 'https://data.example.test';

const freeRoute: Route = {
  id: 'getFreeThing',
  method: 'GET',
  tag: 'zz-synthetic',
  paths: ['/api/zz/getFreeThing', '/api/zz/getFreeThing/{code}'],
  summary: 'A free <b>synthetic</b> route & "quotes"',
  description: "Tests escaping: <script>alert('x')</script> and `code`.",
  paid: false,
  params: {
    code: { in: ['query', 'path'], schema: { type: 'string', enum: ['a', 'b'] }, description: 'A <code>.', required: true },
    n: { in: ['query'], schema: { type: 'integer', minimum: 1, maximum: 9, default: 3 }, description: 'How many.' },
  },
  response: { type: 'object', properties: { ok: { type: 'boolean' } } },
  examples: ["/api/zz/getFreeThing?code=a&n=2", "/api/zz/getFreeThing/b"],
  handle: async () => ({ ok: true }),
};

const postRoute = {
  id: 'analyzeSynthetic',
  method: 'POST',
  tag: 'zz-synthetic',
  paths: ['/api/v1/zz/analyze'],
  summary: 'A synthetic POST with a JSON body',
  description: 'Takes a body.',
  paid: true,
  params: {},
  response: { type: 'object', properties: { score: { type: 'number' } } },
  examples: ['/api/v1/zz/analyze'],
  requestBody: {
    schema: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } },
    example: { title: "it's" },
  },
  handle: async () => ({ score: 1 }),
} as Route;

const catalog: Route[] = [...routes, freeRoute, postRoute];
const payment = defaultPaymentInfo();
const input = { routes: catalog, baseUrl: BASE, payment };
const operations = allOperations(catalog);

test('the catalog under test has real routes and every path form has a sample request', () => {
  assert.ok(routes.length > 0);
  for (const operation of operations) assert.ok(operation.examples.length > 0, `${operation.route.id} ${operation.path} has no example`);
});

describe('/openapi.json', () => {
  const doc = buildOpenApi(input) as any;

  test('passes the OpenAPI 3.1 schema validator', async () => {
    const result = await new Validator().validate(doc);
    assert.deepEqual(result.errors, undefined, JSON.stringify(result.errors, null, 2));
    assert.equal(result.valid, true);
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.version, '1.0.0');
    assert.deepEqual(doc.servers, [{ url: BASE }]);
  });

  test('every path form of every route, with its parameters exactly as the catalog declares them', () => {
    const ids = new Set<string>();
    for (const route of catalog) {
      for (const path of route.paths) {
        const op = doc.paths[path]?.[route.method.toLowerCase()];
        assert.ok(op, `missing ${route.method} ${path}`);
        assert.ok(!ids.has(op.operationId), `duplicate operationId ${op.operationId}`);
        ids.add(op.operationId);
        assert.deepEqual(op.tags, [route.tag]);
        assert.equal(op.summary, route.summary);
        const inPath = pathParamNames(path);
        for (const name of inPath) {
          const param = op.parameters.find((p: any) => p.name === name);
          assert.deepEqual({ in: param.in, required: param.required, schema: param.schema }, { in: 'path', required: true, schema: route.params[name]!.schema });
        }
        for (const [name, spec] of Object.entries(route.params)) {
          if (inPath.includes(name) || !spec.in.includes('query')) continue;
          // A parameter family (dim.<key>=<value>) is shown under its key form.
          const shown = spec.family ? `${spec.family.prefix}<key>` : name;
          const param = op.parameters.find((p: any) => p.name === shown && p.in === 'query');
          assert.ok(param, `${op.operationId}: no query parameter ${shown}`);
          assert.equal(param.required, Boolean(spec.required), `${op.operationId}.${name} required`);
          assert.deepEqual(param.schema, spec.schema, `${op.operationId}.${name} schema (type, default, limits, enum)`);
        }
        assert.deepEqual(op.responses['200'].content['application/json'].schema, route.response);
        // Every error an operation can answer is listed by status, naming its codes (queries/shared/errors.ts).
        assert.match(op.responses['400'].description, /`invalid_parameter`/);
        assert.match(op.responses['404'].description, /`not_found`/);
        assert.match(op.responses['406'].description, /`not_acceptable`/);
        assert.match(op.responses['503'].description, /`timeout`/);
        // The refusals of every data route before any work (the query bounds, the rate limit, the computing queue).
        assert.match(op.responses['414'].description, /`uri_too_long`/);
        assert.match(op.responses['429'].description, /`rate_limited`/);
        assert.match(op.responses['503'].description, /`overloaded`/);
        if (route.paid) {
          assert.match(op.responses['400'].description, /`invalid_payment`/);
          assert.match(op.responses['409'].description, /`payment_in_progress`/);
          assert.match(op.responses['502'].description, /`facilitator_unavailable`/);
          assert.match(op.responses['503'].description, /`facilitator_unavailable`.*`payments_not_configured`/);
        }
        if (route.gate) assert.match(op.responses[String(route.gate.status)].description, new RegExp(`\`${route.gate.code}\``));
        if (route.requestBody) {
          assert.match(op.responses['413'].description, /`payload_too_large`/);
          assert.match(op.responses['415'].description, /`unsupported_media_type`/);
        } else {
          assert.equal(op.responses['413'], undefined);
        }
        // JSON is the 200's only media type (generated clients type the answer as it); a list's CSV and
        // Arrow forms are asked with ?format=, described in text.
        assert.deepEqual(Object.keys(op.responses['200'].content), ['application/json'], op.operationId);
        const format = op.parameters.find((p: any) => p.name === 'format' && p.in === 'query');
        if (route.listRows) {
          assert.deepEqual(format?.schema, { type: 'string', enum: ['json', 'csv', 'arrow'], default: 'json' }, `${op.operationId}: format`);
          for (const text of [format.description, op.responses['200'].description]) {
            assert.match(text, /text\/csv/, op.operationId);
            assert.match(text, /application\/vnd\.apache\.arrow\.stream/, op.operationId);
          }
        } else {
          assert.equal(format, undefined, op.operationId);
        }
        // A paged list (it takes offset) documents its Link header; listDatasets is the specification's
        // bare array, with no total to tell a next page by.
        const paged = Object.hasOwn(route.params, 'offset') && route.id !== 'listDatasets';
        assert.equal(op.responses['200'].headers?.Link !== undefined, paged, `${op.operationId}: Link header documented`);
        if (paged) assert.match(op.responses['200'].headers.Link.description, /rel="next".*rel="prev"/);
      }
    }
  });

  test('paid operations declare x402 security, a 402 and x-payment-info; free operations declare an empty security list', () => {
    assert.deepEqual(doc.components.securitySchemes.x402, { ...doc.components.securitySchemes.x402, type: 'apiKey', in: 'header', name: 'PAYMENT-SIGNATURE' });
    let paid = 0;
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        const route = catalog.find((candidate) => candidate.paths.includes(path) && candidate.method.toLowerCase() === method);
        if (route?.paid) {
          paid++;
          assert.deepEqual(op.security, [{ x402: [] }], `${path}`);
          assert.deepEqual(op.responses['402'], { $ref: '#/components/responses/PaymentRequired' });
          const info = op['x-payment-info'];
          assert.deepEqual(info.protocols, ['x402']);
          assert.equal(info.pricingMode, 'fixed');
          assert.deepEqual(info.price, { mode: 'fixed', currency: 'USD', amount: '0.01' });
          assert.equal(info.amount, '10000');
          assert.deepEqual(info.networks.map((n: any) => `${n.network} ${n.asset}`), [
            'eip155:8453 0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
            'eip155:137 0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
            'eip155:42161 0xaf88d065e77c8cC2239327C5EDb3A432268e5831',
          ]);
        } else {
          assert.deepEqual(op.security, [], `${path} is free: an explicit empty security list (issue 19)`);
          assert.equal(op['x-payment-info'], undefined);
          assert.equal(op.responses['402'], undefined);
        }
      }
    }
    assert.equal(paid, catalog.filter((route) => route.paid).reduce((sum, route) => sum + route.paths.length, 0));
    assert.equal(doc.security, undefined, 'no global security: free paths need none');
  });

  test('the free documentation paths are described under the docs tag', () => {
    // `/api/` is the page of `/api` and the domain page is described at `/docs/{category}` (its redirect):
    // no path key ends with a slash, which the linters refuse.
    for (const path of ['/api', '/api/docs', '/api/docs.md', '/docs', '/docs/{category}', '/openapi.json', '/llms.txt', '/.well-known/x402', '/robots.txt', '/sitemap.xml']) {
      assert.deepEqual(doc.paths[path]?.get?.tags, ['docs'], path);
    }
    assert.deepEqual(Object.keys(doc.paths).filter((path) => path.length > 1 && path.endsWith('/')), []);
    assert.match(doc.paths['/api'].get.description, /\/api\//);
    assert.equal(doc.paths['/docs/{category}'].get.responses['302'].headers.Location.schema.type, 'string');
    const tags = doc.tags.map((tag: any) => tag.name);
    for (const route of catalog) assert.ok(tags.includes(route.tag), `tag ${route.tag}`);
  });

  test('a request body where the route declares one; the error schema is shared', () => {
    const op = doc.paths['/api/v1/zz/analyze'].post;
    assert.deepEqual(op.requestBody.content['application/json'].schema, (postRoute as any).requestBody.schema);
    assert.equal(op.requestBody.required, true);
    assert.deepEqual(doc.components.schemas.Error.required, ['error']);
    assert.deepEqual(doc.components.schemas.Error.properties.error.required, ['status', 'code', 'message', 'param']);
  });

  test('the payment facts come from the injected settings', () => {
    const settings = readPaymentSettings({ X402_PAY_TO: '0x' + 'ab'.repeat(20), X402_FACILITATOR_URL: 'http://127.0.0.1:1', X402_NETWORKS: 'eip155:84532' });
    const custom = buildOpenApi({ ...input, payment: paymentInfoFromSettings(settings) }) as any;
    const info = custom.paths[routes[0]!.paths[0]!].get['x-payment-info'];
    assert.deepEqual(info.networks, [{ network: 'eip155:84532', name: 'Base Sepolia', asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e' }]);
    assert.equal(info.payTo, '0x' + 'ab'.repeat(20));
  });
});

describe('human documents', () => {
  const html = buildApiPage(input);
  const markdown = buildMarkdown(input);

  test('/api lists every domain and route, each path form and a curl command per sample request', () => {
    for (const route of catalog) {
      assert.ok(html.includes(`id="${route.tag}-${route.id}"`.replace(/[^A-Za-z0-9_"=-]/g, '_')), `section of ${route.id}`);
      for (const path of route.paths) assert.ok(html.includes(`<code>${escapeHtml(path)}</code>`), `${route.id} path ${path}`);
      for (const example of route.examples) assert.ok(html.includes(escapeHtml(shellQuote(BASE + example))), `${route.id} example ${example}`);
      for (const [name, spec] of Object.entries(route.params)) {
        const shown = spec.family ? `${spec.family.prefix}<key>` : name;
        assert.ok(html.includes(`<td><code>${escapeHtml(shown)}</code></td>`), `${route.id} param ${shown}`);
      }
      assert.ok(html.includes(`data-domain="${route.tag}"`), `domain ${route.tag}`);
    }
    assert.ok(html.includes('USD 0.01'));
    for (const network of ['eip155:8453', 'eip155:137', 'eip155:42161', 'Base', 'Polygon', 'Arbitrum One', 'PAYMENT-REQUIRED', 'PAYMENT-SIGNATURE', 'PAYMENT-RESPONSE']) {
      assert.ok(html.includes(network), network);
    }
  });

  test('catalog text is escaped in HTML: no markup from the catalog reaches the page', () => {
    assert.ok(!html.includes("<script>alert('x')</script>"));
    assert.ok(html.includes('&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;'));
    assert.ok(html.includes('A free &lt;b&gt;synthetic&lt;/b&gt; route &amp; &quot;quotes&quot;'));
    assert.equal((html.match(/<script>/g) ?? []).length, 1, 'only the page\'s own script');
  });

  test('the Markdown has the same routes, paths and curl examples; a POST example sends its body', () => {
    for (const route of catalog) {
      assert.ok(markdown.includes(`### ${route.id}\n`), route.id);
      for (const path of route.paths) assert.ok(markdown.includes(`\`${route.method} ${path}\``), path);
      for (const example of route.examples) assert.ok(markdown.includes(shellQuote(BASE + example)), example);
    }
    assert.ok(markdown.includes(`curl -sS -X POST -H 'Content-Type: application/json' -d '{"title":"it'\\''s"}' '${BASE}/api/v1/zz/analyze'`));
  });

  test('/docs lists every domain; /docs/<tag>/ holds exactly its routes; unknown tags have no page', () => {
    const index = buildDocsIndex(input);
    for (const tag of new Set(catalog.map((route) => route.tag))) {
      assert.ok(index.includes(`href="/docs/${tag}/"`), tag);
      const page = buildDomainPage(input, tag)!;
      for (const route of catalog) {
        const listed = page.includes(`<h3><a href="#${`${route.tag}-${route.id}`.replace(/[^A-Za-z0-9_-]/g, '_')}">`);
        assert.equal(listed, route.tag === tag, `${route.id} on ${tag}`);
      }
    }
    assert.equal(buildDomainPage(input, 'no-such-domain'), null);
  });
});

describe('machine documents', () => {
  test('/llms.txt: how to pay, where OpenAPI is, and one line per path form', () => {
    const text = buildLlmsTxt(input);
    assert.ok(text.includes(`${BASE}/openapi.json`));
    assert.ok(text.includes('PAYMENT-SIGNATURE') && text.includes('USD 0.01'));
    for (const operation of operations) {
      const line = `- ${operation.route.method} ${BASE}${operation.path} [${operation.route.id}, ${operation.route.paid ? 'paid USD 0.01' : 'free'}]`;
      assert.equal(text.split('\n').filter((candidate) => candidate.startsWith(line)).length, 1, line);
    }
  });

  test('/.well-known/x402: one resource and one Bazaar item per paid path form, each a sample request', () => {
    const doc = buildWellKnownX402({ ...input, lastUpdated: '2026-11-22T12:00:00.000Z' }) as any;
    assert.equal(doc.version, 1);
    const paid = operations.filter((operation) => operation.route.paid);
    // Beside them, one item of type mcp per paid route (its tool; test/mcp/httpPaid.test.ts).
    const httpItems = doc.items.filter((item: any) => item.type === 'http');
    const mcpItems = doc.items.filter((item: any) => item.type === 'mcp');
    assert.equal(httpItems.length, paid.length);
    assert.deepEqual(mcpItems.map((item: any) => item.toolName), catalog.filter((route) => route.paid).map((route) => route.id));
    assert.equal(doc.items.length, httpItems.length + mcpItems.length);
    assert.deepEqual(doc.resources, httpItems.map((item: any) => item.resource));
    for (const operation of paid) {
      const item = httpItems.find((candidate: any) => {
        const url = new URL(candidate.resource);
        return url.origin === BASE && exampleMatches(operation.path, url.pathname + url.search) &&
          candidate.extensions?.bazaar?.info?.input?.method === operation.route.method && candidate.description === operation.route.summary;
      });
      assert.ok(item, `no item for ${operation.route.method} ${operation.path}`);
      assert.equal(item.type, 'http');
      assert.equal(item.x402Version, 2);
      assert.deepEqual(item.tags, [operation.route.tag]);
      assert.equal(item.lastUpdated, '2026-11-22T12:00:00.000Z');
      assert.deepEqual(item.accepts.map((a: any) => [a.scheme, a.network, a.amount, a.maxTimeoutSeconds, a.extra.name, a.extra.version]), [
        ['exact', 'eip155:8453', '10000', 300, 'USD Coin', '2'],
        ['exact', 'eip155:137', '10000', 300, 'USD Coin', '2'],
        ['exact', 'eip155:42161', '10000', 300, 'USD Coin', '2'],
      ]);
      if (pathParamNames(operation.path).length > 0) {
        assert.equal(item.extensions.bazaar.routeTemplate, operation.path.replace(/\{([^{}]+)\}/g, ':$1'));
      }
    }
    for (const route of catalog.filter((candidate) => !candidate.paid)) {
      assert.ok(!doc.resources.some((url: string) => route.paths.some((path) => exampleMatches(path, url.slice(BASE.length)))), `free ${route.id} listed`);
    }
  });

  test('an injected requirements builder replaces the default accepts and extensions', () => {
    const seen: string[] = [];
    const doc = buildWellKnownX402({
      ...input,
      lastUpdated: 'x',
      paymentRequirementsFor: (route, resourceUrl, path) => {
        seen.push(`${route.id} ${path} ${resourceUrl}`);
        return { accepts: [{ scheme: 'exact', network: 'eip155:1' }], extensions: { marker: true } };
      },
    }) as any;
    assert.equal(seen.length, doc.items.length);
    assert.ok(doc.items.every((item: any) => item.accepts[0].network === 'eip155:1'));
    // The HTTP items take its extensions; an MCP item's extension describes the tool.
    assert.ok(doc.items.every((item: any) => (item.type === 'http' ? item.extensions.marker === true : item.extensions.bazaar.info.input.type === 'mcp')));
  });

  test('/sitemap.xml lists the documentation pages and every domain page; /robots.txt points to it', () => {
    const sitemap = buildSitemap(catalog, BASE);
    for (const tag of new Set(catalog.map((route) => route.tag))) assert.ok(sitemap.includes(`<loc>${BASE}/docs/${tag}/</loc>`), tag);
    for (const path of ['/api', '/api/docs.md', '/docs', '/openapi.json', '/llms.txt']) assert.ok(sitemap.includes(`<loc>${BASE}${path}</loc>`), path);
    const robots = buildRobots(BASE);
    assert.ok(robots.includes(`Sitemap: ${BASE}/sitemap.xml`));
    assert.ok(robots.includes('Disallow: /api/'));
  });
});
