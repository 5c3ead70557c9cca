// The card sets in memory and the class membership every class lookup reads (class_members, made
// at ingest: a card's cardClass and every class of its `classes` list), taken from the English set.
import type { Database } from '../../../engine/database.ts';
import { loadParquetInto } from '../../../engine/parquet.ts';

const CARD_COLUMNS = [
  'lang', 'id', 'dbf_id', 'name', 'card_class', 'classes', 'class_members', 'collectible', 'cost', 'attack', 'health',
  'durability', 'armor', 'rarity', 'card_set', 'type', 'text', 'flavor', 'artist', 'race', 'spell_school', 'mechanics',
] as const;

export async function loadCardgame(db: Database, dataDir: string): Promise<void> {
  await db.run(`CREATE TABLE cardgame_cards (
    lang VARCHAR NOT NULL, id VARCHAR NOT NULL, dbf_id INTEGER NOT NULL, name VARCHAR NOT NULL, card_class VARCHAR NOT NULL,
    classes VARCHAR[] NOT NULL, class_members VARCHAR[] NOT NULL, collectible BOOLEAN NOT NULL, cost INTEGER, attack INTEGER,
    health INTEGER, durability INTEGER, armor INTEGER, rarity VARCHAR, card_set VARCHAR, type VARCHAR, text VARCHAR,
    flavor VARCHAR, artist VARCHAR, race VARCHAR, spell_school VARCHAR, mechanics VARCHAR[] NOT NULL,
    PRIMARY KEY (lang, dbf_id))`);
  await loadParquetInto(db, 'cardgame_cards', dataDir, 'cardgame_cards', CARD_COLUMNS);
  await db.run(`CREATE TABLE cardgame_class_members AS
    SELECT DISTINCT dbf_id, unnest(class_members) AS class FROM cardgame_cards WHERE lang = 'en' ORDER BY class, dbf_id`);
}

/** The card object of the API, from one cardgame_cards row. */
export const CARD_SELECT = `id, dbf_id, name, card_class, classes, collectible, cost, attack, health, durability, armor,
  rarity, card_set AS "set", type, text, flavor, artist, race, spell_school, mechanics`;
