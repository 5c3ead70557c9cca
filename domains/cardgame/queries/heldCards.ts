// The card pairs (tables.ts) held in JavaScript per database, so a lookup by name or dbf id and a
// class's page need no statement: each was one keyed read of a few rows, yet cost 2-5 ms of DuckDB's
// fixed work per statement (a dozen text and list columns converted), where a Map lookup costs
// microseconds. The rows are the statements' own (db.all, the same converter), so an answer is the
// one the statements give. A name is looked up here only when it is printable ASCII: DuckDB's lower()
// and JavaScript's toLowerCase() agree there (elsewhere Unicode case rules may differ), so other names
// keep the statement (engine/heldGuards.ts). Bounded (rowsMax, bytesMax, and the shared budget): sets
// over them are not held, and their requests keep the statements.
import type { Row } from '../../../engine/json.ts';
import { heldView } from '../../../engine/held.ts';
import { asciiLower } from '../../../engine/heldGuards.ts';
import { groupRows } from '../../../queries/shared/heldGroups.ts';
import { PAIR_SELECT } from './tables.ts';

export interface HeldCards {
  /** cardgame_pairs rows by name_key (the English name as DuckDB's lower() gave it), in dbf_id order. */
  byNameKey: ReadonlyMap<string, readonly Row[]>;
  byDbfId: ReadonlyMap<number, readonly Row[]>;
  /** cardgame_classes, in its order. */
  classes: readonly string[];
  /** cardgame_class_pairs rows per class (with their positions and totals), in dbf_id order. */
  classPairs: ReadonlyMap<string, readonly Row[]>;
}

/** The name_key DuckDB's lower() gives `name`, when JavaScript can give it too (printable ASCII); else null. */
export const asciiNameKey = asciiLower;

const PAIRS_SQL = `SELECT name_key, ${PAIR_SELECT} FROM cardgame_pairs`;

/** The held pairs, or null when the sets are too large to hold (the statements then answer). */
export const heldCards = heldView<HeldCards>({
  name: 'cardgame.cards',
  sql: {
    pairs: `${PAIRS_SQL} ORDER BY dbf_id`,
    classPairs: 'SELECT * FROM cardgame_class_pairs ORDER BY class, dbf_id',
    classes: 'SELECT class FROM cardgame_classes ORDER BY class',
  },
  count: 'SELECT ((SELECT count(*) FROM cardgame_pairs) + (SELECT count(*) FROM cardgame_class_pairs))::INTEGER AS n',
  key: ['name_key', 'dbf_id', 'class'],
  order: 'dbf_id',
  // The classes' few rows are counted too (the bound was on the pairs alone: 200,000 leaves room).
  rowsMax: 200_000,
  /** Estimated as UTF-16 text plus a fixed cost per row and value. */
  bytesMax: 64 * 2 ** 20,
  build: ({ pairs, classPairs, classes }) => ({
    byNameKey: groupRows(pairs, (row) => String(row.name_key)),
    byDbfId: groupRows(pairs, (row) => Number(row.dbf_id)),
    classes: classes.map((row) => String(row.class)),
    classPairs: groupRows(classPairs, (row) => String(row.class)),
  }),
  parity: [
    {
      part: 'by name, any case (printable ASCII only)',
      probes: `SELECT name FROM (SELECT DISTINCT name FROM cardgame_pairs UNION ALL SELECT DISTINCT upper(name) FROM cardgame_pairs)
        ORDER BY hash(name), name LIMIT 60`,
      keyed: `${PAIRS_SQL} WHERE name_key = lower($name) ORDER BY dbf_id`,
      answer: (held, probe) => {
        const key = asciiNameKey(String(probe.name));
        return key === null ? null : held.byNameKey.get(key) ?? [];
      },
    },
    {
      part: 'by dbf id',
      probes: 'SELECT DISTINCT dbf_id FROM cardgame_pairs ORDER BY hash(dbf_id), dbf_id LIMIT 40',
      keyed: `${PAIRS_SQL} WHERE dbf_id = $dbf_id ORDER BY dbf_id`,
      answer: (held, probe) => held.byDbfId.get(Number(probe.dbf_id)) ?? [],
    },
    {
      part: 'by class',
      probes: 'SELECT class FROM cardgame_classes ORDER BY class',
      keyed: 'SELECT * FROM cardgame_class_pairs WHERE class = $class ORDER BY dbf_id',
      answer: (held, probe) => held.classPairs.get(String(probe.class)) ?? [],
    },
    {
      part: 'the classes',
      probes: 'SELECT 1 AS once',
      keyed: 'SELECT class FROM cardgame_classes ORDER BY class',
      answer: (held) => held.classes.map((name) => ({ class: name })),
    },
  ],
});
