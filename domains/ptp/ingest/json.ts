// The JSON forms of the per-accident data read through DuckDB, like the CSV form (csv.ts): JSON.parse
// still decides whether the file is JSON at all (DuckDB's reader accepts trailing commas, NaN and
// several top-level values, which JSON.parse refuses), and the parsed value's shape and cell types are
// checked in JavaScript (one pass, no record built). When every cell is text (or null), DuckDB reads
// the same file into a table of text cells and the CSV form's SQL normalises it, the rows it does not
// read going to recordFromRow with the parsed cells: the same records and messages as the JavaScript
// reader, without building a record per row in JavaScript and appending it cell by cell. Any other
// file (not UTF-8, not JSON, another shape, a number, boolean or nested value in a cell, a repeated
// key) is left to the JavaScript reader (parse.ts): the caller gets null.
import { readFile } from 'node:fs/promises';
import type { Database } from '../../../engine/database.ts';
import { sqlStringLiteral } from '../../../engine/parquet.ts';
import { nextStageId, stageCells, type StagedPtpCsv } from './csv.ts';
import { locateColumns, recordFromRow, type Column, type ColumnIndex } from './rows.ts';
import type { PtpRecord } from './types.ts';
import type { Cell } from './values.ts';

/** The largest single JSON value read_json accepts: the portal form is one object holding every row. */
const MAXIMUM_OBJECT_SIZE = 2_000_000_000;

/** A cell DuckDB reads as the same text JSON.parse gives (a string without NUL, or null). */
function isTextCell(cell: unknown): boolean {
  return cell === null || (typeof cell === 'string' && !cell.includes('\u0000'));
}

/** The parsed value's rows when it is the portal form ({"data":[[headers],[row],...]}) or an array of objects, every cell text; else null. */
function textRows(value: unknown): { form: 'portal'; rows: unknown[][] } | { form: 'objects'; rows: Array<Record<string, unknown>> } | null {
  if (Array.isArray(value)) {
    if (value.length === 0) return null;
    for (const row of value) {
      if (typeof row !== 'object' || row === null || Array.isArray(row)) return null;
      for (const key in row) if (!isTextCell((row as Record<string, unknown>)[key])) return null;
    }
    return { form: 'objects', rows: value as Array<Record<string, unknown>> };
  }
  if (typeof value !== 'object' || value === null || !('data' in value)) return null;
  if ('success' in value && value.success === false) return null;
  const data = value.data;
  // A header and at least one row; fewer is the JavaScript reader's to refuse.
  if (!Array.isArray(data) || data.length < 2) return null;
  for (const row of data) {
    if (!Array.isArray(row)) return null;
    for (const cell of row) if (!isTextCell(cell)) return null;
  }
  return { form: 'portal', rows: data as unknown[][] };
}

/** UTF-8 text of the file, or null when it is not (the JavaScript reader then tries CP1251). */
function utf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/**
 * Reads a PTP JSON file into a scratch table of `db` as stagePtpCsv does; null when the file is one the
 * JavaScript reader must read (see the top of this file). Throws the JavaScript reader's
 * MalformedSourceError for a missing column or a row it refuses.
 */
export async function stagePtpJson(db: Database, file: string): Promise<StagedPtpCsv | null> {
  const text = utf8(await readFile(file));
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return null;
  }
  const parsed = textRows(value);
  if (parsed === null) return null;
  const id = nextStageId();
  const cellsTable = `ptp_json_${id}_cells`;
  try {
    let index: ColumnIndex;
    let cellOf: (line: number, column: Column) => Cell;
    if (parsed.form === 'portal') {
      // Lines as recordsFromTable numbers them: the header is line 1, the i-th row after it line i + 1.
      const header = parsed.rows[0]!.map((cell) => String(cell ?? ''));
      index = locateColumns(header, file, 1, 'position');
      const positions = [...new Set(Object.values(index) as number[])];
      const ok = await readOrNull(db, `CREATE TABLE ${cellsTable} AS SELECT line, ${positions.map((p) => `coalesce(r[${p + 1}], '') AS c${p}`).join(', ')}
        FROM (SELECT unnest(generate_series(1, len(data)))::INTEGER AS line, unnest(data) AS r
          FROM read_json(${sqlStringLiteral(file)}, format = 'unstructured', records = true, columns = {data: 'VARCHAR[][]'}, maximum_object_size = ${MAXIMUM_OBJECT_SIZE}))
        WHERE line >= 2`);
      if (!ok || !(await sameRowCount(db, cellsTable, parsed.rows.length - 1))) return dropped(db, cellsTable);
      const rows = parsed.rows;
      cellOf = (line, column) => (index[column] === undefined ? undefined : ((rows[line - 1]![index[column] as number] ?? null) as Cell));
    } else {
      // Every key in order of first appearance, as recordsFromObjects lists the headers; objects are numbered from 1.
      const seen = new Set<string>();
      for (const row of parsed.rows) for (const key of Object.keys(row)) seen.add(key);
      const byName = locateColumns([...seen], file, null, 'name');
      const keys = [...new Set(Object.values(byName) as string[])];
      index = Object.fromEntries(Object.entries(byName).map(([column, key]) => [column, keys.indexOf(key as string)]));
      // A repeated key: JSON.parse keeps the last value, DuckDB's map both; such a file is the JavaScript reader's.
      const ok = await readOrNull(db, `CREATE TABLE ${cellsTable} AS SELECT ordinality::INTEGER AS line,
          ${keys.map((key, k) => `coalesce(json[${sqlStringLiteral(key)}], '') AS c${k}`).join(', ')},
          cardinality(json) = len(list_distinct(map_keys(json))) AS unique_keys
        FROM read_json(${sqlStringLiteral(file)}, format = 'array', records = false, columns = {json: 'MAP(VARCHAR, VARCHAR)'}, maximum_object_size = ${MAXIMUM_OBJECT_SIZE})
        WITH ORDINALITY`);
      if (!ok || !(await sameRowCount(db, cellsTable, parsed.rows.length))) return dropped(db, cellsTable);
      const [{ repeated }] = await db.all(`SELECT count(*) FILTER (WHERE NOT unique_keys)::INTEGER AS repeated FROM ${cellsTable}`);
      if (Number(repeated) > 0) return dropped(db, cellsTable);
      const rows = parsed.rows;
      cellOf = (line, column) => (byName[column] === undefined ? undefined : ((rows[line - 1]![byName[column] as string] ?? null) as Cell));
    }
    return await stageCells(db, { table: cellsTable, lined: cellsTable }, index, id, async (lines) => {
      const records: PtpRecord[] = [];
      for (const line of lines) records.push(recordFromRow((column) => cellOf(line, column), file, line));
      return records;
    }, file);
  } finally {
    await db.run(`DROP TABLE IF EXISTS ${cellsTable}`);
  }
}

/** Runs a read; false when DuckDB refuses the file (it is then the JavaScript reader's). */
async function readOrNull(db: Database, sql: string): Promise<boolean> {
  try {
    await db.run(sql);
    return true;
  } catch {
    return false;
  }
}

/** DuckDB read as many rows as JSON.parse gave (else the file is the JavaScript reader's). */
async function sameRowCount(db: Database, table: string, expected: number): Promise<boolean> {
  const [{ n }] = await db.all(`SELECT count(*)::INTEGER AS n FROM ${table}`);
  return Number(n) === expected;
}

async function dropped(db: Database, table: string): Promise<null> {
  await db.run(`DROP TABLE IF EXISTS ${table}`);
  return null;
}
