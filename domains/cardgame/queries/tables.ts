// The card sets in memory and the class membership every class lookup reads (class_members, made
// at ingest: a card's cardClass and every class of its `classes` list), taken from the English set.
// Every answer is a list of pairs (an English card and the Bulgarian card of its dbf_id), so the pairs
// are joined once here: cardgame_pairs (by dbf_id, with the lookup key of the name) and
// cardgame_class_pairs (per class, each pair's position in the class's dbf_id order, among all of its
// cards and among its collectible and non-collectible ones), so a lookup or a page is one keyed read
// of few rows instead of a join, a window and a sort at request time.
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
  // (lang, dbf_id) is the set's primary key: one row per English card, with its Bulgarian card or nulls.
  await db.run(`CREATE TABLE cardgame_pairs AS
    SELECT lower(en.name) AS name_key, ${prefixedCardSelect('en', '')}, ${prefixedCardSelect('bg', PAIR_BG_PREFIX)}
      FROM cardgame_cards en LEFT JOIN cardgame_cards bg ON bg.lang = 'bg' AND bg.dbf_id = en.dbf_id
     WHERE en.lang = 'en' ORDER BY en.dbf_id`);
  // A card whose collectible is null is in neither filtered list (it equals neither true nor false).
  await db.run(`CREATE TABLE cardgame_class_pairs AS
    SELECT m.class,
           row_number() OVER (PARTITION BY m.class ORDER BY p.dbf_id) AS position,
           count(*) OVER (PARTITION BY m.class) AS total,
           CASE WHEN p.collectible THEN row_number() OVER (PARTITION BY m.class, p.collectible ORDER BY p.dbf_id) END AS collectible_position,
           count(*) FILTER (WHERE p.collectible) OVER (PARTITION BY m.class) AS collectible_total,
           CASE WHEN NOT p.collectible THEN row_number() OVER (PARTITION BY m.class, p.collectible ORDER BY p.dbf_id) END AS noncollectible_position,
           count(*) FILTER (WHERE NOT p.collectible) OVER (PARTITION BY m.class) AS noncollectible_total,
           p.* EXCLUDE (name_key)
      FROM cardgame_class_members m JOIN cardgame_pairs p ON p.dbf_id = m.dbf_id
     ORDER BY m.class, p.dbf_id`);
}

/** The prefix of the Bulgarian card's fields in a pair row (cardFromRow(row, PAIR_BG_PREFIX)). */
export const PAIR_BG_PREFIX = 'bg__';

/** The card object's fields, in the API's order, each with its cardgame_cards column. */
const CARD_FIELDS: ReadonlyArray<readonly [field: string, column: string]> = [
  ['id', 'id'], ['dbf_id', 'dbf_id'], ['name', 'name'], ['card_class', 'card_class'], ['classes', 'classes'],
  ['collectible', 'collectible'], ['cost', 'cost'], ['attack', 'attack'], ['health', 'health'], ['durability', 'durability'],
  ['armor', 'armor'], ['rarity', 'rarity'], ['set', 'card_set'], ['type', 'type'], ['text', 'text'], ['flavor', 'flavor'],
  ['artist', 'artist'], ['race', 'race'], ['spell_school', 'spell_school'], ['mechanics', 'mechanics'],
];

/** The pair columns of cardgame_pairs and cardgame_class_pairs: the English card's fields, then the Bulgarian card's. */
export const PAIR_SELECT = [...CARD_FIELDS.map(([field]) => `"${field}"`), ...CARD_FIELDS.map(([field]) => `"${PAIR_BG_PREFIX}${field}"`)].join(', ');

/** The same fields of the row aliased `alias`, each named `<prefix><field>` (a second card in one result row). */
export function prefixedCardSelect(alias: string, prefix: string): string {
  return CARD_FIELDS.map(([field, column]) => `${alias}.${column} AS "${prefix}${field}"`).join(', ');
}

/** The card object whose fields are `<prefix><field>` in row (null when the row has no such card: its dbf_id is null). */
export function cardFromRow(row: Row, prefix = ''): Row | null {
  if (row[`${prefix}dbf_id`] === null || row[`${prefix}dbf_id`] === undefined) return null;
  return Object.fromEntries(CARD_FIELDS.map(([field]) => [field, row[`${prefix}${field}`]!]));
}
