// npm run ingest -- cardgame <file-or-folder> [--lang en|bg] [--source-url URL]
// The parser and the snapshot writer load when the command runs: the domain's index imports this
// file for its source name and options, and the server must not load them.
import { UsageError, type IngestCommand } from '../../../ingest/command.ts';
import { sourceFiles } from '../../../ingest/sourceFiles.ts';
import { CARD_LANGUAGES, languageFromFileName, type CardLanguage } from './languages.ts';

/** The .json files of a folder sorted by name, or the file itself. */
export function cardSourceFiles(path: string): Promise<string[]> {
  return sourceFiles(path, ['.json']);
}

/** Groups files by language: --lang for all of them, or each file's name (cards.bgBG.json, ...). */
export function filesByLanguage(files: readonly string[], lang: string | undefined): Map<CardLanguage, string[]> {
  if (lang !== undefined && !(CARD_LANGUAGES as readonly string[]).includes(lang)) throw new UsageError(`--lang must be en or bg, not "${lang}"`);
  const groups = new Map<CardLanguage, string[]>();
  for (const file of files) {
    const language = (lang as CardLanguage | undefined) ?? languageFromFileName(file);
    if (!language) throw new UsageError(`cannot tell the language of ${file}: pass --lang en or --lang bg`);
    groups.set(language, [...(groups.get(language) ?? []), file]);
  }
  return groups;
}

export const cardgameIngestCommand: IngestCommand = {
  source: 'cardgame',
  usage: '<file-or-folder> [--lang en|bg] [--source-url URL]',
  options: { lang: { type: 'string' }, 'source-url': { type: 'string' } },
  async run({ path, dataDir, options, log, allowShrink }) {
    const files = await cardSourceFiles(path);
    if (files.length === 0) throw new UsageError(`no .json files in ${path}`);
    const sets = filesByLanguage(files, options.lang as string | undefined);
    for (const [lang, group] of sets) log(`ingest: ${group.length} ${lang} card file(s) into ${dataDir}`);
    const { ingestCardSets } = await import('./snapshot.ts');
    const { imported, skipped } = await ingestCardSets(sets, {
      dataDir, sourceUrl: options['source-url'] as string | undefined, shrink: { allow: allowShrink === true, log },
    });
    return { imported: imported.length, rows: imported.reduce((sum, record) => sum + record.rowCount, 0), skipped: skipped.length };
  },
};
