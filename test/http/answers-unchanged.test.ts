// Every catalog example, byte for byte, as it answered before the request pipeline and the held state
// were rebuilt (issue 32): status, the headers a client reads, and a sha256 of the body, in JSON and,
// for list routes, CSV and Arrow. The digests were recorded on the code before the change
// (RECORD_ANSWERS=1 rewrites answers.golden.json; do that only for a change that means to alter answers).
// The sample's import times are the clock's when it was built, so ISO date-times in text answers are
// masked, and an Arrow answer whose JSON holds one is compared by its decoded, masked rows.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { tableFromIPC } from 'apache-arrow';
import { routes } from '../../domains/index.ts';
import { exampleRequests } from '../../queries/catalog.ts';
import type { TestApp } from '../helpers/app.ts';
import { startSampleApp } from './sample-app.ts';

const GOLDEN = new URL('./answers.golden.json', import.meta.url);
const HEADERS = ['content-type', 'cache-control', 'vary', 'x-data-source', 'content-disposition', 'access-control-allow-origin'];

let app: TestApp;
before(async () => {
  app = await startSampleApp('answers-unchanged-');
});
after(() => app?.close());

const DATE_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g;

async function fingerprint(url: string, init: RequestInit, timed = false): Promise<{ print: string; timed: boolean }> {
  const response = await app.request(url, init);
  let body = Buffer.from(await response.arrayBuffer());
  const headers = HEADERS.map((name) => `${name}=${response.headers.get(name) ?? ''}`).join(' ');
  const binary = (response.headers.get('content-type') ?? '').includes('arrow');
  if (binary && timed) {
    const table = tableFromIPC(body);
    const rows = JSON.stringify(table.toArray(), (_key, value) => (typeof value === 'bigint' ? value.toString() : value));
    body = Buffer.from(`${table.schema.fields.map(String).join(',')}\n${rows}`);
  }
  const text = binary && !timed ? null : body.toString('utf8');
  const masked = text === null ? body : Buffer.from(text.replace(DATE_TIME, 'T'));
  return {
    print: `${response.status} ${headers} sha256=${createHash('sha256').update(masked).digest('hex')}`,
    timed: text !== null && DATE_TIME.test(text),
  };
}

test('every catalog example answers exactly as before (JSON, and CSV and Arrow for lists)', async () => {
  const seen: Record<string, string> = {};
  for (const route of routes) {
    for (const [index, { url, body }] of exampleRequests(route).entries()) {
      const key = `${route.id} ${url}${body !== undefined ? ` #${index}` : ''}`;
      const init: RequestInit = body === undefined ? { method: route.method } : { method: route.method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
      const json = await fingerprint(url, init);
      seen[`${key} json`] = json.print;
      if (route.listRows) {
        const as = (accept: string) => ({ ...init, headers: { ...(init.headers as Record<string, string> | undefined), Accept: accept } });
        seen[`${key} csv`] = (await fingerprint(url, as('text/csv'))).print;
        seen[`${key} arrow`] = (await fingerprint(url, as('application/vnd.apache.arrow.stream'), json.timed)).print;
      }
    }
  }
  if (process.env.RECORD_ANSWERS === '1') {
    writeFileSync(GOLDEN, JSON.stringify(seen, null, 1) + '\n');
    return;
  }
  const golden = JSON.parse(readFileSync(GOLDEN, 'utf8')) as Record<string, string>;
  const changed = Object.keys({ ...golden, ...seen }).filter((key) => golden[key] !== seen[key]).map((key) => `${key}\n  was ${golden[key]}\n  now ${seen[key]}`);
  assert.deepEqual(changed, []);
});
