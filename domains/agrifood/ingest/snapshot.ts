// Writes the agri-food part of the Parquet snapshot, all or nothing. Each dataset has its own file
// (agrifood_<dataset>.parquet); a new export of a dataset REPLACES that dataset's facts (the portal
// answers a query with the whole series asked for, so the newest export is the version to serve),
// while every import record stays in the ledger. Files are taken in the order given (a folder: by
// name); when a batch holds several new files of one dataset, each gets its own import record
// (import times one millisecond apart, in that order) and the last one feeds the facts.
import { mkdir } from 'node:fs/promises';
import { basename } from 'node:path';
import { Database } from '../../../engine/database.ts';
import {
  appendImportRecords, commitTables, IngestRejectedError, loadImportLedger, MalformedSourceError, sha256OfFile,
  type ImportRecord,
} from '../../../ingest/commit.ts';
import { parseAgrifoodFile } from './parse.ts';
import { AGRIFOOD_DATASETS, AGRIFOOD_SOURCE_FORMAT, AGRIFOOD_SOURCE_URL, type AgrifoodDataset, type AgrifoodFile } from './types.ts';

/** Snapshot file (without .parquet) of each dataset's facts. */
export function agrifoodTable(dataset: AgrifoodDataset): string {
  return `agrifood_${dataset}`;
}

export const PRICE_COLUMNS = [
  'dataset', 'commodity_id', 'product_name', 'product_code', 'product_type', 'pig_class', 'member_state_code',
  'member_state_name', 'market_name', 'market_code', 'stage_name', 'stage_code', 'begin_date', 'end_date', 'week_number',
  'marketing_year', 'reference_period', 'unit', 'price', 'source_file', 'source_row', 'file_hash',
] as const;

export const PRICE_COLUMN_TYPES = `dataset VARCHAR NOT NULL, commodity_id VARCHAR NOT NULL, product_name VARCHAR NOT NULL,
  product_code VARCHAR, product_type VARCHAR, pig_class VARCHAR, member_state_code VARCHAR NOT NULL,
  member_state_name VARCHAR NOT NULL, market_name VARCHAR, market_code VARCHAR, stage_name VARCHAR, stage_code VARCHAR,
  begin_date DATE NOT NULL, end_date DATE, week_number INTEGER, marketing_year VARCHAR, reference_period VARCHAR,
  unit VARCHAR, price DECIMAL(18,4), source_file VARCHAR NOT NULL, source_row INTEGER NOT NULL, file_hash VARCHAR NOT NULL`;

const STAGE_COLUMNS = PRICE_COLUMNS.map((c) => `${c} ${c === 'week_number' || c === 'source_row' ? 'INTEGER' : 'VARCHAR'}`).join(', ');

/** Source rows keep their file order; the file is written in that order. */
const PRICE_ORDER = 'source_row';

export interface AgrifoodIngestOptions {
  dataDir: string;
  /** Every file is of this dataset (checked against its field names); detected per file otherwise. */
  dataset?: AgrifoodDataset;
  sourceUrl?: string;
  now?: () => Date;
}

export interface AgrifoodIngestResult {
  imported: ImportRecord[];
  /** Files whose bytes were already imported (or repeated in the batch). */
  skipped: string[];
  /** Per dataset replaced by this run: the file now feeding its facts. */
  current: Partial<Record<AgrifoodDataset, string>>;
}

interface ParsedFile {
  file: string;
  hash: string;
  parsed: AgrifoodFile;
}

async function parseNewFiles(files: readonly string[], known: Set<string>, dataset?: AgrifoodDataset) {
  const parsed: ParsedFile[] = [];
  const skipped: string[] = [];
  const problems: MalformedSourceError[] = [];
  const seen = new Set(known);
  for (const file of files) {
    const hash = await sha256OfFile(file);
    if (seen.has(hash)) {
      skipped.push(file);
      continue;
    }
    seen.add(hash);
    try {
      parsed.push({ file, hash, parsed: await parseAgrifoodFile(file, dataset) });
    } catch (error) {
      if (!(error instanceof MalformedSourceError)) throw error;
      problems.push(error);
    }
  }
  if (problems.length > 0) throw new IngestRejectedError(problems);
  return { parsed, skipped };
}

/**
 * Imports agri-food price exports into the snapshot in options.dataDir. Files already imported
 * (same sha256) are skipped; nothing is written when any file is malformed or nothing is new.
 */
export async function ingestAgrifoodFiles(files: readonly string[], options: AgrifoodIngestOptions): Promise<AgrifoodIngestResult> {
  await mkdir(options.dataDir, { recursive: true });
  const db = await Database.open({ connections: 1 });
  try {
    const ledger = await loadImportLedger(db, options.dataDir);
    const known = new Set(ledger.filter((r) => (AGRIFOOD_DATASETS as readonly string[]).includes(r.dataset)).map((r) => r.fileHash));
    const { parsed, skipped } = await parseNewFiles(files, known, options.dataset);
    if (parsed.length === 0) return { imported: [], skipped, current: {} };

    const started = (options.now ?? (() => new Date()))().getTime();
    const imported: ImportRecord[] = parsed.map(({ file, hash, parsed: p }, index) => ({
      dataset: p.dataset,
      source: AGRIFOOD_SOURCE_FORMAT[p.dataset],
      sourceFile: basename(file),
      sourceUrl: options.sourceUrl ?? AGRIFOOD_SOURCE_URL[p.dataset],
      fileHash: hash,
      importDate: new Date(started + index).toISOString(),
      rowCount: p.records.length,
    }));

    const latest = new Map<AgrifoodDataset, ParsedFile>();
    for (const entry of parsed) latest.set(entry.parsed.dataset, entry);
    const current: Partial<Record<AgrifoodDataset, string>> = {};
    for (const [dataset, entry] of latest) {
      await writeFacts(db, dataset, entry);
      current[dataset] = basename(entry.file);
    }
    await appendImportRecords(db, imported);
    await commitTables(db, options.dataDir, [...latest.keys()].map((dataset) => ({ table: agrifoodTable(dataset), orderBy: PRICE_ORDER })));
    return { imported, skipped, current };
  } finally {
    await db.close();
  }
}

/** Stages the file's records as text, then casts them into the dataset's fact table. */
async function writeFacts(db: Database, dataset: AgrifoodDataset, { file, hash, parsed }: ParsedFile): Promise<void> {
  const table = agrifoodTable(dataset);
  const stage = `stage_${table}`;
  await db.run(`CREATE TABLE ${stage} (${STAGE_COLUMNS})`);
  await db.appendRows(stage, parsed.records.map((r) => [
    dataset, r.commodityId, r.productName, r.productCode, r.productType, r.pigClass, r.memberStateCode, r.memberStateName,
    r.marketName, r.marketCode, r.stageName, r.stageCode, r.beginDate, r.endDate, r.weekNumber, r.marketingYear,
    r.referencePeriod, r.unit, r.price, basename(file), r.sourceRow, hash,
  ]));
  await db.run(`CREATE TABLE ${table} (${PRICE_COLUMN_TYPES})`);
  const casts = PRICE_COLUMNS.map((c) =>
    c === 'begin_date' || c === 'end_date' ? `CAST(${c} AS DATE)` : c === 'price' ? 'CAST(price AS DECIMAL(18,4))' : c,
  );
  await db.run(`INSERT INTO ${table} SELECT ${casts.join(', ')} FROM ${stage}`);
  await db.run(`DROP TABLE ${stage}`);
}
