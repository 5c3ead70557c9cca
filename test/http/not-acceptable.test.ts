// Accept is honoured as the documentation says: an Accept that takes none of a route's formats
// (`application/xml`; `text/csv` on a route without a list) is 406 not_acceptable naming Accept, in
// the JSON error shape, before anything is computed or paid; an Accept that also takes JSON (a
// browser's `*/*;q=0.8`) and an explicit ?format= still answer.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TestApp } from '../helpers/app.ts';
import { startSampleApp } from './sample-app.ts';

const LIST = '/api/sebra/getTaxonomyForYear/2024';
const NOT_LIST = '/api/v1/markets/RO/1001';

let app: TestApp;
before(async () => {
  app = await startSampleApp('not-acceptable-');
});
after(async () => {
  await app?.close();
});

async function ask(path: string, accept: string): Promise<{ status: number; type: string | null; body: string }> {
  const response = await app.request(path, { headers: { Accept: accept } });
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
}

test('an Accept that takes none of the route\'s formats is 406 not_acceptable naming Accept', async () => {
  for (const [path, accept] of [[LIST, 'application/xml'], [NOT_LIST, 'application/xml'], [NOT_LIST, 'text/csv'], [LIST, 'text/html']]) {
    const answer = await ask(path, accept);
    assert.equal(answer.status, 406, `${path} Accept: ${accept}: ${answer.body}`);
    assert.match(answer.type ?? '', /^application\/json/);
    const { error } = JSON.parse(answer.body) as { error: { status: number; code: string; param: string; message: string } };
    assert.deepEqual([error.status, error.code, error.param], [406, 'not_acceptable', 'Accept']);
    assert.match(error.message, /application\/json/);
  }
});

test('an Accept that also takes JSON, a list format, or an explicit ?format= answers', async () => {
  const json = await ask(LIST, 'application/xml, */*;q=0.1');
  assert.equal(json.status, 200);
  assert.match(json.type ?? '', /^application\/json/);
  assert.equal((await ask(LIST, 'text/csv')).type, 'text/csv; charset=utf-8');
  const explicit = await ask(`${LIST}?format=csv`, 'application/xml');
  assert.equal(explicit.status, 200);
  assert.equal(explicit.type, 'text/csv; charset=utf-8');
  const browser = await ask(NOT_LIST, 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8');
  assert.equal(browser.status, 200);
  assert.match(browser.type ?? '', /^application\/json/);
});
