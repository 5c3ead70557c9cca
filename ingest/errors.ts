// Errors shared by every source's ingest.

// Control characters (C0, DEL, C1: a newline, an ANSI escape) and the Unicode line separators.
// eslint-disable-next-line no-control-regex -- control characters are what it looks for
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/u;

/**
 * A file name as messages and log lines print it: as is when it is plain, else JSON-quoted with every
 * control character escaped, so a name holding a newline or an ANSI escape cannot forge a log line.
 */
export function printableName(name: string): string {
  if (!UNPRINTABLE.test(name)) return name;
  return JSON.stringify(name).replace(/[\u007f-\u009f\u2028\u2029]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A source file that cannot be read as its format. Names the file, the 1-based row when known, and the problem. */
export class MalformedSourceError extends Error {
  constructor(
    readonly file: string,
    readonly row: number | null,
    readonly problem: string,
  ) {
    super(`${printableName(file)}${row === null ? '' : `, row ${row}`}: ${problem}`);
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
