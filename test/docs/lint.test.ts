// The OpenAPI document through the standard linters, run in-process: Spectral's `spectral:oas`
// ruleset (recommended rules) and Redocly's `recommended` rules, as they are (no rule turned off),
// with no errors; and a TypeScript client generated from it (openapi-typescript) that type-checks,
// so a schema change that breaks clients fails here. The document is the one the server sends: every catalog route, the free
// documentation paths, and the example answers when the docs are given some (here a synthetic set,
// so the examples' shape is linted too).
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import spectralCore from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import openapiTS, { astToString } from 'openapi-typescript';
import { typeErrors } from '../helpers/typeErrors.ts';
import { routes } from '../../domains/index.ts';
import { buildOpenApi } from '../../http/docs/openapi.ts';
import { defaultPaymentInfo } from '../../http/docs/paymentInfo.ts';

const { Spectral, Document } = spectralCore;
const JsonParser = spectralParsers.Json;

const document = buildOpenApi({ routes, baseUrl: 'https://data.example.test', payment: defaultPaymentInfo() });
const text = JSON.stringify(document, null, 2);

describe('the OpenAPI document passes the standard linters', () => {
  test('operationIds are unique (the two forms of /api included) and every operation declares its security', () => {
    const ids: string[] = [];
    for (const item of Object.values(document.paths as Record<string, Record<string, any>>)) {
      for (const operation of Object.values(item)) {
        ids.push(operation.operationId);
        assert.ok(Array.isArray(operation.security), `${operation.operationId}: security must be explicit ([] when free)`);
      }
    }
    assert.equal(new Set(ids).size, ids.length, `duplicate operationIds: ${ids.filter((id, index) => ids.indexOf(id) !== index).join(', ')}`);
  });

  test("Spectral spectral:oas (recommended): no errors", async () => {
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [[oas as any, 'recommended']] });
    const results = await spectral.run(new Document(text, JsonParser, '/openapi.json'));
    // severity 0 is an error (1 warning, 2 information, 3 hint).
    const errors = results.filter((result) => result.severity === 0).map((result) => `${result.code} at ${result.path.join('.')}: ${result.message}`);
    assert.deepEqual(errors, []);
  });

  test('Redocly recommended: no errors', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: text, absoluteRef: '/openapi.json', config });
    const errors = problems
      .filter((problem) => problem.severity === 'error')
      .map((problem) => `${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`);
    assert.deepEqual(errors, []);
  });
});

// A small client written against the generated types: typed query parameters (limit and offset of
// the card pages), typed answers (total, items, the pair's en/bg cards), a POST body. It must compile.
const CLIENT = `
import type { paths } from './schema.ts';

type Get<P extends keyof paths> = paths[P] extends { get: infer O } ? O : never;
type Ok<O> = O extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;
type Query<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

async function getJson<P extends keyof paths>(base: string, path: P, query: Query<Get<P>>): Promise<Ok<Get<P>>> {
  const url = new URL(base + path);
  for (const [key, value] of Object.entries(query as Record<string, unknown>)) if (value !== undefined) url.searchParams.set(key, String(value));
  const response = await fetch(url);
  return (await response.json()) as Ok<Get<P>>;
}

/** Every card of a class, page by page. */
export async function cardsOfClass(base: string, cardClass: string): Promise<Array<{ dbf: number; en: string; bg: string | null }>> {
  const cards: Array<{ dbf: number; en: string; bg: string | null }> = [];
  for (let offset = 0; ; offset += 500) {
    const page = await getJson(base, '/api/cardgame/getCardsByClass', { class: cardClass, limit: 500, offset, collectible: true });
    const total: number = page.total;
    const skipped: number = page.query.offset;
    for (const item of page.items) cards.push({ dbf: item.en.dbf_id, en: item.en.name, bg: item.bg === null ? null : item.bg.name });
    if (page.count < 500 || skipped + page.count >= total) break;
  }
  return cards;
}

export async function taxonomy(base: string): Promise<number> {
  const answer = await getJson(base, '/api/sebra/getTaxonomyForYear', { year: 2025 });
  const year: number = answer.year;
  return year;
}

type AnalyzeBody = paths['/api/v1/product/analyze']['post'] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
export const body: AnalyzeBody = { title: 'Samsung Galaxy A55 5G 128GB' } as AnalyzeBody;
`;

describe('a TypeScript client generated from the OpenAPI document compiles', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'openapi-client-'));
  });
  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('openapi-typescript types + a small client: no type errors', async () => {
    const types = astToString(await openapiTS(structuredClone(document) as any));
    await writeFile(path.join(dir, 'schema.ts'), types);
    await writeFile(path.join(dir, 'client.ts'), CLIENT);
    assert.deepEqual(typeErrors(path.join(dir, 'client.ts')), []);
    // The generated types name every catalog path.
    for (const route of routes) for (const form of route.paths) assert.ok(types.includes(`"${form}": {`), form);
  });
});
