// Issue 19, "done when": over the full generated sample, as `npm start` serves it, every catalog
// operation shows an example answer (the OpenAPI 200 `examples`, the HTML and the Markdown), each
// valid against the operation's response schema, and the OpenAPI with them passes Spectral and Redocly.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import spectralCore from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { Ajv } from 'ajv';
import { routes } from '../../domains/index.ts';
import { allOperations } from '../../http/docs/operations.ts';
import type { TestApp } from '../helpers/app.ts';
import { startSampleApp } from '../http/sample-app.ts';

let app: TestApp;
before(async () => {
  app = await startSampleApp('docs-examples-sample-');
});
after(() => app?.close());

test('every operation shows an example answer that validates against its response schema', async () => {
  const openapi = (await app.get('/openapi.json')).body;
  const ajv = new Ajv({ strict: false });
  const missing: string[] = [];
  for (const operation of allOperations(routes)) {
    const media = openapi.paths[operation.path][operation.route.method.toLowerCase()].responses['200'].content['application/json'];
    const example = media.examples?.firstExample;
    if (!example) {
      missing.push(`${operation.operationId} (${operation.examples[0]})`);
      continue;
    }
    assert.equal(example.summary, `${operation.route.method} ${operation.examples[0]}`);
    const validate = ajv.compile(operation.route.response);
    assert.ok(validate(example.value), `${operation.operationId}: ${JSON.stringify(validate.errors)}`);
  }
  assert.deepEqual(missing, []);
  const html = (await app.get('/api')).body as string;
  const markdown = (await app.get('/api/docs.md')).body as string;
  assert.equal(html.split('<details class="answer">').length - 1, routes.length, 'one example answer per route in the HTML');
  assert.equal(markdown.split('\nExample answer. ').length - 1, routes.length, 'one example answer per route in the Markdown');
  assert.match(html, /data-origin="sample"/);
});

test('the OpenAPI with every example answer passes Spectral and Redocly, their recommended rules as they are: no errors', async () => {
  const text = new TextDecoder().decode((await app.get('/openapi.json')).raw);
  const spectral = new spectralCore.Spectral();
  spectral.setRuleset({ extends: [[oas as any, 'recommended']] });
  const results = await spectral.run(new spectralCore.Document(text, spectralParsers.Json, '/openapi.json'));
  assert.deepEqual(results.filter((result) => result.severity === 0).map((result) => `${result.code} ${result.path.join('.')}: ${result.message}`), []);
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({ source: text, absoluteRef: '/openapi.json', config });
  assert.deepEqual(problems.filter((problem) => problem.severity === 'error').map((problem) => `${problem.ruleId} ${problem.location[0]?.pointer}: ${problem.message}`), []);
});
