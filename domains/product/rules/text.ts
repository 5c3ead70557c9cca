// Text primitives of the rules engine: HTML and emoji clean-up, tokens, word keys (word forms of English
// and Bulgarian reduced to one key), phrase search and language detection. Pure functions.
//
// Word keys. No maintained stemming library with Bulgarian fits: the one npm package that ships a
// Bulgarian stemmer (@orama/stemmers 3.1.18, an implementation of BulStem) throws on every word that
// needs a letter replaced, because it assigns into the characters of a JS string (read-only in an ES
// module); the Snowball project has no Bulgarian algorithm. So the engine uses the documented, small
// suffix rules below (a light stemmer after Nakov's BulStem), and the vocabularies in data/lexicon.ts
// list the forms these rules cannot join (бял / бели, син / синьо) as word-form tables.

export interface Token {
  /** As written. */
  raw: string;
  lower: string;
  /** The word key (stem) that phrases are matched on. */
  key: string;
  cyrillic: boolean;
  /** Offset of the token in the text it came from. */
  start: number;
}

const ENTITIES: ReadonlyMap<string, string> = new Map([
  ['amp', '&'], ['lt', '<'], ['gt', '>'], ['quot', '"'], ['apos', "'"], ['nbsp', ' '], ['ndash', '–'], ['mdash', '—'],
  ['laquo', '«'], ['raquo', '»'], ['bdquo', '„'], ['ldquo', '“'], ['rdquo', '”'], ['hellip', '…'], ['euro', '€'],
]);

// A tag, or where a comment starts: its end is found with indexOf (a lazy `<!--[\s\S]*?-->` would read
// to the end of the text once per unclosed `<!--`).
const TAG_OR_COMMENT = /<\/?[a-zA-Z][^<>]*>|<!--/g;
const ENTITY = /&(#\d{1,7}|#x[0-9a-fA-F]{1,6}|[a-zA-Z]{2,8});/g;

/** Whether the text carries HTML markup (tags or character entities). */
export function hasHtml(text: string): boolean {
  return /<\/?[a-zA-Z][^<>]*>/.test(text) || /&(#\d{1,7}|#x[0-9a-fA-F]{1,6}|[a-zA-Z]{2,8});/.test(text);
}

function decodeEntity(match: string, body: string): string {
  if (body.startsWith('#x') || body.startsWith('#X')) return safeCodePoint(parseInt(body.slice(2), 16), match);
  if (body.startsWith('#')) return safeCodePoint(parseInt(body.slice(1), 10), match);
  return ENTITIES.get(body.toLowerCase()) ?? match;
}

function safeCodePoint(code: number, fallback: string): string {
  return Number.isInteger(code) && code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : fallback;
}

/** Tags removed (block tags and <br> become a space), entities decoded, whitespace collapsed. */
export function stripHtml(text: string): string {
  return collapseSpaces(removeTags(text).replace(ENTITY, decodeEntity));
}

/** Each tag and each closed comment replaced by a space, in one pass from the left. */
function removeTags(text: string): string {
  const pattern = new RegExp(TAG_OR_COMMENT.source, 'g');
  let out = '';
  let copied = 0;
  // Once a `<!--` has no `-->` after it, no later one has.
  let commentsClose = true;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    let end = match.index + match[0].length;
    if (match[0] === '<!--') {
      const close = commentsClose ? text.indexOf('-->', end) : -1;
      if (close < 0) {
        commentsClose = false;
        pattern.lastIndex = match.index + 1;
        continue;
      }
      end = close + 3;
      pattern.lastIndex = end;
    }
    out += `${text.slice(copied, match.index)} `;
    copied = end;
  }
  return out + text.slice(copied);
}

// One code point each: a pictograph, a regional indicator, or a joiner/variation/keycap mark.
const EMOJI = /\p{Extended_Pictographic}|[\u{1F1E6}-\u{1F1FF}]|\u{FE0F}|\u{200D}|\u{20E3}/gu;

export function hasEmoji(text: string): boolean {
  return /\p{Extended_Pictographic}|[\u{1F1E6}-\u{1F1FF}]/u.test(text);
}

export function stripEmoji(text: string): string {
  return text.replace(EMOJI, ' ');
}

export function collapseSpaces(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Whether the text has a Cyrillic letter (the Cyrillic and Cyrillic Supplement blocks). */
export function isCyrillic(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x0400 && code <= 0x052f) return true;
  }
  return false;
}

const IRREGULAR_EN: ReadonlyMap<string, string> = new Map([
  ['knives', 'knife'], ['shelves', 'shelf'], ['leaves', 'leaf'], ['children', 'child'], ['mens', 'men'], ['womens', 'women'],
  ['boys', 'boy'], ['girls', 'girl'], ['kids', 'kid'], ['feet', 'foot'], ['jeans', 'jeans'], ['glasses', 'glasses'],
  ['sunglasses', 'sunglasses'], ['trousers', 'trousers'], ['shorts', 'shorts'], ['pants', 'pants'], ['goggles', 'goggles'],
  ['tennis', 'tennis'], ['chess', 'chess'], ['dress', 'dress'], ['news', 'news'], ['series', 'series'], ['gas', 'gas'],
  ['ps', 'ps'], ['bus', 'bus'], ['plus', 'plus'], ['pyjamas', 'pyjamas'], ['pajamas', 'pajamas'], ['crisps', 'crisps'],
]);

/** English word key: the possessive and the regular plural removed (`shoes` -> `shoe`, `batteries` -> `battery`). */
export function englishKey(word: string): string {
  let w = word.replace(/['’]s$/, '').replace(/['’]$/, '');
  const irregular = IRREGULAR_EN.get(w);
  if (irregular) return irregular;
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (w.endsWith('ies') && w.length > 4) return w.slice(0, -3) + 'y';
  if (/(sses|shes|ches|xes|zes)$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('s') && !/(ss|us|is|os)$/.test(w)) w = w.slice(0, -1);
  return w;
}

/**
 * Bulgarian word key, a light stemmer: the definite article (`-ът`, `-ят`, `-ият`, `-та` / `-то` / `-те`
 * after a vowel), then one plural or gender ending (`-ове`, `-ища`, `-ци` -> `-к`, `-ьо`, a final vowel),
 * then `-ен` -> `-н`, keeping at least three letters. `черен`, `черна`, `черно`, `черни`, `черният`
 * all give `черн`; `маратонки`, `маратонка`, `маратонките` give `маратонк`.
 */
export function bulgarianKey(word: string): string {
  let w = word;
  if (w.length <= 3) return w;
  if (w.endsWith('ият') && w.length >= 6) w = w.slice(0, -3);
  else if ((w.endsWith('ът') || w.endsWith('ят')) && w.length >= 5) w = w.slice(0, -2);
  else if (/[аяоеи](та|то|те)$/.test(w) && w.length >= 7) w = w.slice(0, -2);
  if (w.length >= 6 && /(ове|еве|ища)$/.test(w)) return w.slice(0, -3);
  if (w.length >= 6 && w.endsWith('ци')) return w.slice(0, -2) + 'к';
  if (w.length >= 4 && w.endsWith('ьо')) return w.slice(0, -2);
  if (w.length >= 4 && /[аяоеийь]$/.test(w)) w = w.slice(0, -1);
  if (w.length >= 5 && w.endsWith('ен')) return w.slice(0, -2) + 'н';
  return w;
}

export function wordKey(lower: string): string {
  return isCyrillic(lower) ? bulgarianKey(lower) : englishKey(lower);
}

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+|['’](?=\s|$))?/gu;

/** The last texts tokenized (title and description are read by several rules): text -> tokens. */
const RECENT = new Map<string, readonly Token[]>();
const RECENT_MAX = 16;

/** The words of a (clean) text with their keys. Hyphenated words are split (`t-shirt` -> `t`, `shirt`). */
export function tokenize(text: string): readonly Token[] {
  const cached = RECENT.get(text);
  if (cached) return cached;
  const tokens = tokenizeUncached(text);
  RECENT.set(text, tokens);
  if (RECENT.size > RECENT_MAX) RECENT.delete(RECENT.keys().next().value as string);
  return tokens;
}

function tokenizeUncached(text: string): Token[] {
  const tokens: Token[] = [];
  for (const match of text.matchAll(WORD)) {
    const raw = match[0];
    const lower = raw.toLowerCase();
    tokens.push({ raw, lower, key: wordKey(lower), cyrillic: isCyrillic(raw), start: match.index! });
  }
  return tokens;
}

/** The keys of a phrase (`running shoes` -> ['running', 'shoe']). */
export function phraseKeys(phrase: string): string[] {
  return tokenize(phrase.toLowerCase()).map((token) => token.key);
}

/** Per token list: where each key occurs (built once per list, so a phrase lookup costs its occurrences). */
const POSITIONS = new WeakMap<readonly Token[], Map<string, number[]>>();

function positionsOf(tokens: readonly Token[]): Map<string, number[]> {
  let index = POSITIONS.get(tokens);
  if (!index) {
    index = new Map();
    tokens.forEach((token, i) => {
      const list = index!.get(token.key);
      if (list) list.push(i);
      else index!.set(token.key, [i]);
    });
    POSITIONS.set(tokens, index);
  }
  return index;
}

/** Start indices of every occurrence of the key sequence in the tokens, ascending. */
export function findPhrase(tokens: readonly Token[], keys: readonly string[]): number[] {
  if (keys.length === 0) return [];
  const starts = positionsOf(tokens).get(keys[0]);
  if (!starts) return [];
  if (keys.length === 1) return [...starts];
  return starts.filter((i) => i + keys.length <= tokens.length && keys.every((key, j) => tokens[i + j].key === key));
}

export interface LanguageGuess {
  code: 'en' | 'bg';
  reason: string;
  cyrillicShare: number;
}

/**
 * `bg` when at least 40% of the letters of the title and description are Cyrillic (Bulgarian listings
 * carry Latin brand and model names, so a Cyrillic minority still means Bulgarian), otherwise `en`.
 */
export function detectLanguage(title: string, description: string): LanguageGuess {
  const only = `${title} ${description}`.replace(/\P{L}+/gu, '');
  const letters = [...only].length;
  let cyrillic = 0;
  for (let i = 0; i < only.length; i++) {
    const code = only.charCodeAt(i);
    if (code >= 0x0400 && code <= 0x052f) cyrillic += 1;
  }
  const share = letters === 0 ? 0 : cyrillic / letters;
  const percent = Math.round(share * 100);
  if (share >= 0.4) return { code: 'bg', reason: `${percent}% of the letters in the title and description are Cyrillic (40% or more: Bulgarian)`, cyrillicShare: share };
  if (letters === 0) return { code: 'en', reason: 'no letters in the title and description; English is the default', cyrillicShare: 0 };
  return { code: 'en', reason: `${percent}% of the letters in the title and description are Cyrillic (under 40%: English)`, cyrillicShare: share };
}

/** Share of upper-case letters among the cased letters (0 when there are none). */
export function upperShare(text: string): { share: number; letters: number } {
  const cased = [...text.replace(/[^\p{Lu}\p{Ll}]+/gu, '')].length;
  const upper = [...text.replace(/[^\p{Lu}]+/gu, '')].length;
  return { share: cased === 0 ? 0 : upper / cased, letters: cased };
}

/** Length in characters (code points), as a seller counts them. */
export function charLength(text: string): number {
  return [...text].length;
}
