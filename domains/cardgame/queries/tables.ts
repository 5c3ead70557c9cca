// The card sets in memory and the class membership every class lookup reads (class_members, made
// at ingest: a card's cardClass and every class of its `classes` list), taken from the English set.
import type { Database } from '../../../engine/database.ts';
import { loadDataset } from '../../../engine/dataset.ts';
import { CARDGAME_CARDS } from '../datasets.ts';

export async function loadCardgame(db: Database, dataDir: string): Promise<void> {
  // The service does not keep the sets' source file and hash.
  await loadDataset(db, CARDGAME_CARDS, dataDir, { omit: ['source_file', 'file_hash'] });
  await db.run(`CREATE TABLE cardgame_class_members AS
    SELECT DISTINCT dbf_id, unnest(class_members) AS class FROM cardgame_cards WHERE lang = 'en' ORDER BY class, dbf_id`);
}

/** The card object of the API, from one cardgame_cards row. */
export const CARD_SELECT = `id, dbf_id, name, card_class, classes, collectible, cost, attack, health, durability, armor,
  rarity, card_set AS "set", type, text, flavor, artist, race, spell_school, mechanics`;
