// Errors shared by every source's ingest.

/** A source file that cannot be read as its format. Names the file, the 1-based row when known, and the problem. */
export class MalformedSourceError extends Error {
  constructor(
    readonly file: string,
    readonly row: number | null,
    readonly problem: string,
  ) {
    super(`${file}${row === null ? '' : `, row ${row}`}: ${problem}`);
    this.name = 'MalformedSourceError';
  }
}

/** One or more files were malformed: nothing was written. The message lists every file, row and problem. */
export class IngestRejectedError extends AggregateError {
  constructor(readonly problems: MalformedSourceError[]) {
    super(problems, `${problems.length} file(s) rejected, snapshot unchanged:\n${problems.map((p) => `  ${p.message}`).join('\n')}`);
    this.name = 'IngestRejectedError';
  }
}
