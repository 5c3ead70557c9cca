// Writes the trade part of the Parquet snapshot (trade_observations.parquet), all or nothing.
// Observations are kept one row per indicator, as published, keyed by (reporter, partner, product,
// flow, period, indicator). A new file REPLACES the held observations of the keys it carries and adds
// the others: Comext revises past periods, and an extract is pulled in chunks (by period and
// reporter), so each file is a newer version of the part it covers. Within one batch, files are taken
// in the order given (a folder: by name), so a later file wins over an earlier one.
import { mkdir } from 'node:fs/promises';
import { basename } from 'node:path';
import { Database } from '../../../engine/database.ts';
import { loadDataset, stagedSelectSql, stagingTableSql } from '../../../engine/dataset.ts';
import { appendImportRecords, commitTables, importRecordsOf, loadImportLedger, parseNewFiles, type ImportRecord } from '../../../ingest/commit.ts';
import { TRADE_KEY, TRADE_OBSERVATIONS } from '../datasets.ts';
import { parseTradeFile } from './parse.ts';
import { TRADE_DATASET, TRADE_SOURCE_FORMAT, TRADE_SOURCE_URL } from './types.ts';

const TABLE = TRADE_OBSERVATIONS.name;

// Staging holds VARCHAR and INTEGER only (what the appender writes), plus each row's file position in
// the batch; casts happen on merge.
const CREATE_STAGE = stagingTableSql(TRADE_OBSERVATIONS, 'stage_trade', { extra: [{ name: 'file_order', type: 'INTEGER' }] });

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
    const { parsed, skipped } = await parseNewFiles(files, known, (file) => parseTradeFile(file), options.onProgress);
    const skippedRows = parsed.reduce((sum, { parsed: p }) => sum + p.skippedRows, 0);
    if (parsed.length === 0) return { imported: [], skipped, observations: 0, skippedRows };

    const imported = importRecordsOf(parsed, options, (p) => ({
      dataset: TRADE_DATASET, source: TRADE_SOURCE_FORMAT, defaultUrl: TRADE_SOURCE_URL, rowCount: p.observations.length,
    }));

    await loadDataset(db, TRADE_OBSERVATIONS, options.dataDir);
    await db.run(CREATE_STAGE);
    await db.appendRows('stage_trade', parsed.flatMap(({ file, hash, parsed: p }, fileOrder) =>
      p.observations.map((o) => [
        o.reporter, o.partner, o.product, o.flow, o.freq, o.period, o.indicator, o.value, o.flag, o.lastUpdate, o.dataflow,
        basename(file), o.sourceRow, hash, fileOrder,
      ])));
    await merge(db);
    await appendImportRecords(db, imported);
    await commitTables(db, options.dataDir, [TRADE_OBSERVATIONS]);
    const [{ n }] = await db.all(`SELECT count(*)::INTEGER AS n FROM ${TABLE}`);
    return { imported, skipped, observations: Number(n), skippedRows };
  } finally {
    await db.close();
  }
}

/** The newest staged row of each key replaces the held one. */
async function merge(db: Database): Promise<void> {
  const keyMatch = TRADE_KEY.map((c) => `held.${c} = newest.${c}`).join(' AND ');
  await db.run(`CREATE TABLE newest AS
    SELECT * EXCLUDE (pick) FROM (
      SELECT *, row_number() OVER (PARTITION BY ${TRADE_KEY.join(', ')} ORDER BY file_order DESC) AS pick FROM stage_trade
    ) WHERE pick = 1`);
  await db.run(`DELETE FROM ${TABLE} AS held WHERE EXISTS (SELECT 1 FROM newest WHERE ${keyMatch})`);
  await db.run(`INSERT INTO ${TABLE} SELECT ${stagedSelectSql(TRADE_OBSERVATIONS)} FROM newest`);
  await db.run('DROP TABLE newest');
  await db.run('DROP TABLE stage_trade');
}
