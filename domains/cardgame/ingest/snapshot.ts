// Writes the card sets into the snapshot, all or nothing. A new file for a language replaces that
// language's whole set (the source publishes complete sets); the other language is kept. A file is
// a no-op when its bytes are the language's current set (the hash is kept on every card row).
import { mkdir } from 'node:fs/promises';
import { basename } from 'node:path';
import { Database } from '../../../engine/database.ts';
import { loadDataset, stagedSelectSql, stagingTableSql } from '../../../engine/dataset.ts';
import { appendImportRecords, commitTables, IngestRejectedError, loadImportLedger, MalformedSourceError, parseNewFiles, type ImportRecord, type SnapshotWriteOptions } from '../../../ingest/commit.ts';
import { checkShrink } from '../../../ingest/shrink.ts';
import { CARDGAME_CARDS } from '../datasets.ts';
import { parseCardFile, type CardLanguage, type CardRecord } from './parse.ts';

export const CARD_TABLE = CARDGAME_CARDS.name;
export const CARD_SOURCE_URL = 'https://api.hearthstonejson.com/v1/latest/';

// Staging holds VARCHAR and INTEGER only (what the appender writes): lists travel as JSON text and
// become lists on insert.
const CREATE_STAGE = stagingTableSql(CARDGAME_CARDS, 'stage_cards');

/** The dataset name of a language's set in the import ledger. */
export function cardDataset(lang: CardLanguage): string {
  return `cardgame_${lang}`;
}

/** A new file replaces its language's set. */
export type CardIngestOptions = SnapshotWriteOptions;

export interface CardIngestResult {
  imported: ImportRecord[];
  skipped: string[];
}

function stageRow(lang: CardLanguage, file: string, hash: string, card: CardRecord): Array<string | number | null> {
  return [
    lang, card.id, card.dbfId, card.name, card.cardClass, JSON.stringify(card.classes), JSON.stringify(card.classMembers), String(card.collectible),
    card.cost, card.attack, card.health, card.durability, card.armor, card.rarity, card.set, card.type, card.text,
    card.flavor, card.artist, card.race, card.spellSchool, JSON.stringify(card.mechanics), basename(file), hash,
  ];
}

/**
 * Ingests one card file per language (en and/or bg) in one commit: a malformed file of either
 * language leaves the snapshot as it was.
 */
export async function ingestCardSets(sets: ReadonlyMap<CardLanguage, readonly string[]>, options: CardIngestOptions): Promise<CardIngestResult> {
  await mkdir(options.dataDir, { recursive: true });
  const db = await Database.open({ connections: 1 });
  try {
    await db.run(CREATE_STAGE);
    await loadImportLedger(db, options.dataDir);
    await loadDataset(db, CARDGAME_CARDS, options.dataDir);

    const batches: Array<{ lang: CardLanguage; file: string; hash: string; cards: CardRecord[] }> = [];
    const skipped: string[] = [];
    const problems: MalformedSourceError[] = [];
    // Each language's current set (its file hash), in one query.
    const current = await db.all(`SELECT DISTINCT lang, file_hash FROM ${CARD_TABLE}`);
    for (const [lang, files] of sets) {
      const known = new Set(current.filter((row) => row.lang === lang).map((row) => String(row.file_hash)));
      try {
        const result = await parseNewFiles<CardRecord[]>(files, known, async (file, accepted) => {
          if (accepted.length > 0) {
            throw new MalformedSourceError(file, null, `a second new ${lang} card set in one run (after ${basename(accepted[0]!.file)}): ingest one set per language at a time`);
          }
          return parseCardFile(file);
        });
        skipped.push(...result.skipped);
        for (const { file, hash, parsed } of result.parsed) batches.push({ lang, file, hash, cards: parsed });
      } catch (error) {
        // Collected so that every malformed file of every language is named at once.
        if (!(error instanceof IngestRejectedError)) throw error;
        problems.push(...error.problems);
      }
    }
    if (problems.length > 0) throw new IngestRejectedError(problems);
    if (batches.length === 0) return { imported: [], skipped };

    const importDate = (options.now ?? (() => new Date()))().toISOString();
    const imported: ImportRecord[] = batches.map(({ lang, file, hash, cards }) => ({
      dataset: cardDataset(lang), source: 'hearthstonejson', sourceFile: basename(file), sourceUrl: options.sourceUrl ?? CARD_SOURCE_URL,
      fileHash: hash, importDate, rowCount: cards.length,
    }));
    // One appender for every set, one DELETE for the languages replaced: the fixed cost per statement dominates here.
    await db.appendRows('stage_cards', batches.flatMap(({ lang, file, hash, cards }) => cards.map((card) => stageRow(lang, file, hash, card))));
    await checkShrink(db, {
      dataset: CARD_TABLE,
      key: ['lang'],
      covered: 'SELECT DISTINCT lang, source_file AS file FROM stage_cards',
      held: `(SELECT lang FROM ${CARD_TABLE})`,
      replacement: '(SELECT lang FROM stage_cards)',
    }, options.shrink ?? { allow: true }, imported);
    await db.run(`DELETE FROM ${CARD_TABLE} WHERE lang IN (SELECT DISTINCT lang FROM stage_cards)`);
    await db.run(`INSERT INTO ${CARD_TABLE}
      SELECT ${stagedSelectSql(CARDGAME_CARDS)} FROM stage_cards`);
    await appendImportRecords(db, imported);
    await commitTables(db, options.dataDir, [CARDGAME_CARDS]);
    return { imported, skipped };
  } finally {
    await db.close();
  }
}
