// Writes the SEBRA Parquet snapshot, all or nothing: every new file is parsed and checked before
// anything is written; the new tables are written to a temporary folder inside the data folder and
// renamed into place (imports.parquet last), so a failed ingest leaves the previous snapshot intact.
import { mkdir } from 'node:fs/promises';
import { basename } from 'node:path';
import { Database } from '../../../engine/database.ts';
import { loadDataset, stagedSelectSql, stagingTableSql } from '../../../engine/dataset.ts';
import { IMPORTS_DATASET } from '../../../engine/importLedger.ts';
import {
  appendImportRecords, commitTables, IngestRejectedError, loadImportLedger, MalformedSourceError, parseNewFiles,
  readImportRecords, type ImportRecord, type NewFile, type SnapshotWriteOptions } from '../../../ingest/commit.ts';
import { checkShrink } from '../../../ingest/shrink.ts';
import { SEBRA_DAYS, SEBRA_PAYMENTS } from '../datasets.ts';
import { parseSebraFile } from './detect.ts';
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
const CREATE_STAGING = [stagingTableSql(SEBRA_PAYMENTS, 'stage_payments'), stagingTableSql(SEBRA_DAYS, 'stage_days')];

function defaultSourceUrl(format: SebraSourceFormat, paymentDate: string): string | null {
  if (format === 'mof-xlsx') return `https://www.minfin.bg/bg/transparency/${paymentDate}`;
  if (format === 'portal-json') return PORTAL_DATASET_URL;
  return null;
}

/** A parsed report once its rows are staged: everything but the rows, which would not fit in memory at scale. */
type StagedReport = Omit<SebraDayReport, 'rows'> & { rowCount: number };
type ParsedFile = NewFile<StagedReport>;

/**
 * Every file not imported before, parsed and its rows appended to stage_payments at once (a batch of
 * millions of rows is never held as objects); a second report for the same day in the batch is
 * refused. A malformed file still stops the whole ingest: staging is in the scratch database only.
 */
function parseNewSebraFiles(db: Database, files: string[], knownHashes: Set<string>, options: IngestOptions) {
  const fileForDate = new Map<string, string>();
  return parseNewFiles<StagedReport>(files, knownHashes, async (file) => {
    const { rows, ...report } = await parseSebraFile(file, { date: options.date, currency: options.currency });
    const other = fileForDate.get(report.paymentDate);
    if (other !== undefined) {
      throw new MalformedSourceError(file, null, `duplicate report for ${report.paymentDate}, also in ${basename(other)}`);
    }
    fileForDate.set(report.paymentDate, file);
    await stagePayments(db, file, rows);
    return { ...report, rowCount: rows.length };
  }, options.onProgress);
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

async function stagePayments(db: Database, file: string, rows: SebraDayReport['rows']): Promise<void> {
  await db.appendRows(
    'stage_payments',
    rows.map((row) => [
      row.paymentDate,
      row.currency,
      row.programme,
      row.programmeCode,
      row.accountCode,
      row.accountDescription,
      row.amount,
      row.paymentCount,
      basename(file),
    ]),
  );
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
  await db.run(`INSERT INTO sebra_payments SELECT ${stagedSelectSql(SEBRA_PAYMENTS)} FROM stage_payments`);
  await db.run(`INSERT INTO sebra_days SELECT ${stagedSelectSql(SEBRA_DAYS)} FROM stage_days`);
}
