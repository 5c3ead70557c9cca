// The scores and their rubric. Every score is an integer 0..100.
//
// - title_score: 100 minus the `title` penalty of every failed rule (rules/checks.ts), floored at 0.
// - description_score: 100 minus the `description` penalties, floored at 0.
// - completeness.score: the share of the expected fields present, rounded: the listing's category,
//   price, currency and sku, plus the attributes expected for its category (data/lexicon.ts
//   EXPECTED_ATTRIBUTES; `weight|volume` is satisfied by either).
// - quality.score: 0.45 x title_score + 0.35 x description_score + 0.20 x completeness, minus the
//   `listing` penalties (missing price or brand, category or colour conflicts), rounded, floored at 0.
// - seo.score: points earned (see seoScore).
// Rounding: half away from zero (Math.round on non-negative values).
import type { Attributes } from './attributes.ts';
import type { Penalty } from './checks.ts';
import { DESCRIPTION_GOOD_CHARS } from './checks.ts';
import type { RuleContext } from './context.ts';
import { EXPECTED_ATTRIBUTES, EXPECTED_DEFAULT } from './data/lexicon.ts';
import { charLength } from './text.ts';

function clamp(value: number): number {
  return Math.max(0, Math.min(100, Math.round(value)));
}

export function penaltyScore(penalties: readonly Penalty[], part: keyof Penalty): number {
  return clamp(100 - penalties.reduce((sum, penalty) => sum + (penalty[part] ?? 0), 0));
}

/** The expected attributes of a category: the entry of its most specific node that has one. */
export function expectedAttributes(categoryId: string | null): readonly string[] {
  if (categoryId === null) return EXPECTED_DEFAULT;
  const parts = categoryId.split('.');
  for (let depth = parts.length; depth > 0; depth--) {
    const entry = EXPECTED_ATTRIBUTES.get(parts.slice(0, depth).join('.'));
    if (entry) return entry;
  }
  return EXPECTED_DEFAULT;
}

export interface Completeness {
  score: number;
  present: string[];
  missing: string[];
  /** The missing ones that are attributes (the answer's missing_attributes). */
  missingAttributes: string[];
}

function attributeValue(attributes: Attributes, name: string): unknown {
  return Object.hasOwn(attributes, name) ? (attributes as unknown as Record<string, unknown>)[name] : null;
}

export function completenessOf(context: RuleContext): Completeness {
  const present: string[] = [];
  const missing: string[] = [];
  const missingAttributes: string[] = [];
  const listingFields: Array<[string, boolean]> = [
    ['category', context.category.id !== null],
    ['price', context.input.price !== undefined],
    ['currency', context.input.currency !== undefined],
    ['sku', context.input.sku !== undefined && context.input.sku.trim() !== ''],
  ];
  for (const [name, ok] of listingFields) (ok ? present : missing).push(name);
  for (const spec of expectedAttributes(context.category.id)) {
    const alternatives = spec.split('|');
    const found = alternatives.find((name) => attributeValue(context.attributes, name) !== null);
    if (found) present.push(found);
    else {
      const name = alternatives.join('_or_');
      missing.push(name);
      missingAttributes.push(name);
    }
  }
  const total = present.length + missing.length;
  return { score: clamp((100 * present.length) / total), present, missing, missingAttributes };
}

export function qualityScore(titleScore: number, descriptionScore: number, completeness: number, penalties: readonly Penalty[]): number {
  const listing = penalties.reduce((sum, penalty) => sum + (penalty.listing ?? 0), 0);
  return clamp(0.45 * titleScore + 0.35 * descriptionScore + 0.2 * completeness - listing);
}

/** Codes that make a title unclean for the SEO rubric. */
const TITLE_NOISE = new Set(['TITLE_ALL_CAPS', 'TITLE_PROMOTIONAL', 'TITLE_KEYWORD_STUFFING', 'TITLE_HAS_EMOJI', 'TITLE_HAS_HTML', 'TITLE_EXCESSIVE_PUNCTUATION', 'TITLE_HAS_PRICE']);

/**
 * SEO rubric (points, 100 in all):
 * - title length: 50 to 150 characters 25, 25 to 49 15, 15 to 24 5, otherwise 0;
 * - the brand in the title: 20;
 * - the product type named in the title (the category found from title words): 20;
 * - attributes stated in the title (gender, colour, size, material, model, storage): 5 each, at most 15;
 * - a clean title (none of capitals, promotional text, repeated keywords, emoji, HTML, symbols, price): 10;
 * - a description of 150 characters or more that does not repeat the title: 10.
 */
export function seoScore(context: RuleContext, issueCodes: ReadonlySet<string>): number {
  let points = 0;
  const length = charLength(context.title);
  if (length >= 50 && length <= 150) points += 25;
  else if (length >= 25 && length < 50) points += 15;
  else if (length >= 15 && length < 25) points += 5;
  if (context.brand !== null && context.brandInTitle) points += 20;
  if (context.match.best?.inTitle && context.category.source === 'text') points += 20;
  const named = (['gender', 'color', 'size', 'material', 'model', 'storage'] as const).filter((name) => context.titleAttributes[name] !== null).length;
  points += Math.min(15, 5 * named);
  if (![...issueCodes].some((code) => TITLE_NOISE.has(code))) points += 10;
  if (charLength(context.description) >= DESCRIPTION_GOOD_CHARS && !issueCodes.has('DESCRIPTION_REPEATS_TITLE')) points += 10;
  return clamp(points);
}
