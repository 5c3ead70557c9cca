// The card data's public JSON format (HearthstoneJSON cards.json / cards.collectible.json): one
// array of card objects, fields left out when 0 or empty. The Bulgarian set has the same schema
// with translated text fields. Cards may carry `classes` (multi-class) without `cardClass`.
//
// card_class: `cardClass` when given; else the single entry of `classes`; else NEUTRAL. The source
// itself marks older multi-class cards (Grimestreet Informant: cardClass NEUTRAL, classes [HUNTER,
// PALADIN, WARRIOR]) that way, and the 15 SPACE cards that carry only `classes` get the same form.
// Class lookups read classMembers instead: `cardClass` (when given) and every entry of `classes`,
// so a multi-class card is found under each class it lists, and a SPACE card without `cardClass`
// is not listed as NEUTRAL.
import { readFile } from 'node:fs/promises';
import { MalformedSourceError } from '../../../ingest/errors.ts';

export { CARD_LANGUAGES, languageFromFileName, type CardLanguage } from './languages.ts';

export interface CardRecord {
  id: string;
  dbfId: number;
  name: string;
  /** Resolved as described above; never null. */
  cardClass: string;
  /** Multi-class membership as published; [] for single-class cards. */
  classes: string[];
  /** The classes a class lookup finds the card under (see above); never empty. */
  classMembers: string[];
  collectible: boolean;
  cost: number | null;
  attack: number | null;
  health: number | null;
  durability: number | null;
  armor: number | null;
  rarity: string | null;
  set: string | null;
  type: string | null;
  text: string | null;
  flavor: string | null;
  artist: string | null;
  race: string | null;
  spellSchool: string | null;
  mechanics: string[];
}

const CLASS_ENUM = /^[A-Z][A-Z_]*$/;

function optionalString(card: Record<string, unknown>, key: string, problem: (message: string) => never): string | null {
  const value = card[key];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') problem(`"${key}" must be a string`);
  return value;
}

function optionalInteger(card: Record<string, unknown>, key: string, problem: (message: string) => never): number | null {
  const value = card[key];
  if (value === undefined || value === null) return null;
  if (!Number.isInteger(value)) problem(`"${key}" must be an integer`);
  return value as number;
}

function stringList(card: Record<string, unknown>, key: string, problem: (message: string) => never): string[] {
  const value = card[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) problem(`"${key}" must be a list of strings`);
  return value as string[];
}

function classMembers(cardClass: string | null, classes: readonly string[]): string[] {
  const members = [...new Set([...(cardClass === null ? [] : [cardClass]), ...classes])];
  return members.length > 0 ? members : ['NEUTRAL'];
}

/** One card object; `row` is its 1-based position in the array, for the error message. */
export function parseCard(file: string, row: number, value: unknown): CardRecord {
  const problem = (message: string): never => {
    throw new MalformedSourceError(file, row, message);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) problem('a card must be a JSON object');
  const card = value as Record<string, unknown>;
  if (typeof card.id !== 'string' || card.id.trim() === '') problem('"id" is missing');
  if (!Number.isInteger(card.dbfId) || (card.dbfId as number) <= 0) problem('"dbfId" must be a positive integer');
  if (typeof card.name !== 'string' || card.name.trim() === '') problem('"name" is missing');
  const cardClass = optionalString(card, 'cardClass', problem);
  const classes = stringList(card, 'classes', problem);
  for (const name of [cardClass, ...classes]) {
    if (name !== null && !CLASS_ENUM.test(name)) problem(`class "${name}" is not an upper-case enum name`);
  }
  if (card.collectible !== undefined && typeof card.collectible !== 'boolean') problem('"collectible" must be true or false');
  return {
    id: (card.id as string).trim(),
    dbfId: card.dbfId as number,
    name: (card.name as string).trim(),
    cardClass: cardClass ?? (classes.length === 1 ? classes[0]! : 'NEUTRAL'),
    classes,
    classMembers: classMembers(cardClass, classes),
    collectible: card.collectible === true,
    cost: optionalInteger(card, 'cost', problem),
    attack: optionalInteger(card, 'attack', problem),
    health: optionalInteger(card, 'health', problem),
    durability: optionalInteger(card, 'durability', problem),
    armor: optionalInteger(card, 'armor', problem),
    rarity: optionalString(card, 'rarity', problem),
    set: optionalString(card, 'set', problem),
    type: optionalString(card, 'type', problem),
    text: optionalString(card, 'text', problem),
    flavor: optionalString(card, 'flavor', problem),
    artist: optionalString(card, 'artist', problem),
    race: optionalString(card, 'race', problem),
    spellSchool: optionalString(card, 'spellSchool', problem),
    mechanics: stringList(card, 'mechanics', problem),
  };
}

/** A whole card file; a repeated dbfId is refused (the id of a card within one set). */
export async function parseCardFile(file: string): Promise<CardRecord[]> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new MalformedSourceError(file, null, `not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!Array.isArray(data)) throw new MalformedSourceError(file, null, 'expected a JSON array of cards');
  const seen = new Map<number, number>();
  return data.map((value, index) => {
    const card = parseCard(file, index + 1, value);
    const earlier = seen.get(card.dbfId);
    if (earlier !== undefined) throw new MalformedSourceError(file, index + 1, `dbfId ${card.dbfId} repeats card ${earlier}`);
    seen.set(card.dbfId, index + 1);
    return card;
  });
}
