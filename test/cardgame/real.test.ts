// The real English card file (../shared/data/real/cardgame/cards.collectible.json, 7,601 cards),
// ingested as it is and queried through HTTP. Every expected value comes from a separate pass over
// the JSON here: a card is in class X when its cardClass is X or its `classes` list X.
// Skipped when the file is absent (it is not part of the project).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { CardLanguage } from '../../domains/cardgame/ingest/parse.ts';
import { ingestCardSets } from '../../domains/cardgame/ingest/snapshot.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { projectRoot, tempDir } from '../ingest/fixtures.ts';

const REAL_FILE = resolve(projectRoot, '../shared/data/real/cardgame/cards.collectible.json');
const skip = existsSync(REAL_FILE) ? false : `real card file not found at ${REAL_FILE}`;

interface SourceCard { id: string; dbfId: number; name: string; cardClass?: string; classes?: string[]; collectible?: boolean; text?: string }

let app: TestApp;
let source: SourceCard[] = [];

describe('the real English card file', { skip }, () => {
  before(async () => {
    source = JSON.parse(await readFile(REAL_FILE, 'utf8')) as SourceCard[];
    const dir = await tempDir('cardgame-real-');
    const dataDir = join(dir, 'parquet');
    await ingestCardSets(new Map<CardLanguage, string[]>([['en', [REAL_FILE]]]), { dataDir });
    app = await startTestApp(dataDir);
  });
  after(() => app?.close());

  const inClass = (card: SourceCard, cardClass: string) => card.cardClass === cardClass || (card.classes ?? []).includes(cardClass);

  test('7,601 cards, 15 of them without cardClass (provenance figures)', () => {
    assert.equal(source.length, 7601);
    assert.equal(source.filter((card) => card.cardClass === undefined).length, 15);
  });

  test('count by class: every class of the file, in the query and the path form, collectible or not', async () => {
    const classes = [...new Set(source.flatMap((card) => [...(card.cardClass ? [card.cardClass] : []), ...(card.classes ?? [])]))].sort();
    assert.equal(classes.length, 12);
    for (const cardClass of classes) {
      const expected = source.filter((card) => inClass(card, cardClass)).map((card) => card.dbfId).sort((a, b) => a - b);
      const response = await app.get(`/api/cardgame/getCardsByClass?class=${cardClass.toLowerCase()}&limit=2000`);
      assert.equal(response.status, 200, JSON.stringify(response.body));
      assert.equal(response.body.total, expected.length, cardClass);
      assert.equal(response.body.count, Math.min(expected.length, 2000), cardClass);
      assert.deepEqual(response.body.items.map((item: any) => item.en.dbf_id), expected.slice(0, 2000), cardClass);
      assert.ok(response.body.items.every((item: any) => item.bg === null));
      // The file is cards.collectible.json: collectible=false finds nothing.
      const none = await app.get(`/api/cardgame/getCardsByClass/${cardClass}?collectible=false`);
      assert.equal(none.body.total, 0, cardClass);
    }
    // Figures of PROVENANCE.md: SHAMAN has 541 cards with cardClass SHAMAN, plus multi-class ones.
    const shaman = await app.get(`/api/cardgame/getCardsByClass/${encodeURIComponent('Шаман')}?limit=1`);
    assert.equal(shaman.body.total, source.filter((card) => inClass(card, 'SHAMAN')).length);
    assert.ok(shaman.body.total >= 541);
  });

  test('the 2,010 NEUTRAL cards are listed whole in pages (limit 2000 and offset; then pages of 500)', async () => {
    const expected = source.filter((card) => inClass(card, 'NEUTRAL')).map((card) => card.dbfId).sort((a, b) => a - b);
    assert.equal(source.filter((card) => card.cardClass === 'NEUTRAL').length, 2010, 'PROVENANCE.md figure');
    assert.ok(expected.length > 2000, 'NEUTRAL is larger than one page');
    for (const limit of [2000, 500]) {
      const listed: number[] = [];
      for (let offset = 0; ; offset += limit) {
        const response = await app.get(`/api/cardgame/getCardsByClass/NEUTRAL?limit=${limit}&offset=${offset}`);
        assert.equal(response.status, 200, JSON.stringify(response.body));
        assert.equal(response.body.total, expected.length);
        assert.equal(response.body.query.offset, offset);
        listed.push(...response.body.items.map((item: any) => item.en.dbf_id));
        if (response.body.count < limit) break;
      }
      assert.deepEqual(listed, expected, `pages of ${limit}`);
    }
  });

  test('the cards without cardClass: NEUTRAL card_class, found under each listed class, not under NEUTRAL', async () => {
    const multi = source.filter((card) => card.cardClass === undefined);
    const neutral = await app.get('/api/cardgame/getCardsByClass/NEUTRAL?limit=2000');
    const neutralIds = new Set<number>(neutral.body.items.map((item: any) => item.en.dbf_id));
    for (const card of multi) {
      const response = await app.get(`/api/cardgame/getCard?dbf_id=${card.dbfId}`);
      assert.equal(response.body.items[0].en.card_class, (card.classes ?? []).length === 1 ? card.classes![0] : 'NEUTRAL');
      assert.deepEqual(response.body.items[0].en.classes, card.classes);
      assert.ok(!neutralIds.has(card.dbfId), card.name);
    }
  });

  test('lookups by dbf id (every 250th card) and by name (the first 40 names that repeat, and single ones)', async () => {
    for (const card of source.filter((_, index) => index % 250 === 0)) {
      const response = await app.get(`/api/cardgame/getCard?dbf_id=${card.dbfId}`);
      assert.equal(response.status, 200);
      assert.equal(response.body.count, 1);
      assert.deepEqual([response.body.items[0].en.id, response.body.items[0].en.name, response.body.items[0].en.text], [card.id, card.name, card.text ?? null]);
    }
    const byName = new Map<string, number[]>();
    for (const card of source) byName.set(card.name.toLowerCase(), [...(byName.get(card.name.toLowerCase()) ?? []), card.dbfId]);
    const repeated = [...byName].filter(([, ids]) => ids.length > 1).slice(0, 40);
    const single = [...byName].filter(([, ids]) => ids.length === 1).slice(0, 20);
    for (const [name, ids] of [...repeated, ...single]) {
      const response = await app.get(`/api/cardgame/getCard?name=${encodeURIComponent(name.toUpperCase())}`);
      assert.equal(response.status, 200, name);
      assert.deepEqual(response.body.items.map((item: any) => item.en.dbf_id), [...ids].sort((a, b) => a - b), name);
    }
    const leeroy = await app.get('/api/cardgame/getCard?name=leeroy%20jenkins&dbf_id=559');
    assert.equal(leeroy.body.items[0].en.id, 'EX1_116');
  });

  test('without a Bulgarian set, a known name translates to no items; an unknown one is a 404', async () => {
    // The file's first name and the ids of every card of that name (computed in one pass: a loop that
    // blocked the event loop past the server's 5 s keep-alive made the next request meet a closed socket).
    const name = source[0]!.name;
    const ids = source.filter((c) => c.name === name).map((c) => c.dbfId);
    const response = await app.get(`/api/cardgame/getTranslatedCardInBG/${encodeURIComponent(name)}`);
    assert.equal(response.status, 200);
    assert.equal(response.body.matched_en.dbf_id, Math.min(...ids));
    assert.equal(response.body.count, 0);
    assert.equal((await app.get('/api/cardgame/getTranslatedCardInBG?name=Not%20A%20Real%20Card%20Name')).status, 404);
  });
});
