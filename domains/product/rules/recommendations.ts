// Recommendations: one concrete action per failed rule that has one, then one per missing attribute,
// each with an example in the listing's language where one can be given. Pure function.
import type { Issue } from './checks.ts';
import type { RuleContext } from './context.ts';

export interface Recommendation {
  code: string;
  field: string;
  action: string;
  /** A concrete value or rewrite, in the listing's language; null when none can be given. */
  example: string | null;
}

interface Texts {
  suggestedTitle: string;
  normalizedTitle: string;
  categoryPath: string | null;
  categoryId: string | null;
}

type Maker = (context: RuleContext, texts: Texts) => Recommendation;

const bg = (context: RuleContext) => context.language.code === 'bg';

/** Per issue code: the recommendation it leads to. Codes without an entry (SKU_MISSING is one) lead to their own below. */
const BY_ISSUE: ReadonlyMap<string, Maker> = new Map<string, Maker>([
  ['TITLE_TOO_SHORT', (c, t) => ({ code: 'EXPAND_TITLE', field: 'title', action: 'Name the brand, the product type and its key attributes (model, colour, size) in the title.', example: t.suggestedTitle })],
  ['TITLE_TOO_LONG', (c, t) => ({ code: 'SHORTEN_TITLE', field: 'title', action: 'Keep the title under 150 characters: brand, product type, model and the one or two attributes buyers filter by.', example: t.suggestedTitle })],
  ['TITLE_ALL_CAPS', (c, t) => ({ code: 'FIX_CAPITALIZATION', field: 'title', action: c.language.code === 'bg' ? 'Write the title in sentence case; keep capitals for brands and abbreviations.' : 'Write the title in title case; keep capitals for brands and abbreviations.', example: t.normalizedTitle })],
  ['TITLE_HAS_HTML', (c, t) => ({ code: 'REMOVE_HTML_FROM_TITLE', field: 'title', action: 'Send the title as plain text.', example: t.normalizedTitle })],
  ['TITLE_HAS_EMOJI', (c, t) => ({ code: 'REMOVE_EMOJI', field: 'title', action: 'Remove emoji and decorative symbols from the title.', example: t.normalizedTitle })],
  ['TITLE_EXCESSIVE_PUNCTUATION', (c, t) => ({ code: 'REMOVE_SYMBOLS', field: 'title', action: 'Remove repeated punctuation and symbols from the title.', example: t.normalizedTitle })],
  ['TITLE_PROMOTIONAL', (c, t) => ({ code: 'REMOVE_PROMOTIONAL_TEXT', field: 'title', action: 'Move offers (sale, free shipping, discounts) out of the title into the channel\'s promotion fields.', example: t.suggestedTitle })],
  ['TITLE_KEYWORD_STUFFING', (c, t) => ({ code: 'REMOVE_REPEATED_KEYWORDS', field: 'title', action: 'Name each keyword once; repeated keywords are penalised by search.', example: t.suggestedTitle })],
  ['TITLE_HAS_PRICE', (c, t) => ({ code: 'MOVE_PRICE_TO_FIELD', field: 'price', action: 'Remove the price from the title and send it in price and currency.', example: t.suggestedTitle })],
  ['BRAND_MISSING', () => ({ code: 'ADD_BRAND', field: 'brand', action: 'Send the brand (the maker\'s name, or your own label for unbranded goods) and put it first in the title.', example: null })],
  ['BRAND_NOT_IN_TITLE', (c, t) => ({ code: 'ADD_BRAND_TO_TITLE', field: 'title', action: 'Start the title with the brand.', example: t.suggestedTitle })],
  ['BRAND_CONFLICT', (c) => ({ code: 'FIX_BRAND', field: 'brand', action: `Check the brand: the request says "${c.brand}" but the title names "${c.headBrand}".`, example: c.headBrand })],
  ['CATEGORY_UNKNOWN', () => ({ code: 'NAME_PRODUCT_TYPE', field: 'title', action: 'Name the product type in the title (what the item is: running shoes, smartphone, тениска, ...), and send category.', example: null })],
  ['CATEGORY_MISMATCH', (c, t) => ({ code: 'FIX_CATEGORY', field: 'category', action: 'Send the category of the product the title names, or correct the title.', example: t.categoryPath })],
  ['CATEGORY_HINT_UNKNOWN', (c, t) => ({ code: 'USE_TAXONOMY_CATEGORY', field: 'category', action: 'Send a category of the taxonomy: its dotted id or its path in English or Bulgarian.', example: t.categoryId })],
  ['PRICE_MISSING', () => ({ code: 'ADD_PRICE', field: 'price', action: 'Send the price as a number (or a decimal string) with its currency.', example: '"price": 49.9, "currency": "EUR"' })],
  ['PRICE_ZERO', () => ({ code: 'FIX_PRICE', field: 'price', action: 'Send the real price; free items are rejected by most channels.', example: null })],
  ['CURRENCY_MISSING', () => ({ code: 'ADD_CURRENCY', field: 'currency', action: 'Send the ISO 4217 code of the price\'s currency.', example: 'EUR' })],
  ['SKU_MISSING', () => ({ code: 'ADD_SKU', field: 'sku', action: 'Send your stock-keeping unit, so the offer can be matched across channels.', example: null })],
  ['DESCRIPTION_TOO_SHORT', (c) => ({ code: 'EXPAND_DESCRIPTION', field: 'description', action: 'Describe what the product is, what it is made of, its sizes or dimensions, its use and its care, in full sentences.', example: descriptionExample(c) })],
  ['DESCRIPTION_SHORT', (c) => ({ code: 'EXPAND_DESCRIPTION', field: 'description', action: 'Add the details a buyer checks: material, dimensions or size, use, care, what is in the box.', example: descriptionExample(c) })],
  ['DESCRIPTION_TOO_LONG', () => ({ code: 'SHORTEN_DESCRIPTION', field: 'description', action: 'Keep the description under 5000 characters; put the key facts first.', example: null })],
  ['DESCRIPTION_REPEATS_TITLE', (c) => ({ code: 'REWRITE_DESCRIPTION', field: 'description', action: 'Write a description that adds to the title instead of repeating it.', example: descriptionExample(c) })],
  ['DESCRIPTION_HAS_HTML', () => ({ code: 'REMOVE_HTML_FROM_DESCRIPTION', field: 'description', action: 'Send the description as plain text with line breaks, or check that the channel accepts HTML.', example: null })],
  ['DESCRIPTION_HAS_EMOJI', () => ({ code: 'REMOVE_EMOJI', field: 'description', action: 'Remove emoji from the description.', example: null })],
  ['DESCRIPTION_ALL_CAPS', () => ({ code: 'FIX_CAPITALIZATION', field: 'description', action: 'Write the description in normal sentence case.', example: null })],
  ['DESCRIPTION_KEYWORD_STUFFING', () => ({ code: 'REMOVE_REPEATED_KEYWORDS', field: 'description', action: 'Use each keyword where it belongs, not over and over; write for the buyer.', example: null })],
  ['DESCRIPTION_PROMOTIONAL', () => ({ code: 'REMOVE_PROMOTIONAL_TEXT', field: 'description', action: 'Keep offers out of the description; describe the product.', example: null })],
  ['DESCRIPTION_HAS_CONTACT_INFO', () => ({ code: 'REMOVE_CONTACT_INFO', field: 'description', action: 'Remove links, e-mail addresses and phone numbers from the description.', example: null })],
  ['COLOR_CONFLICT', () => ({ code: 'RESOLVE_COLOR_CONFLICT', field: 'attributes.color', action: 'Make the title and the description name the same colour.', example: null })],
  ['GENDER_CONFLICT', () => ({ code: 'RESOLVE_GENDER_CONFLICT', field: 'attributes.gender', action: 'Make the title and the description name the same gender or age group.', example: null })],
  ['LANGUAGE_MIXED', () => ({ code: 'USE_ONE_LANGUAGE', field: 'description', action: 'Write the title and the description in the language of the shop.', example: null })],
]);

/** Per missing attribute: the action and an example in English and Bulgarian. */
const ATTRIBUTE_HINTS: ReadonlyMap<string, { action: string; en: string; bg: string }> = new Map([
  ['brand', { action: 'State the brand.', en: 'Brand: Nike', bg: 'Марка: Nike' }],
  ['product_type', { action: 'Name the product type.', en: 'Running shoes', bg: 'Маратонки за бягане' }],
  ['gender', { action: 'State who the product is for (men, women, unisex, kids).', en: "Men's", bg: 'Мъжки' }],
  ['color', { action: 'State the colour.', en: 'Color: black', bg: 'Цвят: черен' }],
  ['size', { action: 'State the size (letter, EU number or dimensions).', en: 'Size: M', bg: 'Размер: M' }],
  ['material', { action: 'State the main material.', en: 'Material: 100% cotton', bg: 'Материя: 100% памук' }],
  ['model', { action: 'State the model name or number.', en: 'Model: WH-1000XM5', bg: 'Модел: WH-1000XM5' }],
  ['storage', { action: 'State the storage capacity.', en: '256 GB', bg: '256 GB' }],
  ['screen_size', { action: 'State the screen size in inches.', en: '15.6"', bg: '15.6 инча' }],
  ['power', { action: 'State the power in watts.', en: '2000 W', bg: '2000 W' }],
  ['use', { action: 'State the intended use or sport.', en: 'For running', bg: 'За бягане' }],
  ['age', { action: 'State the recommended age.', en: 'Ages 3+', bg: 'За деца над 3 години' }],
  ['weight_or_volume', { action: 'State the net quantity (weight or volume).', en: '500 g', bg: '500 г' }],
  ['volume_or_weight', { action: 'State the net quantity (volume or weight).', en: '250 ml', bg: '250 мл' }],
  ['pack_size_or_weight', { action: 'State the pack size or the net weight.', en: '2 kg', bg: '2 кг' }],
]);

function descriptionExample(context: RuleContext): string {
  const a = context.attributes;
  const type = a.product_type ?? (bg(context) ? 'продукт' : 'product');
  if (bg(context)) {
    const parts = [`${context.brand ? context.brand + ' ' : ''}${type.toLowerCase()}`];
    if (a.material) parts.push(`материя: ${a.material}`);
    if (a.color) parts.push(`цвят: ${a.color}`);
    if (a.size) parts.push(`размер: ${a.size}`);
    return `${parts.join('; ')}. Опишете за какво е подходящ, от какво е изработен, размерите и поддръжката му.`;
  }
  const parts = [`${context.brand ? context.brand + ' ' : ''}${type.toLowerCase()}`];
  if (a.material) parts.push(`material: ${a.material}`);
  if (a.color) parts.push(`color: ${a.color}`);
  if (a.size) parts.push(`size: ${a.size}`);
  return `${parts.join('; ')}. Describe what it is for, what it is made of, its dimensions and how to care for it.`;
}

export function recommend(context: RuleContext, issues: readonly Issue[], missingAttributes: readonly string[], texts: Texts): Recommendation[] {
  const out: Recommendation[] = [];
  const seen = new Set<string>();
  const push = (recommendation: Recommendation) => {
    const key = `${recommendation.code}|${recommendation.field}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(recommendation);
  };
  for (const issue of issues) {
    const make = BY_ISSUE.get(issue.code);
    if (make) push(make(context, texts));
  }
  for (const name of missingAttributes) {
    if (name === 'brand' && seen.has('ADD_BRAND|brand')) continue;
    const hint = ATTRIBUTE_HINTS.get(name);
    push({
      code: `ADD_${name.toUpperCase()}`,
      field: `attributes.${name}`,
      action: `${hint?.action ?? `State the ${name.replace(/_/g, ' ')}.`} Put it in the title or the description.`,
      example: hint ? (bg(context) ? hint.bg : hint.en) : null,
    });
  }
  return out;
}
