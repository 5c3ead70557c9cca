// Issue 19: example answers in the documents and the sample labelling.
// - trimAnswer: every list cut to 3 items, nothing else changed (worked by hand).
// - Over a snapshot of two samples (cards, a few SEBRA days): each operation whose first example
//   answers shows it, trimmed, in the OpenAPI (200 `examples`), the HTML and the Markdown, equal to
//   the HTTP answer of that request trimmed by the rule; the others show none and one log line names
//   them; the documents carry the sample banner; /healthz says sample per source and data answers
//   carry X-Data-Source: sample; the OpenAPI with its examples still passes Spectral (which checks
//   each example against its schema).
// - Over real imports only: imported, no banner; real cards ingested beside the samples: mixed.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import spectralCore from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { Ajv } from 'ajv';
import { cardgameSampleSource } from '../../domains/cardgame/ingest/sampleSource.ts';
import { ingestCardSets } from '../../domains/cardgame/ingest/snapshot.ts';
import type { CardLanguage } from '../../domains/cardgame/ingest/parse.ts';
import { sebraSampleSource } from '../../domains/sebra/ingest/sampleSource.ts';
import { generateSebraSample } from '../../domains/sebra/ingest/sample.ts';
import { routes } from '../../domains/index.ts';
import { createApp } from '../../http/app.ts';
import { openSnapshot } from '../../http/openSnapshot.ts';
import { EXAMPLE_LIST_ITEMS, exampleTargets, trimAnswer } from '../../http/docs/exampleAnswers.ts';
import { defaultPaymentInfo } from '../../http/docs/paymentInfo.ts';
import { ensureSnapshot } from '../../ingest/bootstrap.ts';
import { FIXED_NOW, startTestApp, type TestApp } from '../helpers/app.ts';
import { EN_CARDS, writeCards } from '../cardgame/fixture.ts';
import { tempDir } from '../ingest/fixtures.ts';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Database } from '../../engine/database.ts';

test('trimAnswer: every list, at any depth, cut to its first 3 items; the cut lists named with their lengths', () => {
  assert.equal(EXAMPLE_LIST_ITEMS, 3);
  const answer = { count: 5, items: [1, 2, 3, 4, 5], nested: { rows: [{ xs: ['a', 'b', 'c', 'd'] }, {}, {}, {}] }, short: [1, 2], name: 'x' };
  assert.deepEqual(trimAnswer(answer), {
    value: { count: 5, items: [1, 2, 3], nested: { rows: [{ xs: ['a', 'b', 'c'] }, {}, {}] }, short: [1, 2], name: 'x' },
    cut: [{ path: 'items', length: 5 }, { path: 'nested.rows', length: 4 }, { path: 'nested.rows[0].xs', length: 4 }],
  });
  assert.deepEqual(trimAnswer([1, 2, 3, 4]), { value: [1, 2, 3], cut: [{ path: '(the answer)', length: 4 }] });
  assert.deepEqual(trimAnswer(null), { value: null, cut: [] });
});

interface Served {
  base: string;
  db: Database;
  logged: string[];
  close(): Promise<void>;
}

/** An app like the server's (payments left out: loopback is served), with its log lines collected. */
async function serve(dataDir: string): Promise<Served> {
  const db = await openSnapshot(dataDir);
  const logged: string[] = [];
  const app = await createApp({
    db, routes, now: () => FIXED_NOW, logError: () => undefined, log: (line) => logged.push(line),
    docs: { baseUrl: 'https://data.example.test', payment: defaultPaymentInfo() },
  });
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    db,
    logged,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await db.close();
    },
  };
}

describe('over the card and SEBRA samples', () => {
  let served: Served;
  before(async () => {
    const root = await tempDir('docs-examples-');
    await generateSebraSample(join(root, 'sample', 'sebra'), { from: '2025-01-02', to: '2025-03-31' });
    const dataDir = join(root, 'parquet');
    await ensureSnapshot({ dataDir, sampleDir: join(root, 'sample'), sources: [cardgameSampleSource, sebraSampleSource], log: () => undefined });
    served = await serve(dataDir);
  });
  after(() => served?.close());

  const cardRoutes = routes.filter((route) => route.tag === 'cardgame');

  test('the OpenAPI 200 examples are the trimmed HTTP answers of each operation\'s first example', async () => {
    const openapi = await (await fetch(`${served.base}/openapi.json`)).json();
    let shown = 0;
    for (const target of exampleTargets(routes)) {
      const form = target.route.paths.find((path) => new RegExp(`^${path.replace(/\{[^{}]+\}/g, '[^/?]+')}(\\?|$)`).test(target.url))!;
      const operation = openapi.paths[form][target.route.method.toLowerCase()];
      const example = operation.responses['200'].content['application/json'].examples?.firstExample;
      const response = await fetch(served.base + target.url, target.body === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(target.body) });
      const body = await response.json();
      if (response.status !== 200) {
        assert.equal(example, undefined, `${target.url} does not answer here and must show no example`);
        continue;
      }
      shown++;
      assert.ok(example, `${target.url}: example answer expected`);
      assert.equal(example.summary, `${target.route.method} ${target.url}`);
      assert.deepEqual(example.value, trimAnswer(body).value, target.url);
      if (trimAnswer(body).cut.length > 0) assert.match(example.description, /Lists cut to their first 3 items; full lengths: /);
    }
    // Every card operation answers on the card sample; most SEBRA ones on a quarter of 2025.
    for (const route of cardRoutes) {
      assert.ok(openapi.paths[route.paths[0]!].get.responses['200'].content['application/json'].examples, route.id);
    }
    assert.ok(shown >= cardRoutes.length + 3, `shown: ${shown}`);
  });

  test('the examples that do not answer are logged in one line, naming them', async () => {
    await fetch(`${served.base}/api`);
    assert.equal(served.logged.length, 1, served.logged.join('\n'));
    // No rates in this snapshot: a 404; FRED-derived routes are refused by their licence gate: a 451.
    assert.match(served.logged[0]!, /^docs: \d+ of \d+ operations show no example answer \(their first example does not answer on this snapshot\): /);
    assert.match(served.logged[0]!, /GET \/api\/v1\/rates\/ecb-stance \(404 not_found\)/);
    assert.match(served.logged[0]!, /GET \/api\/analytics\/us\/yield-curve \(451 license_not_approved\)/);
    assert.doesNotMatch(served.logged[0]!, /getCardsByClass/);
  });

  test('the HTML and the Markdown show the example answers and the sample banner', async () => {
    const html = await (await fetch(`${served.base}/api`)).text();
    assert.match(html, /<div class="notice" role="note" data-origin="sample"><strong>Sample data: every figure served here is invented/);
    const markdown = await (await fetch(`${served.base}/api/docs.md`)).text();
    assert.match(markdown, /^> \*\*Sample data: every figure served here is invented/m);
    const domainPage = await (await fetch(`${served.base}/docs/cardgame/`)).text();
    assert.match(domainPage, /class="notice"/);
    const first = '/api/cardgame/getCardsByClass?class=Shaman';
    const body = await (await fetch(served.base + first)).json();
    const pretty = JSON.stringify(trimAnswer(body).value, null, 2);
    assert.ok(markdown.includes(`Example answer. Answer to \`GET ${first}\` on the sample data`), 'markdown lead');
    assert.ok(markdown.includes('```json\n' + pretty + '\n```'), 'markdown JSON block');
    const escaped = pretty.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
    assert.ok(domainPage.includes(`<details class="answer"><summary>Example answer</summary>`));
    assert.ok(domainPage.includes(`<pre><code>${escaped}</code></pre>`), 'HTML JSON block');
    assert.equal(html.split('<details class="answer">').length - 1, markdown.split('Example answer. ').length - 1, 'the same examples in both');
  });

  test('/healthz says sample per source; data answers carry X-Data-Source: sample, errors and docs do not', async () => {
    const health = await (await fetch(`${served.base}/healthz`)).json();
    assert.equal(health.status, 'ok');
    assert.equal(health.data, 'sample');
    assert.deepEqual(health.sources, { hearthstonejson: 'sample', [Object.keys(health.sources).find((key) => key !== 'hearthstonejson')!]: 'sample' });
    assert.equal(Object.keys(health.sources).length, 2);
    const answer = await fetch(`${served.base}/api/cardgame/getCardsByClass/SHAMAN?limit=2`);
    await answer.arrayBuffer();
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('x-data-source'), 'sample');
    const csv = await fetch(`${served.base}/api/cardgame/getCardsByClass/SHAMAN?limit=2&format=csv`);
    await csv.arrayBuffer();
    assert.equal(csv.headers.get('x-data-source'), 'sample');
    const invalid = await fetch(`${served.base}/api/cardgame/getCardsByClass/SHAMAN?limit=0`);
    await invalid.arrayBuffer();
    assert.equal(invalid.status, 400);
    assert.equal(invalid.headers.get('x-data-source'), null);
    const docs = await fetch(`${served.base}/openapi.json`);
    await docs.arrayBuffer();
    assert.equal(docs.headers.get('x-data-source'), null);
  });

  test('the OpenAPI with its example answers passes Spectral spectral:oas (examples checked against the schemas)', async () => {
    const text = await (await fetch(`${served.base}/openapi.json`)).text();
    const spectral = new spectralCore.Spectral();
    spectral.setRuleset({ extends: [[oas as any, 'recommended']] });
    const results = await spectral.run(new spectralCore.Document(text, spectralParsers.Json, '/openapi.json'));
    assert.deepEqual(results.filter((result) => result.severity === 0).map((result) => `${result.code} ${result.path.join('.')}: ${result.message}`), []);
    // And each shown example validates against its response schema (lists only shortened).
    const ajv = new Ajv({ strict: false });
    const openapi = JSON.parse(text);
    for (const route of routes) {
      for (const form of route.paths) {
        const media = openapi.paths[form][route.method.toLowerCase()].responses['200'].content['application/json'];
        if (!media.examples) continue;
        const validate = ajv.compile(route.response);
        assert.ok(validate(media.examples.firstExample.value), `${form}: ${JSON.stringify(validate.errors)}`);
      }
    }
  });
});

describe('over real imports, and real beside samples', () => {
  let imported: TestApp;
  let mixed: Served;
  before(async () => {
    const root = await tempDir('docs-origin-');
    const en = await writeCards(root, 'cards.enUS.json', EN_CARDS);
    const realDir = join(root, 'real');
    await ingestCardSets(new Map<CardLanguage, string[]>([['en', [en]]]), { dataDir: realDir });
    imported = await startTestApp(realDir);
    const mixedDir = join(root, 'mixed');
    await ensureSnapshot({ dataDir: mixedDir, sampleDir: join(root, 'sample'), sources: [cardgameSampleSource], log: () => undefined });
    await ingestCardSets(new Map<CardLanguage, string[]>([['en', [en]]]), { dataDir: mixedDir });
    mixed = await serve(mixedDir);
  });
  after(async () => {
    await imported?.close();
    await mixed?.close();
  });

  test('real imports only: imported on /healthz and in X-Data-Source, no banner', async () => {
    const health = await imported.get('/healthz');
    assert.equal(health.body.data, 'imported');
    assert.deepEqual(health.body.sources, { hearthstonejson: 'imported' });
    const answer = await imported.get('/api/cardgame/getCardsByClass/SHAMAN');
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('x-data-source'), 'imported');
    const html = await imported.get('/api');
    assert.doesNotMatch(html.body, /class="notice"/);
  });

  test('real cards beside the samples: mixed, and the banner says partly sample', async () => {
    const health = await (await fetch(`${mixed.base}/healthz`)).json();
    assert.equal(health.data, 'mixed');
    assert.deepEqual(health.sources, { hearthstonejson: 'mixed' });
    const answer = await fetch(`${mixed.base}/api/cardgame/getCardsByClass/SHAMAN`);
    await answer.arrayBuffer();
    assert.equal(answer.headers.get('x-data-source'), 'mixed');
    const html = await (await fetch(`${mixed.base}/api`)).text();
    assert.match(html, /data-origin="mixed"><strong>Partly sample data/);
  });
});

test('the documents follow the served snapshot: new facts (a reload) rebuild them, the same facts do not', async () => {
  const Koa = (await import('koa')).default;
  const { docsMiddleware } = await import('../../http/docs/index.ts');
  const route = routes.find((candidate) => candidate.id === 'getCardsByClass')!;
  const url = exampleTargets([route])[0]!.url;
  const factsOf = (total: number) => Promise.resolve({
    examples: new Map([[url, { method: 'GET' as const, url, value: { total }, cut: [] }]]),
    dataOrigin: total === 1 ? ('sample' as const) : ('imported' as const),
  });
  const first = factsOf(1);
  const second = factsOf(2);
  let current = first;
  let asked = 0;
  const app = new Koa();
  app.use(docsMiddleware({ routes, baseUrl: 'https://data.example.test', payment: defaultPaymentInfo(), facts: () => (asked++, current) }));
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  try {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const exampleOf = async () => {
      // The documents' bytes (their ETag is the pipeline's, http/pipeline/entityTags.ts: not mounted here).
      const text = await (await fetch(`${base}/openapi.json`)).text();
      const doc = JSON.parse(text);
      return { etag: text, value: doc.paths[route.paths[0]!].get.responses['200'].content['application/json'].examples.firstExample.value };
    };
    const a = await exampleOf();
    assert.deepEqual(a.value, { total: 1 });
    assert.match(await (await fetch(`${base}/api`)).text(), /data-origin="sample"/);
    assert.equal((await exampleOf()).etag, a.etag);
    current = second;
    const b = await exampleOf();
    assert.deepEqual(b.value, { total: 2 });
    assert.notEqual(b.etag, a.etag);
    assert.doesNotMatch(await (await fetch(`${base}/api`)).text(), /class="notice"/);
    assert.ok(asked >= 5);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
