// The card sets' languages and how a file's name states one: read by the ingest command's argument
// check (command.ts) without loading the parser (parse.ts).
import { basename, dirname } from 'node:path';

export type CardLanguage = 'en' | 'bg';
export const CARD_LANGUAGES: readonly CardLanguage[] = ['en', 'bg'];

function languageOfName(name: string): CardLanguage | null {
  const lower = name.toLowerCase();
  if (/(^|[^a-z])(bg|bgbg|bg_bg|bg-bg)([^a-z]|$)/.test(lower)) return 'bg';
  if (/(^|[^a-z])(en|enus|en_us|en-us)([^a-z]|$)/.test(lower)) return 'en';
  return null;
}

/** The language a file's name or its folder's name states (cards.bgBG.json, enUS/cards.json), or null. */
export function languageFromFileName(file: string): CardLanguage | null {
  return languageOfName(basename(file)) ?? languageOfName(basename(dirname(file)));
}
