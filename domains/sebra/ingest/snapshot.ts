// Writes the SEBRA Parquet snapshot, all or nothing: every new file is parsed and checked before
// anything is written; the new tables are written to a temporary folder inside the data folder and
// renamed into place (imports.parquet last), so a failed ingest leaves the previous snapshot intact.
import { mkdir } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { Database } from '../../../engine/database.ts';
import { loadDataset, stagedSelectSql, stagingTableSql } from '../../../engine/dataset.ts';
import { IMPORTS_DATASET } from '../../../engine/importLedger.ts';
import {
  appendImportRecords, commitTables, IngestRejectedError, loadImportLedger, MalformedSourceError,
  readImportRecords, sha256OfFile, type ImportRecord, type NewFile, type SnapshotWriteOptions } from '../../../ingest/commit.ts';
import { jsonFileCheck } from '../../../ingest/duckdbJson.ts';
import { checkShrink } from '../../../ingest/shrink.ts';
import { SEBRA_DAYS, SEBRA_PAYMENTS } from '../datasets.ts';
import { parseSebraFile } from './detect.ts';
import { readPortalJsonReports } from './portalJsonSql.ts';
import type { Currency, SebraDayReport, SebraSourceFormat } from './types.ts';

// readImportRecords is shared (ingest/commit.ts); re-exported here for the tests that read it from this module.
export { IngestRejectedError, readImportRecords, type ImportRecord };

/** The snapshot files a SEBRA ingest writes. */
export const SNAPSHOT_FILES = {
  payments: `${SEBRA_PAYMENTS.name}.parquet`,
  days: `${SEBRA_DAYS.name}.parquet`,
  imports: `${IMPORTS_DATASET.name}.parquet`,
} as const;

export interface IngestOptions extends SnapshotWriteOptions {
  onProgress?: (done: number, total: number) => void;
  /** Payment date for sources without one (report tree). */
  date?: string;
  /** Currency for sources that do not state it (report tree). */
  currency?: Currency;
}

export interface IngestResult {
  imported: ImportRecord[];
  /** Files whose bytes were already imported (or repeated in the batch): nothing done for them. */
  skipped: string[];
}

const DATASET = SEBRA_PAYMENTS.name;
const PORTAL_DATASET_URL = 'https://data.egov.bg/data/view/01293990-7330-49c6-92a2-cc73db73ec24';

// Staging tables hold only VARCHAR and INTEGER, the types the appender writes; casts happen on insert.
// Each staged payment keeps its file's position in the batch and its line in the file, so that the rows
// are merged in sheet order whichever reader read them.
const CREATE_STAGING = [
  stagingTableSql(SEBRA_PAYMENTS, 'stage_payments', { extra: [{ name: 'file_position', type: 'INTEGER' }, { name: 'line', type: 'INTEGER' }] }),
  stagingTableSql(SEBRA_DAYS, 'stage_days'),
];

function defaultSourceUrl(format: SebraSourceFormat, paymentDate: string): string | null {
  if (format === 'mof-xlsx') return `https://www.minfin.bg/bg/transparency/${paymentDate}`;
  if (format === 'portal-json') return PORTAL_DATASET_URL;
  return null;
}

/** A parsed report once its rows are staged: everything but the rows, which would not fit in memory at scale. */
type StagedReport = Omit<SebraDayReport, 'rows'> & { rowCount: number };
type ParsedFile = NewFile<StagedReport>;

/**
 * Every file not imported before (nor repeated in the batch), parsed and its rows staged (a batch of
 * millions of rows is never held as objects); a second report for the same day in the batch is
 * refused. The portal-JSON reports are read together in SQL (portalJsonSql.ts); a file that reading
 * leaves, and every other file, goes through parseSebraFile, in batch order. A malformed file still
 * stops the whole ingest: staging is in the scratch database only.
 */
async function parseNewSebraFiles(db: Database, files: string[], knownHashes: Set<string>, options: IngestOptions) {
  const jsonFiles = new Map([...files.entries()].filter(([, file]) => extname(file).toLowerCase() === '.json'));
  // On a first import no file can be known: DuckDB reads every JSON file while their bytes are hashed
  // and checked (what turns out repeated or not the portal's form is dropped after).
  const reading = knownHashes.size === 0 ? readPortalJsonReports(db, jsonFiles, 'stage_payments') : null;
  const seen = new Set(knownHashes);
  const skipped: string[] = [];
  const fresh: Array<{ position: number; file: string; hash: string; portalJson: boolean }> = [];
  try {
    for (const [position, file] of files.entries()) {
      const facts = jsonFiles.has(position) ? await jsonFileCheck(file) : { hash: await sha256OfFile(file), strict: false, topKeys: [] };
      if (seen.has(facts.hash)) {
        skipped.push(file);
        continue;
      }
      seen.add(facts.hash);
      // Trusted when DuckDB read it as JSON.parse would; the report tree (an object with "children") is not the portal's copy.
      fresh.push({ position, file, hash: facts.hash, portalJson: jsonFiles.has(position) && facts.strict && !facts.topKeys.includes('children') });
    }
  } finally {
    await reading?.catch(() => undefined);
  }
  const portal = new Map(fresh.filter((f) => f.portalJson).map((f) => [f.position, f.file]));
  const inSql = reading ? await reading : await readPortalJsonReports(db, portal, 'stage_payments');
  await unstage(db, [...inSql.keys()].filter((position) => !portal.has(position)));

  const parsed: ParsedFile[] = [];
  const problems: MalformedSourceError[] = [];
  const pending = new StagedRows(db);
  const fileForDate = new Map<string, string>();
  let done = skipped.length;
  for (const { position, file, hash } of fresh) {
    const sqlReport = portal.has(position) ? inSql.get(position) : undefined;
    try {
      let report: StagedReport;
      let rows: SebraDayReport['rows'] = [];
      if (sqlReport) {
        report = { ...sqlReport, format: 'portal-json' };
      } else {
        const { rows: parsedRows, ...rest } = await parseSebraFile(file, { date: options.date, currency: options.currency });
        rows = parsedRows;
        report = { ...rest, rowCount: rows.length };
      }
      const other = fileForDate.get(report.paymentDate);
      if (other !== undefined) {
        throw new MalformedSourceError(file, null, `duplicate report for ${report.paymentDate}, also in ${basename(other)}`);
      }
      fileForDate.set(report.paymentDate, file);
      if (!sqlReport) await pending.add(file, rows, position);
      parsed.push({ file, hash, parsed: report });
    } catch (error) {
      if (!(error instanceof MalformedSourceError)) throw error;
      problems.push(error);
      if (sqlReport) await unstage(db, [position]);
    }
    options.onProgress?.(++done, files.length);
  }
  await pending.flush();
  if (problems.length > 0) throw new IngestRejectedError(problems);
  return { parsed, skipped };
}

/** Drops the staged payments of files read in SQL that are not taken after all. */
async function unstage(db: Database, positions: readonly number[]): Promise<void> {
  if (positions.length > 0) await db.run(`DELETE FROM stage_payments WHERE file_position IN (${positions.map((p) => Number(p)).join(', ')})`);
}

/**
 * Imports SEBRA source files into the Parquet snapshot in opts.dataDir. Files already imported (same
 * sha256) are skipped; a day covered by a new file replaces that day's rows. Nothing is written when
 * any file is malformed or when there is nothing new.
 */
export async function ingestSebraFiles(files: string[], opts: IngestOptions): Promise<IngestResult> {
  await mkdir(opts.dataDir, { recursive: true });
  const db = await Database.open({ connections: 1 });
  try {
    for (const sql of CREATE_STAGING) await db.run(sql);
    const previousImports = await loadImportLedger(db, opts.dataDir);
    const { parsed, skipped } = await parseNewSebraFiles(db, files, new Set(previousImports.map((record) => record.fileHash)), opts);
    if (parsed.length === 0) return { imported: [], skipped };

    const importDate = (opts.now ?? (() => new Date()))();
    const imported: ImportRecord[] = parsed.map(({ file, hash, parsed: report }) => ({
      dataset: DATASET,
      source: report.format,
      sourceFile: basename(file),
      sourceUrl: opts.sourceUrl ?? defaultSourceUrl(report.format, report.paymentDate),
      fileHash: hash,
      importDate: importDate.toISOString(),
      rowCount: report.rowCount,
    }));

    await loadExistingSnapshot(db, opts.dataDir);
    await stageDays(db, parsed);
    await checkShrink(db, {
      dataset: SEBRA_PAYMENTS.name,
      key: ['payment_date'],
      covered: 'SELECT CAST(payment_date AS DATE) AS payment_date, source_file AS file FROM stage_days',
      held: '(SELECT payment_date FROM sebra_payments)',
      replacement: '(SELECT CAST(payment_date AS DATE) AS payment_date FROM stage_payments)',
    }, opts.shrink ?? { allow: true }, imported);
    await mergeStagedRows(db);
    await appendImportRecords(db, imported);
    await commitTables(db, opts.dataDir, [SEBRA_PAYMENTS, SEBRA_DAYS]);
    return { imported, skipped };
  } finally {
    await db.close();
  }
}

/** The snapshot's SEBRA tables as they are (empty when there is no snapshot yet), to merge into. */
async function loadExistingSnapshot(db: Database, dataDir: string): Promise<void> {
  await loadDataset(db, SEBRA_PAYMENTS, dataDir);
  await loadDataset(db, SEBRA_DAYS, dataDir);
}

/** Staged payment rows held before one append: an appender's flush costs ~2 ms, so not one per file. */
const STAGE_BATCH_ROWS = 20_000;

/** Payment rows of parsed files, appended to stage_payments a batch at a time (a batch of millions of rows is never held whole). */
class StagedRows {
  private rows: Array<Array<string | number | null>> = [];
  constructor(private readonly db: Database) {}

  async add(file: string, rows: SebraDayReport['rows'], position: number): Promise<void> {
    const sourceFile = basename(file);
    rows.forEach((row, line) => {
      this.rows.push([
        row.paymentDate,
        row.currency,
        row.programme,
        row.programmeCode,
        row.accountCode,
        row.accountDescription,
        row.amount,
        row.paymentCount,
        sourceFile,
        position,
        line,
      ]);
    });
    if (this.rows.length >= STAGE_BATCH_ROWS) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.rows.length === 0) return;
    const rows = this.rows;
    this.rows = [];
    await this.db.appendRows('stage_payments', rows);
  }
}

async function stageDays(db: Database, parsed: ParsedFile[]): Promise<void> {
  await db.appendRows(
    'stage_days',
    parsed.map(({ file, parsed: report }) => [report.paymentDate, report.currency, report.status, basename(file)]),
  );
}

/** A re-published day replaces the old one: drop the covered days, then insert the staged rows. */
async function mergeStagedRows(db: Database): Promise<void> {
  const covered = 'SELECT CAST(payment_date AS DATE) FROM stage_days';
  await db.run(`DELETE FROM sebra_payments WHERE payment_date IN (${covered})`);
  await db.run(`DELETE FROM sebra_days WHERE payment_date IN (${covered})`);
  await db.run(`INSERT INTO sebra_payments SELECT ${stagedSelectSql(SEBRA_PAYMENTS)} FROM stage_payments ORDER BY file_position, line`);
  await db.run(`INSERT INTO sebra_days SELECT ${stagedSelectSql(SEBRA_DAYS)} FROM stage_days`);
}
