// Staging a CSV source in the ingest's scratch database, the one way every CSV parser here does it:
// DuckDB's read_csv reads the file and the source's SQL reads the records in the forms it knows (fast,
// no JavaScript per row); the records it leaves go, in file order, to the source's own JavaScript
// reader, which reads them or names the problem (so the messages are the JavaScript ones); what that
// reader reads is merged back into the one staged table. Problems are reported uniformly: the file and
// line of the first one in file order (a record DuckDB could not read, a record the reader refuses, a
// key given twice).
import type { Database } from '../engine/database.ts';
import { FieldError } from './csvRecords.ts';
import { firstProblem, firstRepeatedKey, rawRecords, readCsvInto, type BadRecord, type CsvStageOptions, type CsvTable, type RecordQuery, type RepeatedKey } from './duckdbCsv.ts';
import { MalformedSourceError } from './errors.ts';

/** What the JavaScript reader says of a record it reads but does not keep (another series, an indicator not held). */
export const SKIPPED = Symbol('skipped record');

/** A cell of a staged table as the fallback reader gives it. */
export type StagedValue = string | number | null;

/**
 * The JavaScript reader of the records the SQL leaves: `fields` are the record's fields as DuckDB read
 * them (text; null for a field a short record lacks), `line` the line it ends on. It returns the
 * record's staged values (in the order of the merge's columns) or SKIPPED, or throws: a FieldError
 * (named at the file and line here) or a MalformedSourceError.
 */
export type FallbackReader = (fields: ReadonlyArray<string | null>, line: number) => readonly StagedValue[] | typeof SKIPPED;

export interface CsvStaging {
  /** The file as messages name it. */
  file: string;
  /** The bytes DuckDB reads (a UTF-8 copy, say); default `file`. */
  path?: string;
  /** The staged table's name (new in the database). */
  table: string;
  csv: CsvStageOptions;
  /** The DuckDB-first read: one row per record, in order (see readCsvInto). Default: the fields as they are. */
  query?: RecordQuery;
  /** A record DuckDB could not read, as the source words it. */
  badRecord: (bad: BadRecord) => MalformedSourceError;
  /**
   * 'in order' (default): the bad record is a problem among the others, the first in file order wins,
   * and only the records before it go to the reader. 'at once': it refuses the file before any
   * record is judged (what a reader that parses the whole file first does).
   */
  badRecordRefuses?: 'in order' | 'at once';
  /** SQL work on the read before the records left are found (the source's own normalising step). */
  afterRead?: (read: CsvTable) => Promise<void>;
  /**
   * Where the reader's records go. `update`: the read's own rows (the query gives `ok`, true where the
   * SQL read the record): a row it read gets these columns' values and ok = true. `append`: a table of
   * the source (`line` then its columns) holding the records the SQL read, to which the reader's are
   * appended (the read's table is then scratch, dropped once staged).
   */
  merge: { update: readonly string[]; unread?: string } | { append: string };
  /** The records the SQL leaves, read in JavaScript (see FallbackReader). */
  reader: FallbackReader;
  /** A key no two staged records may share (`name AS expression` pairs over the staged rows), and the problem of one given twice. */
  uniqueKey?: { columns: ReadonlyArray<readonly [string, string]>; problem: (repeated: RepeatedKey) => MalformedSourceError };
}

export interface StagedCsv {
  /**
   * The read. Update mode: `table` and `lined` (with `line` and `row_index` first) hold the staged
   * rows, WHERE ok. Append mode: already dropped (the staged rows are in the source's table).
   */
  read: CsvTable;
  /** Records the reader read (its values merged). */
  readInJavaScript: number;
  /** Records the reader returned SKIPPED for. */
  skippedInJavaScript: number;
}

/**
 * Stages a CSV file (see the top of this file). In update mode the staged rows are `read.table`, WHERE
 * ok; the caller drops them (read.drop) when done. On a problem the first in file order is thrown and
 * the read is dropped (in append mode the source's table is the caller's to drop).
 */
export async function stageCsv(db: Database, staging: CsvStaging): Promise<StagedCsv> {
  const { file, csv, merge } = staging;
  const path = staging.path ?? file;
  const read = await readCsvInto(db, path, staging.table, csv, staging.query);
  const appending = 'append' in merge;
  try {
    const problems: MalformedSourceError[] = [];
    const bad = read.firstBadRecord;
    if (bad) {
      const problem = staging.badRecord(bad);
      if (staging.badRecordRefuses === 'at once') throw problem;
      problems.push(problem);
    }
    if (staging.afterRead) await staging.afterRead(read);
    // The records the SQL left, in file order (none past a bad record: the first problem wins).
    const before: Record<string, number> = bad?.line ? { before: bad.line } : {};
    const unread = await db.all(appending
      ? `SELECT l.line, l.row_index FROM ${read.lined} l ANTI JOIN ${merge.append} t USING (line) ${bad?.line ? 'WHERE l.line < $before' : ''} ORDER BY l.line`
      : `SELECT line, row_index FROM ${read.lined} WHERE ${merge.unread ?? 'NOT ok'} ${bad?.line ? 'AND line < $before' : ''} ORDER BY line`, before);
    const rowIndex = new Map(unread.map((r) => [Number(r.line), Number(r.row_index)]));
    const accepted: StagedValue[][] = [];
    let skipped = 0;
    for (const row of await rawRecords(db, path, csv, [...rowIndex.keys()])) {
      const line = Number(row.line);
      const fields = Array.from({ length: csv.fields }, (_, i) => (row[`c${i}`] === null || row[`c${i}`] === undefined ? null : String(row[`c${i}`])));
      let values: readonly StagedValue[] | typeof SKIPPED;
      try {
        values = staging.reader(fields, line);
      } catch (error) {
        if (error instanceof FieldError) problems.push(new MalformedSourceError(file, line, error.message));
        else if (error instanceof MalformedSourceError) problems.push(error);
        else throw error;
        break;
      }
      if (values === SKIPPED) skipped++;
      else accepted.push(appending ? [line, ...values] : [rowIndex.get(line)!, ...values]);
    }
    if (accepted.length > 0) {
      if (appending) await db.appendRows(merge.append, accepted);
      else await mergeInPlace(db, read.table, merge.update, accepted);
    }
    if (staging.uniqueKey) {
      const staged = appending ? merge.append : `(SELECT * FROM ${read.lined} WHERE ok)`;
      const repeated = await firstRepeatedKey(db, staged, staging.uniqueKey.columns);
      if (repeated) problems.push(staging.uniqueKey.problem(repeated));
    }
    const first = firstProblem(problems);
    if (first) throw first;
    if (appending) await read.drop();
    return { read, readInJavaScript: accepted.length, skippedInJavaScript: skipped };
  } catch (error) {
    await read.drop();
    throw error;
  }
}

/** The reader's values into the rows they came from (by rowid), marked read. */
async function mergeInPlace(db: Database, table: string, columns: readonly string[], rows: StagedValue[][]): Promise<void> {
  const values = `${table}_js`;
  await db.run(`CREATE TABLE ${values} AS SELECT 0 AS row_index, ${columns.join(', ')} FROM ${table} LIMIT 0`);
  try {
    await db.appendRows(values, rows);
    await db.run(`UPDATE ${table} SET ok = true, ${columns.map((c) => `${c} = js.${c}`).join(', ')} FROM ${values} js WHERE ${table}.rowid = js.row_index`);
  } finally {
    await db.run(`DROP TABLE ${values}`);
  }
}

/** A field as csv-parse with `trim` reads it: CR, LF, form feed, space and tab before it, trimEnd() after it. */
export function csvParseTrim(field: string): string {
  return field.replace(/^[\r\n\f \t]+/, '').trimEnd();
}
