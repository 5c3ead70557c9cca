// Card classes by their English enum name, with the forms users type: any case, spaces or
// underscores (Demon Hunter, demon_hunter), and the Bulgarian word (Шаман, Ловец на демони).
export const CARD_CLASSES: Record<string, { en: string; bg: string }> = {
  DEATHKNIGHT: { en: 'Death Knight', bg: 'Рицар на смъртта' },
  DEMONHUNTER: { en: 'Demon Hunter', bg: 'Ловец на демони' },
  DRUID: { en: 'Druid', bg: 'Друид' },
  HUNTER: { en: 'Hunter', bg: 'Ловец' },
  MAGE: { en: 'Mage', bg: 'Маг' },
  PALADIN: { en: 'Paladin', bg: 'Паладин' },
  PRIEST: { en: 'Priest', bg: 'Жрец' },
  ROGUE: { en: 'Rogue', bg: 'Разбойник' },
  SHAMAN: { en: 'Shaman', bg: 'Шаман' },
  WARLOCK: { en: 'Warlock', bg: 'Чернокнижник' },
  WARRIOR: { en: 'Warrior', bg: 'Воин' },
  NEUTRAL: { en: 'Neutral', bg: 'Неутрален' },
};

/** Case, spaces, underscores and hyphens do not matter. */
function fold(text: string): string {
  return text.normalize('NFC').toLocaleUpperCase('bg').replace(/[\s_-]+/g, '');
}

const BY_FOLDED = new Map<string, string>();
for (const [enumName, names] of Object.entries(CARD_CLASSES)) {
  for (const form of [enumName, names.en, names.bg]) BY_FOLDED.set(fold(form), enumName);
}
// Other Bulgarian forms in use: the feminine/plural of "neutral" (неутрална карта, неутрални карти)
// and the longer common words for the mage and the rogue.
for (const [form, enumName] of [['Неутрална', 'NEUTRAL'], ['Неутрални', 'NEUTRAL'], ['Магьосник', 'MAGE'], ['Крадец', 'ROGUE']] as const) {
  BY_FOLDED.set(fold(form), enumName);
}

/**
 * The enum name of a class as a user wrote it, or null. `extra` holds class names found in the
 * data beyond the table (the real files gain classes over time).
 */
export function resolveCardClass(input: string, extra: Iterable<string> = []): string | null {
  const folded = fold(input);
  const known = BY_FOLDED.get(folded);
  if (known) return known;
  for (const name of extra) if (fold(name) === folded) return name;
  return null;
}

/** The class names an error message offers: every table class (English / Bulgarian) and any extra enum of the data. */
export function knownClassNames(present: Iterable<string>): string[] {
  const table = Object.entries(CARD_CLASSES).map(([enumName, names]) => `${enumName} (${names.bg})`);
  const extra = [...present].filter((name) => !(name in CARD_CLASSES)).sort();
  return [...table, ...extra];
}
