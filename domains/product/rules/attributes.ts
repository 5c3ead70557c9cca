// Attribute extraction: brand, gender, colour, material, use from the vocabularies of data/lexicon.ts;
// size, storage, memory, volume, weight, screen size, power, pack size, age and model from patterns.
// The title is read first; the description fills what the title does not state. Pure functions.
import { BRANDS, COLOR_BLOCKERS, COLORS, GENDERS, MATERIAL_NOT_AFTER, MATERIALS, USES, type Vocabulary } from './data/lexicon.ts';
import { findPhrase, phraseKeys, tokenize, type Token } from './text.ts';

export interface Attributes {
  brand: string | null;
  gender: string | null;
  color: string | null;
  /** Every colour named, title first. */
  colors: string[];
  product_type: string | null;
  use: string | null;
  material: string | null;
  size: string | null;
  model: string | null;
  storage: string | null;
  memory: string | null;
  volume: string | null;
  weight: string | null;
  screen_size: string | null;
  power: string | null;
  pack_size: string | null;
  age: string | null;
}

/** The attribute names, in the order of the response. */
export { ATTRIBUTE_NAMES } from './attributeNames.ts';

interface CompiledVocabulary {
  entries: ReadonlyArray<{ canonical: string; phrase: string; keys: readonly string[] }>;
}

function compile(vocabulary: Vocabulary): CompiledVocabulary {
  return {
    entries: vocabulary.flatMap(([canonical, phrases]) =>
      phrases.split('|').map((phrase) => ({ canonical, phrase, keys: phraseKeys(phrase) })).filter((e) => e.keys.length > 0),
    ),
  };
}

const VOCABULARIES = {
  color: compile(COLORS),
  material: compile(MATERIALS),
  gender: compile(GENDERS),
  use: compile(USES),
};

export interface VocabularyHit {
  canonical: string;
  start: number;
  length: number;
}

/**
 * Every phrase of the vocabulary in the tokens, in text order; where two overlap, the longer wins
 * (`navy blue` is navy, not navy and blue). `skip` vetoes a hit (a colour before `wine`).
 */
export function findVocabulary(tokens: readonly Token[], vocabulary: CompiledVocabulary, skip?: (hit: VocabularyHit, tokens: readonly Token[]) => boolean): VocabularyHit[] {
  const hits: VocabularyHit[] = [];
  for (const entry of vocabulary.entries) {
    for (const start of findPhrase(tokens, entry.keys)) hits.push({ canonical: entry.canonical, start, length: entry.keys.length });
  }
  hits.sort((a, b) => a.start - b.start || b.length - a.length);
  const accepted: VocabularyHit[] = [];
  let coveredUntil = -1;
  for (const hit of hits) {
    if (hit.start < coveredUntil) continue;
    if (skip?.(hit, tokens)) continue;
    accepted.push(hit);
    coveredUntil = hit.start + hit.length;
  }
  return accepted;
}

function colorBlocked(hit: VocabularyHit, tokens: readonly Token[]): boolean {
  const next = tokens[hit.start + hit.length];
  const blockers = COLOR_BLOCKERS.get(hit.canonical);
  return Boolean(next && blockers?.includes(next.lower));
}

function materialBlocked(hit: VocabularyHit, tokens: readonly Token[]): boolean {
  const word = tokens[hit.start];
  const before = MATERIAL_NOT_AFTER.get(word.lower);
  if (before) {
    const previous = tokens[hit.start - 1];
    if (previous && before.includes(previous.lower)) return true;
  }
  return false;
}

function firstOf(hits: readonly VocabularyHit[]): string | null {
  return hits[0]?.canonical ?? null;
}

/** Men and women named together: unisex; otherwise the first gender named. */
function genderOf(hits: readonly VocabularyHit[]): string | null {
  const named = new Set(hits.map((hit) => hit.canonical));
  if (named.has('men') && named.has('women')) return 'unisex';
  return firstOf(hits);
}

const BRAND_PATTERNS = [...new Set(BRANDS)]
  .sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0))
  .map((brand) => ({ brand, lower: brand.toLowerCase(), pattern: new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(brand)}(?![\\p{L}\\p{N}])`, 'iu') }));

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The known brand named earliest in the text (longest name first at the same place), or null. */
export function detectBrand(text: string): { brand: string; index: number } | null {
  let best: { brand: string; index: number } | null = null;
  const lower = text.toLowerCase();
  for (const { brand, lower: name, pattern } of BRAND_PATTERNS) {
    if (!lower.includes(name)) continue;
    const match = pattern.exec(text);
    if (match && (best === null || match.index < best.index)) best = { brand, index: match.index };
  }
  return best;
}

/** Whether the text names the brand as a whole word (case-insensitive). */
export function mentionsBrand(text: string, brand: string): boolean {
  const trimmed = brand.trim();
  if (trimmed.length === 0) return false;
  return new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(trimmed)}(?![\\p{L}\\p{N}])`, 'iu').test(text);
}

const NOT_LETTER = '(?![\\p{L}\\p{N}])';
const NUMBER = '(\\d{1,5}(?:[.,]\\d{1,2})?)';

function decimal(text: string): string {
  return text.replace(',', '.');
}

const PATTERNS = {
  sizeLabelled: new RegExp(`(?<![\\p{L}])(?:size|sz|размер|номер|ръст|eu|р\\.|н\\.)(?![\\p{L}])\\s*(?:[:#]\\s*)?(\\d{2,3}(?:[.,]5)?(?:\\s*[-/]\\s*\\d{2,3}(?:[.,]5)?)?|[2-5]?X{0,3}[SML])${NOT_LETTER}`, 'iu'),
  sizeLetters: new RegExp(`(?<![\\p{L}\\p{N}])(XXS|XS|XXXL|XXL|XL|[2-5]XL)${NOT_LETTER}`, 'u'),
  sizeRange: new RegExp(`(?<![\\p{L}\\p{N}])((?:XS|S|M|L|XL|XXL)(?:\\s*[/-]\\s*(?:XS|S|M|L|XL|XXL|XXXL)){1,6})${NOT_LETTER}`, 'u'),
  sizeEuAfter: new RegExp(`(?<![\\p{L}\\p{N}.,])(\\d{2}(?:[.,]5)?)\\s*(?:eu|ЕС)${NOT_LETTER}`, 'iu'),
  tyre: /(?<!\d)(\d{3}\/\d{2}\s?Z?R\s?\d{2})(?!\d)/i,
  storage: new RegExp(`(?<![\\p{L}\\p{N}.,])(\\d{1,4})\\s?(GB|TB|ГБ|ТБ)${NOT_LETTER}(?!\\s+(?:ram|ddr|рам|оперативна))`, 'iu'),
  memory: new RegExp(`(?<![\\p{L}\\p{N}.,])(\\d{1,3})\\s?(GB|ГБ)\\s*(?:ram|ddr\\d?|рам|оперативна)`, 'iu'),
  volume: new RegExp(`(?<![\\p{L}\\p{N}.,])${NUMBER}\\s?(ml|мл|l|л|литра|литър|литри|liters?|litres?)${NOT_LETTER}`, 'iu'),
  weight: new RegExp(`(?<![\\p{L}\\p{N}.,])${NUMBER}\\s?(kg|кг|g|gr|гр|г|грама|килограма)${NOT_LETTER}`, 'iu'),
  screen: new RegExp(`(?<![\\p{L}\\p{N}.,])(\\d{1,3}(?:[.,]\\d)?)\\s?(?:"|''|”|″|-?inch(?:es)?|инча|инч)`, 'iu'),
  power: new RegExp(`(?<![\\p{L}\\p{N}.,])(\\d{2,5})\\s?(W|вата|Вт)${NOT_LETTER}`, 'u'),
  pack: new RegExp(`(?:(?<![\\p{L}\\p{N}.,])(\\d{1,4})\\s?(?:pcs|pieces|pack|бр\\.?|броя|бройки)${NOT_LETTER}|(?:pack of|set of|комплект от|пакет от)\\s+(\\d{1,4}))`, 'iu'),
  age: new RegExp(`(?:(?<![\\p{L}\\p{N}.,])(\\d{1,2})\\s?\\+|(?:ages?|от|над|за)\\s+(\\d{1,2})\\s*(?:years?|yrs|г\\.|години|годишни|год\\.?|\\+)|(?<![\\p{L}\\p{N}.,])(\\d{1,2})\\s*(?:-\\s*\\d{1,2}\\s*)?(?:years|години|год\\.)(?:\\s+and up)?)`, 'iu'),
};

function firstMatch(pattern: RegExp, texts: readonly string[]): RegExpExecArray | null {
  for (const text of texts) {
    const match = pattern.exec(text);
    if (match) return match;
  }
  return null;
}

function sizeOf(texts: readonly string[]): string | null {
  for (const text of texts) {
    const tyre = PATTERNS.tyre.exec(text);
    if (tyre) return tyre[1].toUpperCase().replace(/\s+/g, '');
    const labelled = PATTERNS.sizeLabelled.exec(text);
    if (labelled) return labelled[1].toUpperCase().replace(/\s+/g, '').replace(',', '.');
    const eu = PATTERNS.sizeEuAfter.exec(text);
    if (eu) return decimal(eu[1]);
    const range = PATTERNS.sizeRange.exec(text);
    if (range && /[/-]/.test(range[1])) return range[1].replace(/\s+/g, '');
    const letters = PATTERNS.sizeLetters.exec(text);
    if (letters) return letters[1];
  }
  return null;
}

function unitValue(pattern: RegExp, texts: readonly string[], unit: (raw: string) => string): string | null {
  const match = firstMatch(pattern, texts);
  if (!match) return null;
  return `${decimal(match[1])} ${unit(match[2])}`;
}

const VOLUME_UNITS: ReadonlyMap<string, string> = new Map([['ml', 'ml'], ['мл', 'ml']]);
const WEIGHT_UNITS: ReadonlyMap<string, string> = new Map([['kg', 'kg'], ['кг', 'kg'], ['килограма', 'kg']]);

const UNIT_TOKEN = /^\d+([.,]\d+)?(gb|tb|mb|ml|l|kg|g|gr|w|mah|mm|cm|m|hz|mp|k|x|v|"|''|in|inch|pcs)$/i;
const SIZE_TOKEN = /^[2-5]?x{0,3}[sml]$/i;

/**
 * The model: after a brand in the title, the Latin words up to and including the first one with a
 * digit (`Samsung Galaxy S24 Ultra` -> `Galaxy S24`, `Nike Air Max 90` -> `Air Max 90`), at most four
 * words; otherwise the first title word mixing letters and digits that is not a unit or a size (`WH-1000XM5`);
 * otherwise a catalogue number of 4 to 8 digits that is not a year (`60316`). The title is read recased
 * when it was written in capitals (`GALAXY A55` -> `Galaxy A55`).
 */
export function modelOf(title: string, brand: string | null): string | null {
  const words = title.split(/[\s,;|()]+/).filter((w) => w.length > 0);
  const isCandidate = (word: string) => /\d/.test(word) && !UNIT_TOKEN.test(word) && !SIZE_TOKEN.test(word) && /^[A-Za-z0-9][A-Za-z0-9\-/.+]*$/.test(word);
  if (brand) {
    const brandWords = brand.trim().split(/\s+/).length;
    const lower = words.map((w) => w.toLowerCase());
    const first = brand.trim().split(/\s+/)[0].toLowerCase();
    const at = lower.indexOf(first);
    if (at >= 0) {
      const run: string[] = [];
      for (let i = at + brandWords; i < words.length && run.length < 4; i++) {
        const word = words[i];
        if (!/^[A-Za-z0-9][A-Za-z0-9\-/.+]*$/.test(word) || UNIT_TOKEN.test(word)) break;
        run.push(word);
        if (/\d/.test(word)) return run.join(' ');
      }
    }
  }
  const alone = words.find((word) => isCandidate(word) && /[A-Za-z]/.test(word));
  if (alone) return alone;
  // A catalogue number on its own (a LEGO set, a part number): 4 to 8 digits.
  return words.find((word) => /^\d{4,8}$/.test(word) && !/^(19|20)\d\d$/.test(word)) ?? null;
}

export interface AttributeInput {
  title: string;
  description: string;
  brand: string | null;
  productType: string | null;
  /** The title the model is read from (the recased title of an all-caps title); default `title`. */
  modelTitle?: string;
}

/** Attributes of a cleaned title and description (HTML and emoji already removed). */
export function extractAttributes(input: AttributeInput): Attributes {
  const titleTokens = tokenize(input.title);
  const descriptionTokens = tokenize(input.description);
  const fromTitleThenDescription = (vocabulary: CompiledVocabulary, skip?: Parameters<typeof findVocabulary>[2]) => {
    const inTitle = findVocabulary(titleTokens, vocabulary, skip);
    return inTitle.length > 0 ? inTitle : findVocabulary(descriptionTokens, vocabulary, skip);
  };
  const colorHits = [...findVocabulary(titleTokens, VOCABULARIES.color, colorBlocked), ...findVocabulary(descriptionTokens, VOCABULARIES.color, colorBlocked)];
  const colors = [...new Set(colorHits.map((hit) => hit.canonical))];
  const texts = [input.title, input.description];
  const pack = firstMatch(PATTERNS.pack, texts);
  const age = firstMatch(PATTERNS.age, texts);
  const ageValue = age ? (age[1] ?? age[2] ?? age[3]) : null;
  return {
    brand: input.brand,
    gender: genderOf(fromTitleThenDescription(VOCABULARIES.gender)),
    color: colors[0] ?? null,
    colors,
    product_type: input.productType,
    use: firstOf(fromTitleThenDescription(VOCABULARIES.use)),
    material: firstOf(fromTitleThenDescription(VOCABULARIES.material, materialBlocked)),
    size: sizeOf(texts),
    model: modelOf(input.modelTitle ?? input.title, input.brand),
    storage: unitValue(PATTERNS.storage, texts, (unit) => (/t|т/i.test(unit) ? 'TB' : 'GB')),
    memory: unitValue(PATTERNS.memory, texts, () => 'GB'),
    volume: unitValue(PATTERNS.volume, texts, (unit) => VOLUME_UNITS.get(unit.toLowerCase()) ?? 'l'),
    weight: unitValue(PATTERNS.weight, texts, (unit) => WEIGHT_UNITS.get(unit.toLowerCase()) ?? 'g'),
    screen_size: unitValue(PATTERNS.screen, texts.map((t) => t), () => 'in'),
    power: unitValue(PATTERNS.power, texts, () => 'W'),
    pack_size: pack ? (pack[1] ?? pack[2]) : null,
    age: ageValue !== null ? `${ageValue}+` : null,
  };
}

/** The colours named in the tokens, in text order. */
export function colorHits(tokens: readonly Token[]): VocabularyHit[] {
  return findVocabulary(tokens, VOCABULARIES.color, colorBlocked);
}

/** The gender, colour and material named in one text only (for the title/description consistency checks). */
export function namedIn(text: string): { genders: string[]; colors: string[] } {
  const tokens = tokenize(text);
  return {
    genders: [...new Set(findVocabulary(tokens, VOCABULARIES.gender).map((hit) => hit.canonical))],
    colors: [...new Set(findVocabulary(tokens, VOCABULARIES.color, colorBlocked).map((hit) => hit.canonical))],
  };
}
