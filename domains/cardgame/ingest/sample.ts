// The project's own small card sets, in the source's JSON format: an English set (cards.enUS.json)
// and a Bulgarian one (cards.bgBG.json) translating part of it. Names and texts are composed from
// the word tables below (nothing is taken from the real card data), so the sets are deterministic.
//
// English set: 4 cards per class for the 12 classes (2 minions, 2 spells; the 4th is a
// non-collectible token) and 6 hand-made cards for the edge cases the queries must handle:
// three variants named "Tidecaller of the Deep" (CORE, LEGACY, a token), a multi-class card with
// `classes` and no `cardClass`, a NEUTRAL card with `classes`, and a card whose only class is in
// `classes`. Bulgarian set: the generated cards at positions 0 and 1 of every 3 and five of the
// hand-made ones (the token variant and the NEUTRAL multi-class card stay untranslated).
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const SAMPLE_FILES = { en: 'cards.enUS.json', bg: 'cards.bgBG.json' } as const;

export const SAMPLE_CLASSES = [
  'DEATHKNIGHT', 'DEMONHUNTER', 'DRUID', 'HUNTER', 'MAGE', 'PALADIN', 'PRIEST', 'ROGUE', 'SHAMAN', 'WARLOCK', 'WARRIOR', 'NEUTRAL',
] as const;

type Gender = 'm' | 'f' | 'n';
interface Adjective { en: string; bg: Record<Gender, string> }
interface Noun { en: string; bg: string; g: Gender }

// One adjective per class (by position), so generated names never repeat.
const ADJECTIVES: readonly Adjective[] = [
  { en: 'Weathered', bg: { m: 'Обрулен', f: 'Обрулена', n: 'Обрулено' } },
  { en: 'Fierce', bg: { m: 'Свиреп', f: 'Свирепа', n: 'Свирепо' } },
  { en: 'Silent', bg: { m: 'Безмълвен', f: 'Безмълвна', n: 'Безмълвно' } },
  { en: 'Burning', bg: { m: 'Горящ', f: 'Горяща', n: 'Горящо' } },
  { en: 'Frozen', bg: { m: 'Замръзнал', f: 'Замръзнала', n: 'Замръзнало' } },
  { en: 'Golden', bg: { m: 'Златен', f: 'Златна', n: 'Златно' } },
  { en: 'Hidden', bg: { m: 'Скрит', f: 'Скрита', n: 'Скрито' } },
  { en: 'Shadowy', bg: { m: 'Сенчест', f: 'Сенчеста', n: 'Сенчесто' } },
  { en: 'Roaring', bg: { m: 'Ревящ', f: 'Ревяща', n: 'Ревящо' } },
  { en: 'Restless', bg: { m: 'Неспокоен', f: 'Неспокойна', n: 'Неспокойно' } },
  { en: 'Crystal', bg: { m: 'Кристален', f: 'Кристална', n: 'Кристално' } },
  { en: 'Wandering', bg: { m: 'Скитащ', f: 'Скитаща', n: 'Скитащо' } },
];

const CREATURES: readonly Noun[] = [
  { en: 'Totem', bg: 'Тотем', g: 'm' },
  { en: 'Guardian', bg: 'Пазител', g: 'm' },
  { en: 'Witch', bg: 'Вещица', g: 'f' },
  { en: 'Wolf', bg: 'Вълк', g: 'm' },
  { en: 'Serpent', bg: 'Змия', g: 'f' },
  { en: 'Golem', bg: 'Голем', g: 'm' },
  { en: 'Creature', bg: 'Създание', g: 'n' },
  { en: 'Sentinel', bg: 'Страж', g: 'm' },
];

const SPELLS: readonly Noun[] = [
  { en: 'Storm', bg: 'Буря', g: 'f' },
  { en: 'Strike', bg: 'Удар', g: 'm' },
  { en: 'Echo', bg: 'Ехо', g: 'n' },
  { en: 'Blessing', bg: 'Благословия', g: 'f' },
  { en: 'Flame', bg: 'Пламък', g: 'm' },
  { en: 'Curse', bg: 'Проклятие', g: 'n' },
  { en: 'Tide', bg: 'Прилив', g: 'm' },
];

interface Ability { en: string; bg: string; mechanics: string[] }
const MINION_ABILITIES: readonly Ability[] = [
  { en: '<b>Battlecry:</b> Deal N damage.', bg: '<b>Боен вик:</b> Нанася N щети.', mechanics: ['BATTLECRY'] },
  { en: '<b>Taunt</b>', bg: '<b>Провокация</b>', mechanics: ['TAUNT'] },
  { en: '<b>Deathrattle:</b> Draw a card.', bg: '<b>Предсмъртен хрип:</b> Изтегли карта.', mechanics: ['DEATHRATTLE'] },
  { en: '[x]<b>Battlecry:</b> Restore #N Health\nto your hero.', bg: '[x]<b>Боен вик:</b> Възстанови #N здраве\nна своя герой.', mechanics: ['BATTLECRY'] },
];
const SPELL_ABILITIES: readonly Ability[] = [
  { en: 'Deal $N damage to a minion.', bg: 'Нанеси $N щети на слуга.', mechanics: [] },
  { en: 'Draw N cards.', bg: 'Изтегли N карти.', mechanics: [] },
  { en: 'Restore #N Health.', bg: 'Възстанови #N здраве.', mechanics: [] },
  { en: 'Deal $N damage. <b>Overload:</b> (1)', bg: 'Нанеси $N щети. <b>Претоварване:</b> (1)', mechanics: ['OVERLOAD'] },
];

const FLAVORS: ReadonlyArray<{ en: string; bg: string }> = [
  { en: 'Nobody remembers who carved it first.', bg: 'Никой не помни кой го е издялал пръв.' },
  { en: 'It came with the morning fog.', bg: 'Дойде с утринната мъгла.' },
  { en: 'Handle with both hands.', bg: 'Дръж го с двете ръце.' },
];
const ARTISTS = ['Mira Stoyanova', 'Tom Ashfield', 'Lena Varga', 'Ivo Petrov'];
const SETS = ['CORE', 'EXPERT1', 'LEGACY'];
const RARITIES = ['COMMON', 'RARE', 'EPIC', 'LEGENDARY'];

/** One card in both languages; `bg` null when the Bulgarian set leaves it out. */
export interface SampleCard {
  id: string;
  dbfId: number;
  cardClass?: string;
  classes?: string[];
  collectible: boolean;
  type: 'MINION' | 'SPELL';
  cost: number;
  attack?: number;
  health?: number;
  rarity: string;
  set: string;
  artist: string;
  mechanics: string[];
  en: { name: string; text: string; flavor?: string };
  bg: { name: string; text: string; flavor?: string } | null;
}

function generatedCards(): SampleCard[] {
  const cards: SampleCard[] = [];
  SAMPLE_CLASSES.forEach((cardClass, c) => {
    const adjective = ADJECTIVES[c]!;
    for (let j = 0; j < 4; j += 1) {
      const index = c * 4 + j;
      const minion = j % 2 === 0;
      const noun = minion ? CREATURES[(c + j) % CREATURES.length]! : SPELLS[(c + j) % SPELLS.length]!;
      const ability = minion ? MINION_ABILITIES[(c + j / 2) % MINION_ABILITIES.length]! : SPELL_ABILITIES[(c + j) % SPELL_ABILITIES.length]!;
      const amount = String(1 + ((c + j) % 4));
      const flavor = j === 3 ? undefined : FLAVORS[(c + j) % FLAVORS.length]!;
      const cost = (c * 3 + j * 2) % 9 + (j === 3 ? 0 : 1);
      const enName = `${adjective.en} ${noun.en}`;
      const bgName = `${adjective.bg[noun.g]} ${noun.bg.toLocaleLowerCase('bg')}`; // Bulgarian titles capitalise the first word only
      cards.push({
        id: `SMP_${String(index + 1).padStart(3, '0')}${j === 3 ? 't' : ''}`,
        dbfId: 90001 + index,
        cardClass,
        collectible: j !== 3,
        type: minion ? 'MINION' : 'SPELL',
        cost,
        ...(minion ? { attack: 1 + ((c + j) % 5), health: 2 + ((c * 2 + j) % 5) } : {}),
        rarity: RARITIES[(c + j) % RARITIES.length]!,
        set: SETS[(c + j) % SETS.length]!,
        artist: ARTISTS[(c + j) % ARTISTS.length]!,
        mechanics: ability.mechanics,
        en: { name: enName, text: ability.en.replace('N', amount), ...(flavor ? { flavor: flavor.en } : {}) },
        bg: index % 3 === 2 ? null : { name: bgName, text: ability.bg.replace('N', amount), ...(flavor ? { flavor: flavor.bg } : {}) },
      });
    }
  });
  return cards;
}

const TIDECALLER = {
  en: { name: 'Tidecaller of the Deep', text: '<b>Battlecry:</b> Summon a 2/2 Totem. <b>Overload:</b> (1)' },
  bg: { name: 'Призовател на дълбините', text: '<b>Боен вик:</b> Призови Тотем 2/2. <b>Претоварване:</b> (1)' },
};

const HAND_MADE: readonly SampleCard[] = [
  {
    id: 'SMP_901', dbfId: 90901, cardClass: 'SHAMAN', collectible: true, type: 'MINION', cost: 4, attack: 3, health: 4,
    rarity: 'RARE', set: 'EXPERT1', artist: 'Lena Varga', mechanics: ['BATTLECRY', 'OVERLOAD'],
    en: { ...TIDECALLER.en, flavor: 'The sea answers, eventually.' },
    bg: { ...TIDECALLER.bg, flavor: 'Морето отговаря, рано или късно.' },
  },
  {
    id: 'CORE_SMP_901', dbfId: 90902, cardClass: 'SHAMAN', collectible: true, type: 'MINION', cost: 4, attack: 3, health: 4,
    rarity: 'RARE', set: 'CORE', artist: 'Lena Varga', mechanics: ['BATTLECRY', 'OVERLOAD'],
    en: { ...TIDECALLER.en }, bg: { ...TIDECALLER.bg },
  },
  {
    id: 'SMP_901t', dbfId: 90903, cardClass: 'SHAMAN', collectible: false, type: 'MINION', cost: 2, attack: 2, health: 2,
    rarity: 'COMMON', set: 'EXPERT1', artist: 'Lena Varga', mechanics: [],
    en: { name: 'Tidecaller of the Deep', text: 'Summoned by the tide.' }, bg: null,
  },
  {
    id: 'SMP_902', dbfId: 90904, classes: ['DRUID', 'MAGE', 'SHAMAN'], collectible: true, type: 'SPELL', cost: 3,
    rarity: 'EPIC', set: 'LEGACY', artist: 'Tom Ashfield', mechanics: ['DISCOVER'],
    en: { name: 'Pact of Three Winds', text: '<b>Discover</b> a spell from any of the three winds.' },
    bg: { name: 'Пакт на трите ветрове', text: '<b>Открий</b> заклинание от който и да е от трите ветрове.' },
  },
  {
    id: 'SMP_903', dbfId: 90905, cardClass: 'NEUTRAL', classes: ['HUNTER', 'ROGUE', 'SHAMAN'], collectible: true, type: 'MINION',
    cost: 2, attack: 2, health: 2, rarity: 'COMMON', set: 'LEGACY', artist: 'Ivo Petrov', mechanics: ['BATTLECRY'],
    en: { name: 'Guild Courier', text: '<b>Battlecry:</b> Draw a card from a guild class.' }, bg: null,
  },
  {
    id: 'SMP_904', dbfId: 90906, classes: ['HUNTER'], collectible: true, type: 'MINION', cost: 1, attack: 1, health: 1,
    rarity: 'COMMON', set: 'CORE', artist: 'Mira Stoyanova', mechanics: [],
    en: { name: 'Lone Wayfinder', text: 'Goes where the others will not.' },
    bg: { name: 'Самотен следотърсач', text: 'Ходи там, където другите не смеят.' },
  },
];

export function sampleCards(): SampleCard[] {
  return [...generatedCards(), ...HAND_MADE];
}

/** One language's card object as the source writes it: keys sorted, empty fields left out. */
function sourceObject(card: SampleCard, words: { name: string; text: string; flavor?: string }): Record<string, unknown> {
  const object: Record<string, unknown> = {
    artist: card.artist, attack: card.attack, cardClass: card.cardClass, classes: card.classes, collectible: card.collectible || undefined,
    cost: card.cost, dbfId: card.dbfId, flavor: words.flavor, health: card.health, id: card.id,
    mechanics: card.mechanics.length > 0 ? card.mechanics : undefined, name: words.name, rarity: card.rarity, set: card.set,
    text: words.text, type: card.type,
  };
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));
}

export async function generateCardgameSample(sampleDir: string): Promise<void> {
  await mkdir(sampleDir, { recursive: true });
  const cards = sampleCards();
  const en = cards.map((card) => sourceObject(card, card.en));
  const bg = cards.flatMap((card) => (card.bg ? [sourceObject(card, card.bg)] : []));
  await writeFile(join(sampleDir, SAMPLE_FILES.en), `${JSON.stringify(en, null, 1)}\n`);
  await writeFile(join(sampleDir, SAMPLE_FILES.bg), `${JSON.stringify(bg, null, 1)}\n`);
}
