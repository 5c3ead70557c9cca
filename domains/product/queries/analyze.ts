// POST /api/v1/product/analyze: the route declaration (body, response schema, examples) over the
// rules engine of ../rules. No tables, no SQL: the answer is computed from the body alone.
import type { JsonValue } from '../../../engine/json.ts';
import { defineRoute, type JsonSchema, type ResponseBody } from '../../../queries/catalog.ts';
import { loadOnFirstUse } from '../../../queries/shared/firstUse.ts';
import { ATTRIBUTE_NAMES } from '../rules/attributeNames.ts';
import { RULES_VERSION } from '../rules/version.ts';
import { BODY_MAX_BYTES, PRODUCT_BODY_SCHEMA, checkProductBody, toProductInput } from './body.ts';

/** The rules engine (its taxonomy and vocabularies are built when it loads, about 0.2 s): loaded with the first analysis. */
const rulesEngine = loadOnFirstUse(() => import('../rules/analyze.ts'));

const nullableString = (description: string): JsonSchema => ({ type: ['string', 'null'], description });
const score = (description: string): JsonSchema => ({ type: 'integer', minimum: 0, maximum: 100, description });
const stringList = (description: string): JsonSchema => ({ type: 'array', items: { type: 'string' }, description });

const ATTRIBUTE_DESCRIPTIONS: Record<(typeof ATTRIBUTE_NAMES)[number], JsonSchema> = {
  brand: nullableString('The brand sent, else the known brand named in the title.'),
  gender: nullableString('men, women, unisex (both named), boys, girls, kids or baby.'),
  color: nullableString('The first colour named (title first), canonical English: black, white, navy, ...'),
  colors: stringList('Every colour named, title first, canonical English.'),
  product_type: nullableString("The category leaf's English label (Running Shoes, Mobile Phones, ...; a catch-all leaf such as Shoes (other) gives Shoes)."),
  use: nullableString('Intended use or sport, canonical English: running, hiking, office, kitchen, winter, ...'),
  material: nullableString('The first material named (title first), canonical English: cotton, leather, stainless steel, ...'),
  size: nullableString('Letter size (M, XL), EU number (42, 42.5), labelled range (40-42) or tyre size (205/55R16).'),
  model: nullableString('Model name or number (Galaxy S24, WH-1000XM5, 60316).'),
  storage: nullableString('Storage capacity: "256 GB", "1 TB".'),
  memory: nullableString('Memory (RAM): "8 GB".'),
  volume: nullableString('Net volume: "500 ml", "1.5 l".'),
  weight: nullableString('Net weight: "250 g", "10 kg".'),
  screen_size: nullableString('Screen size in inches: "15.6 in".'),
  power: nullableString('Power: "2000 W".'),
  pack_size: nullableString('Pieces in the pack: "6".'),
  age: nullableString('Recommended minimum age: "3+".'),
};

export const PRODUCT_ANALYSIS_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['endpoint', 'api_version', 'rules_version', 'language', 'product', 'attributes', 'quality', 'completeness', 'missing_attributes', 'seo', 'issues', 'recommendations'],
  additionalProperties: false,
  properties: {
    endpoint: { type: 'string', const: 'product_analyze' },
    api_version: { type: 'string', const: 'v1' },
    rules_version: { type: 'string', description: `Version of the rules engine and its data (now ${RULES_VERSION}); the same body and version give a byte-identical answer.` },
    language: {
      type: 'object',
      required: ['code', 'reason'],
      additionalProperties: false,
      properties: {
        code: { type: 'string', enum: ['en', 'bg'], description: 'bg when 40% or more of the letters of the title and description are Cyrillic, else en.' },
        reason: { type: 'string', description: 'Why: the Cyrillic share, in words.' },
      },
    },
    product: {
      type: 'object',
      required: ['normalized_title', 'brand', 'category'],
      additionalProperties: false,
      properties: {
        normalized_title: { type: 'string', description: 'The title without HTML, emoji and repeated symbols; an all-caps title recased.' },
        brand: nullableString('The brand sent, else the known brand named in the title.'),
        category: {
          type: 'object',
          required: ['path', 'path_local', 'id', 'confidence', 'source'],
          additionalProperties: false,
          properties: {
            path: nullableString('English taxonomy path, levels separated by " > ".'),
            path_local: nullableString("The path in the listing's language."),
            id: nullableString('Dotted taxonomy id (2.2.2); null when no category was found.'),
            confidence: { type: 'number', minimum: 0, maximum: 1, description: 'Two decimals: 0.5 when only the hint named it, 0.6 when the hint and the description agree, at most 0.4 from the description alone.' },
            source: nullableString('text (the title named it), hint (the category sent), or null (no category).'),
          },
        },
      },
    },
    attributes: { type: 'object', required: [...ATTRIBUTE_NAMES], additionalProperties: false, properties: ATTRIBUTE_DESCRIPTIONS, description: 'Every attribute key is always present; null when not found.' },
    quality: {
      type: 'object',
      required: ['score', 'title_score', 'description_score'],
      additionalProperties: false,
      properties: {
        score: score('0.45 x title_score + 0.35 x description_score + 0.2 x completeness, minus listing penalties, rounded.'),
        title_score: score("100 minus the title penalties of the issues."),
        description_score: score('100 minus the description penalties of the issues.'),
      },
    },
    completeness: {
      type: 'object',
      required: ['score', 'present', 'missing'],
      additionalProperties: false,
      properties: {
        score: score('Share of the expected fields present, rounded: category, price, currency, sku and the attributes expected for the category.'),
        present: stringList('Expected fields present.'),
        missing: stringList('Expected fields missing (alternatives joined by _or_).'),
      },
    },
    missing_attributes: stringList('The missing expected fields that are attributes.'),
    seo: {
      type: 'object',
      required: ['score', 'suggested_title'],
      additionalProperties: false,
      properties: {
        score: score('Points: title length, brand in title, product type in title, attributes in title, a clean title, a full description.'),
        suggested_title: { type: 'string', description: 'The normalised title without promotional text and prices, brand first, attributes from the description added, at most 150 characters.' },
      },
    },
    issues: {
      type: 'array',
      description: 'Failed rules in a fixed order; empty when none.',
      items: {
        type: 'object',
        required: ['code', 'severity', 'field', 'message'],
        additionalProperties: false,
        properties: {
          code: { type: 'string', description: 'Stable upper-snake code (TITLE_TOO_LONG, CATEGORY_MISMATCH, ...).' },
          severity: { type: 'string', enum: ['error', 'warning', 'info'] },
          field: { type: 'string', description: 'The request field or attribute at fault (title, description, brand, price, currency, sku, category, attributes.color, ...).' },
          message: { type: 'string' },
        },
      },
    },
    recommendations: {
      type: 'array',
      description: 'One action per issue that has one, then one per missing attribute.',
      items: {
        type: 'object',
        required: ['code', 'field', 'action', 'example'],
        additionalProperties: false,
        properties: {
          code: { type: 'string', description: 'Stable upper-snake code (ADD_BRAND_TO_TITLE, SHORTEN_TITLE, ADD_COLOR, ...).' },
          field: { type: 'string' },
          action: { type: 'string', description: 'What to do, in English.' },
          example: nullableString("A concrete value or rewrite in the listing's language, or null."),
        },
      },
    },
  },
};

/** Sample bodies: the docs show the first; each must answer 200 (catalog examples test, bench). */
export const PRODUCT_EXAMPLE_BODIES: readonly JsonValue[] = [
  {
    title: "Nike Air Max 90 Men's Running Shoes Black Size 42",
    description: 'Lightweight running shoes with a breathable mesh upper and a cushioned rubber sole. Black colour, sizes 40 to 46, for road running and everyday training.',
    brand: 'Nike',
    category: 'Apparel & Accessories > Shoes',
    sku: 'NK-AM90-42',
    price: 129.9,
    currency: 'EUR',
  },
  {
    title: 'СМАРТФОН SAMSUNG GALAXY A55 128GB ЧЕРЕН ПРОМОЦИЯ!!!',
    description: '<p>Смартфон Samsung Galaxy A55 с 6,6-инчов екран, 8GB RAM и 128GB памет.</p>',
    price: '399.00',
    currency: 'bgn',
  },
];

export const analyzeProductRoute = defineRoute<Record<string, never>>({
  id: 'analyzeProduct',
  method: 'POST',
  tag: 'product',
  paths: ['/api/v1/product/analyze'],
  summary: 'Analyse a product listing (English or Bulgarian): category, attributes, quality and SEO scores, issues, recommendations',
  description:
    'Send a listing as JSON (`Content-Type: application/json`, at most 64 KiB): `title` and `description` (required, not blank), ' +
    'and optionally `brand`, `category` (a hint: dotted taxonomy id or a path/label in English or Bulgarian), `sku`, `price` ' +
    '(a non-negative number or a decimal string such as "12.50") and `currency` (ISO 4217, case-insensitive). Unknown fields, ' +
    'wrong types, malformed JSON (400 naming the field), another content type (415) and a larger body (413) are refused before ' +
    'any payment is asked for. The answer comes from a deterministic rules engine (no language model, no clock, no network): ' +
    'the same body gives a byte-identical answer for the same `rules_version`. Decisions: the language is `bg` when 40% or more ' +
    'of the letters are Cyrillic; the category comes from the title when it names a product (the request category is then only ' +
    'checked, a conflict being the issue CATEGORY_MISMATCH), else from the hint, else from the description; attribute values ' +
    'are canonical English (black, cotton, men); scores are integers 0..100 by the rubric in docs/product.md; HTML in the ' +
    'description is read as text; confidence has two decimals.',
  paid: true,
  params: {},
  requestBody: {
    schema: PRODUCT_BODY_SCHEMA,
    description: 'The product listing.',
    contentType: 'application/json',
    required: true,
    example: PRODUCT_EXAMPLE_BODIES[0],
    examples: PRODUCT_EXAMPLE_BODIES,
    maxBytes: BODY_MAX_BYTES,
    check: checkProductBody,
  },
  response: PRODUCT_ANALYSIS_SCHEMA,
  examples: ['/api/v1/product/analyze'],
  async handle(_params, context) {
    const { analyzeProduct } = await rulesEngine();
    const analysis = analyzeProduct(toProductInput(context.body ?? {}));
    return analysis as unknown as ResponseBody;
  },
});
