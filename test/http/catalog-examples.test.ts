// Every catalog route's sample requests, over the full generated sample as `npm start` serves it:
// each answers 200 with a body that validates against the route's declared response schema, and
// every path form of every route has at least one sample.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import { routes } from '../../domains/index.ts';
import { exampleRequests } from '../../queries/catalog.ts';
import type { TestApp } from '../helpers/app.ts';
import { startSampleApp } from './sample-app.ts';

let app: TestApp;
before(async () => {
  // The full generated sample in a temp folder, removed on close (test/http/sample-app.ts).
  app = await startSampleApp('catalog-examples-');
});
after(() => app?.close());

test('every path form of every route has a sample request', () => {
  for (const route of routes) {
    assert.ok(route.examples.length > 0, `${route.id} has no examples`);
    for (const template of route.paths) {
      const pattern = new RegExp(`^${template.replace(/\{[^{}]+\}/g, '[^/?]+')}(\\?|$)`);
      assert.ok(route.examples.some((example) => pattern.test(example)), `${route.id}: no example for ${template}`);
    }
    for (const example of route.examples) {
      const matches = route.paths.some((template) => new RegExp(`^${template.replace(/\{[^{}]+\}/g, '[^/?]+')}(\\?|$)`).test(example));
      assert.ok(matches, `${route.id}: example ${example} is not one of its paths`);
    }
  }
});

describe('every sample request answers 200 with a body matching the route\'s response schema', () => {
  const ajv = new Ajv({ strict: false, allErrors: true });
  for (const route of routes) {
    // A POST route's samples are its paths sent with each of its sample JSON bodies.
    for (const [index, { url: example, body: sample }] of exampleRequests(route).entries()) {
      test(`${route.id}: ${example}${sample !== undefined ? ` (body ${index + 1})` : ''}`, async () => {
        const validate = ajv.compile(route.response);
        const init: RequestInit = sample === undefined ? { method: route.method } : { method: route.method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(sample) };
        const response = await app.request(example, init);
        const body = await response.json();
        assert.equal(response.status, 200, `${example}: ${JSON.stringify(body)}`);
        assert.ok(validate(body), `${example}: ${JSON.stringify(validate.errors)}`);
        if (Array.isArray(body.items)) assert.ok(body.items.length > 0, `${example}: the sample should give some items`);
      });
    }
  }
});
