// The Link header of paged lists (http/links.ts, set by http/pipeline/sendAnswer.ts): the offsets and
// targets computed by hand on a list of five letters served by a small route of its own, in every
// format, on HEAD, from the answer cache, with a configured public base URL, readable through CORS,
// kept with a paid answer and its replay; and a walker that follows rel="next" over real lists of the
// sample collects each list whole.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { tableFromIPC } from 'apache-arrow';
import { createApp } from '../../http/app.ts';
import { nextOffset, pageLinks, prevOffset, withPage } from '../../http/links.ts';
import { defineRoute, type Route } from '../../queries/catalog.ts';
import type { Resolved } from '../../queries/kinds/index.ts';
import { pagedBody, pagedBodySchema, pagedList, pageOfRows } from '../../queries/kinds/page.ts';
import { integer, object, text } from '../../queries/shared/schema.ts';
import { openSnapshot } from '../../http/openSnapshot.ts';
import { DEV_KEYS } from '../../devchain/chain.ts';
import { FIXED_NOW, serveTestApp, type TestApp } from '../helpers/app.ts';
import { devPaymentEnv, officialPaymentHeader, startPaidApp, startPaymentRig, type PaidApp, type PaymentRig } from '../helpers/payments.ts';
import { writeSebraSnapshot } from '../helpers/snapshot.ts';
import { fixtureDays, fixturePayments } from '../queries/sebra-fixture.ts';
import { startSampleApp } from '../http/sample-app.ts';

const LETTERS = ['a', 'b', 'c', 'd', 'e'].map((letter, index) => ({ letter, position: index + 1 }));

const letterInputs = { page: pagedList({ default: 2, maximum: 10 }) };

/** Five letters in order, paged (default limit 2); `case=upper` upper-cases them, so a query has more than paging. */
function lettersRoute(paid: boolean): Route {
  return defineRoute<Resolved<typeof letterInputs> & { case?: string }>({
    id: 'listLetters',
    method: 'GET',
    tag: 'zz',
    paths: ['/api/zz/letters'],
    examples: ['/api/zz/letters'],
    summary: 'Letters',
    description: 'Five letters.',
    paid,
    params: { case: { in: ['query'], description: 'upper or lower', schema: { type: 'string', enum: ['upper', 'lower'] } } },
    inputs: letterInputs,
    response: pagedBodySchema('listLetters', { case: text }, object({ letter: text, position: integer })),
    listRows: (body) => body.items as Array<{ letter: string; position: number }>,
    async handle(params) {
      const rows = LETTERS.map((row) => ({ ...row, letter: params.case === 'upper' ? row.letter.toUpperCase() : row.letter }));
      return { endpoint: 'listLetters', filters: { case: params.case ?? 'lower' }, ...pagedBody(pageOfRows(rows, params.page)) };
    },
  });
}

/** RFC 8288 Link header value -> {rel: target}. */
function linksOf(header: string | null): Record<string, string> {
  const links: Record<string, string> = {};
  for (const part of (header ?? '').split(/,\s*(?=<)/).filter(Boolean)) {
    const found = /^<([^>]*)>;\s*rel="([^"]+)"$/.exec(part.trim());
    assert.ok(found, `a link of the form <target>; rel="name": ${part}`);
    links[found[2]!] = found[1]!;
  }
  return links;
}

describe('next and prev, computed by hand', () => {
  test('offsets: next is offset + limit while rows follow; prev is the limit rows before, none at 0', () => {
    // total 5, limit 2: offsets 0, 2, 4 walk it; offset 4 is the last page.
    assert.equal(nextOffset({ limit: 2, offset: 0, total: 5 }), 2);
    assert.equal(prevOffset({ limit: 2, offset: 0, total: 5 }), null);
    assert.equal(nextOffset({ limit: 2, offset: 4, total: 5 }), null);
    assert.equal(prevOffset({ limit: 2, offset: 4, total: 5 }), 2);
    // offset 3: the rows 4 and 5 (3 + 2 = 5 rows: nothing follows); before it the rows 2 and 3, offset 1.
    assert.equal(nextOffset({ limit: 2, offset: 3, total: 5 }), null);
    assert.equal(prevOffset({ limit: 2, offset: 3, total: 5 }), 1);
    // offset 1 with limit 2: the page before starts at 0 (not -1).
    assert.equal(prevOffset({ limit: 2, offset: 1, total: 5 }), 0);
    // Past the end (offset 9 of 5): no next; prev is the last 2 rows, offset 3.
    assert.equal(nextOffset({ limit: 2, offset: 9, total: 5 }), null);
    assert.equal(prevOffset({ limit: 2, offset: 9, total: 5 }), 3);
    // An empty list: no next; from an offset above 0, prev goes back to 0.
    assert.equal(nextOffset({ limit: 2, offset: 0, total: 0 }), null);
    assert.equal(prevOffset({ limit: 2, offset: 6, total: 0 }), 0);
  });

  test('targets: the request as sent, only limit and offset set (each in its place, else appended)', () => {
    assert.equal(withPage('/api/zz/letters', 2, 2), '/api/zz/letters?limit=2&offset=2');
    assert.equal(withPage('/api/zz/letters?offset=0&case=upper&limit=2', 2, 2), '/api/zz/letters?offset=2&case=upper&limit=2');
    assert.equal(withPage('/API/zz/Letters/?case=upper&format=csv', 2, 4), '/API/zz/Letters/?case=upper&format=csv&limit=2&offset=4');
    // A repeated key keeps its first place only; other keys keep their encoding as sent.
    assert.equal(withPage('/x?offset=1&q=a%20b+c&offset=7', 3, 4), '/x?offset=4&q=a%20b+c&limit=3');
    // Bytes a Link target may not hold as they are are percent-encoded (the request line is latin1 in Node).
    assert.equal(withPage('/x?q=<é>', 1, 1), '/x?q=%3C%E9%3E&limit=1&offset=1');
    assert.equal(
      pageLinks('/api/zz/letters?limit=2&offset=2', { limit: 2, offset: 2, total: 5 }, 'https://data.example.test/svc/'),
      '<https://data.example.test/svc/api/zz/letters?limit=2&offset=4>; rel="next", <https://data.example.test/svc/api/zz/letters?limit=2&offset=0>; rel="prev"',
    );
    assert.equal(pageLinks('/x?limit=5', { limit: 5, offset: 0, total: 5 }), null);
  });
});

describe('the Link header of a served list', () => {
  let app: TestApp;
  before(async () => {
    app = await serveTestApp(await openSnapshot(await writeSebraSnapshot(fixturePayments, fixtureDays)), [lettersRoute(false)]);
  });
  after(async () => {
    await app?.close();
  });

  test('first, middle, last and past-the-end pages; the envelope keeps its shape', async () => {
    const first = await app.get('/api/zz/letters?limit=2&offset=0');
    assert.equal(first.status, 200);
    assert.deepEqual(Object.keys(first.body), ['endpoint', 'filters', 'count', 'limit', 'offset', 'total', 'items']);
    assert.deepEqual(linksOf(first.headers.get('link')), { next: '/api/zz/letters?limit=2&offset=2' });
    const middle = await app.get('/api/zz/letters?offset=2&case=upper&limit=2');
    assert.deepEqual(middle.body.items.map((item: { letter: string }) => item.letter), ['C', 'D']);
    assert.deepEqual(linksOf(middle.headers.get('link')), {
      next: '/api/zz/letters?offset=4&case=upper&limit=2',
      prev: '/api/zz/letters?offset=0&case=upper&limit=2',
    });
    const last = await app.get('/api/zz/letters?limit=2&offset=4');
    assert.deepEqual(last.body.items.map((item: { letter: string }) => item.letter), ['e']);
    assert.deepEqual(linksOf(last.headers.get('link')), { prev: '/api/zz/letters?limit=2&offset=2' });
    const fromThree = await app.get('/api/zz/letters?limit=2&offset=3');
    assert.deepEqual(linksOf(fromThree.headers.get('link')), { prev: '/api/zz/letters?limit=2&offset=1' });
    const past = await app.get('/api/zz/letters?limit=2&offset=9');
    assert.equal(past.body.count, 0);
    assert.deepEqual(linksOf(past.headers.get('link')), { prev: '/api/zz/letters?limit=2&offset=3' });
    // The default limit (2) is written into the targets; one page holding the whole list has no Link.
    assert.deepEqual(linksOf((await app.get('/api/zz/letters')).headers.get('link')), { next: '/api/zz/letters?limit=2&offset=2' });
    assert.equal((await app.get('/api/zz/letters?limit=10')).headers.get('link'), null);
    // A refused request has none.
    const refused = await app.get('/api/zz/letters?limit=0');
    assert.equal(refused.status, 400);
    assert.equal(refused.headers.get('link'), null);
  });

  test('CSV and Arrow pages carry it (format kept in the targets), HEAD too', async () => {
    const csv = await app.get('/api/zz/letters?format=csv&limit=2&offset=2');
    assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
    assert.equal(csv.body, 'letter,position\r\nc,3\r\nd,4\r\n');
    assert.deepEqual(linksOf(csv.headers.get('link')), {
      next: '/api/zz/letters?format=csv&limit=2&offset=4',
      prev: '/api/zz/letters?format=csv&limit=2&offset=0',
    });
    const arrow = await app.get('/api/zz/letters?limit=2', { Accept: 'application/vnd.apache.arrow.stream' });
    assert.equal(arrow.headers.get('content-type'), 'application/vnd.apache.arrow.stream');
    assert.deepEqual(tableFromIPC(new Uint8Array(arrow.raw)).getChild('letter')?.toArray(), ['a', 'b']);
    assert.deepEqual(linksOf(arrow.headers.get('link')), { next: '/api/zz/letters?limit=2&offset=2' });
    const head = await app.request('/api/zz/letters?limit=2&offset=2', { method: 'HEAD' });
    assert.equal((await head.arrayBuffer()).byteLength, 0);
    assert.deepEqual(linksOf(head.headers.get('link')), { next: '/api/zz/letters?limit=2&offset=4', prev: '/api/zz/letters?limit=2&offset=0' });
  });

  test('an answer from the cache gets the links of its own request; CORS lets a browser read Link', async () => {
    const asked = await app.get('/api/zz/letters?case=lower&limit=1&offset=1');
    assert.deepEqual(linksOf(asked.headers.get('link')), { next: '/api/zz/letters?case=lower&limit=1&offset=2', prev: '/api/zz/letters?case=lower&limit=1&offset=0' });
    const hitsBefore = (await app.get('/healthz')).body.cache.hits;
    // The same parameters in another order: the answer cache's key, another URL.
    const reordered = await app.get('/api/zz/letters?offset=1&limit=1&case=lower', { Origin: 'https://agent.example' });
    assert.equal((await app.get('/healthz')).body.cache.hits, hitsBefore + 1, 'answered from the cache');
    assert.deepEqual(linksOf(reordered.headers.get('link')), { next: '/api/zz/letters?offset=2&limit=1&case=lower', prev: '/api/zz/letters?offset=0&limit=1&case=lower' });
    const exposed = (reordered.headers.get('access-control-expose-headers') ?? '').split(/,\s*/).map((name) => name.toLowerCase());
    assert.ok(exposed.includes('link'), exposed.join(', '));
    // The fast path replays the recorded answer of the same URL with its Link.
    const replayed = await app.get('/api/zz/letters?case=lower&limit=1&offset=1');
    assert.equal(replayed.headers.get('link'), asked.headers.get('link'));
  });

  test('with a configured public base URL the targets are absolute on it', async () => {
    const db = await openSnapshot(await writeSebraSnapshot(fixturePayments, fixtureDays));
    const based = await createApp({ db, routes: [lettersRoute(false)], now: () => FIXED_NOW, logError: () => undefined, publicBaseUrl: 'https://data.example.test/svc' });
    const server: Server = await new Promise((resolve) => {
      const listening = based.listen(0, '127.0.0.1', () => resolve(listening));
    });
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/zz/letters?limit=2&offset=1`);
      await response.arrayBuffer();
      assert.deepEqual(linksOf(response.headers.get('link')), {
        next: 'https://data.example.test/svc/api/zz/letters?limit=2&offset=3',
        prev: 'https://data.example.test/svc/api/zz/letters?limit=2&offset=0',
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await db.close();
    }
  });
});

describe('a paid page keeps its Link', () => {
  let rig: PaymentRig;
  let paid: PaidApp;
  before(async () => {
    rig = await startPaymentRig(await writeSebraSnapshot(fixturePayments, fixtureDays));
    paid = await startPaidApp({ db: rig.db, routes: [lettersRoute(true)], env: devPaymentEnv(rig.chain, rig.facilitator.url) });
  });
  after(async () => {
    await paid?.close();
    await rig?.facilitator.stop();
    await rig?.db.close();
  });

  test('on the settled answer and on its replay to a retry with the same payment', async () => {
    const path = '/api/zz/letters?limit=2&offset=2';
    const unpaid = await paid.request(path);
    await unpaid.arrayBuffer();
    assert.equal(unpaid.status, 402);
    assert.equal(unpaid.headers.get('link'), null);
    const signature = await officialPaymentHeader(paid, path, DEV_KEYS.payer);
    const expected = { next: '/api/zz/letters?limit=2&offset=4', prev: '/api/zz/letters?limit=2&offset=0' };
    const answered = await paid.request(path, { headers: { 'PAYMENT-SIGNATURE': signature } });
    assert.equal(answered.status, 200);
    assert.ok(answered.headers.get('payment-response'));
    assert.deepEqual((await answered.json()).items, [{ letter: 'c', position: 3 }, { letter: 'd', position: 4 }]);
    assert.deepEqual(linksOf(answered.headers.get('link')), expected);
    const replayed = await paid.request(path, { headers: { 'PAYMENT-SIGNATURE': signature } });
    assert.equal(replayed.status, 200);
    await replayed.arrayBuffer();
    assert.ok(replayed.headers.get('payment-response'));
    assert.deepEqual(linksOf(replayed.headers.get('link')), expected);
  });
});

describe('a walker following rel="next" collects each list whole (the sample)', () => {
  let sample: TestApp;
  before(async () => {
    sample = await startSampleApp('list-links-');
  });
  after(async () => {
    await sample?.close();
  });

  /** Follows rel="next" from `start`, resolving each target against the URL asked; returns every item and the first page's total. */
  async function walk(start: string): Promise<{ items: unknown[]; total: number; pages: number }> {
    const items: unknown[] = [];
    let total = -1;
    let pages = 0;
    for (let url: string | undefined = start; url !== undefined; pages++) {
      const response = await sample.get(url);
      assert.equal(response.status, 200, url);
      if (total < 0) total = response.body.total;
      items.push(...response.body.items);
      const next = linksOf(response.headers.get('link')).next;
      // A root-relative target, resolved as a client does against the URL it asked.
      const resolved: URL | undefined = next === undefined ? undefined : new URL(next, `http://service.test${url}`);
      url = resolved && resolved.pathname + resolved.search;
      assert.ok(pages < 1000, 'the walk ends');
    }
    return { items, total, pages };
  }

  for (const [start, whole, key] of [
    ['/api/v1/countries?limit=3', '/api/v1/countries?limit=500', 'code'],
    ['/api/v1/commodities?dataset=cereals_prices&limit=4', '/api/v1/commodities?dataset=cereals_prices&limit=500', 'commodity_id'],
  ] as const) {
    test(start, async () => {
      const { items, total, pages } = await walk(start);
      const everything = (await sample.get(whole)).body;
      assert.ok(everything.total <= 500, 'the whole list fits one page of the maximum');
      assert.ok(total > Number(new URLSearchParams(start.split('?')[1]).get('limit')), 'more than one page to walk');
      assert.equal(items.length, total);
      assert.equal(pages, Math.ceil(total / Number(new URLSearchParams(start.split('?')[1]).get('limit'))));
      assert.deepEqual(items, everything.items, `the pages in order are the whole list (${key} and every field)`);
    });
  }

  test('the cards of a class (its page is in `query`)', async () => {
    const { items, total } = await walk('/api/cardgame/getCardsByClass/SHAMAN?limit=7');
    const everything = (await sample.get('/api/cardgame/getCardsByClass/SHAMAN?limit=2000')).body;
    assert.ok(total > 7);
    assert.equal(items.length, total);
    assert.deepEqual(items, everything.items);
  });
});
