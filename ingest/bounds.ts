// The ingest's bounds on what one source file may make it hold: an attacker-sized or broken file fails
// fast with a clear input error (exit code 1, nothing written) instead of eating the machine's memory.
// Each bound is an environment variable (README, Operations, "Ingest bounds"); the defaults sit far above
// the real files (the largest, the Union Registry workbook, unzips to a few tens of MB).
import { UsageError } from './command.ts';

export interface IngestBounds {
  /** Bytes all the entries of one zip (eurofxref .zip, an .xlsx) may inflate to, together; also a gzip's. */
  maxUnzippedBytes: number;
  /** Entries one zip (or .xlsx) may hold. */
  maxZipEntries: number;
  /** Rows of one .xlsx workbook, over its worksheets. */
  maxXlsxRows: number;
  /** Cells of one .xlsx workbook, over its worksheets. */
  maxXlsxCells: number;
  /** Shared strings of one .xlsx workbook. */
  maxXlsxSharedStrings: number;
  /** Bytes of one CSV record (one cell can be no longer). */
  maxCellBytes: number;
}

const MiB = 1024 * 1024;

/** Each bound: its variable, its default, and what it bounds (for the messages). */
export const BOUND_VARIABLES: ReadonlyArray<{ key: keyof IngestBounds; variable: string; fallback: number; what: string }> = [
  { key: 'maxUnzippedBytes', variable: 'INGEST_MAX_UNZIPPED_BYTES', fallback: 1024 * MiB, what: 'bytes unzipped from one file' },
  { key: 'maxZipEntries', variable: 'INGEST_MAX_ZIP_ENTRIES', fallback: 10_000, what: 'entries in one zip' },
  { key: 'maxXlsxRows', variable: 'INGEST_MAX_XLSX_ROWS', fallback: 1_100_000, what: 'rows in one workbook' },
  { key: 'maxXlsxCells', variable: 'INGEST_MAX_XLSX_CELLS', fallback: 20_000_000, what: 'cells in one workbook' },
  { key: 'maxXlsxSharedStrings', variable: 'INGEST_MAX_XLSX_SHARED_STRINGS', fallback: 5_000_000, what: 'shared strings in one workbook' },
  { key: 'maxCellBytes', variable: 'INGEST_MAX_CELL_BYTES', fallback: 1 * MiB, what: 'bytes in one CSV record' },
];

/** The bounds in force: each variable when set (a positive whole number), else its default. A bad value is a usage error naming it. */
export function ingestBounds(env: NodeJS.ProcessEnv = process.env): IngestBounds {
  const bounds = {} as IngestBounds;
  for (const { key, variable, fallback } of BOUND_VARIABLES) {
    const raw = env[variable]?.trim();
    if (raw === undefined || raw === '') {
      bounds[key] = fallback;
      continue;
    }
    if (!/^\d{1,15}$/.test(raw) || Number(raw) < 1) throw new UsageError(`${variable} must be a positive whole number, not ${JSON.stringify(raw)}`);
    bounds[key] = Number(raw);
  }
  return bounds;
}

/** csv-parse's error for a record over max_record_size, reworded with the bound's variable; other errors as they are. */
export function csvErrorProblem(error: Error & { code?: string }): string {
  return error.code === 'CSV_MAX_RECORD_SIZE' ? boundPassed('maxCellBytes', 'a record too long') : error.message;
}

/** The problem text of a bound passed: what, the bound and its variable. */
export function boundPassed(key: keyof IngestBounds, detail: string): string {
  const entry = BOUND_VARIABLES.find((bound) => bound.key === key)!;
  return `${detail}, over the bound of ${ingestBounds()[key]} ${entry.what} (${entry.variable}; raise it if the file is genuine)`;
}
