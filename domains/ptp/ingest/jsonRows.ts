// The JSON form of the per-accident data, read row by row as the file streams (no export is held in
// one string): the portal's {"success":true,"data":[[headers],[row],...]}, a bare array of rows, or a
// list of objects keyed by the headers. The rules, the messages and which problem is named first are
// those of JSON.parse of the whole text followed by a check of every row's shape, then the columns,
// then each row in turn: a syntax error anywhere comes first, then the first row of a wrong shape,
// then missing columns, then the first row the readers refuse.
import { withUtf8Copy } from '../../../ingest/duckdbCsv.ts';
import { JsonSyntaxError, streamJsonArray } from '../../../ingest/duckdbJson.ts';
import { isUtf8File } from '../../../ingest/utf8.ts';
import { locateColumns, recordFromRow, type ColumnIndex } from './rows.ts';
import { MalformedSourceError, type PtpRecord } from './types.ts';
import type { Cell } from './values.ts';

function isCell(value: unknown): value is Cell {
  return value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

/** What is wrong with a row's shape (null: nothing), for a file whose first row decided the form. */
function shapeProblem(row: unknown, form: 'table' | 'objects'): string | null {
  if (form === 'table') {
    if (!Array.isArray(row)) return 'row is not an array of cells';
    const column = row.findIndex((cell) => !isCell(cell));
    return column < 0 ? null : `cell ${column + 1} is not a string or number`;
  }
  if (typeof row !== 'object' || row === null || Array.isArray(row)) return 'row is not an object keyed by the column headers';
  const bad = Object.entries(row).find(([, cell]) => !isCell(cell));
  return bad ? `"${bad[0]}" is not a string or number` : null;
}

function sameIndex(a: ColumnIndex, b: ColumnIndex): boolean {
  const keys = Object.keys(a) as Array<keyof ColumnIndex>;
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/**
 * The records of the rows handed to `add` in order (1-based ordinals: the header row is row 1, an
 * object is numbered from 1). A list of objects is located by the keys of all its objects, so its
 * records are read with the first object's columns and, when the later objects change them, read
 * again through `reread` with the final ones.
 */
class JsonRowReader {
  private form: 'table' | 'objects' | null = null;
  private shape: MalformedSourceError | null = null;
  private columns: MalformedSourceError | null = null;
  private refused: MalformedSourceError | null = null;
  /** The columns the records are read with: the header's, or the first object's keys' (null: none locatable). */
  private index: ColumnIndex | null = null;
  /** Objects: every key in order of first appearance. */
  private readonly keys = new Set<string>();
  private records: PtpRecord[] = [];

  constructor(private readonly file: string) {}

  add(row: unknown, ordinal: number): void {
    if (this.shape) return; // the first row of a wrong shape is the file's problem
    this.form ??= Array.isArray(row) ? 'table' : 'objects';
    const problem = shapeProblem(row, this.form);
    if (problem) {
      this.shape = new MalformedSourceError(this.file, ordinal, problem);
      return;
    }
    if (this.form === 'table') this.addCells(row as Cell[], ordinal);
    else this.addObject(row as Record<string, Cell>, ordinal);
  }

  private addCells(cells: Cell[], ordinal: number): void {
    if (ordinal === 1) {
      try {
        this.index = locateColumns(cells.map((cell) => String(cell ?? '')), this.file, 1, 'position');
      } catch (error) {
        if (!(error instanceof MalformedSourceError)) throw error;
        this.columns = error;
      }
      return;
    }
    const index = this.index;
    if (index) this.read(ordinal, (column) => (index[column] === undefined ? undefined : (cells[index[column] as number] ?? null)));
  }

  private addObject(row: Record<string, Cell>, ordinal: number): void {
    for (const key of Object.keys(row)) this.keys.add(key);
    if (ordinal === 1) this.index = this.locateObjects();
    const index = this.index;
    if (index) this.read(ordinal, (column) => (index[column] === undefined ? undefined : (row[index[column] as string] ?? null)));
  }

  /** The columns of the keys seen so far, or null when some are missing. */
  private locateObjects(): ColumnIndex | null {
    try {
      return locateColumns([...this.keys], this.file, null, 'name');
    } catch (error) {
      if (!(error instanceof MalformedSourceError)) throw error;
      return null;
    }
  }

  /** One record, until a row is refused (later rows can then only bring a problem that comes first: a row's shape). */
  private read(ordinal: number, get: Parameters<typeof recordFromRow>[0]): void {
    if (this.refused) return;
    try {
      this.records.push(recordFromRow(get, this.file, ordinal));
    } catch (error) {
      if (!(error instanceof MalformedSourceError)) throw error;
      this.refused = error;
      this.records = [];
    }
  }

  /** The records, or the file's first problem; `reread` hands the rows to `add` again (objects whose columns changed). */
  async finish(reread: (add: (row: unknown, ordinal: number) => void) => Promise<void>): Promise<PtpRecord[]> {
    if (this.shape) throw this.shape;
    if (this.columns) throw this.columns;
    if (this.form === 'objects') {
      const first = this.index;
      const final = locateColumns([...this.keys], this.file, null, 'name'); // throws the missing columns
      if (first === null || !sameIndex(first, final)) {
        this.index = final;
        this.refused = null;
        this.records = [];
        await reread((row, ordinal) => this.read(ordinal, (column) => (final[column] === undefined ? undefined : ((row as Record<string, Cell>)[final[column] as string] ?? null))));
      }
    }
    if (this.refused) throw this.refused;
    return this.records;
  }
}

/** The problem of a top-level value that holds no rows to stream: the portal's refusal, another shape, or no rows. */
function topLevelProblem(file: string, value: unknown): MalformedSourceError {
  if (typeof value === 'object' && value !== null && 'success' in value && value.success === false) {
    return new MalformedSourceError(file, null, 'the portal answer says "success": false');
  }
  if (typeof value !== 'object' || value === null || !('data' in value)) {
    return new MalformedSourceError(file, null, 'expected {"success":true,"data":[...]}, an array of rows or an array of objects');
  }
  return new MalformedSourceError(file, null, '"data" is not a non-empty array');
}

/** The records of a UTF-8 JSON file at `path`; `file` names it in messages. */
async function recordsOfUtf8(file: string, path: string): Promise<PtpRecord[]> {
  const rows = new JsonRowReader(file);
  const stream = (add: (row: unknown, ordinal: number) => void) => streamJsonArray(path, add, { member: 'data' });
  let streamed;
  try {
    streamed = await stream((row, ordinal) => rows.add(row, ordinal));
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw new MalformedSourceError(file, null, `not valid JSON: ${error.message}`);
    throw error;
  }
  if (streamed.kind === 'value') throw topLevelProblem(file, streamed.value);
  if (streamed.kind === 'member') {
    if (streamed.value.success === false) throw topLevelProblem(file, streamed.value);
    if (streamed.occurrences > 1) throw new MalformedSourceError(file, null, '"data" is given more than once');
  }
  if (streamed.elements === 0) throw new MalformedSourceError(file, null, '"data" is not a non-empty array');
  const records = await rows.finish(async (add) => {
    try {
      await stream(add);
    } catch (error) {
      // The same bytes read a second time: only a file changed meanwhile gets here.
      if (error instanceof JsonSyntaxError) throw new MalformedSourceError(file, null, `not valid JSON: ${error.message}`);
      throw error;
    }
  });
  if (records.length === 0) throw new MalformedSourceError(file, null, 'no accident rows after the header');
  return records;
}

/** The records of a JSON file: UTF-8, or CP1251 when its bytes are not UTF-8 (older exports; read through a UTF-8 copy). */
export async function ptpJsonRecords(file: string): Promise<PtpRecord[]> {
  if (await isUtf8File(file)) return recordsOfUtf8(file, file);
  return withUtf8Copy(file, 'windows-1251', (copy) => recordsOfUtf8(file, copy));
}
