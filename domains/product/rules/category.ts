// The taxonomy as an index, the category found in the text, and the request's category hint checked
// against it. Pure functions over data/taxonomy.ts.
import { HEAD_BREAKERS } from './data/lexicon.ts';
import { TAXONOMY_ROWS } from './data/taxonomy.ts';
import { findPhrase, phraseKeys, tokenize, wordKey, type Token } from './text.ts';

export interface TaxonomyNode {
  id: string;
  en: string;
  bg: string;
  parent: string | null;
  /** Keyword phrases as word keys (leaves only). */
  keywords: ReadonlyArray<{ phrase: string; keys: readonly string[] }>;
  leaf: boolean;
}

export interface Taxonomy {
  nodes: ReadonlyMap<string, TaxonomyNode>;
  /** Leaves in file order. */
  leaves: readonly TaxonomyNode[];
}

function parentOf(id: string): string | null {
  const cut = id.lastIndexOf('.');
  return cut < 0 ? null : id.slice(0, cut);
}

export function buildTaxonomy(rows = TAXONOMY_ROWS): Taxonomy {
  const nodes = new Map<string, TaxonomyNode>();
  const parents = new Set(rows.map(([id]) => parentOf(id)).filter((p): p is string => p !== null));
  for (const [id, en, bg, keywords] of rows) {
    if (nodes.has(id)) throw new Error(`taxonomy: duplicate id ${id}`);
    const parent = parentOf(id);
    if (parent !== null && !nodes.has(parent)) throw new Error(`taxonomy: ${id} comes before its parent`);
    // Phrases that reduce to the same keys (`battery` / `batteries`) count once.
    const seen = new Set<string>();
    const phrases = keywords
      .split('|')
      .map((phrase) => phrase.trim())
      .filter((phrase) => phrase.length > 0)
      .map((phrase) => ({ phrase, keys: phraseKeys(phrase) }))
      .filter(({ keys }) => {
        const key = keys.join(' ');
        if (keys.length === 0 || seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    nodes.set(id, { id, en, bg, parent, leaf: !parents.has(id), keywords: phrases });
  }
  return { nodes, leaves: [...nodes.values()].filter((node) => node.leaf) };
}

export const TAXONOMY: Taxonomy = buildTaxonomy();

/** The node and its ancestors, top level first. */
export function lineage(taxonomy: Taxonomy, id: string): TaxonomyNode[] {
  const chain: TaxonomyNode[] = [];
  for (let node = taxonomy.nodes.get(id); node; node = node.parent ? taxonomy.nodes.get(node.parent) : undefined) chain.unshift(node);
  return chain;
}

export function categoryPath(taxonomy: Taxonomy, id: string, language: 'en' | 'bg'): string {
  return lineage(taxonomy, id).map((node) => (language === 'bg' ? node.bg : node.en)).join(' > ');
}

/** Whether `a` is `b` or one of its ancestors or descendants (the two do not conflict). */
export function related(a: string, b: string): boolean {
  return a === b || a.startsWith(b + '.') || b.startsWith(a + '.');
}

export interface CategoryEvidence {
  id: string;
  score: number;
  /** The keyword phrases that matched, in the order found. */
  matched: string[];
  inTitle: boolean;
}

export interface CategoryMatch {
  best: CategoryEvidence | null;
  runnerUp: CategoryEvidence | null;
  /** 0..1, two decimals. */
  confidence: number;
}

const BREAKERS = new Set(HEAD_BREAKERS.map((word) => wordKey(word)));

/**
 * The head of a title: the tokens of its first segment (before `,`, `|`, ` - `, `(`) up to the first
 * preposition (`for`, `with`, `за`, `с`, ...). The product is named there.
 */
export function headRange(title: string, tokens: readonly Token[]): { end: number } {
  return headUpTo(title, tokens, () => true);
}

/**
 * Where a brand in the title still names the product: the head, except that a preposition followed by
 * a Cyrillic word does not end it. Bulgarian names products with such phrases (`Крем за лице Nivea`,
 * `Суха храна за кучета Royal Canin`: face cream, dry dog food), as English puts the noun first
 * (`Face Cream Nivea`); a preposition followed by a Latin word still does (`Калъф за Samsung Galaxy`,
 * `Case for iPhone`: the brand is what the product fits, not its maker).
 */
export function brandHeadRange(title: string, tokens: readonly Token[]): { end: number } {
  return headUpTo(title, tokens, (next) => next === undefined || !next.cyrillic);
}

/** The head, where a breaker ends it when `breaks(the token after it)`. */
function headUpTo(title: string, tokens: readonly Token[], breaks: (next: Token | undefined) => boolean): { end: number } {
  const cut = title.search(/[,;|(\[]|\s[-–—]\s|:\s/);
  let end = tokens.length;
  for (let i = 0; i < tokens.length; i++) {
    if (cut >= 0 && tokens[i].start >= cut) {
      end = i;
      break;
    }
    if (i > 0 && BREAKERS.has(tokens[i].key) && breaks(tokens[i + 1])) {
      end = i;
      break;
    }
  }
  return { end: Math.max(end, Math.min(1, tokens.length)) };
}

/**
 * Category scoring, per leaf:
 * - a keyword phrase in the title: 3 points, plus 1 per extra word of the phrase (more specific);
 * - the phrase naming the product (in the title's head: for English the last match there, for
 *   Bulgarian the first, as `Running Shoes for Men` / `Мъжки маратонки за бягане` name it): +4;
 * - a keyword phrase in the description: 1 point, plus 0.5 per extra word (each phrase counted once).
 * The best leaf wins; ties go to the leaf with more title points, then to the earlier leaf in the taxonomy.
 */
export function matchCategory(taxonomy: Taxonomy, title: string, description: string, language: 'en' | 'bg'): CategoryMatch {
  const titleTokens = tokenize(title);
  const descriptionTokens = tokenize(description);
  const head = headRange(title, titleTokens);
  interface Hit { leaf: TaxonomyNode; phrase: string; start: number; length: number }
  const headHits: Hit[] = [];
  const scores = new Map<string, { score: number; titleScore: number; matched: string[] }>();
  const add = (leaf: TaxonomyNode, points: number, phrase: string, inTitle: boolean) => {
    const entry = scores.get(leaf.id) ?? { score: 0, titleScore: 0, matched: [] };
    entry.score += points;
    if (inTitle) entry.titleScore += points;
    if (!entry.matched.includes(phrase)) entry.matched.push(phrase);
    scores.set(leaf.id, entry);
  };
  for (const leaf of taxonomy.leaves) {
    for (const { phrase, keys } of leaf.keywords) {
      const inTitle = findPhrase(titleTokens, keys);
      if (inTitle.length > 0) {
        add(leaf, 3 + (keys.length - 1), phrase, true);
        for (const start of inTitle) if (start < head.end) headHits.push({ leaf, phrase, start, length: keys.length });
      }
      if (findPhrase(descriptionTokens, keys).length > 0) add(leaf, 1 + 0.5 * (keys.length - 1), phrase, false);
    }
  }
  if (headHits.length > 0) {
    // The naming phrase: for English the one ending last in the head, for Bulgarian the one starting first;
    // a longer phrase wins over a phrase inside it.
    const ordered = [...headHits].sort((a, b) =>
      language === 'en'
        ? b.start + b.length - (a.start + a.length) || b.length - a.length || a.start - b.start
        : a.start - b.start || b.length - a.length,
    );
    const naming = ordered[0];
    add(naming.leaf, 4, naming.phrase, true);
  }
  const order = new Map(taxonomy.leaves.map((leaf, index) => [leaf.id, index]));
  const ranked = [...scores.entries()]
    .map(([id, entry]) => ({ id, ...entry }))
    .sort((a, b) => b.score - a.score || b.titleScore - a.titleScore || order.get(a.id)! - order.get(b.id)!);
  const toEvidence = (entry: (typeof ranked)[number] | undefined): CategoryEvidence | null =>
    entry ? { id: entry.id, score: entry.score, matched: entry.matched, inTitle: entry.titleScore > 0 } : null;
  const best = toEvidence(ranked[0]);
  const runnerUp = toEvidence(ranked[1]);
  return { best, runnerUp, confidence: confidenceOf(best, runnerUp) };
}

/**
 * Confidence 0..1 (two decimals): strength x margin, where strength = min(1, best score / 10) (a named
 * product with one specific phrase in the title reaches about 0.8) and margin = 1 - runner-up / best
 * score, floored at 0.25 when the two leaves share a branch (a near neighbour is a smaller doubt).
 */
export function confidenceOf(best: CategoryEvidence | null, runnerUp: CategoryEvidence | null): number {
  if (!best || best.score <= 0) return 0;
  const strength = Math.min(1, best.score / 10);
  let margin = runnerUp ? 1 - runnerUp.score / best.score : 1;
  if (runnerUp && parentOf(runnerUp.id) === parentOf(best.id)) margin = Math.max(margin, 0.25);
  const value = strength * (0.5 + 0.5 * margin);
  return Math.round(value * 100) / 100;
}

/**
 * The request's `category` as a taxonomy node: a dotted id (`2.2.1`), or a path or label in either
 * language (`Apparel & Accessories > Shoes`, `Обувки`), matched on its last segment against the labels,
 * then against the keywords. null when nothing fits.
 */
export function resolveHint(taxonomy: Taxonomy, hint: string): TaxonomyNode | null {
  const trimmed = hint.trim();
  const byId = taxonomy.nodes.get(trimmed);
  if (byId) return byId;
  const segments = trimmed.split(/[>/»|]/).map((s) => s.trim()).filter((s) => s.length > 0);
  const last = segments[segments.length - 1];
  if (!last) return null;
  const keys = phraseKeys(last).join(' ');
  if (keys.length === 0) return null;
  for (const node of taxonomy.nodes.values()) {
    if (phraseKeys(node.en).join(' ') === keys || phraseKeys(node.bg).join(' ') === keys) return node;
  }
  for (const leaf of taxonomy.leaves) {
    if (leaf.keywords.some((keyword) => keyword.keys.join(' ') === keys)) return leaf;
  }
  return null;
}
