// What every rule reads: the listing as sent, its cleaned text, the detected language, brand, category
// and attributes. Built once per request (rules/analyze.ts), never changed by a rule.
import type { Attributes } from './attributes.ts';
import type { CategoryMatch, TaxonomyNode } from './category.ts';
import type { LanguageGuess, Token } from './text.ts';

/** The request body after validation (price already a number). */
export interface ProductInput {
  title: string;
  description: string;
  brand?: string;
  category?: string;
  sku?: string;
  price?: number;
  currency?: string;
}

export interface ResolvedCategory {
  id: string | null;
  /** Where the category came from: the text, the request's hint, or nowhere. */
  source: 'text' | 'hint' | null;
  confidence: number;
}

export interface RuleContext {
  input: ProductInput;
  language: LanguageGuess;
  /** Title and description with HTML and emoji removed and spaces collapsed. */
  title: string;
  description: string;
  titleTokens: readonly Token[];
  descriptionTokens: readonly Token[];
  /** The request's brand (trimmed, non-empty) or the known brand named in the title's head, else null. */
  brand: string | null;
  brandSource: 'request' | 'title' | null;
  /** Whether the title names `brand` as a whole word. */
  brandInTitle: boolean;
  /** The known brand named first in the title's head (before `for`, `за`, ...), if any. */
  headBrand: string | null;
  match: CategoryMatch;
  hint: TaxonomyNode | null;
  category: ResolvedCategory;
  attributes: Attributes;
  /** Attributes stated in the title alone. */
  titleAttributes: Attributes;
}
