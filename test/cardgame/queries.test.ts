// The card endpoints over the hand-made fixture (test/cardgame/fixture.ts: the expected sets are
// worked out there), through HTTP: values, orderings, class forms, collectible, limits, CSV.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { fixtureSnapshot } from './fixture.ts';

let app: TestApp;
before(async () => {
  app = await startTestApp(await fixtureSnapshot());
});
after(() => app?.close());

async function ok(path: string) {
  const response = await app.get(path);
  assert.equal(response.status, 200, `${path}: ${JSON.stringify(response.body)}`);
  return response.body;
}

const dbfIds = (items: Array<{ en: { dbf_id: number } }>) => items.map((item) => item.en.dbf_id);
const enc = encodeURIComponent;

describe('getCard', () => {
  test('by name, any case: every English card of that name by dbf_id, each with its Bulgarian card or null', async () => {
    const body = await ok('/api/cardgame/getCard?name=sTORM%20cALLER');
    assert.deepEqual(body.query, { name: 'sTORM cALLER', dbf_id: null });
    assert.equal(body.count, 3);
    assert.deepEqual(dbfIds(body.items), [101, 102, 103]);
    assert.deepEqual(body.items.map((item: any) => item.bg?.name ?? null), ['Призовател на бурята', 'Призовател на бурята', null]);
    assert.deepEqual(body.items[0].en, {
      id: 'T_101', dbf_id: 101, name: 'Storm Caller', card_class: 'SHAMAN', classes: [], collectible: true, cost: 3, attack: 2,
      health: 3, durability: null, armor: null, rarity: 'COMMON', set: 'EXPERT1', type: 'MINION', text: '<b>Battlecry:</b> Deal 1 damage.',
      flavor: 'Loud.', artist: 'Test Artist', race: null, spell_school: null, mechanics: ['BATTLECRY'],
    });
    // The Bulgarian card: same card, translated text fields.
    assert.equal(body.items[0].bg.dbf_id, 101);
    assert.equal(body.items[0].bg.text, '<b>Боен вик:</b> Нанася 1 щета.');
    assert.equal(body.items[0].bg.card_class, 'SHAMAN');
    // The token has no collectible field in the source: false.
    assert.equal(body.items[2].en.collectible, false);
  });

  test('by dbf_id; by both (both must match)', async () => {
    const byId = await ok('/api/cardgame/getCard?dbf_id=104');
    assert.deepEqual(byId.query, { name: null, dbf_id: 104 });
    assert.deepEqual(dbfIds(byId.items), [104]);
    assert.equal(byId.items[0].en.spell_school, 'FIRE');
    assert.equal(byId.items[0].bg, null);
    const both = await ok('/api/cardgame/getCard?name=storm%20caller&dbf_id=102');
    assert.deepEqual(both.query, { name: 'storm caller', dbf_id: 102 });
    assert.deepEqual(dbfIds(both.items), [102]);
    assert.equal(both.items[0].en.set, 'CORE');
  });

  test('surrounding spaces of the name are ignored', async () => {
    assert.deepEqual(dbfIds((await ok(`/api/cardgame/getCard?name=${enc('  Ember Sprite ')}`)).items), [104]);
  });

  test('card_class of cards without cardClass: the single class, else NEUTRAL; classes as published', async () => {
    const pact = (await ok('/api/cardgame/getCard?dbf_id=105')).items[0].en;
    assert.equal(pact.card_class, 'NEUTRAL');
    assert.deepEqual(pact.classes, ['DRUID', 'MAGE', 'SHAMAN']);
    const scout = (await ok('/api/cardgame/getCard?dbf_id=107')).items[0].en;
    assert.equal(scout.card_class, 'HUNTER');
    assert.deepEqual(scout.classes, ['HUNTER']);
  });

  test('CSV: one row per English card with the Bulgarian name and text', async () => {
    const response = await app.get('/api/cardgame/getCard?name=Storm%20Caller&format=csv');
    assert.equal(response.status, 200);
    const rows = parse(response.body as string, { columns: true }) as Array<Record<string, string>>;
    assert.deepEqual(rows.map((row) => [row.dbf_id, row.name, row.bg_name]), [
      ['101', 'Storm Caller', 'Призовател на бурята'], ['102', 'Storm Caller', 'Призовател на бурята'], ['103', 'Storm Caller', ''],
    ]);
  });
});

describe('getTranslatedCardInBG', () => {
  test('several English variants give several Bulgarian items; matched_en is the first English match', async () => {
    for (const path of ['/api/cardgame/getTranslatedCardInBG?name=STORM%20CALLER', '/api/cardgame/getTranslatedCardInBG/storm%20caller']) {
      const body = await ok(path);
      assert.deepEqual(body.matched_en, { id: 'T_101', dbf_id: 101, name: 'Storm Caller' });
      // 101 and 102 are translated, the token 103 is not.
      assert.equal(body.count, 2);
      assert.deepEqual(body.items.map((card: any) => [card.dbf_id, card.name]), [[101, 'Призовател на бурята'], [102, 'Призовател на бурята']]);
    }
  });

  test('query echo; a name known in English but untranslated gives no items', async () => {
    const body = await ok('/api/cardgame/getTranslatedCardInBG?name=Ember%20Sprite');
    assert.deepEqual(body.query, { name: 'Ember Sprite' });
    assert.deepEqual(body.matched_en, { id: 'T_104', dbf_id: 104, name: 'Ember Sprite' });
    assert.equal(body.count, 0);
    assert.deepEqual(body.items, []);
  });

  test('exact match only: a part of the name is not a match', async () => {
    assert.equal((await app.get('/api/cardgame/getTranslatedCardInBG?name=Storm')).status, 404);
  });

  test('CSV lists the Bulgarian cards', async () => {
    const response = await app.get('/api/cardgame/getTranslatedCardInBG/Trio%20Pact?format=csv');
    const rows = parse(response.body as string, { columns: true }) as Array<Record<string, string>>;
    assert.deepEqual(rows.map((row) => [row.dbf_id, row.name, row.classes]), [['105', 'Пакт на тримата', '["DRUID","MAGE","SHAMAN"]']]);
  });
});

describe('getCardsByClass', () => {
  test('SHAMAN, Shaman, shaman, Шаман, ШАМАН in the query and the path form give the same cards', async () => {
    const forms = ['SHAMAN', 'Shaman', 'shaman', 'Шаман', 'ШАМАН'];
    for (const form of forms) {
      for (const path of [`/api/cardgame/getCardsByClass?class=${enc(form)}`, `/api/cardgame/getCardsByClass/${enc(form)}`]) {
        const body = await ok(path);
        assert.deepEqual(body.query, { class: form, card_class: 'SHAMAN', collectible: null, limit: 200, offset: 0 }, path);
        // SHAMAN = 101, 102, 103 and the multi-class 105.
        assert.deepEqual(dbfIds(body.items), [101, 102, 103, 105], path);
        assert.equal(body.count, 4);
        assert.equal(body.total, 4);
      }
    }
  });

  test('items pair each English card with its Bulgarian card, null when untranslated', async () => {
    const body = await ok('/api/cardgame/getCardsByClass?class=Shaman');
    assert.deepEqual(body.items.map((item: any) => item.bg?.name ?? null), ['Призовател на бурята', 'Призовател на бурята', null, 'Пакт на тримата']);
  });

  test('multi-class membership: cardClass and every listed class', async () => {
    const expected: Record<string, number[]> = {
      MAGE: [104, 105, 109], HUNTER: [106, 107], NEUTRAL: [106, 108], DRUID: [105], ROGUE: [106],
    };
    for (const [cardClass, ids] of Object.entries(expected)) {
      assert.deepEqual(dbfIds((await ok(`/api/cardgame/getCardsByClass/${cardClass}`)).items), ids, cardClass);
    }
  });

  test('other class forms: Bulgarian words, spaced English names', async () => {
    const cases: Array<[string, string]> = [
      ['Маг', 'MAGE'], ['Ловец', 'HUNTER'], ['Неутрален', 'NEUTRAL'], ['Воин', 'WARRIOR'], ['Друид', 'DRUID'], ['Разбойник', 'ROGUE'],
      ['Demon Hunter', 'DEMONHUNTER'], ['demon_hunter', 'DEMONHUNTER'], ['Ловец на демони', 'DEMONHUNTER'], ['Рицар на смъртта', 'DEATHKNIGHT'],
    ];
    for (const [form, cardClass] of cases) {
      assert.equal((await ok(`/api/cardgame/getCardsByClass?class=${enc(form)}&limit=1`)).query.card_class, cardClass, form);
    }
  });

  test('a known class without cards is an empty list', async () => {
    const body = await ok('/api/cardgame/getCardsByClass?class=PRIEST');
    assert.equal(body.count, 0);
    assert.equal(body.total, 0);
  });

  test('collectible=true / false', async () => {
    assert.deepEqual(dbfIds((await ok('/api/cardgame/getCardsByClass?class=SHAMAN&collectible=true')).items), [101, 102, 105]);
    assert.deepEqual(dbfIds((await ok('/api/cardgame/getCardsByClass/SHAMAN?collectible=false')).items), [103]);
    assert.deepEqual(dbfIds((await ok('/api/cardgame/getCardsByClass/MAGE?collectible=false')).items), [109]);
  });

  test('limit: default 200 of 205 by dbf_id, max 2000, total before the limit', async () => {
    const byDefault = await ok('/api/cardgame/getCardsByClass?class=Warrior');
    assert.equal(byDefault.query.limit, 200);
    assert.equal(byDefault.count, 200);
    assert.equal(byDefault.total, 205);
    assert.deepEqual(dbfIds(byDefault.items), Array.from({ length: 200 }, (_, i) => 1001 + i));
    const all = await ok('/api/cardgame/getCardsByClass?class=Warrior&limit=2000');
    assert.equal(all.count, 205);
    const three = await ok('/api/cardgame/getCardsByClass/WARRIOR?limit=3');
    assert.deepEqual(dbfIds(three.items), [1001, 1002, 1003]);
    // Collectible warriors: odd numbers 1..205 -> 103 cards, dbfIds 1001, 1003, ...
    const collectible = await ok('/api/cardgame/getCardsByClass/WARRIOR?collectible=true&limit=2000');
    assert.equal(collectible.total, 103);
    assert.deepEqual(dbfIds(collectible.items).slice(0, 3), [1001, 1003, 1005]);
  });

  test('offset: pages of the 205 warriors in dbf_id order join up to the whole class; past the end is an empty page', async () => {
    // Warriors are dbf 1001..1205 (fixture): pages of 80 at offsets 0, 80, 160 hold 80, 80 and 45 cards.
    const pages = [];
    for (const offset of [0, 80, 160]) {
      const body = await ok(`/api/cardgame/getCardsByClass?class=Warrior&limit=80&offset=${offset}`);
      assert.equal(body.query.offset, offset);
      assert.equal(body.query.limit, 80);
      assert.equal(body.total, 205);
      pages.push(dbfIds(body.items));
    }
    assert.deepEqual(pages.map((ids) => ids.length), [80, 80, 45]);
    assert.deepEqual(pages.flat(), Array.from({ length: 205 }, (_, i) => 1001 + i));
    const pathForm = await ok('/api/cardgame/getCardsByClass/WARRIOR?collectible=true&limit=2&offset=1');
    assert.deepEqual(dbfIds(pathForm.items), [1003, 1005]);
    const past = await ok('/api/cardgame/getCardsByClass/WARRIOR?offset=205');
    assert.equal(past.count, 0);
    assert.equal(past.total, 205);
    assert.deepEqual(past.items, []);
    for (const bad of ['-1', 'abc', '1.5']) {
      const response = await app.get(`/api/cardgame/getCardsByClass/WARRIOR?offset=${bad}`);
      assert.equal(response.status, 400, bad);
      assert.equal(response.body.error.param, 'offset', bad);
    }
  });

  test('CSV: English fields with the Bulgarian name and text, null as empty', async () => {
    const response = await app.get('/api/cardgame/getCardsByClass/SHAMAN?format=csv');
    const rows = parse(response.body as string, { columns: true }) as Array<Record<string, string>>;
    assert.deepEqual(rows.map((row) => [row.dbf_id, row.card_class, row.bg_name]), [
      ['101', 'SHAMAN', 'Призовател на бурята'], ['102', 'SHAMAN', 'Призовател на бурята'], ['103', 'SHAMAN', ''], ['105', 'NEUTRAL', 'Пакт на тримата'],
    ]);
  });
});
