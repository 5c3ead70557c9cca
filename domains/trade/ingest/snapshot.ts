// Writes the trade part of the Parquet snapshot (trade_observations.parquet), all or nothing.
// Observations are kept one row per indicator, as published, keyed by (reporter, partner, product,
// flow, period, indicator). A new file REPLACES the held observations of the keys it carries and adds
// the others: Comext revises past periods, and an extract is pulled in chunks (by period and
// reporter), so each file is a newer version of the part it covers. Within one batch, files are taken
// in the order given (a folder: by name), so a later file wins over an earlier one.
import { mkdir } from 'node:fs/promises';
import { basename } from 'node:path';
import { Database } from '../../../engine/database.ts';
import { columnNames, datasetFile, loadDataset } from '../../../engine/dataset.ts';
import { sqlStringLiteral } from '../../../engine/parquet.ts';
import { appendImportRecords, commitTables, importRecordsOf, loadImportLedger, parseNewFiles, type ImportRecord, type NewFile } from '../../../ingest/commit.ts';
import { decimalFromTextSql } from '../../../ingest/duckdbCsv.ts';
import { TRADE_KEY, TRADE_OBSERVATIONS } from '../datasets.ts';
import { STAGED_TRADE_COLUMNS, stageTradeFile, type StagedTradeFile } from './parse.ts';
import { TRADE_DATASET, TRADE_SOURCE_FORMAT, TRADE_SOURCE_URL } from './types.ts';

const TABLE = TRADE_OBSERVATIONS.name;

/** The staged text columns that are typed in the snapshot. */
const TYPED: Partial<Record<(typeof STAGED_TRADE_COLUMNS)[number], string>> = {
  value: `${decimalFromTextSql('value', 20, 2)} AS value`,
  last_update: 'CAST(last_update AS TIMESTAMP) AS last_update',
};

export interface TradeIngestOptions {
  dataDir: string;
  sourceUrl?: string;
  now?: () => Date;
  onProgress?: (done: number, total: number) => void;
}

export interface TradeIngestResult {
  imported: ImportRecord[];
  /** Files whose bytes were already imported (or repeated in the batch). */
  skipped: string[];
  /** Observations (indicator rows) held after the ingest; 0 when nothing was written. */
  observations: number;
  /** SUPPLEMENTARY_QUANTITY rows read and not kept, over the new files. */
  skippedRows: number;
}

/**
 * Imports Comext extracts into the snapshot in options.dataDir. Files already imported (same sha256)
 * are skipped; nothing is written when any file is malformed or nothing is new.
 */
export async function ingestTradeFiles(files: readonly string[], options: TradeIngestOptions): Promise<TradeIngestResult> {
  await mkdir(options.dataDir, { recursive: true });
  const db = await Database.open({ connections: 1 });
  try {
    const ledger = await loadImportLedger(db, options.dataDir);
    const known = new Set(ledger.filter((r) => r.dataset === TRADE_DATASET).map((r) => r.fileHash));
    // Each new file is read by DuckDB into a scratch table of this database (checked in SQL).
    const { parsed, skipped } = await parseNewFiles(files, known, (file) => stageTradeFile(db, file), options.onProgress);
    const skippedRows = parsed.reduce((sum, { parsed: p }) => sum + p.skippedRows, 0);
    if (parsed.length === 0) return { imported: [], skipped, observations: 0, skippedRows };

    const imported = importRecordsOf(parsed, options, (p) => ({
      dataset: TRADE_DATASET, source: TRADE_SOURCE_FORMAT, defaultUrl: TRADE_SOURCE_URL, rowCount: p.observations,
    }));

    await loadDataset(db, TRADE_OBSERVATIONS, options.dataDir, { table: 'trade_held' });
    const [held] = await db.all('SELECT min(period) AS first, max(period) AS last FROM trade_held');
    await defineMerged(db, parsed, held.first === null ? null : [String(held.first), String(held.last)]);
    await appendImportRecords(db, imported);
    await commitTables(db, options.dataDir, [TRADE_OBSERVATIONS]);
    const [{ n }] = await db.all(`SELECT count(*)::INTEGER AS n FROM read_parquet(${sqlStringLiteral(datasetFile(options.dataDir, TRADE_OBSERVATIONS))})`);
    return { imported, skipped, observations: Number(n), skippedRows };
  } finally {
    await db.close();
  }
}

/** Whether two period ranges share a period (a key holds its period, so files with disjoint ranges share no key). */
const overlap = (a: readonly [string, string], b: readonly [string, string]) => a[0] <= b[1] && b[0] <= a[1];

/**
 * trade_observations as a view the commit writes out in one pass: the held rows of the keys no new
 * file carries, and each new file's observations of the keys no later file of the batch carries
 * (files in the order given, a later one winning). Only the files whose periods overlap are compared.
 */
async function defineMerged(db: Database, parsed: ReadonlyArray<NewFile<StagedTradeFile>>, held: [string, string] | null): Promise<void> {
  const key = TRADE_KEY.join(', ');
  const observations = (table: string) => `(SELECT ${key} FROM ${table} WHERE ok)`;
  const antiJoin = (others: ReadonlyArray<NewFile<StagedTradeFile>>) =>
    (others.length === 0 ? '' : ` ANTI JOIN (${others.map((q) => observations(q.parsed.table)).join(' UNION ALL ')}) USING (${key})`);
  const parts: string[] = [];
  if (held !== null) {
    parts.push(`SELECT ${columnNames(TRADE_OBSERVATIONS).join(', ')} FROM trade_held${antiJoin(parsed.filter((q) => overlap(q.parsed.periods, held)))}`);
  }
  for (const [i, { file, hash, parsed: p }] of parsed.entries()) {
    const later = parsed.slice(i + 1).filter((q) => overlap(q.parsed.periods, p.periods));
    const columns = [...STAGED_TRADE_COLUMNS.map((c) => TYPED[c] ?? c), `${sqlStringLiteral(basename(file))} AS source_file`, 'line AS source_row', `${sqlStringLiteral(hash)} AS file_hash`];
    parts.push(`SELECT ${columns.join(', ')} FROM ${p.lined}${antiJoin(later)} WHERE ok`);
  }
  await db.run(`CREATE VIEW ${TABLE} AS ${parts.join(' UNION ALL ')}`);
}
