// The generated card sample: deterministic, in the source format, with what the endpoints need
// (a partial Bulgarian set, English variants sharing a name, SHAMAN cards, collectible and not,
// multi-class cards), and made by the project, not copied from the real file.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { parseCardFile } from '../../domains/cardgame/ingest/parse.ts';
import { generateCardgameSample, SAMPLE_FILES } from '../../domains/cardgame/ingest/sample.ts';
import { cardgameSampleSource } from '../../domains/cardgame/ingest/sampleSource.ts';
import { startTestApp } from '../helpers/app.ts';
import { projectRoot, tempDir } from '../ingest/fixtures.ts';

const REAL_FILE = resolve(projectRoot, '../shared/data/real/cardgame/cards.collectible.json');

async function generated() {
  const dir = await tempDir('cardgame-sample-');
  await generateCardgameSample(dir);
  return {
    dir,
    enText: await readFile(join(dir, SAMPLE_FILES.en), 'utf8'),
    bgText: await readFile(join(dir, SAMPLE_FILES.bg), 'utf8'),
    en: await parseCardFile(join(dir, SAMPLE_FILES.en)),
    bg: await parseCardFile(join(dir, SAMPLE_FILES.bg)),
  };
}

test('the sample is the same every time and parses as the source format', async () => {
  const [a, b] = [await generated(), await generated()];
  assert.equal(a.enText, b.enText);
  assert.equal(a.bgText, b.bgText);
  assert.ok(a.en.length >= 50);
  // Fields are left out when empty, as the source does: no nulls in the files.
  assert.ok(!a.enText.includes('null') && !a.bgText.includes('null'));
});

test('Bulgarian covers part of the English set, with the same cards translated', async () => {
  const { en, bg } = await generated();
  const english = new Map(en.map((card) => [card.dbfId, card]));
  assert.ok(bg.length > 0 && bg.length < en.length);
  for (const card of bg) {
    const original = english.get(card.dbfId);
    assert.ok(original, `bg card ${card.dbfId} has an English card`);
    assert.deepEqual([card.id, card.cardClass, card.classes, card.collectible, card.cost], [original.id, original.cardClass, original.classes, original.collectible, original.cost]);
    assert.match(card.name, /[А-Яа-я]/);
    assert.notEqual(card.name, original.name);
  }
});

test('English variants share a name and several have Bulgarian cards; SHAMAN, collectible and not, multi-class', async () => {
  const { en, bg } = await generated();
  const translated = new Set(bg.map((card) => card.dbfId));
  const byName = new Map<string, number[]>();
  for (const card of en) byName.set(card.name, [...(byName.get(card.name) ?? []), card.dbfId]);
  assert.ok([...byName.values()].some((ids) => ids.filter((id) => translated.has(id)).length >= 2));
  const shaman = en.filter((card) => card.classMembers.includes('SHAMAN'));
  assert.ok(shaman.some((card) => card.collectible) && shaman.some((card) => !card.collectible));
  assert.ok(shaman.some((card) => translated.has(card.dbfId)) && shaman.some((card) => !translated.has(card.dbfId)));
  assert.ok(en.some((card) => card.classes.length > 1));
});

test('no sample card name or id is taken from the real file', { skip: existsSync(REAL_FILE) ? false : `real card file not found at ${REAL_FILE}` }, async () => {
  const real = JSON.parse(await readFile(REAL_FILE, 'utf8')) as Array<{ id: string; dbfId: number; name: string }>;
  const names = new Set(real.map((card) => card.name.toLowerCase()));
  const ids = new Set(real.map((card) => card.id));
  const dbfIds = new Set(real.map((card) => card.dbfId));
  for (const card of (await generated()).en) {
    assert.ok(!names.has(card.name.toLowerCase()), card.name);
    assert.ok(!ids.has(card.id), card.id);
    assert.ok(!dbfIds.has(card.dbfId), String(card.dbfId));
  }
});

test('the sample source builds a snapshot the card endpoints answer from', async () => {
  const { dir } = await generated();
  const dataDir = join(dir, 'parquet');
  assert.equal(await cardgameSampleSource.isLoaded(dataDir), false);
  const { files, rows } = await cardgameSampleSource.ingest({ dataDir, sampleDir: dir, log: () => undefined });
  assert.equal(files, 2);
  assert.equal(await cardgameSampleSource.isLoaded(dataDir), true);
  const { en, bg } = await generated();
  assert.equal(rows, en.length + bg.length);
  const app = await startTestApp(dataDir);
  try {
    const response = await app.get('/api/cardgame/getTranslatedCardInBG/Tidecaller%20of%20the%20Deep');
    assert.equal(response.status, 200);
    assert.equal(response.body.count, 2);
  } finally {
    await app.close();
  }
});
