// Writes the agri-food part of the Parquet snapshot, all or nothing. Each dataset has its own file
// (agrifood_<dataset>.parquet); a new export of a dataset REPLACES that dataset's facts (the portal
// answers a query with the whole series asked for, so the newest export is the version to serve),
// while every import record stays in the ledger. Files are taken in the order given (a folder: by
// name); when a batch holds several new files of one dataset, each gets its own import record
// (import times one millisecond apart, in that order) and the last one feeds the facts.
import { mkdir } from 'node:fs/promises';
import { basename } from 'node:path';
import { Database } from '../../../engine/database.ts';
import { existsSync } from 'node:fs';
import { datasetFile } from '../../../engine/dataset.ts';
import { sqlStringLiteral } from '../../../engine/parquet.ts';
import { appendImportRecords, commitTables, loadImportLedger, type ImportRecord, type NewFile, type SnapshotWriteOptions } from '../../../ingest/commit.ts';
import { readNewJsonFiles } from '../../../ingest/duckdbJson.ts';
import { checkShrink, type ShrinkRule } from '../../../ingest/shrink.ts';
import { AGRIFOOD_PRICES } from '../datasets.ts';
import { makeFactTable, stageAgrifoodExport, type StagedExport } from './stage.ts';
import { AGRIFOOD_DATASETS, AGRIFOOD_SOURCE_FORMAT, AGRIFOOD_SOURCE_URL, type AgrifoodDataset } from './types.ts';

/** Snapshot file (without .parquet) of each dataset's facts. */
export function agrifoodTable(dataset: AgrifoodDataset): string {
  return AGRIFOOD_PRICES[dataset].name;
}

export interface AgrifoodIngestOptions extends SnapshotWriteOptions {
  /** Every file is of this dataset (checked against its field names); detected per file otherwise. A new file replaces its dataset. */
  dataset?: AgrifoodDataset;
}

export interface AgrifoodIngestResult {
  imported: ImportRecord[];
  /** Files whose bytes were already imported (or repeated in the batch). */
  skipped: string[];
  /** Per dataset replaced by this run: the file now feeding its facts. */
  current: Partial<Record<AgrifoodDataset, string>>;
}

type ParsedFile = NewFile<StagedExport>;

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
    // Each file is read into a table of its own as it is checked.
    let read = 0;
    const drop = (staged: StagedExport) => db.run(`DROP TABLE ${staged.table}`);
    const { parsed, skipped } = await readNewJsonFiles<StagedExport>(files, known,
      (file, _accepted, check) => stageAgrifoodExport(db, { file, table: `export_${++read}`, dataset: options.dataset, check }), drop);
    if (parsed.length === 0) return { imported: [], skipped, current: {} };

    const started = (options.now ?? (() => new Date()))().getTime();
    const imported: ImportRecord[] = parsed.map(({ file, hash, parsed: p }, index) => ({
      dataset: p.dataset,
      source: AGRIFOOD_SOURCE_FORMAT[p.dataset],
      sourceFile: basename(file),
      sourceUrl: options.sourceUrl ?? AGRIFOOD_SOURCE_URL[p.dataset],
      fileHash: hash,
      importDate: new Date(started + index).toISOString(),
      rowCount: p.rowCount,
    }));

    // The last file of each dataset feeds its facts; the earlier ones only leave their import records.
    const latest = new Map<AgrifoodDataset, ParsedFile>();
    for (const entry of parsed) latest.set(entry.parsed.dataset, entry);
    for (const entry of parsed) if (latest.get(entry.parsed.dataset) !== entry) await drop(entry.parsed);
    const current: Partial<Record<AgrifoodDataset, string>> = {};
    for (const [dataset, entry] of latest) {
      await writeFacts(db, dataset, entry, { dataDir: options.dataDir, rule: options.shrink ?? { allow: true }, records: imported });
      current[dataset] = basename(entry.file);
    }
    await appendImportRecords(db, imported);
    await commitTables(db, options.dataDir, [...latest.keys()].map((dataset) => AGRIFOOD_PRICES[dataset]));
    return { imported, skipped, current };
  } finally {
    await db.close();
  }
}

/** Checks the shrink rule on the file's rows, then writes them into the dataset's fact table (the file's hash on every row). */
async function writeFacts(
  db: Database,
  dataset: AgrifoodDataset,
  { file, hash, parsed }: ParsedFile,
  shrink: { dataDir: string; rule: ShrinkRule; records: ImportRecord[] },
): Promise<void> {
  const facts = AGRIFOOD_PRICES[dataset];
  const table = facts.name;
  // The held facts of the dataset (its file in the snapshot), per week, against the file's.
  const heldFile = datasetFile(shrink.dataDir, facts);
  const held = existsSync(heldFile) ? `(SELECT begin_date FROM read_parquet(${sqlStringLiteral(heldFile)}))` : '(SELECT CAST(NULL AS DATE) AS begin_date WHERE false)';
  const replacement = `(SELECT begin_date FROM ${parsed.table})`;
  await checkShrink(db, {
    dataset: table,
    key: ['begin_date'],
    covered: `SELECT begin_date, $file AS file FROM (SELECT begin_date FROM ${held} UNION SELECT begin_date FROM ${replacement})`,
    held,
    replacement,
    params: { file: basename(file) },
  }, shrink.rule, shrink.records);
  await makeFactTable(db, parsed, table, hash);
}
