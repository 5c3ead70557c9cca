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

/** One observation found in several places of a batch: the files and lines, first place first. */
export interface RepeatedObservation {
  /** The observation's key, as the message shows it ("nrg_ind_ren A.REN.PC.AT 2023"). */
  key: string;
  files: readonly string[];
  lines: readonly number[];
}

/** Rejects a batch whose observations repeat across its files, naming every place of each (nothing is written). */
export function rejectRepeatedObservations(repeated: readonly RepeatedObservation[]): void {
  if (repeated.length === 0) return;
  throw new IngestRejectedError(
    repeated.map(({ key, files, lines }) => {
      const others = files.slice(1).map((file, i) => `${file} line ${lines[i + 1]}`).join(', ');
      return new MalformedSourceError(files[0]!, Number(lines[0]), `observation ${key} given again in ${others}`);
    }),
  );
}
