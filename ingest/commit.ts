// What every source's ingest shares: file hashes, the import ledger (imports.parquet) and the
// all-or-nothing commit of Parquet tables. A domain's ingest opens a scratch database, loads its
// existing tables and the import records, stages and merges the new rows, then calls commitTables.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, rename, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Database, type SqlParams } from '../engine/database.ts';
import { copyToParquetSql, datasetFile, loadDataset, orderBySql, type Dataset } from '../engine/dataset.ts';
import { IMPORTS_DATASET } from '../engine/importLedger.ts';
import { currentGeneration } from '../engine/generation.ts';
import { snapshotFile, sqlStringLiteral } from '../engine/parquet.ts';
import { faultPoint } from './faults.ts';

import { IngestRejectedError, MalformedSourceError } from './errors.ts';
import type { ShrinkRule } from './shrink.ts';

export { IngestRejectedError, MalformedSourceError };

export interface ImportRecord {
  dataset: string;
  /** Source format id (for example 'mof-xlsx', 'mvr-json'). */
  source: string;
  /** Base name of the imported file. */
  sourceFile: string;
  sourceUrl: string | null;
  /** sha256 of the file bytes, hex. */
  fileHash: string;
  /** ISO timestamp (UTC) of the import. */
  importDate: string;
  rowCount: number;
  /** Rows held before for the keys this file republished (ingest/shrink.ts); absent when not compared. */
  replacedRows?: number;
  /** Keys that lost rows, accepted with --allow-shrink; absent when none. */
  shrunkKeys?: Array<{ key: string; before: number; after: number }>;
}

export async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Creates the `imports` table in a scratch database and fills it from the snapshot; returns the records. */
export async function loadImportLedger(db: Database, dataDir: string): Promise<ImportRecord[]> {
  await loadDataset(db, IMPORTS_DATASET, dataDir);
  const rows = await db.all(
    `SELECT dataset, source, source_file, source_url, file_hash,
            strftime(import_date, '%Y-%m-%dT%H:%M:%S.%gZ') AS import_date, row_count, replaced_rows, shrunk_keys
       FROM imports ORDER BY ${orderBySql(IMPORTS_DATASET)}`,
  );
  return rows.map((row) => ({
    dataset: String(row.dataset),
    source: String(row.source),
    sourceFile: String(row.source_file),
    sourceUrl: row.source_url === null ? null : String(row.source_url),
    fileHash: String(row.file_hash),
    importDate: String(row.import_date),
    rowCount: Number(row.row_count),
    ...(row.replaced_rows === null ? {} : { replacedRows: Number(row.replaced_rows) }),
    ...(row.shrunk_keys === null ? {} : { shrunkKeys: JSON.parse(String(row.shrunk_keys)) as ImportRecord['shrunkKeys'] }),
  }));
}

/** The import records of the snapshot in dataDir (its current generation; [] when there is none yet), read in a scratch database of their own. */
export async function readImportRecords(dataDir: string): Promise<ImportRecord[]> {
  const db = await Database.open({ connections: 1 });
  try {
    return await loadImportLedger(db, currentGeneration(dataDir).dir);
  } finally {
    await db.close();
  }
}

/** Records per INSERT: binding grows faster than linearly with a statement's parameters. */
const IMPORT_RECORDS_PER_STATEMENT = 100;

/**
 * Appends records to the scratch `imports` table (created by loadImportLedger), a row of bound values
 * per record, up to IMPORT_RECORDS_PER_STATEMENT rows a statement (each statement costs a round trip,
 * and a batch can carry hundreds of files).
 */
export async function appendImportRecords(db: Database, records: readonly ImportRecord[]): Promise<void> {
  for (let start = 0; start < records.length; start += IMPORT_RECORDS_PER_STATEMENT) {
    const params: SqlParams = {};
    const rows = records.slice(start, start + IMPORT_RECORDS_PER_STATEMENT).map((r, i) => {
      Object.assign(params, {
        [`dataset${i}`]: r.dataset, [`source${i}`]: r.source, [`sourceFile${i}`]: r.sourceFile, [`sourceUrl${i}`]: r.sourceUrl,
        [`fileHash${i}`]: r.fileHash, [`importDate${i}`]: r.importDate, [`rowCount${i}`]: String(r.rowCount),
        [`replacedRows${i}`]: r.replacedRows === undefined ? null : String(r.replacedRows),
        [`shrunkKeys${i}`]: r.shrunkKeys === undefined ? null : JSON.stringify(r.shrunkKeys),
      });
      return `($dataset${i}, $source${i}, $sourceFile${i}, $sourceUrl${i}, $fileHash${i},
         CAST(rtrim(replace($importDate${i}, 'T', ' '), 'Z') AS TIMESTAMP), CAST($rowCount${i} AS INTEGER), CAST($replacedRows${i} AS INTEGER), $shrunkKeys${i})`;
    });
    await db.run(
      `INSERT INTO imports (dataset, source, source_file, source_url, file_hash, import_date, row_count, replaced_rows, shrunk_keys)
         VALUES ${rows.join(', ')}`,
      params,
    );
  }
}

/** A scratch table not declared as a Dataset yet, written as `SELECT *` in this order. */
export interface TableToCommit {
  /** Table in the scratch database; written to `<dataDir>/<table>.parquet`. */
  table: string;
  /** A total order, so the same data always gives the same file. */
  orderBy: string;
}

/**
 * Writes the datasets (each from the scratch table of its name) to Parquet in a temporary folder
 * inside dataDir, then renames them into place, `imports` last: until the ledger is renamed a re-run
 * sees these files as new and redoes them. dataDir is a flat snapshot folder: under the ingest CLI and
 * `npm start` it is the scratch copy of a new generation (ingest/generations.ts), published by one
 * pointer switch after this returns, so a crash between these renames is never served.
 */
export async function commitTables(db: Database, dataDir: string, tables: ReadonlyArray<Dataset | TableToCommit>): Promise<void> {
  const all = [...tables.filter((t) => nameOf(t) !== IMPORTS_DATASET.name), IMPORTS_DATASET];
  const temporary = await mkdtemp(join(dataDir, '.tmp-ingest-'));
  try {
    for (const table of all) {
      const file = join(temporary, `${nameOf(table)}.parquet`);
      await db.run('columns' in table
        ? copyToParquetSql(table, file)
        : `COPY (SELECT * FROM ${table.table} ORDER BY ${table.orderBy}) TO ${sqlStringLiteral(file)} (FORMAT PARQUET)`);
    }
    faultPoint('tables-copied');
    for (const table of all) {
      const name = nameOf(table);
      await rename(join(temporary, `${name}.parquet`), 'columns' in table ? datasetFile(dataDir, table) : snapshotFile(dataDir, name));
      faultPoint(`table-renamed:${name}`);
    }
  } finally {
    await rm(temporary, { recursive: true, force: true });
  }
}

function nameOf(table: Dataset | TableToCommit): string {
  return 'columns' in table ? table.name : table.table;
}

export interface NewFile<T> {
  file: string;
  hash: string;
  parsed: T;
}

/**
 * Parses every file whose bytes were not imported before (nor repeated in the batch). `parse` gets
 * the files accepted so far, to refuse one that conflicts with them; a MalformedSourceError from it
 * is collected, and when any file failed IngestRejectedError lists them all, so nothing is written.
 */
export async function parseNewFiles<T>(
  files: readonly string[],
  knownHashes: ReadonlySet<string>,
  parse: (file: string, accepted: ReadonlyArray<NewFile<T>>) => Promise<T>,
  onProgress?: (done: number, total: number) => void,
): Promise<{ parsed: Array<NewFile<T>>; skipped: string[] }> {
  const parsed: Array<NewFile<T>> = [];
  const skipped: string[] = [];
  const problems: MalformedSourceError[] = [];
  const seen = new Set(knownHashes);
  let done = 0;
  for (const file of files) {
    const hash = await sha256OfFile(file);
    if (seen.has(hash)) {
      skipped.push(file);
    } else {
      seen.add(hash);
      try {
        parsed.push({ file, hash, parsed: await parse(file, parsed) });
      } catch (error) {
        if (!(error instanceof MalformedSourceError)) throw error;
        problems.push(error);
      }
    }
    onProgress?.(++done, files.length);
  }
  if (problems.length > 0) throw new IngestRejectedError(problems);
  return { parsed, skipped };
}

/** What every snapshot writer takes besides its own options. */
export interface SnapshotWriteOptions {
  dataDir: string;
  /** The clock of the import records. */
  now?: () => Date;
  /** Recorded in the import ledger; defaults to the source's official address for the file. */
  sourceUrl?: string;
  /**
   * The shrink rule (ingest/shrink.ts): a republished key (day, set, dataset, indicator) left with fewer
   * rows than held refuses the batch unless allowed. Default allowed (a direct call); the CLI passes
   * --allow-shrink (default off).
   */
  shrink?: ShrinkRule;
}

/** What an import record says of one parsed file, besides its name, hash and date. */
export interface ImportDescription {
  dataset: string;
  /** Source format id. */
  source: string;
  /** The address recorded when the caller gives none (null: none known). */
  defaultUrl: string | null;
  rowCount: number;
}

/** One import record per new file, all with one import date from the writer's clock. */
export function importRecordsOf<T>(
  files: ReadonlyArray<NewFile<T>>,
  options: Pick<SnapshotWriteOptions, 'now' | 'sourceUrl'>,
  describe: (parsed: T, file: string) => ImportDescription,
): ImportRecord[] {
  const importDate = (options.now ?? (() => new Date()))().toISOString();
  return files.map(({ file, hash, parsed }) => {
    const { dataset, source, defaultUrl, rowCount } = describe(parsed, file);
    return { dataset, source, sourceFile: basename(file), sourceUrl: options.sourceUrl ?? defaultUrl, fileHash: hash, importDate, rowCount };
  });
}
