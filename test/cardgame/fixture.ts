// Hand-made card sets in the source's JSON format, and what the queries must answer on them,
// worked out by hand here.
//
// English set (dbfId: name, class fields, collectible):
//   101 Storm Caller        cardClass SHAMAN                          collectible
//   102 Storm Caller        cardClass SHAMAN (a reprint, set CORE)    collectible
//   103 Storm Caller        cardClass SHAMAN (its token)              not collectible
//   104 Ember Sprite        cardClass MAGE                            collectible
//   105 Trio Pact           classes [DRUID, MAGE, SHAMAN], no cardClass -> card_class NEUTRAL,
//                           found under DRUID, MAGE and SHAMAN (not under NEUTRAL)      collectible
//   106 Guild Runner        cardClass NEUTRAL, classes [HUNTER, ROGUE] -> NEUTRAL, HUNTER, ROGUE  collectible
//   107 Lone Scout          classes [HUNTER] only -> card_class HUNTER                   collectible
//   108 Plain Footman       cardClass NEUTRAL                                             collectible
//   109 Mirror Image Twin   cardClass MAGE                                                not collectible
//   1001..1205 Drill Sergeant 1..205  cardClass WARRIOR (205 cards, for the limits)   collectible when odd
// Bulgarian set: 101 Призовател на бурята, 102 Призовател на бурята (the token 103 untranslated),
//   105 Пакт на тримата, 107 Самотен съгледвач, 108 Обикновен пехотинец; none of the WARRIOR cards.
//
// So: SHAMAN = 101, 102, 103, 105 (4 cards; collectible 101, 102, 105; non-collectible 103).
//     MAGE = 104, 105, 109. HUNTER = 106, 107. NEUTRAL = 106, 108. DRUID = 105. ROGUE = 106.
//     WARRIOR = 205 cards, 103 of them collectible (odd numbers 1..205).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CardLanguage } from '../../domains/cardgame/ingest/parse.ts';
import { ingestCardSets } from '../../domains/cardgame/ingest/snapshot.ts';
import { tempDir } from '../ingest/fixtures.ts';

export const NOW = () => new Date('2026-11-01T10:00:00Z');

type Card = Record<string, unknown>;

const storm = { cost: 3, attack: 2, health: 3, type: 'MINION', rarity: 'COMMON', artist: 'Test Artist', mechanics: ['BATTLECRY'] };

export const EN_CARDS: Card[] = [
  { ...storm, id: 'T_101', dbfId: 101, name: 'Storm Caller', cardClass: 'SHAMAN', collectible: true, set: 'EXPERT1', text: '<b>Battlecry:</b> Deal 1 damage.', flavor: 'Loud.' },
  { ...storm, id: 'CORE_T_101', dbfId: 102, name: 'Storm Caller', cardClass: 'SHAMAN', collectible: true, set: 'CORE', text: '<b>Battlecry:</b> Deal 1 damage.' },
  { id: 'T_101t', dbfId: 103, name: 'Storm Caller', cardClass: 'SHAMAN', cost: 1, attack: 1, health: 1, type: 'MINION', set: 'EXPERT1', rarity: 'COMMON' },
  { id: 'T_104', dbfId: 104, name: 'Ember Sprite', cardClass: 'MAGE', collectible: true, cost: 2, type: 'SPELL', spellSchool: 'FIRE', set: 'CORE', rarity: 'RARE', text: 'Deal $2 damage.' },
  { id: 'T_105', dbfId: 105, name: 'Trio Pact', classes: ['DRUID', 'MAGE', 'SHAMAN'], collectible: true, cost: 4, type: 'SPELL', set: 'SPACE', rarity: 'EPIC', text: '<b>Discover</b> a spell.' },
  { id: 'T_106', dbfId: 106, name: 'Guild Runner', cardClass: 'NEUTRAL', classes: ['HUNTER', 'ROGUE'], collectible: true, cost: 2, attack: 2, health: 2, type: 'MINION', set: 'GANGS', rarity: 'COMMON', race: 'PIRATE' },
  { id: 'T_107', dbfId: 107, name: 'Lone Scout', classes: ['HUNTER'], collectible: true, cost: 1, attack: 1, health: 1, type: 'MINION', set: 'CORE', rarity: 'COMMON' },
  { id: 'T_108', dbfId: 108, name: 'Plain Footman', cardClass: 'NEUTRAL', collectible: true, cost: 1, attack: 1, health: 2, type: 'MINION', set: 'CORE', rarity: 'FREE', text: '<b>Taunt</b>', mechanics: ['TAUNT'] },
  { id: 'T_109', dbfId: 109, name: 'Mirror Image Twin', cardClass: 'MAGE', cost: 0, attack: 0, health: 2, type: 'MINION', set: 'CORE', rarity: 'COMMON' },
  ...Array.from({ length: 205 }, (_, i) => ({
    id: `T_W${i + 1}`, dbfId: 1001 + i, name: `Drill Sergeant ${i + 1}`, cardClass: 'WARRIOR', cost: i % 10, type: 'MINION',
    attack: 1, health: 1, set: 'CORE', rarity: 'COMMON', ...((i + 1) % 2 === 1 ? { collectible: true } : {}),
  })),
];

const bg = (dbfId: number, name: string, text?: string): Card => {
  const en = EN_CARDS.find((card) => card.dbfId === dbfId)!;
  return { ...en, name, ...(text === undefined ? {} : { text }) };
};

export const BG_CARDS: Card[] = [
  bg(101, 'Призовател на бурята', '<b>Боен вик:</b> Нанася 1 щета.'),
  bg(102, 'Призовател на бурята', '<b>Боен вик:</b> Нанася 1 щета.'),
  bg(105, 'Пакт на тримата', '<b>Открий</b> заклинание.'),
  bg(107, 'Самотен съгледвач'),
  bg(108, 'Обикновен пехотинец', '<b>Провокация</b>'),
];

export async function writeCards(dir: string, name: string, cards: unknown): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, JSON.stringify(cards));
  return file;
}

/** Both sets written and ingested into a fresh data folder; returns the folder. */
export async function fixtureSnapshot(): Promise<string> {
  const dir = await tempDir('cardgame-fixture-');
  const en = await writeCards(dir, 'cards.enUS.json', EN_CARDS);
  const bgFile = await writeCards(dir, 'cards.bgBG.json', BG_CARDS);
  const dataDir = join(dir, 'parquet');
  await ingestCardSets(new Map<CardLanguage, string[]>([['en', [en]], ['bg', [bgFile]]]), { dataDir, now: NOW });
  return dataDir;
}
