// The normalised title (the seller's title cleaned) and the suggested title (cleaned, without
// promotional text and repeated keywords, with the brand and missing attributes added). Pure functions.
import { ACRONYMS, BRANDS, PROMOTIONAL, SMALL_WORDS_EN } from './data/lexicon.ts';
import { TITLE_MAX_CHARS } from './checks.ts';
import { charLength, collapseSpaces, stripEmoji, stripHtml, upperShare } from './text.ts';

// Runs are matched from their first character only (the lookbehinds), so a long run is read once.
const SPACES_BEFORE_PUNCTUATION = /(?<!\s)\s+([,.;:])/g;
const SEPARATORS_AT_ENDS = /^[\s,.;:|/\\-]+|(?<![\s,.;:|/\\-])[\s,.;:|/\\-]+$/g;

const ACRONYM_SET = new Set(ACRONYMS);
const SMALL_WORDS = new Set(SMALL_WORDS_EN);
const BRAND_SPELLING: ReadonlyMap<string, string> = new Map(BRANDS.flatMap((brand) => brand.split(/\s+/).map((word) => [word.toLowerCase(), word] as [string, string])));

function capitalise(word: string): string {
  const first = String.fromCodePoint(word.codePointAt(0)!);
  return first.toUpperCase() + word.slice(first.length);
}

/** One word of an all-caps title in normal case: acronyms, words with digits and brand names keep their spelling. */
function recaseWord(word: string, index: number, language: 'en' | 'bg', brands: ReadonlyMap<string, string>): string {
  const core = word.replace(/^[^\p{L}\p{N}]+|(?<![^\p{L}\p{N}])[^\p{L}\p{N}]+$/gu, '');
  const lower = core.toLowerCase();
  if (core.length === 0) return word;
  let replaced: string;
  if (brands.has(lower)) replaced = brands.get(lower)!;
  else if (ACRONYM_SET.has(lower) || /\d/.test(core)) replaced = core;
  // Bulgarian: sentence case; a Latin word in a Bulgarian title is a name (brand, model) and is capitalised.
  else if (language === 'bg') replaced = index === 0 || /^[a-z]/.test(lower) ? capitalise(lower) : lower;
  else if (index > 0 && SMALL_WORDS.has(lower)) replaced = lower;
  else replaced = lower.split('-').map(capitalise).join('-');
  return word.replace(core, replaced);
}

/**
 * The seller's title cleaned: HTML and emoji removed, runs of `!`, `?`, `*`, `$` and similar cut,
 * separators at the ends dropped, a word repeated right after itself dropped, and an all-caps title
 * recased (English: title case; Bulgarian: sentence case; brands, acronyms and words with digits kept).
 */
export function normalizeTitle(title: string, language: 'en' | 'bg', brand: string | null): string {
  let text = collapseSpaces(stripEmoji(stripHtml(title)));
  text = text.replace(/([!?*$#~_=+])\1+/g, '').replace(/!+/g, '').replace(SPACES_BEFORE_PUNCTUATION, '$1');
  text = collapseSpaces(text).replace(SEPARATORS_AT_ENDS, '');
  const words = text.split(' ').filter((word) => word.length > 0);
  const deduplicated = words.filter((word, i) => i === 0 || word.toLowerCase() !== words[i - 1].toLowerCase());
  const { share, letters } = upperShare(text);
  if (letters >= 8 && share >= 0.8) {
    const brands = new Map(BRAND_SPELLING);
    if (brand) for (const word of brand.trim().split(/\s+/)) brands.set(word.toLowerCase(), word);
    return deduplicated.map((word, i) => recaseWord(word, i, language, brands)).join(' ');
  }
  return deduplicated.join(' ');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const PROMO_PATTERNS = [...PROMOTIONAL]
  .sort((a, b) => b.length - a.length)
  .map((phrase) => new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(phrase)}(?![\\p{L}\\p{N}])`, 'giu'));
// Prices, as /\d[\d\s.,]*(?:currency)(?!\p{L})|[€$]\s?\d[\d.,]*/ would find them from the left, in
// linear time: that pattern reads a run of digits, spaces, dots and commas to its end once per digit in
// it; priceSpans reads each run once (a run that ends without a currency is not read again).
const PRICE_START = /\d|[€$]/g;
const NUMBER_RUN = /[\d\s.,]*/y;
const CURRENCY_AFTER = /(?:лв\.?|лева|bgn|eur|euro|евро|€|\$|usd)(?!\p{L})/iuy;
const SIGN_FIRST = /[€$]\s?\d[\d.,]*/y;

/** The [start, end) spans of the prices in the text, left to right, not overlapping. */
export function priceSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  let runWithoutCurrency = -1;
  const starts = new RegExp(PRICE_START.source, 'g');
  for (let match = starts.exec(text); match !== null; match = starts.exec(text)) {
    const at = match.index;
    let end = -1;
    if (match[0] !== '€' && match[0] !== '$') {
      if (at < runWithoutCurrency) continue;
      NUMBER_RUN.lastIndex = at + 1;
      NUMBER_RUN.exec(text);
      CURRENCY_AFTER.lastIndex = NUMBER_RUN.lastIndex;
      if (CURRENCY_AFTER.exec(text) !== null) end = CURRENCY_AFTER.lastIndex;
      else runWithoutCurrency = NUMBER_RUN.lastIndex;
    } else {
      SIGN_FIRST.lastIndex = at;
      if (SIGN_FIRST.exec(text) !== null) end = SIGN_FIRST.lastIndex;
    }
    if (end < 0) continue;
    spans.push([at, end]);
    starts.lastIndex = end;
  }
  return spans;
}

/** Each price replaced by a space. */
function removePrices(text: string): string {
  let out = '';
  let copied = 0;
  for (const [start, end] of priceSpans(text)) {
    out += `${text.slice(copied, start)} `;
    copied = end;
  }
  return out + text.slice(copied);
}

function tidy(text: string): string {
  return collapseSpaces(text.replace(SPACES_BEFORE_PUNCTUATION, '$1').replace(/([,;:|/-])(\s*[,;:|/-])+/g, '$1')).replace(SEPARATORS_AT_ENDS, '');
}

/** Words of three letters or more after their first occurrence removed (`Shoes Shoes Running Shoes` -> `Shoes Running`). */
function dropRepeatedWords(text: string): string {
  const seen = new Set<string>();
  return text
    .split(' ')
    .filter((word) => {
      const core = word.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
      if (core.length < 3 || /^\d+$/.test(core)) return true;
      if (seen.has(core)) return false;
      seen.add(core);
      return true;
    })
    .join(' ');
}

/** Cut at the last whole word that fits in `max` characters. */
export function truncateWords(text: string, max: number): string {
  if (charLength(text) <= max) return text;
  const chars = [...text].slice(0, max + 1).join('');
  const cut = chars.lastIndexOf(' ');
  return tidy(cut > 0 ? chars.slice(0, cut) : chars.slice(0, max));
}

export interface SuggestionInput {
  normalizedTitle: string;
  brand: string | null;
  brandInTitle: boolean;
  /** Attribute phrases as written in the description, to add when the title lacks them (colour, size, material). */
  additions: readonly string[];
  stuffed: boolean;
}

/**
 * The suggested title: the normalised title without promotional phrases and prices (and without
 * repeated words when the title is stuffed), the brand put first when it is missing, the attributes
 * the description states but the title does not appended after a comma, cut to 150 characters.
 */
export function suggestTitle(input: SuggestionInput): string {
  let text = input.normalizedTitle;
  for (const pattern of PROMO_PATTERNS) text = text.replace(pattern, ' ');
  text = tidy(removePrices(text));
  if (input.stuffed) text = tidy(dropRepeatedWords(text));
  if (input.brand && !input.brandInTitle) text = `${input.brand.trim()} ${text}`;
  if (input.additions.length > 0) text = `${text}, ${input.additions.join(', ')}`;
  const result = truncateWords(tidy(text), TITLE_MAX_CHARS);
  return result.length > 0 ? result : input.normalizedTitle;
}
