// The card pairs (tables.ts) held in JavaScript per database, so a lookup by name or dbf id and a
// class's page need no statement: each was one keyed read of a few rows, yet cost 2-5 ms of DuckDB's
// fixed work per statement (a dozen text and list columns converted), where a Map lookup costs
// microseconds. The rows are the statements' own (db.all, the same converter), so an answer is the
// one the statements give. A name is looked up here only when it is printable ASCII: DuckDB's lower()
// and JavaScript's toLowerCase() agree there (elsewhere Unicode case rules may differ), so other names
// keep the statement. Bounded: sets with more than ROWS_MAX pair rows or more than BYTES_MAX of text
// are not held, and their requests keep the statements.
import type { Database } from '../../../engine/database.ts';
import type { Row } from '../../../engine/json.ts';
import { perDatabase } from '../../../engine/perDatabase.ts';
import { estimatedRowBytes, groupRows } from '../../../queries/shared/heldGroups.ts';
import { PAIR_SELECT } from './tables.ts';

const ROWS_MAX = 200_000;
/** Estimated as UTF-16 text plus a fixed cost per row and value. */
const BYTES_MAX = 64 * 2 ** 20;

export interface HeldCards {
  /** cardgame_pairs rows by name_key (the English name as DuckDB's lower() gave it), in dbf_id order. */
  byNameKey: ReadonlyMap<string, readonly Row[]>;
  byDbfId: ReadonlyMap<number, readonly Row[]>;
  /** cardgame_classes, in its order. */
  classes: readonly string[];
  /** cardgame_class_pairs rows per class (with their positions and totals), in dbf_id order. */
  classPairs: ReadonlyMap<string, readonly Row[]>;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** The name_key DuckDB's lower() gives `name`, when JavaScript can give it too (printable ASCII); else null. */
export function asciiNameKey(name: string): string | null {
  return PRINTABLE_ASCII.test(name) ? name.toLowerCase() : null;
}

/** The held pairs, or null when the sets are too large to hold. */
export const heldCards = perDatabase(async (db: Database): Promise<HeldCards | null> => {
  const [{ pairs, classPairs }] = await db.all(
    'SELECT (SELECT count(*) FROM cardgame_pairs)::INTEGER AS pairs, (SELECT count(*) FROM cardgame_class_pairs)::INTEGER AS "classPairs"',
  );
  if (Number(pairs) + Number(classPairs) > ROWS_MAX) return null;
  const pairRows = await db.all(`SELECT name_key, ${PAIR_SELECT} FROM cardgame_pairs ORDER BY dbf_id`);
  const classRows = await db.all(`SELECT * FROM cardgame_class_pairs ORDER BY class, dbf_id`);
  if ([...pairRows, ...classRows].reduce((bytes, row) => bytes + estimatedRowBytes(row), 0) > BYTES_MAX) return null;
  const classes = (await db.all('SELECT class FROM cardgame_classes ORDER BY class')).map((row) => String(row.class));
  return {
    byNameKey: groupRows(pairRows, (row) => String(row.name_key)),
    byDbfId: groupRows(pairRows, (row) => Number(row.dbf_id)),
    classes,
    classPairs: groupRows(classRows, (row) => String(row.class)),
  };
});
