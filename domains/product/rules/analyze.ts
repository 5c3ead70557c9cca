// The product analysis: listing in, analysis out. Deterministic: no clock, no randomness, no network,
// no language model; the same input gives the same object, key order included.
//
// Enhancement seam. An optional enhancer (say, a language model rewriting the suggested title) may be
// passed as `options.enhancer`. It receives the finished analysis and may only replace the texts listed
// in `EnhancedTexts` (normalized_title, seo.suggested_title, recommendation examples); `applyEnhancement`
// copies those strings back, length-capped, into a copy of the analysis, so an enhancer can never add,
// remove or retype a field: the public schema stays the rules engine's. The route passes none.
import { colorHits, extractAttributes, detectBrand, mentionsBrand, type Attributes } from './attributes.ts';
import { TAXONOMY, categoryPath, brandHeadRange, matchCategory, related, resolveHint, type Taxonomy } from './category.ts';
import { runRules, type Issue } from './checks.ts';
import type { ProductInput, ResolvedCategory, RuleContext } from './context.ts';
import { recommend, type Recommendation } from './recommendations.ts';
import { completenessOf, penaltyScore, qualityScore, seoScore } from './scores.ts';
import { collapseSpaces, detectLanguage, findPhrase, phraseKeys, stripEmoji, stripHtml, tokenize } from './text.ts';
import { normalizeTitle, suggestTitle } from './titles.ts';
import { RULES_VERSION } from './version.ts';

export interface ProductAnalysis {
  endpoint: 'product_analyze';
  api_version: 'v1';
  rules_version: string;
  language: { code: 'en' | 'bg'; reason: string };
  product: {
    normalized_title: string;
    brand: string | null;
    category: { path: string | null; path_local: string | null; id: string | null; confidence: number; source: 'text' | 'hint' | null };
  };
  attributes: Attributes;
  quality: { score: number; title_score: number; description_score: number };
  completeness: { score: number; present: string[]; missing: string[] };
  missing_attributes: string[];
  seo: { score: number; suggested_title: string };
  issues: Issue[];
  recommendations: Recommendation[];
}

export interface EnhancedTexts {
  normalized_title?: string;
  suggested_title?: string;
  /** Replacement examples by recommendation index. */
  recommendation_examples?: ReadonlyArray<string | null>;
}

export interface AnalysisEnhancer {
  enhance(analysis: Readonly<ProductAnalysis>, input: Readonly<ProductInput>): EnhancedTexts;
}

export interface AnalyzeOptions {
  taxonomy?: Taxonomy;
  enhancer?: AnalysisEnhancer;
}

function clean(text: string): string {
  return collapseSpaces(stripEmoji(stripHtml(text)));
}

/** Category: the text's when the title names one; else the hint's; else the text's from the description alone. */
function resolveCategory(context: Pick<RuleContext, 'match' | 'hint'>): ResolvedCategory {
  const { best, confidence } = context.match;
  if (best && best.inTitle) return { id: best.id, source: 'text', confidence };
  if (context.hint) {
    if (best && related(best.id, context.hint.id)) return { id: best.id.length > context.hint.id.length ? best.id : context.hint.id, source: 'hint', confidence: 0.6 };
    return { id: context.hint.id, source: 'hint', confidence: 0.5 };
  }
  if (best) return { id: best.id, source: 'text', confidence: Math.min(confidence, 0.4) };
  return { id: null, source: null, confidence: 0 };
}

/** The attribute phrases the description states and the title lacks, as written there (colour, size, material). */
function additionsFromDescription(context: RuleContext): string[] {
  const additions: string[] = [];
  const fromDescription = context.attributes;
  const title = context.titleAttributes;
  if (fromDescription.color && !title.color) additions.push(phraseAsWritten(context, fromDescription.color, 'color'));
  if (fromDescription.size && !title.size) additions.push(context.language.code === 'bg' ? `размер ${fromDescription.size}` : `Size ${fromDescription.size}`);
  return additions.filter((a) => a.length > 0);
}

function phraseAsWritten(context: RuleContext, canonical: string, kind: 'color'): string {
  // The first description phrase that names this colour, as the seller wrote it.
  const tokens = context.descriptionTokens;
  const hit = kind === 'color' ? colorHits(tokens).find((candidate) => candidate.canonical === canonical) : undefined;
  return hit ? tokens.slice(hit.start, hit.start + hit.length).map((token) => token.raw.toLowerCase()).join(' ') : canonical;
}

export function buildContext(input: ProductInput, taxonomy: Taxonomy = TAXONOMY): RuleContext {
  const title = clean(input.title);
  const description = clean(input.description);
  const language = detectLanguage(title, description);
  const titleTokens = tokenize(title);
  const descriptionTokens = tokenize(description);
  const requestBrand = input.brand !== undefined && input.brand.trim() !== '' ? collapseSpaces(input.brand) : null;
  const detected = detectBrand(title);
  // A brand counts where it names the product: in the head, read past `за <Cyrillic word>` (brandHeadRange).
  const head = brandHeadRange(title, titleTokens);
  const headEndOffset = head.end < titleTokens.length ? titleTokens[head.end].start : Infinity;
  const headBrand = detected && detected.index < headEndOffset ? detected.brand : null;
  // Without a brand in the request, only a brand naming the product itself counts: one in the title's
  // head (`Samsung Galaxy S24`), not one after `for` / `за` (`Калъф за Samsung Galaxy S24` is no Samsung).
  const brand = requestBrand ?? headBrand;
  const match = matchCategory(taxonomy, title, description, language.code);
  const hint = input.category !== undefined && input.category.trim() !== '' ? resolveHint(taxonomy, input.category) : null;
  const category = resolveCategory({ match, hint });
  // The leaf's English label; a catch-all leaf (`Shoes (other)`) names its kind (`Shoes`).
  const productType = category.id !== null ? taxonomy.nodes.get(category.id)!.en.replace(/ \(other\)$/, '') : null;
  const modelTitle = normalizeTitle(input.title, language.code, brand);
  const attributes = extractAttributes({ title, description, brand, productType, modelTitle });
  const titleAttributes = extractAttributes({ title, description: '', brand: brand !== null && mentionsBrand(title, brand) ? brand : null, productType, modelTitle });
  return {
    input,
    language,
    title,
    description,
    titleTokens,
    descriptionTokens,
    brand,
    brandSource: requestBrand !== null ? 'request' : headBrand !== null ? 'title' : null,
    brandInTitle: brand !== null && mentionsBrand(title, brand),
    headBrand,
    match,
    hint,
    category,
    attributes,
    titleAttributes,
  };
}

export function analyzeProduct(input: ProductInput, options: AnalyzeOptions = {}): ProductAnalysis {
  const taxonomy = options.taxonomy ?? TAXONOMY;
  const context = buildContext(input, taxonomy);
  const failed = runRules(context);
  const penalties = failed.map((issue) => issue.penalty);
  const issues: Issue[] = failed.map(({ code, severity, field, message }) => ({ code, severity, field, message }));
  const codes = new Set(issues.map((issue) => issue.code));
  const titleScore = penaltyScore(penalties, 'title');
  const descriptionScore = penaltyScore(penalties, 'description');
  const completeness = completenessOf(context);
  const normalizedTitle = normalizeTitle(input.title, context.language.code, context.brand);
  const suggestedTitle = suggestTitle({
    normalizedTitle,
    brand: context.brand,
    brandInTitle: context.brandInTitle,
    additions: additionsFromDescription(context),
    stuffed: codes.has('TITLE_KEYWORD_STUFFING'),
  });
  const categoryId = context.category.id;
  const path = categoryId !== null ? categoryPath(taxonomy, categoryId, 'en') : null;
  const texts = { suggestedTitle, normalizedTitle, categoryPath: context.match.best ? categoryPath(taxonomy, context.match.best.id, 'en') : null, categoryId: context.match.best?.id ?? null };
  const analysis: ProductAnalysis = {
    endpoint: 'product_analyze',
    api_version: 'v1',
    rules_version: RULES_VERSION,
    language: { code: context.language.code, reason: context.language.reason },
    product: {
      normalized_title: normalizedTitle,
      brand: context.brand,
      category: {
        path,
        path_local: categoryId !== null ? categoryPath(taxonomy, categoryId, context.language.code) : null,
        id: categoryId,
        confidence: context.category.confidence,
        source: context.category.source,
      },
    },
    attributes: context.attributes,
    quality: { score: qualityScore(titleScore, descriptionScore, completeness.score, penalties), title_score: titleScore, description_score: descriptionScore },
    completeness: { score: completeness.score, present: completeness.present, missing: completeness.missing },
    missing_attributes: completeness.missingAttributes,
    seo: { score: seoScore(context, codes), suggested_title: suggestedTitle },
    issues,
    recommendations: recommend(context, issues, completeness.missingAttributes, texts),
  };
  return options.enhancer ? applyEnhancement(analysis, options.enhancer.enhance(analysis, input)) : analysis;
}

const MAX_ENHANCED_CHARS = 500;

function acceptText(value: unknown, fallback: string): string {
  return typeof value === 'string' && value.trim().length > 0 ? collapseSpaces(value).slice(0, MAX_ENHANCED_CHARS) : fallback;
}

/** Copies the allowed texts of an enhancement into a copy of the analysis; nothing else can change. */
export function applyEnhancement(analysis: ProductAnalysis, texts: EnhancedTexts): ProductAnalysis {
  const copy = structuredClone(analysis);
  copy.product.normalized_title = acceptText(texts.normalized_title, copy.product.normalized_title);
  copy.seo.suggested_title = acceptText(texts.suggested_title, copy.seo.suggested_title);
  const examples = texts.recommendation_examples ?? [];
  copy.recommendations.forEach((recommendation, index) => {
    const replacement = examples[index];
    if (typeof replacement === 'string') recommendation.example = acceptText(replacement, recommendation.example ?? '');
  });
  return copy;
}

export { findPhrase, phraseKeys };
