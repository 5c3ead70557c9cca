// The issue rules: one small pure function per stable code, in the order of the answer's `issues`.
// Each rule states its severity, the field at fault and the points it takes from a score (the
// rubric of rules/scores.ts reads the same table, so a seller can see why a score is what it is).
import { namedIn } from './attributes.ts';
import { related } from './category.ts';
import type { RuleContext } from './context.ts';
import { PROMOTIONAL } from './data/lexicon.ts';
import { charLength, detectLanguage, findPhrase, hasEmoji, hasHtml, phraseKeys, stripEmoji, stripHtml, tokenize, upperShare, type Token } from './text.ts';

export type Severity = 'error' | 'warning' | 'info';

export interface Issue {
  code: string;
  severity: Severity;
  field: string;
  message: string;
}

/** Points a failed rule takes from the title score, the description score or the overall quality. */
export interface Penalty {
  title?: number;
  description?: number;
  listing?: number;
}

export interface Rule {
  code: string;
  severity: Severity;
  field: string;
  penalty: Penalty;
  /** What the rule checks, in words (docs/product.md lists these). */
  description: string;
  /** The message when the rule fails, or null when it passes. */
  check(context: RuleContext): string | null;
}

export const TITLE_MIN_CHARS = 20;
export const TITLE_MAX_CHARS = 150;
export const DESCRIPTION_MIN_CHARS = 50;
export const DESCRIPTION_GOOD_CHARS = 100;
export const DESCRIPTION_MAX_CHARS = 5000;

/** Words never counted as keyword repetition. */
const STOP_WORDS = new Set([
  'the', 'and', 'for', 'with', 'from', 'this', 'that', 'your', 'you', 'are', 'our', 'its', 'has', 'have', 'can', 'will', 'not', 'all',
  'into', 'made', 'more', 'was', 'per', 'one', 'out', 'also',
  'за', 'и', 'с', 'със', 'на', 'от', 'в', 'във', 'е', 'са', 'се', 'да', 'по', 'при', 'до', 'като', 'или', 'но', 'не', 'ще', 'тази',
  'този', 'това', 'тези', 'която', 'който', 'които', 'което', 'има', 'много', 'най', 'още', 'който', 'всеки', 'всички', 'без',
]);

function contentTokens(tokens: readonly Token[]): Token[] {
  return tokens.filter((token) => token.lower.length >= 3 && !/^\d+$/.test(token.lower) && !STOP_WORDS.has(token.lower));
}

function repeats(tokens: readonly Token[]): Map<string, { count: number; word: string }> {
  const counts = new Map<string, { count: number; word: string }>();
  for (const token of contentTokens(tokens)) {
    const entry = counts.get(token.key) ?? { count: 0, word: token.lower };
    entry.count += 1;
    counts.set(token.key, entry);
  }
  return counts;
}

const PROMOTIONAL_PHRASES = PROMOTIONAL.map((phrase) => ({ phrase, keys: phraseKeys(phrase) }));

/** The promotional phrases in the tokens, in list order, without phrases inside a longer one found. */
export function promotionalPhrases(tokens: readonly Token[]): string[] {
  const found = PROMOTIONAL_PHRASES.filter(({ keys }) => keys.length > 0 && findPhrase(tokens, keys).length > 0).map(({ phrase }) => phrase);
  return found.filter((phrase) => !found.some((other) => other !== phrase && other.length > phrase.length && ` ${other} `.includes(` ${phrase} `)));
}

function isAllCaps(text: string): boolean {
  const { share, letters } = upperShare(text);
  return letters >= 8 && share >= 0.8;
}

// Every pattern here runs on up to 64 KB of client text: none may backtrack super-linearly (the lint rules
// regexp/no-super-linear-backtracking and no-super-linear-move check it; test/product/adversarial.test.ts
// times every rule on long hostile inputs).

// A number, then a currency: tried only where a run of digits, spaces, dots and commas starts (the
// lookbehind), so a long run is read once, not once per digit in it.
const PRICE_IN_TEXT = /(?<![\d\s.,])[\s.,]*\d[\d\s.,]*(?:лв\.?|лева|bgn|eur|euro|евро|€|\$|usd)(?!\p{L})|[€$]\s?\d/iu;
/** A link (`http://`, `https://` or `www.` and one more character) or an e-mail address (`a@b.c`). */
const LINK_OR_EMAIL = /(?:https?:\/\/|www\.)\S|[\w.+-]@[\w-]+\.[\w.]/iu;
/** The runs of digits, spaces, slashes and dashes a phone number is written with, each read once. */
const PHONE_RUN = /[\d\s/-]+/gu;
/** Digits from the first to the last of a phone number: a digit, 8 or more characters, a digit. */
const PHONE_MIN_SPAN = 10;

/** Whether the text holds a phone number: a run of digits, spaces, `/` and `-` whose first and last digits are 10 or more characters apart. */
function hasPhoneNumber(text: string): boolean {
  for (const [run] of text.matchAll(PHONE_RUN)) {
    if (run.length < PHONE_MIN_SPAN) continue;
    const first = run.search(/\d/);
    if (first < 0) continue;
    let last = run.length - 1;
    while (last > first && !isDigit(run.charCodeAt(last))) last -= 1;
    if (last - first + 1 >= PHONE_MIN_SPAN) return true;
  }
  return false;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

/** Contact details: a link, an e-mail address or a phone number. */
export function hasContactDetails(text: string): boolean {
  return LINK_OR_EMAIL.test(text) || hasPhoneNumber(text);
}

/** Title and description say the same: same words, or the description is the title plus a few words. */
export function repeatsTitle(title: readonly Token[], description: readonly Token[]): boolean {
  if (description.length === 0 || title.length === 0) return false;
  const titleKeys = title.map((t) => t.key).join(' ');
  const descriptionKeys = description.map((t) => t.key).join(' ');
  if (descriptionKeys === titleKeys) return true;
  const titleSet = new Set(title.map((t) => t.key));
  const descriptionSet = new Set(description.map((t) => t.key));
  const shared = [...titleSet].filter((key) => descriptionSet.has(key)).length;
  const extra = description.filter((t) => !titleSet.has(t.key)).length;
  return shared >= 0.8 * titleSet.size && extra <= 3;
}

function list(values: readonly string[]): string {
  return values.map((value) => `"${value}"`).join(', ');
}

export const RULES: readonly Rule[] = [
  {
    code: 'TITLE_TOO_SHORT', severity: 'warning', field: 'title', penalty: { title: 25 },
    description: `The title (without HTML and emoji) has fewer than ${TITLE_MIN_CHARS} characters.`,
    check: (c) => (charLength(c.title) < TITLE_MIN_CHARS ? `the title has ${charLength(c.title)} characters; name the brand, the product and its main attributes (at least ${TITLE_MIN_CHARS})` : null),
  },
  {
    code: 'TITLE_TOO_LONG', severity: 'warning', field: 'title', penalty: { title: 20 },
    description: `The title has more than ${TITLE_MAX_CHARS} characters (the limit of the main marketplaces and shopping feeds).`,
    check: (c) => (charLength(c.title) > TITLE_MAX_CHARS ? `the title has ${charLength(c.title)} characters; at most ${TITLE_MAX_CHARS} are shown` : null),
  },
  {
    code: 'TITLE_ALL_CAPS', severity: 'warning', field: 'title', penalty: { title: 20 },
    description: 'At least 80% of the title\'s letters (8 or more) are capitals.',
    check: (c) => (isAllCaps(c.title) ? 'the title is written in capitals; use normal capitalisation' : null),
  },
  {
    code: 'TITLE_HAS_HTML', severity: 'warning', field: 'title', penalty: { title: 10 },
    description: 'The title contains HTML tags or character entities.',
    check: (c) => (hasHtml(c.input.title) ? 'the title contains HTML markup' : null),
  },
  {
    code: 'TITLE_HAS_EMOJI', severity: 'info', field: 'title', penalty: { title: 10 },
    description: 'The title contains emoji or pictographs.',
    check: (c) => (hasEmoji(c.input.title) ? 'the title contains emoji, which shopping feeds reject' : null),
  },
  {
    code: 'TITLE_EXCESSIVE_PUNCTUATION', severity: 'info', field: 'title', penalty: { title: 10 },
    description: 'The title repeats punctuation or symbols (`!!`, `??`, `**`, `$$`, `--`) or has more than one exclamation mark.',
    check: (c) => (/([!?*$#~_=+-])\1/.test(c.title) || (c.title.match(/!/g)?.length ?? 0) > 1 ? 'the title repeats punctuation or symbols' : null),
  },
  {
    code: 'TITLE_PROMOTIONAL', severity: 'warning', field: 'title', penalty: { title: 15 },
    description: 'The title carries promotional words (sale, free shipping, промоция, безплатна доставка, ...).',
    check: (c) => {
      const found = promotionalPhrases(c.titleTokens);
      return found.length > 0 ? `the title carries promotional text: ${list(found)}` : null;
    },
  },
  {
    code: 'TITLE_KEYWORD_STUFFING', severity: 'warning', field: 'title', penalty: { title: 20 },
    description: 'A word of three or more letters (other than small words) appears three times or more in the title, or two such words twice each.',
    check: (c) => {
      const counts = [...repeats(c.titleTokens).values()];
      const thrice = counts.filter((entry) => entry.count >= 3);
      const twice = counts.filter((entry) => entry.count >= 2);
      if (thrice.length === 0 && twice.length < 2) return null;
      return `the title repeats keywords: ${list((thrice.length > 0 ? thrice : twice).map((entry) => `${entry.word} x${entry.count}`))}`;
    },
  },
  {
    code: 'TITLE_HAS_PRICE', severity: 'info', field: 'title', penalty: { title: 5 },
    description: 'The title states a price (`49 лв`, `€20`); the price belongs in `price`.',
    check: (c) => (PRICE_IN_TEXT.test(c.title) ? 'the title states a price; send it in price and currency instead' : null),
  },
  {
    code: 'BRAND_MISSING', severity: 'warning', field: 'brand', penalty: { listing: 5 },
    description: 'No brand was sent and the title names no known brand.',
    check: (c) => (c.brand === null ? 'no brand: send brand, and name it at the start of the title' : null),
  },
  {
    code: 'BRAND_NOT_IN_TITLE', severity: 'warning', field: 'title', penalty: { title: 10 },
    description: 'The brand sent in `brand` does not appear in the title.',
    check: (c) => (c.brandSource === 'request' && !c.brandInTitle && c.headBrand === null ? `the brand "${c.brand}" is not in the title` : null),
  },
  {
    code: 'BRAND_CONFLICT', severity: 'error', field: 'brand', penalty: { title: 15 },
    description: 'The title names another known brand as the product\'s own (before `for`, `за`, ...) and not the one sent in `brand`.',
    check: (c) =>
      c.brandSource === 'request' && c.headBrand !== null && c.headBrand.toLowerCase() !== c.brand!.toLowerCase() && !c.brandInTitle
        ? `brand is "${c.brand}" but the title names "${c.headBrand}"`
        : null,
  },
  {
    code: 'CATEGORY_UNKNOWN', severity: 'warning', field: 'category', penalty: { title: 15 },
    description: 'Neither the title and description nor the category sent name a product type of the taxonomy.',
    check: (c) => (c.category.id === null ? 'the product type could not be recognised; name it in the title (e.g. "running shoes", "смартфон")' : null),
  },
  {
    code: 'CATEGORY_MISMATCH', severity: 'warning', field: 'category', penalty: { listing: 10 },
    description: 'The category sent and the category the title names are different branches of the taxonomy (neither contains the other).',
    check: (c) => {
      const text = c.match.best;
      if (!c.hint || !text || !text.inTitle || related(c.hint.id, text.id)) return null;
      return `category "${c.input.category}" (${c.hint.id} ${c.hint.en}) does not match the product the title names (${text.id}, from ${list(text.matched.slice(0, 3))})`;
    },
  },
  {
    code: 'CATEGORY_HINT_UNKNOWN', severity: 'info', field: 'category', penalty: {},
    description: 'The category sent matches no node of the taxonomy (by dotted id, label or keyword, in English or Bulgarian).',
    check: (c) => (c.input.category !== undefined && c.input.category.trim() !== '' && c.hint === null ? `category "${c.input.category}" is not in the taxonomy; the category was taken from the text` : null),
  },
  {
    code: 'PRICE_MISSING', severity: 'warning', field: 'price', penalty: { listing: 5 },
    description: 'No price was sent.',
    check: (c) => (c.input.price === undefined ? 'no price: listings without a price are not shown by shopping feeds' : null),
  },
  {
    code: 'PRICE_ZERO', severity: 'error', field: 'price', penalty: { listing: 10 },
    description: 'The price is 0.',
    check: (c) => (c.input.price === 0 ? 'the price is 0' : null),
  },
  {
    code: 'CURRENCY_MISSING', severity: 'warning', field: 'currency', penalty: { listing: 5 },
    description: 'A price was sent without a currency.',
    check: (c) => (c.input.price !== undefined && c.input.currency === undefined ? 'a price without currency: send the ISO 4217 code (EUR, BGN, USD, ...)' : null),
  },
  {
    code: 'SKU_MISSING', severity: 'info', field: 'sku', penalty: {},
    description: 'No SKU was sent.',
    check: (c) => (c.input.sku === undefined || c.input.sku.trim() === '' ? 'no sku: a stock-keeping unit identifies the offer across channels' : null),
  },
  {
    code: 'DESCRIPTION_TOO_SHORT', severity: 'warning', field: 'description', penalty: { description: 40 },
    description: `The description (without HTML and emoji) has fewer than ${DESCRIPTION_MIN_CHARS} characters.`,
    check: (c) => (charLength(c.description) < DESCRIPTION_MIN_CHARS ? `the description has ${charLength(c.description)} characters; describe the product in at least ${DESCRIPTION_MIN_CHARS} (${DESCRIPTION_GOOD_CHARS} or more is better)` : null),
  },
  {
    code: 'DESCRIPTION_SHORT', severity: 'info', field: 'description', penalty: { description: 15 },
    description: `The description has ${DESCRIPTION_MIN_CHARS} to ${DESCRIPTION_GOOD_CHARS - 1} characters.`,
    check: (c) => {
      const length = charLength(c.description);
      return length >= DESCRIPTION_MIN_CHARS && length < DESCRIPTION_GOOD_CHARS ? `the description has ${length} characters; ${DESCRIPTION_GOOD_CHARS} or more describe a product well` : null;
    },
  },
  {
    code: 'DESCRIPTION_TOO_LONG', severity: 'info', field: 'description', penalty: { description: 5 },
    description: `The description has more than ${DESCRIPTION_MAX_CHARS} characters.`,
    check: (c) => (charLength(c.description) > DESCRIPTION_MAX_CHARS ? `the description has ${charLength(c.description)} characters; most channels cut at ${DESCRIPTION_MAX_CHARS}` : null),
  },
  {
    code: 'DESCRIPTION_REPEATS_TITLE', severity: 'warning', field: 'description', penalty: { description: 30 },
    description: 'The description says what the title says: at least 80% of the title\'s words and at most three other words.',
    check: (c) => (repeatsTitle(c.titleTokens, c.descriptionTokens) ? 'the description repeats the title; describe materials, size, use and care instead' : null),
  },
  {
    code: 'DESCRIPTION_HAS_HTML', severity: 'info', field: 'description', penalty: { description: 10 },
    description: 'The description contains HTML tags or entities (it was read without them).',
    check: (c) => (hasHtml(c.input.description) ? 'the description contains HTML markup; many channels show it as text' : null),
  },
  {
    code: 'DESCRIPTION_HAS_EMOJI', severity: 'info', field: 'description', penalty: { description: 5 },
    description: 'The description contains emoji or pictographs.',
    check: (c) => (hasEmoji(c.input.description) ? 'the description contains emoji' : null),
  },
  {
    code: 'DESCRIPTION_ALL_CAPS', severity: 'warning', field: 'description', penalty: { description: 15 },
    description: 'At least 80% of the description\'s letters (8 or more) are capitals.',
    check: (c) => (isAllCaps(c.description) ? 'the description is written in capitals' : null),
  },
  {
    code: 'DESCRIPTION_KEYWORD_STUFFING', severity: 'warning', field: 'description', penalty: { description: 20 },
    description: 'A word (other than small words) appears five times or more and makes up more than 8% of the description\'s words.',
    check: (c) => {
      const total = contentTokens(c.descriptionTokens).length;
      const stuffed = [...repeats(c.descriptionTokens).values()].filter((entry) => entry.count >= 5 && entry.count / total > 0.08);
      return stuffed.length > 0 ? `the description repeats keywords: ${list(stuffed.map((entry) => `${entry.word} x${entry.count}`))}` : null;
    },
  },
  {
    code: 'DESCRIPTION_PROMOTIONAL', severity: 'info', field: 'description', penalty: { description: 5 },
    description: 'The description carries promotional words.',
    check: (c) => {
      const found = promotionalPhrases(c.descriptionTokens);
      return found.length > 0 ? `the description carries promotional text: ${list(found)}` : null;
    },
  },
  {
    code: 'DESCRIPTION_HAS_CONTACT_INFO', severity: 'warning', field: 'description', penalty: { description: 10 },
    description: 'The description contains a web address, an e-mail address or a phone number.',
    check: (c) => (hasContactDetails(c.description) ? 'the description contains a link, an e-mail address or a phone number, which marketplaces forbid' : null),
  },
  {
    code: 'COLOR_CONFLICT', severity: 'warning', field: 'attributes.color', penalty: { listing: 5 },
    description: 'The title and the description both name colours, and none in common.',
    check: (c) => {
      const title = namedIn(c.title).colors;
      const description = namedIn(c.description).colors;
      if (title.length === 0 || description.length === 0 || title.some((color) => description.includes(color))) return null;
      return `the title says ${list(title)} but the description says ${list(description)}`;
    },
  },
  {
    code: 'GENDER_CONFLICT', severity: 'warning', field: 'attributes.gender', penalty: { listing: 5 },
    description: 'The title and the description name different genders (men / women / kids ...), none in common and neither unisex.',
    check: (c) => {
      const title = namedIn(c.title).genders;
      const description = namedIn(c.description).genders;
      if (title.length === 0 || description.length === 0 || title.includes('unisex') || description.includes('unisex')) return null;
      if (title.some((gender) => description.includes(gender))) return null;
      return `the title is for ${list(title)} but the description for ${list(description)}`;
    },
  },
  {
    code: 'LANGUAGE_MIXED', severity: 'info', field: 'description', penalty: {},
    description: 'The description is Bulgarian and the title has no Cyrillic word, or the description is English and the title mostly Cyrillic (Latin brand and model names in a Bulgarian title are normal).',
    check: (c) => {
      if (c.description.length < 20) return null;
      const description = detectLanguage('', c.description).code;
      const titleCyrillic = c.titleTokens.some((token) => token.cyrillic && token.lower.length >= 3);
      if (description === 'bg' && !titleCyrillic) return 'the title is in English but the description in Bulgarian';
      if (description === 'en' && detectLanguage(c.title, '').code === 'bg') return 'the title is in Bulgarian but the description in English';
      return null;
    },
  },
];

/** The issues of a listing: every failed rule, in the order of RULES. */
export function runRules(context: RuleContext, rules: readonly Rule[] = RULES): Array<Issue & { penalty: Penalty }> {
  const issues: Array<Issue & { penalty: Penalty }> = [];
  for (const rule of rules) {
    const message = rule.check(context);
    if (message !== null) issues.push({ code: rule.code, severity: rule.severity, field: rule.field, message, penalty: rule.penalty });
  }
  return issues;
}

/** Title text as the rules see it (exported for the tests). */
export function cleanText(text: string): string {
  return stripEmoji(stripHtml(text)).replace(/\s+/g, ' ').trim();
}

export { tokenize };
