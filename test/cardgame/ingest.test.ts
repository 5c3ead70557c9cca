// The card ingest: parsing the source format (class resolution, omitted fields), import records,
// re-ingest as a no-op, malformed files rejected by file/row/problem with the snapshot unchanged,
// a new file replacing its language's set, and `npm run ingest -- cardgame`.
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Database } from '../../engine/database.ts';
import { sqlStringLiteral } from '../../engine/parquet.ts';
import { filesByLanguage } from '../../domains/cardgame/ingest/command.ts';
import { languageFromFileName, parseCard, type CardLanguage } from '../../domains/cardgame/ingest/parse.ts';
import { CARD_SOURCE_URL, ingestCardSets } from '../../domains/cardgame/ingest/snapshot.ts';
import { IngestRejectedError, MalformedSourceError } from '../../ingest/errors.ts';
import { readImportRecords } from '../../domains/sebra/ingest/snapshot.ts';
import { runCli } from '../helpers/cli.ts';
import { ingestInProcess } from '../helpers/ingestCli.ts';
import { tempDir } from '../ingest/fixtures.ts';
import { BG_CARDS, EN_CARDS, NOW, writeCards } from './fixture.ts';

const sets = (entries: Array<[CardLanguage, string[]]>) => new Map<CardLanguage, string[]>(entries);

async function cards(dataDir: string): Promise<Array<{ lang: string; dbf_id: number; name: string }>> {
  const db = await Database.open({ connections: 1 });
  try {
    const file = sqlStringLiteral(join(dataDir, 'cardgame_cards.parquet'));
    return (await db.all(`SELECT lang, dbf_id, name FROM read_parquet(${file}) ORDER BY lang, dbf_id`)) as never;
  } finally {
    await db.close();
  }
}

async function snapshotBytes(dataDir: string): Promise<Map<string, Buffer>> {
  const files = (await readdir(dataDir)).sort();
  return new Map(await Promise.all(files.map(async (name) => [name, await readFile(join(dataDir, name))] as const)));
}

describe('parseCard', () => {
  const base = { id: 'X_1', dbfId: 7, name: 'Test' };
  test('card_class: cardClass, else the single class, else NEUTRAL; lookups by cardClass and classes', () => {
    const cases: Array<[Record<string, unknown>, string, string[]]> = [
      [{ cardClass: 'SHAMAN' }, 'SHAMAN', ['SHAMAN']],
      [{ classes: ['HUNTER'] }, 'HUNTER', ['HUNTER']],
      [{ classes: ['DRUID', 'MAGE'] }, 'NEUTRAL', ['DRUID', 'MAGE']],
      [{ cardClass: 'NEUTRAL', classes: ['HUNTER', 'ROGUE'] }, 'NEUTRAL', ['NEUTRAL', 'HUNTER', 'ROGUE']],
      [{}, 'NEUTRAL', ['NEUTRAL']],
    ];
    for (const [fields, cardClass, members] of cases) {
      const card = parseCard('f.json', 1, { ...base, ...fields });
      assert.equal(card.cardClass, cardClass, JSON.stringify(fields));
      assert.deepEqual(card.classMembers, members, JSON.stringify(fields));
    }
  });

  test('omitted fields are null / [] / not collectible', () => {
    const card = parseCard('f.json', 1, base);
    assert.equal(card.collectible, false);
    assert.equal(card.cost, null);
    assert.equal(card.text, null);
    assert.deepEqual(card.mechanics, []);
    assert.deepEqual(card.classes, []);
  });

  test('every problem names the file, the row and the field', () => {
    const bad: Array<[unknown, RegExp]> = [
      [[1], /a card must be a JSON object/],
      [{ dbfId: 7, name: 'x' }, /"id" is missing/],
      [{ id: 'X', name: 'x' }, /"dbfId" must be a positive integer/],
      [{ id: 'X', dbfId: '7', name: 'x' }, /"dbfId" must be a positive integer/],
      [{ id: 'X', dbfId: 7 }, /"name" is missing/],
      [{ ...base, collectible: 'yes' }, /"collectible" must be true or false/],
      [{ ...base, cost: 2.5 }, /"cost" must be an integer/],
      [{ ...base, classes: 'MAGE' }, /"classes" must be a list of strings/],
      [{ ...base, cardClass: 'shaman' }, /class "shaman" is not an upper-case enum name/],
      [{ ...base, text: 5 }, /"text" must be a string/],
    ];
    for (const [value, message] of bad) {
      assert.throws(() => parseCard('cards.json', 4, value), (error: unknown) => {
        assert.ok(error instanceof MalformedSourceError);
        assert.equal(error.file, 'cards.json');
        assert.equal(error.row, 4);
        assert.match(error.problem, message);
        return true;
      });
    }
  });
});

test('languages from file or folder names, or --lang', () => {
  assert.equal(languageFromFileName('/x/cards.enUS.json'), 'en');
  assert.equal(languageFromFileName('/x/cards.bgBG.json'), 'bg');
  assert.equal(languageFromFileName('/x/bgBG/cards.json'), 'bg');
  assert.equal(languageFromFileName('/x/cards.collectible.json'), null);
  assert.deepEqual([...filesByLanguage(['/a/cards.json'], 'bg')], [['bg', ['/a/cards.json']]]);
  assert.throws(() => filesByLanguage(['/a/cards.json'], undefined), /--lang/);
  assert.throws(() => filesByLanguage(['/a/cards.json'], 'de'), /--lang must be en or bg/);
});

test('both sets are imported with their records; the same files again are a no-op', async () => {
  const dir = await tempDir('cardgame-ingest-');
  const en = await writeCards(dir, 'cards.enUS.json', EN_CARDS);
  const bg = await writeCards(dir, 'cards.bgBG.json', BG_CARDS);
  const dataDir = join(dir, 'parquet');
  const first = await ingestCardSets(sets([['en', [en]], ['bg', [bg]]]), { dataDir, now: NOW });
  assert.deepEqual(first.imported.map((r) => [r.dataset, r.source, r.sourceFile, r.sourceUrl, r.rowCount, r.importDate]), [
    ['cardgame_en', 'hearthstonejson', 'cards.enUS.json', CARD_SOURCE_URL, EN_CARDS.length, '2026-11-01T10:00:00.000Z'],
    ['cardgame_bg', 'hearthstonejson', 'cards.bgBG.json', CARD_SOURCE_URL, BG_CARDS.length, '2026-11-01T10:00:00.000Z'],
  ]);
  const stored = await cards(dataDir);
  assert.equal(stored.filter((c) => c.lang === 'en').length, 214);
  assert.deepEqual(stored.filter((c) => c.lang === 'bg').map((c) => c.dbf_id), [101, 102, 105, 107, 108]);

  const before = await snapshotBytes(dataDir);
  const again = await ingestCardSets(sets([['en', [en]], ['bg', [bg]]]), { dataDir, now: () => new Date('2026-11-02T10:00:00Z') });
  assert.deepEqual(again.imported, []);
  assert.deepEqual(again.skipped, [en, bg]);
  assert.deepEqual(await snapshotBytes(dataDir), before);
  assert.equal((await readImportRecords(dataDir)).length, 2);
});

test('a new file for a language replaces that set and keeps the other; the older file again restores it', async () => {
  const dir = await tempDir('cardgame-replace-');
  const en = await writeCards(dir, 'cards.enUS.json', EN_CARDS.slice(0, 9));
  const bg = await writeCards(dir, 'cards.bgBG.json', BG_CARDS);
  const dataDir = join(dir, 'parquet');
  await ingestCardSets(sets([['en', [en]], ['bg', [bg]]]), { dataDir, now: NOW });

  const newer = await writeCards(dir, 'cards-newer.json', [{ id: 'N_1', dbfId: 5000, name: 'Newcomer', cardClass: 'PRIEST', collectible: true }]);
  const result = await ingestCardSets(sets([['en', [newer]]]), { dataDir, now: () => new Date('2026-11-03T10:00:00Z') });
  assert.equal(result.imported.length, 1);
  const stored = await cards(dataDir);
  assert.deepEqual(stored.filter((c) => c.lang === 'en').map((c) => c.name), ['Newcomer']);
  assert.equal(stored.filter((c) => c.lang === 'bg').length, 5);

  // The first English file is no longer the current set, so it is imported again.
  const back = await ingestCardSets(sets([['en', [en]]]), { dataDir, now: () => new Date('2026-11-04T10:00:00Z') });
  assert.equal(back.imported.length, 1);
  assert.deepEqual((await cards(dataDir)).filter((c) => c.lang === 'en').map((c) => c.dbf_id), [101, 102, 103, 104, 105, 106, 107, 108, 109]);
  assert.deepEqual((await readImportRecords(dataDir)).map((r) => r.dataset), ['cardgame_bg', 'cardgame_en', 'cardgame_en', 'cardgame_en']);
});

test('malformed files are rejected by file, row and problem; nothing is written', async () => {
  const dir = await tempDir('cardgame-reject-');
  const en = await writeCards(dir, 'cards.enUS.json', EN_CARDS.slice(0, 9));
  const dataDir = join(dir, 'parquet');
  await ingestCardSets(sets([['en', [en]]]), { dataDir, now: NOW });
  const before = await snapshotBytes(dataDir);

  const notJson = join(dir, 'broken.json');
  await writeFile(notJson, '[{"id": "X"');
  const notArray = await writeCards(dir, 'object.json', { cards: [] });
  const badRow = await writeCards(dir, 'badrow.json', [EN_CARDS[0], { id: 'Y', name: 'No id number' }]);
  const repeated = await writeCards(dir, 'repeated.json', [EN_CARDS[0], EN_CARDS[1], { ...EN_CARDS[2], dbfId: 101 }]);
  const goodBg = await writeCards(dir, 'cards.bgBG.json', BG_CARDS);

  const expectations: Array<[string, RegExp]> = [
    [notJson, /broken\.json: not JSON/],
    [notArray, /object\.json: expected a JSON array of cards/],
    [badRow, /badrow\.json, row 2: "dbfId" must be a positive integer/],
    [repeated, /repeated\.json, row 3: dbfId 101 repeats card 1/],
  ];
  for (const [file, message] of expectations) {
    // A good Bulgarian file in the same run is not written either.
    await assert.rejects(ingestCardSets(sets([['en', [file]], ['bg', [goodBg]]]), { dataDir, now: NOW }), (error: unknown) => {
      assert.ok(error instanceof IngestRejectedError);
      assert.match(error.message, message);
      assert.match(error.message, /snapshot unchanged/);
      return true;
    });
    assert.deepEqual(await snapshotBytes(dataDir), before, file);
  }

  const second = await writeCards(dir, 'cards-two.json', EN_CARDS.slice(3, 5));
  const third = await writeCards(dir, 'cards-three.json', EN_CARDS.slice(5, 7));
  await assert.rejects(ingestCardSets(sets([['en', [second, third]]]), { dataDir, now: NOW }), /a second new en card set in one run/);
  assert.deepEqual(await snapshotBytes(dataDir), before);
});

describe('npm run ingest -- cardgame', () => {
  // The first run is the child process npm starts (its exit code and stderr); the others are the same
  // command in this process (test/helpers/ingestCli.ts), with the same exit codes and lines.
  test('imports with --lang, skips the same file, reads languages from names in a folder', async () => {
    const dir = await tempDir('cardgame-cli-');
    const file = await writeCards(dir, 'cards.collectible.json', EN_CARDS.slice(0, 9));
    const dataDir = join(dir, 'parquet');
    const first = await runCli('bin/ingest.ts', ['cardgame', file, '--lang', 'en', '--data-dir', dataDir]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /imported 1 file\(s\), 9 row\(s\)/);
    const again = await ingestInProcess(['cardgame', file, '--lang', 'en', '--data-dir', dataDir]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /imported 0 file\(s\), 0 row\(s\); skipped 1/);

    const folder = join(dir, 'sets');
    await mkdir(folder);
    await writeCards(folder, 'cards.enUS.json', EN_CARDS.slice(0, 5));
    await writeCards(folder, 'cards.bgBG.json', BG_CARDS);
    // The English set goes from 9 cards to 5: the shrink rule (issue 17) wants --allow-shrink for that.
    const both = await ingestInProcess(['cardgame', folder, '--data-dir', dataDir, '--allow-shrink']);
    assert.equal(both.code, 0, both.stderr);
    assert.match(both.stderr, /imported 2 file\(s\), 10 row\(s\)/);
  });

  test('a malformed file exits 1 naming it; a bad --lang or an unnamed language exits 2', async () => {
    const dir = await tempDir('cardgame-cli-bad-');
    const dataDir = join(dir, 'parquet');
    const bad = await writeCards(dir, 'cards.json', [{ id: 'A', dbfId: 1, name: 'A' }, { id: 'B', dbfId: -3, name: 'B' }]);
    const malformed = await ingestInProcess(['cardgame', bad, '--lang', 'en', '--data-dir', dataDir]);
    assert.equal(malformed.code, 1);
    assert.match(malformed.stderr, /cards\.json, row 2: "dbfId" must be a positive integer/);
    const wrongLang = await ingestInProcess(['cardgame', bad, '--lang', 'de', '--data-dir', dataDir]);
    assert.equal(wrongLang.code, 2);
    const noLang = await ingestInProcess(['cardgame', bad, '--data-dir', dataDir]);
    assert.equal(noLang.code, 2);
    assert.match(noLang.stderr, /pass --lang en or --lang bg/);
  });
});
