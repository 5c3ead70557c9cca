// Response schemas of the card endpoints.
import type { JsonSchema } from '../../../queries/catalog.ts';
import { integer, listOf, nullable, object, text } from '../../../queries/shared/schema.ts';

const nullableInteger = nullable(integer);
const nullableText = nullable(text);

export const cardSchema: JsonSchema = object({
  id: text,
  dbf_id: integer,
  name: text,
  card_class: { ...text, description: 'English enum in upper case (SHAMAN): the source\'s cardClass, else its only class, else NEUTRAL' },
  classes: { ...listOf(text), description: 'every class of a multi-class card, as published; [] otherwise' },
  collectible: { type: 'boolean' },
  cost: nullableInteger,
  attack: nullableInteger,
  health: nullableInteger,
  durability: nullableInteger,
  armor: nullableInteger,
  rarity: nullableText,
  set: nullableText,
  type: nullableText,
  text: nullableText,
  flavor: nullableText,
  artist: nullableText,
  race: nullableText,
  spell_school: nullableText,
  mechanics: listOf(text),
});

export const pairSchema = object({ en: cardSchema, bg: nullable({ ...cardSchema, type: 'object' }) });

export const getCardResponse = object({
  endpoint: { const: 'getCard' },
  query: object({ name: nullableText, dbf_id: nullableInteger }),
  count: integer,
  items: listOf(pairSchema),
});

export const translatedResponse = object({
  endpoint: { const: 'getTranslatedCardInBG' },
  query: object({ name: text }),
  matched_en: object({ id: text, dbf_id: integer, name: text }),
  count: integer,
  items: listOf(cardSchema),
});

export const byClassResponse = object({
  endpoint: { const: 'getCardsByClass' },
  query: object({
    class: { ...text, description: 'the class as given' },
    card_class: { ...text, description: 'the class enum it resolved to' },
    collectible: nullable({ type: 'boolean' }),
    limit: integer,
    offset: { ...integer, description: 'cards skipped before this page (dbf_id order)' },
  }),
  total: { ...integer, description: 'cards of the class (and collectible filter) before limit and offset' },
  count: integer,
  items: listOf(pairSchema),
});

/** Flat rows for CSV and Arrow: the English card and the Bulgarian name and text. */
export const PAIR_COLUMNS = [
  'dbf_id', 'id', 'name', 'card_class', 'classes', 'collectible', 'cost', 'attack', 'health', 'rarity', 'set', 'type', 'text',
  'bg_name', 'bg_text',
] as const;
