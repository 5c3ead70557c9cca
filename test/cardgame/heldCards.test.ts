// The card pairs held in JavaScript (heldCards.ts) answer as the keyed statements over cardgame_pairs
// and cardgame_class_pairs do: by name (any case; a name that is not printable ASCII keeps the
// statement), by dbf id, by both, and every class's pages with and without the collectible filter.
// Over the hand-made fixture and, when present, the real English card file (7,601 cards); on each, a
// stride of the cards beside the edge ones, and on the real file a stride of the smaller class pages
// beside every whole class. The statements are written here; the answers come through HTTP.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { CardLanguage } from '../../domains/cardgame/ingest/parse.ts';
import { ingestCardSets } from '../../domains/cardgame/ingest/snapshot.ts';
import { asciiNameKey, heldCards } from '../../domains/cardgame/queries/heldCards.ts';
import { cardFromRow, PAIR_BG_PREFIX, PAIR_SELECT } from '../../domains/cardgame/queries/tables.ts';
import type { Row } from '../../engine/json.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { combinations, strided } from '../helpers/sample.ts';
import { projectRoot, tempDir } from '../ingest/fixtures.ts';
import { fixtureSnapshot } from './fixture.ts';

const REAL_FILE = resolve(projectRoot, '../shared/data/real/cardgame/cards.collectible.json');

const pairs = (rows: Row[]) => JSON.parse(JSON.stringify(rows.map((row) => ({ en: cardFromRow(row), bg: cardFromRow(row, PAIR_BG_PREFIX) }))));

/** Limit and offset of the class pages asked for: small ones, a whole class, past a class's end. */
const PAGES: Array<[number, number]> = [[3, 0], [2, 1], [2000, 0], [5, 200], [10, 100_000]];
const WHOLE_CLASS = PAGES[2]!;
type ClassPage = [string, 'all' | 'true' | 'false', [number, number]];

/**
 * The checks, over one snapshot: by name and dbf id, the cards `sample` picks from all of them (in dbf
 * id order); the class pages `samplePages` picks from every class, filter and page.
 */
function heldCardChecks(
  snapshot: () => Promise<{ dataDir: string; cleanup?: () => Promise<void> }>,
  sample: (all: Row[]) => Row[],
  samplePages: (all: ClassPage[]) => ClassPage[],
) {
  let app: TestApp;
  let cleanup: (() => Promise<void>) | undefined;
  before(async () => {
    const made = await snapshot();
    cleanup = made.cleanup;
    app = await startTestApp(made.dataDir);
  });
  after(async () => {
    await app?.close();
    await cleanup?.();
  });

  async function byStatement(name: string | null, dbfId: number | null): Promise<unknown[]> {
    return pairs(await app.db.all(
      `SELECT ${PAIR_SELECT} FROM cardgame_pairs WHERE ($name IS NULL OR name_key = lower($name)) AND ($dbf_id IS NULL OR dbf_id = CAST($dbf_id AS INTEGER)) ORDER BY dbf_id`,
      { name, dbf_id: dbfId === null ? null : String(dbfId) },
    ));
  }

  test('the sets are held', async () => {
    const held = await heldCards(app.db);
    assert.ok(held);
    const [{ n }] = await app.db.all('SELECT count(*)::INTEGER AS n FROM cardgame_pairs');
    assert.equal([...held.byDbfId.values()].reduce((sum, rows) => sum + rows.length, 0), Number(n));
  });

  test('getCard and getTranslatedCardInBG by name (as given, upper case, lower case), dbf id and both', async () => {
    const cards = sample(await app.db.all('SELECT name, dbf_id FROM cardgame_pairs ORDER BY dbf_id'));
    let compared = 0;
    for (const { name, dbf_id: dbfId } of cards) {
      for (const form of [String(name), String(name).toUpperCase(), String(name).toLowerCase()]) {
        const expected = await byStatement(form, null);
        const body = (await app.get(`/api/cardgame/getCard?name=${encodeURIComponent(form)}`)).body;
        assert.deepEqual(body.items, expected, form);
        const translated = (await app.get(`/api/cardgame/getTranslatedCardInBG?name=${encodeURIComponent(form)}`)).body;
        assert.deepEqual(translated.items, (expected as Array<{ bg: unknown }>).flatMap((pair) => (pair.bg === null ? [] : [pair.bg])), form);
        compared++;
      }
      const byId = await app.get(`/api/cardgame/getCard?dbf_id=${dbfId}`);
      assert.deepEqual(byId.body.items, await byStatement(null, Number(dbfId)));
      const both = await app.get(`/api/cardgame/getCard?name=${encodeURIComponent(String(name))}&dbf_id=${dbfId}`);
      assert.deepEqual(both.body.items, await byStatement(String(name), Number(dbfId)));
      const other = await app.get(`/api/cardgame/getCard?name=${encodeURIComponent(String(name))}&dbf_id=${Number(dbfId) + 1_000_000}`);
      assert.equal(other.status, 404, 'a name with another card\'s dbf id matches nothing');
    }
    assert.ok(compared >= 3 * cards.length && cards.length > 5, `${compared} names compared`);
  });

  test('a name that is not printable ASCII is looked up by the statement', async () => {
    assert.equal(asciiNameKey('Storm Caller'), 'storm caller');
    assert.equal(asciiNameKey('Stórm Caller'), null);
    assert.equal(asciiNameKey('Storm\tCaller'), null);
    const [{ name }] = await app.db.all('SELECT name FROM cardgame_pairs ORDER BY dbf_id LIMIT 1');
    // A Cyrillic capital in place of a Latin letter: matches no English card, in SQL as here.
    const lookalike = String(name).replace(/[Ee]/, 'Е');
    const body = await app.get(`/api/cardgame/getCard?name=${encodeURIComponent(lookalike)}`);
    assert.deepEqual([body.status, (await byStatement(lookalike, null)).length], lookalike === String(name) ? [200, 1] : [404, 0]);
  });

  test('getCardsByClass: every class, collectible or not, whole and paged, as the statement pages it', async () => {
    const classes = (await app.db.all('SELECT class FROM cardgame_classes ORDER BY class')).map((row) => String(row.class));
    const columns = { all: 'position', true: 'collectible_position', false: 'noncollectible_position' } as const;
    const pages = combinations(classes, ['all', 'true', 'false'] as const, PAGES);
    let compared = 0;
    for (const [cardClass, collectible, [limit, offset]] of samplePages(pages)) {
      const position = columns[collectible];
      const [{ total }] = await app.db.all(`SELECT count(*)::INTEGER AS total FROM cardgame_class_pairs WHERE class = $class AND ${position} IS NOT NULL`, { class: cardClass });
      const expected = await app.db.all(
        `SELECT ${PAIR_SELECT} FROM cardgame_class_pairs WHERE class = $class AND ${position} > $offset AND ${position} <= $offset + $limit ORDER BY dbf_id`,
        { class: cardClass, offset, limit },
      );
      const query = `limit=${limit}&offset=${offset}${collectible === 'all' ? '' : `&collectible=${collectible}`}`;
      const body = (await app.get(`/api/cardgame/getCardsByClass/${encodeURIComponent(cardClass)}?${query}`)).body;
      assert.deepEqual([body.total, body.items], [Number(total), pairs(expected)], `${cardClass} ${query}`);
      compared++;
    }
    // Every class, collectible or not, whole (WHOLE_CLASS) at least.
    assert.ok(compared >= 3 * classes.length && classes.length >= 3, `${compared} pages compared`);
  });
}

/** Drill Sergeants whose names begin others' ("Drill Sergeant 1" those of 10-19 and 100-199), and the last one. */
const EDGE_SERGEANTS = new Set(['Drill Sergeant 1', 'Drill Sergeant 2', 'Drill Sergeant 205']);

describe('held cards: the hand-made fixture', () => {
  // Each card costs nine requests. Every hand-made card (dbf ids 101-109: the shared names, the token,
  // the cards with several classes or none in Bulgarian); of the 205 Drill Sergeants, alike but for their
  // number (they are there for the class pages' limits), the edge ones and a stride.
  heldCardChecks(async () => ({ dataDir: await fixtureSnapshot() }), (all) => {
    const cards = strided(all, 20, (card) => Number(card.dbf_id) < 1000 || EDGE_SERGEANTS.has(String(card.name)));
    assert.equal(cards.filter((card) => Number(card.dbf_id) < 1000).length, 9);
    return cards;
  }, (pages) => pages); // every class page: WARRIOR's 205 cards are there for the limits
});

describe('held cards: the real English card file', { skip: existsSync(REAL_FILE) ? false : `real card file not found at ${REAL_FILE}` }, () => {
  // Each card costs nine requests: a stride over the dbf ids keeps names of every era and set (the
  // point: real names answer as the statement does) at a fraction of the time.
  heldCardChecks(async () => {
    const dir = await tempDir('cardgame-held-real-');
    const dataDir = join(dir, 'parquet');
    await ingestCardSets(new Map<CardLanguage, string[]>([['en', [REAL_FILE]]]), { dataDir });
    return { dataDir, cleanup: () => rm(dir, { recursive: true, force: true }) };
  }, (all) => strided(all, Math.max(1, Math.floor(all.length / 40))),
  // Every class, collectible or not, whole (so every card in every class list is compared); its other
  // pages by a stride coprime with the 3 filters and the 5 pages.
  (pages) => strided(pages, 4, ([, , page]) => page === WHOLE_CLASS));
});
