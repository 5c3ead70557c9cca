// The card snapshot table, declared once for the writer (ingest/snapshot.ts) and the loader
// (queries/tables.ts).
import { defineDataset } from '../../engine/dataset.ts';

/** One row per card and language (en, bg); each language holds its latest complete set. */
export const CARDGAME_CARDS = defineDataset({
  name: 'cardgame_cards',
  columns: [
    { name: 'lang', type: 'VARCHAR', notNull: true },
    { name: 'id', type: 'VARCHAR', notNull: true },
    { name: 'dbf_id', type: 'INTEGER', notNull: true },
    { name: 'name', type: 'VARCHAR', notNull: true },
    { name: 'card_class', type: 'VARCHAR', notNull: true },
    { name: 'classes', type: 'VARCHAR[]', notNull: true },
    /** The card's cardClass and every class of its classes list, made at ingest. */
    { name: 'class_members', type: 'VARCHAR[]', notNull: true },
    { name: 'collectible', type: 'BOOLEAN', notNull: true },
    { name: 'cost', type: 'INTEGER' },
    { name: 'attack', type: 'INTEGER' },
    { name: 'health', type: 'INTEGER' },
    { name: 'durability', type: 'INTEGER' },
    { name: 'armor', type: 'INTEGER' },
    { name: 'rarity', type: 'VARCHAR' },
    { name: 'card_set', type: 'VARCHAR' },
    { name: 'type', type: 'VARCHAR' },
    { name: 'text', type: 'VARCHAR' },
    { name: 'flavor', type: 'VARCHAR' },
    { name: 'artist', type: 'VARCHAR' },
    { name: 'race', type: 'VARCHAR' },
    { name: 'spell_school', type: 'VARCHAR' },
    { name: 'mechanics', type: 'VARCHAR[]', notNull: true },
    { name: 'source_file', type: 'VARCHAR', notNull: true },
    /** The set's file hash: a file is a no-op when it is its language's current set. */
    { name: 'file_hash', type: 'VARCHAR', notNull: true },
  ],
  orderBy: ['lang', 'dbf_id'],
  primaryKey: ['lang', 'dbf_id'],
});
