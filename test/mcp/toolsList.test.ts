// The size of tools/list (read into every connecting agent's context) is bounded so that it cannot
// silently grow back, and each tool's output schema lets through what the tool returns on an error,
// for clients that check structured content against it even on errors (the SDK's client does).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv } from 'ajv';
import { routes } from '../../domains/index.ts';
import { firstSentence, outlineSchema, toolInputSchema, toolsOf } from '../../http/mcp/tools.ts';

/**
 * The measure stated in docs/agents.md: the bytes of the tools/list result's JSON, over 4 (a common
 * estimate of tokens for English and JSON). Before the outlines and the short descriptions the list
 * was 110,577 bytes (about 27,600 tokens) without any output schema.
 */
const MAX_TOKENS = 13_500;

test(`tools/list stays under ${MAX_TOKENS} tokens (bytes / 4)`, () => {
  const bytes = Buffer.byteLength(JSON.stringify({ tools: toolsOf(routes) }));
  assert.ok(bytes / 4 <= MAX_TOKENS, `tools/list is ${bytes} bytes, about ${Math.round(bytes / 4)} tokens`);
});

test('a tool description is the summary and one line', () => {
  for (const tool of toolsOf(routes)) {
    const route = routes.find((candidate) => candidate.id === tool.name)!;
    assert.equal(tool.description, `${route.summary}. ${route.paid ? 'Paid (x402).' : 'Free.'}`);
  }
});

test('the outline names the top-level fields; lists and objects are typed, scalars left to the full schema', () => {
  const schema = {
    type: 'object' as const,
    properties: {
      count: { type: 'integer' as const, description: 'rows' },
      items: { type: 'array' as const, items: { type: 'object' as const, properties: { a: { type: 'string' as const } } } },
      filters: { type: 'object' as const, properties: { year: { type: ['integer' as const, 'null' as const] } } },
      note: { type: ['string' as const, 'null' as const] },
    },
    required: ['count', 'items', 'filters', 'note'],
    additionalProperties: false,
  };
  assert.deepEqual(outlineSchema(schema), { type: 'object', properties: { count: {}, items: { type: 'array' }, filters: { type: 'object' }, note: {} } });
  assert.deepEqual(outlineSchema({ type: 'array', items: { type: 'object' } }), { type: 'object', properties: { items: { type: 'array' } } });
});

test('every output schema accepts the structured content of an error result: the x402 PaymentRequired and the API\'s JSON error', () => {
  const ajv = new Ajv({ strict: false, allowUnionTypes: true });
  const paymentRequired = {
    x402Version: 2,
    error: 'Payment required',
    resource: { url: 'http://127.0.0.1:3000/api/sebra/getTaxonomyForYear/2024', description: 'x', mimeType: 'application/json' },
    accepts: [{ scheme: 'exact', network: 'eip155:8453', amount: '10000', asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', payTo: '0x0000000000000000000000000000000000000001', maxTimeoutSeconds: 300, extra: { name: 'USD Coin', version: '2' } }],
    extensions: { bazaar: { info: {} } },
  };
  const apiError = { error: { status: 400, code: 'invalid_parameter', message: 'year must be an integer', param: 'year', request_id: 'x' } };
  for (const tool of toolsOf(routes)) {
    const validate = ajv.compile(tool.outputSchema!);
    assert.ok(validate(paymentRequired), `${tool.name}: ${ajv.errorsText(validate.errors)}`);
    assert.ok(validate(apiError), `${tool.name}: ${ajv.errorsText(validate.errors)}`);
  }
});

test('parameters: the first sentence (a semicolon inside parentheses does not end it); page sizes and aliases said once', () => {
  assert.equal(firstSentence('Code, any case (US, usa; EL is GR). More text.'), 'Code, any case (US, usa; EL is GR).');
  assert.equal(firstSentence('Reporting country: EU code or name; aggregates too. Alias: country.'), 'Reporting country: EU code or name.');
  assert.equal(firstSentence('No full stop'), 'No full stop');
  const trade = toolInputSchema(routes.find((route) => route.id === 'listTrade')!);
  const properties = trade.properties as Record<string, { description?: string; default?: number; maximum?: number }>;
  assert.equal(properties.country!.description, 'Same as reporter.');
  assert.equal(properties.limit!.description, undefined);
  assert.deepEqual([properties.limit!.default, properties.limit!.maximum], [100, 500]);
  assert.equal(properties.offset!.description, undefined);
});
