// A client generated from the served /openapi.json, as a developer makes one: openapi-typescript's
// types (no options) and openapi-fetch's client (no options but the base URL). It must compile with
// the answers typed as their JSON bodies (a field of `data.items[0]` typechecks, a wrong field does
// not), and its calls (a path parameter, a paged list, query parameters) must answer the sample's
// figures over loopback. Everything is written to a temporary folder, removed at the end.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, test } from 'node:test';
import openapiTS, { astToString } from 'openapi-typescript';
import { tsImport } from 'tsx/esm/api';
import { startSampleApp } from '../http/sample-app.ts';
import type { TestApp } from '../helpers/app.ts';
import { typeErrors } from '../helpers/typeErrors.ts';

const projectRoot = path.resolve(import.meta.dirname, '../..');

const CLIENT = `
import createClient from 'openapi-fetch';
import type { paths } from './schema.ts';

export async function run(baseUrl: string) {
  const client = createClient<paths>({ baseUrl });
  const taxonomy = await client.GET('/api/sebra/getTaxonomyForYear/{year}', { params: { path: { year: 2024 } } });
  if (!taxonomy.data) throw new Error('taxonomy: ' + JSON.stringify(taxonomy.error));
  const year: number = taxonomy.data.year;
  const endpoint: string = taxonomy.data.endpoint;

  const countries = await client.GET('/api/v1/countries', { params: { query: { limit: 3, offset: 1 } } });
  if (!countries.data) throw new Error('countries: ' + JSON.stringify(countries.error));
  const page = countries.data;
  const firstCode: string = page.items[0].code;
  const firstName: string = page.items[0].name;

  const prices = await client.GET('/api/v1/prices', { params: { query: { country: 'BG', dataset: 'cereals_prices', limit: 5 } } });
  if (!prices.data) throw new Error('prices: ' + JSON.stringify(prices.error));
  const priceStates: string[] = prices.data.items.map((item) => item.member_state_code);
  const priceDatasets: string[] = prices.data.items.map((item) => item.dataset);

  return {
    year, endpoint,
    countries: { total: page.total, limit: page.limit, offset: page.offset, count: page.count, firstCode, firstName, codes: page.items.map((item) => item.code) },
    prices: { count: prices.data.count, total: prices.data.total, states: priceStates, datasets: priceDatasets },
    link: countries.response.headers.get('link'),
  };
}
`;

/** The same client with a field the answer does not have: the compiler must refuse it. */
const WRONG_FIELD = `
import createClient from 'openapi-fetch';
import type { paths } from './schema.ts';

export async function wrong(baseUrl: string): Promise<string> {
  const client = createClient<paths>({ baseUrl });
  const countries = await client.GET('/api/v1/countries', { params: { query: { limit: 3 } } });
  if (!countries.data) throw new Error('no data');
  return countries.data.items[0].no_such_field;
}
`;

let sample: TestApp;
let dir: string | undefined;
let linked: string | undefined;
before(async () => {
  sample = await startSampleApp('generated-client-');
  dir = await mkdtemp(path.join(os.tmpdir(), 'generated-client-'));
  // The client's one dependency, as an installed package would be: a link to the project's copy.
  await mkdir(path.join(dir, 'node_modules'));
  linked = path.join(dir, 'node_modules', 'openapi-fetch');
  await symlink(await realpath(path.join(projectRoot, 'node_modules', 'openapi-fetch')), linked, 'dir');
});
after(async () => {
  // The link first, on its own: removing the folder must never reach the project's package.
  if (linked) await unlink(linked).catch(() => undefined);
  if (dir) await rm(dir, { recursive: true, force: true });
  await sample?.close();
});

test('openapi-typescript + openapi-fetch without options: compiles, types the JSON answers, and calls the service', async () => {
  const served = await sample.get('/openapi.json');
  assert.equal(served.status, 200);
  await writeFile(path.join(dir!, 'schema.ts'), astToString(await openapiTS(served.body)));
  const client = path.join(dir!, 'client.ts');
  const wrong = path.join(dir!, 'wrong.ts');
  await writeFile(client, CLIENT);
  await writeFile(wrong, WRONG_FIELD);

  // Both files in one compilation: the client compiles clean, the wrong field is the only error.
  const refused = typeErrors(client, wrong);
  assert.equal(refused.length, 1, refused.join('\n'));
  assert.match(refused[0]!, /^wrong\.ts:9 TS2339 Property 'no_such_field' does not exist/);

  // tsx's scoped import: the test itself may run compiled, without a TypeScript loader.
  const { run } = (await tsImport(pathToFileURL(client).href, import.meta.url)) as { run: (baseUrl: string) => Promise<any> };
  const health = await sample.request('/healthz');
  await health.arrayBuffer();
  const base = new URL(health.url).origin;
  const answer = await run(base);
  assert.equal(answer.year, 2024);
  assert.equal(answer.endpoint, 'getTaxonomyForYear');
  // The countries page against the snapshot's own table: ordered by code, offset 1, limit 3.
  const codes = (await sample.db.all('SELECT code, name FROM agri_countries ORDER BY code')).map((row) => ({ code: String(row.code), name: String(row.name) }));
  assert.ok(codes.length > 4, 'more countries than one page');
  assert.deepEqual(answer.countries, {
    total: codes.length, limit: 3, offset: 1, count: 3,
    firstCode: codes[1]!.code, firstName: codes[1]!.name, codes: codes.slice(1, 4).map((row) => row.code),
  });
  assert.equal(answer.link, `</api/v1/countries?limit=3&offset=4>; rel="next", </api/v1/countries?limit=3&offset=0>; rel="prev"`);
  // The query parameters reached the service: only Bulgarian cereal prices.
  assert.ok(answer.prices.count > 0 && answer.prices.count <= 5);
  assert.deepEqual(new Set(answer.prices.states), new Set(['BG']));
  assert.deepEqual(new Set(answer.prices.datasets), new Set(['cereals_prices']));
});
