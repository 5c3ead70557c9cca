// The card sets in memory and the class membership every class lookup reads (class_members, made
// at ingest: a card's cardClass and every class of its `classes` list), taken from the English set.
import type { Database } from '../../../engine/database.ts';
import type { Row } from '../../../engine/json.ts';
import { loadDataset } from '../../../engine/dataset.ts';
import { CARDGAME_CARDS } from '../datasets.ts';

export async function loadCardgame(db: Database, dataDir: string): Promise<void> {
  // The service does not keep the sets' source file and hash.
  await loadDataset(db, CARDGAME_CARDS, dataDir, { omit: ['source_file', 'file_hash'] });
  await db.run(`CREATE TABLE cardgame_class_members AS
    SELECT DISTINCT dbf_id, unnest(class_members) AS class FROM cardgame_cards WHERE lang = 'en' ORDER BY class, dbf_id`);
  // The classes present, read by every class lookup to resolve the name it was given.
  await db.run('CREATE TABLE cardgame_classes AS SELECT DISTINCT class FROM cardgame_class_members ORDER BY class');
}

/** The card object's fields, in the API's order, each with its cardgame_cards column. */
const CARD_FIELDS: ReadonlyArray<readonly [field: string, column: string]> = [
  ['id', 'id'], ['dbf_id', 'dbf_id'], ['name', 'name'], ['card_class', 'card_class'], ['classes', 'classes'],
  ['collectible', 'collectible'], ['cost', 'cost'], ['attack', 'attack'], ['health', 'health'], ['durability', 'durability'],
  ['armor', 'armor'], ['rarity', 'rarity'], ['set', 'card_set'], ['type', 'type'], ['text', 'text'], ['flavor', 'flavor'],
  ['artist', 'artist'], ['race', 'race'], ['spell_school', 'spell_school'], ['mechanics', 'mechanics'],
];

/** The card object of the API, from one cardgame_cards row. */
export const CARD_SELECT = CARD_FIELDS.map(([field, column]) => (field === column ? column : `${column} AS "${field}"`)).join(', ');

/** The same fields of the row aliased `alias`, each named `<prefix><field>` (a second card in one result row). */
export function prefixedCardSelect(alias: string, prefix: string): string {
  return CARD_FIELDS.map(([field, column]) => `${alias}.${column} AS "${prefix}${field}"`).join(', ');
}

/** The card object whose fields are `<prefix><field>` in row (null when the row has no such card: its dbf_id is null). */
export function cardFromRow(row: Row, prefix = ''): Row | null {
  if (row[`${prefix}dbf_id`] === null || row[`${prefix}dbf_id`] === undefined) return null;
  return Object.fromEntries(CARD_FIELDS.map(([field]) => [field, row[`${prefix}${field}`]!]));
}
