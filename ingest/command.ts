// The shape of one source's `npm run ingest -- <source> ...` command (see cli.ts).
import type { ParseArgsConfig } from 'node:util';

/** A wrong command line: exit code 2 with the usage. */
export class UsageError extends Error {}

export interface IngestRun {
  /** Absolute path of the file or folder given. */
  path: string;
  dataDir: string;
  /** Values of this source's own options (parseArgs output). */
  options: Record<string, string | boolean | undefined>;
  log: (line: string) => void;
  /** --allow-shrink: a republished key with fewer rows than held is accepted (reported either way). */
  allowShrink?: boolean;
}

export interface IngestOutcome {
  imported: number;
  rows: number;
  skipped: number;
}

export interface IngestCommand {
  source: string;
  /** The arguments after `<source>`, for the usage line, e.g. "<file-or-folder> [--date YYYY-MM-DD]". */
  usage: string;
  /** Options this source accepts besides --data-dir. */
  options: NonNullable<ParseArgsConfig['options']>;
  /** Throws UsageError for bad options or an empty folder, IngestRejectedError for malformed input. */
  run(run: IngestRun): Promise<IngestOutcome>;
}
