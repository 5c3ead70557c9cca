// Reading a CSV source row by row, the way every CSV parser here needs it: csv-parse streaming with
// the line number of each record, a field problem turned into MalformedSourceError at that line, a
// repeated observation key refused naming both lines, and csv-parse's own errors named by line.
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { CsvError, parse, type Options } from 'csv-parse';
import { csvErrorProblem, ingestBounds } from './bounds.ts';
import { MalformedSourceError } from './errors.ts';

/** A problem with one field of a row; the reader adds the file and line. */
export class FieldError extends Error {}

/** A field problem named by its column: "column X: ...". */
export class ColumnError extends FieldError {
  constructor(
    readonly column: string,
    message: string,
  ) {
    super(`column ${column}: ${message}`);
  }
}

export interface CsvRecord {
  record: string[];
  /** 1-based line of the record's end in the file. */
  line: number;
}

/** The records of a CSV file, streamed; a malformed file is a MalformedSourceError naming its line. */
export async function* csvRecords(path: string, options: Options = {}): AsyncGenerator<CsvRecord> {
  // A record longer than INGEST_MAX_CELL_BYTES characters is refused (csv-parse's CSV_MAX_RECORD_SIZE) before it is held whole.
  const parser = createReadStream(path).pipe(parse({ bom: true, skip_empty_lines: true, max_record_size: ingestBounds().maxCellBytes, ...options, info: true }));
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      yield { record, line: info.lines };
    }
  } catch (error) {
    if (error instanceof CsvError) {
      const lines = (error as CsvError & { lines?: number }).lines;
      throw new MalformedSourceError(basename(path), lines ?? null, `not valid CSV: ${csvErrorProblem(error)}`);
    }
    throw error;
  }
}

/** Runs a row reader; a FieldError becomes a MalformedSourceError at the file and line. */
export function readRow<T>(file: string, line: number, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof FieldError) throw new MalformedSourceError(file, line, error.message);
    throw error;
  }
}

/** Refuses a repeated observation key, naming the line that first had it. */
export class UniqueKeys {
  private readonly seen = new Map<string, number>();

  constructor(private readonly file: string) {}

  add(key: string, line: number, label = key): void {
    const earlier = this.seen.get(key);
    if (earlier !== undefined) throw new MalformedSourceError(this.file, line, `duplicate observation ${label} (also on line ${earlier})`);
    this.seen.set(key, line);
  }
}
