// Writes the OECD (coop) part of the Parquet snapshot, coop_observations.parquet, all or nothing.
// The OECD revises these indicators every month, so every vintage is kept: each imported file adds its
// rows with the file's vintage (the publication date given with --vintage, else the import date) and
// its import record; nothing held is replaced. The loader serves, per (indicator, area, frequency,
// period), the row of the newest vintage (then the latest import, then the later file of a batch).
import { mkdir } from 'node:fs/promises';
import { basename } from 'node:path';
import { Database } from '../../../engine/database.ts';
import { columnNames, datasetFile, loadDataset } from '../../../engine/dataset.ts';
import { sqlStringLiteral } from '../../../engine/parquet.ts';
import { appendImportRecords, commitTables, loadImportLedger, parseNewFiles, type ImportRecord } from '../../../ingest/commit.ts';
import { UsageError } from '../../../ingest/command.ts';
import { COOP_DATASET, COOP_OBSERVATIONS } from '../datasets.ts';
import { STAGED_OECD_COLUMNS, stageOecdFile } from './oecdParse.ts';

export const OECD_SOURCE_URL = 'https://sdmx.oecd.org/public/rest/data/OECD.SDD.STES,DSD_STES@DF_CLI,4.1/';


export interface OecdIngestOptions {
  dataDir: string;
  /** Publication date of the files (YYYY-MM-DD or YYYY-MM, the first of the month); default: the import date. */
  vintage?: string;
  /** Per file (path as given): its own vintage, over `vintage` (a sample of several vintages in one batch). */
  vintageOf?: (file: string) => string | undefined;
  sourceUrl?: string;
  now?: () => Date;
  onProgress?: (done: number, total: number) => void;
}

export interface OecdIngestResult {
  imported: ImportRecord[];
  skipped: string[];
  /** Rows of other series (not an indicator of the domain) read and not kept, over the new files. */
  skippedRows: number;
  /** Rows held after the ingest, every vintage (0 when nothing was written). */
  observations: number;
}

/** `YYYY-MM-DD` or `YYYY-MM` (first of the month) -> `YYYY-MM-DD`; a UsageError otherwise. */
export function parseVintage(text: string): string {
  const match = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/.exec(text.trim());
  const iso = match ? `${match[1]}-${match[2]}-${match[3] ?? '01'}` : '';
  const date = new Date(`${iso}T00:00:00Z`);
  if (!match || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== iso) {
    throw new UsageError(`--vintage ${JSON.stringify(text)} is not a date YYYY-MM-DD or a month YYYY-MM`);
  }
  return iso;
}

/** Imports OECD files (either layout) into the snapshot in options.dataDir; already imported bytes are skipped. */
export async function ingestOecdFiles(files: readonly string[], options: OecdIngestOptions): Promise<OecdIngestResult> {
  const vintageGiven = options.vintage === undefined ? null : parseVintage(options.vintage);
  await mkdir(options.dataDir, { recursive: true });
  const db = await Database.open({ connections: 1 });
  try {
    const ledger = await loadImportLedger(db, options.dataDir);
    const known = new Set(ledger.filter((r) => r.dataset === COOP_DATASET).map((r) => r.fileHash));
    // Each new file is read by DuckDB into a scratch table of this database (checked in SQL).
    const { parsed, skipped } = await parseNewFiles(files, known, (file) => stageOecdFile(db, file), options.onProgress);
    const skippedRows = parsed.reduce((sum, { parsed: p }) => sum + p.skippedRows, 0);
    if (parsed.length === 0) return { imported: [], skipped, skippedRows, observations: 0 };

    const importDate = (options.now ?? (() => new Date()))().toISOString();
    const vintageOf = (file: string) => {
      const own = options.vintageOf?.(file);
      return own === undefined ? vintageGiven ?? importDate.slice(0, 10) : parseVintage(own);
    };
    const imported: ImportRecord[] = parsed.map(({ file, hash, parsed: p }) => ({
      dataset: COOP_DATASET,
      source: p.layout,
      sourceFile: basename(file),
      sourceUrl: options.sourceUrl ?? (p.layout === 'oecd-legacy-csv' ? 'https://data.oecd.org/leadind/composite-leading-indicator-cli.htm' : OECD_SOURCE_URL),
      fileHash: hash,
      importDate,
      rowCount: p.observations,
    }));

    await loadDataset(db, COOP_OBSERVATIONS, options.dataDir, { table: 'coop_held' });
    // coop_observations is a view the commit writes out in one pass: the held rows, then every new file's.
    const stamp = importDate.replace('T', ' ').replace('Z', '');
    const parts = parsed.map(({ file, hash, parsed: p }, batchOrder) => `SELECT ${[
      ...STAGED_OECD_COLUMNS.map((c) => (c === 'value' ? 'CAST(value AS DOUBLE) AS value' : c)),
      `${sqlStringLiteral(p.layout)} AS source_format`, `CAST(${sqlStringLiteral(vintageOf(file))} AS DATE) AS vintage`,
      `CAST(${sqlStringLiteral(stamp)} AS TIMESTAMP) AS import_date`, `${batchOrder} AS batch_order`, `${sqlStringLiteral(basename(file))} AS source_file`,
      'line AS source_row', `${sqlStringLiteral(hash)} AS file_hash`,
    ].join(', ')} FROM ${p.lined} WHERE ok`);
    await db.run(`CREATE VIEW ${COOP_DATASET} AS SELECT ${columnNames(COOP_OBSERVATIONS).join(', ')} FROM coop_held UNION ALL ${parts.join(' UNION ALL ')}`);
    await appendImportRecords(db, imported);
    await commitTables(db, options.dataDir, [COOP_OBSERVATIONS]);
    const [{ n }] = await db.all(`SELECT count(*)::INTEGER AS n FROM read_parquet(${sqlStringLiteral(datasetFile(options.dataDir, COOP_OBSERVATIONS))})`);
    return { imported, skipped, skippedRows, observations: Number(n) };
  } finally {
    await db.close();
  }
}
