// The request body of POST /api/v1/product/analyze: its JSON Schema (checked by the HTTP layer before
// any payment is asked for), the checks a schema cannot state, and the conversion to the engine's input.
import type { JsonSchema } from '../../../queries/catalog.ts';
import { invalidParameter, type ApiError } from '../../../queries/shared/errors.ts';
import type { ProductInput } from '../rules/context.ts';
import { ISO_4217_CODES } from '../rules/data/currencies.ts';

export const BODY_MAX_BYTES = 64 * 1024;

/** A decimal price as text: digits, an optional dot and up to four decimals (`12`, `12.5`, `12.50`). */
export const DECIMAL_STRING = '^\\d{1,12}(\\.\\d{1,4})?$';

export const PRODUCT_BODY_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'A product listing. Unknown fields are rejected (400 naming the field).',
  required: ['title', 'description'],
  additionalProperties: false,
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 1000, pattern: '\\S', description: 'The listing title as the shop shows it (required, not blank; at most 1000 characters).' },
    description: { type: 'string', minLength: 1, pattern: '\\S', description: 'The listing description, plain text or HTML (required, not blank; bounded by the 64 KiB body).' },
    brand: { type: 'string', maxLength: 200, description: 'The brand; when absent, a known brand named in the title is used.' },
    category: { type: 'string', maxLength: 500, description: "The seller's category: a hint, checked against the text. A dotted taxonomy id (`2.2.1`) or a path or label in English or Bulgarian (`Apparel & Accessories > Shoes`, `Обувки`)." },
    sku: { type: 'string', maxLength: 200, description: 'The stock-keeping unit.' },
    price: { type: ['number', 'string'], minimum: 0, pattern: DECIMAL_STRING, description: 'The price: a non-negative number, or a decimal string such as "12.50" (dot as the decimal mark).' },
    currency: { type: 'string', pattern: '^[A-Za-z]{3}$', description: 'ISO 4217 currency code of the price (EUR, BGN, USD, ...); case-insensitive.' },
  },
};

/** What the schema cannot say: the currency must be a real ISO 4217 code. */
export function checkProductBody(body: Record<string, unknown>): ApiError | null {
  if (typeof body.currency === 'string' && !ISO_4217_CODES.has(body.currency.toUpperCase())) {
    return invalidParameter('currency', `currency must be an ISO 4217 code such as EUR, BGN or USD (got "${body.currency}")`);
  }
  if (typeof body.price === 'number' && !Number.isFinite(body.price)) return invalidParameter('price', 'price must be a finite number');
  return null;
}

/** The validated body as the engine's input: price a number, currency upper case. */
export function toProductInput(body: Record<string, unknown>): ProductInput {
  const input: ProductInput = { title: body.title as string, description: body.description as string };
  if (typeof body.brand === 'string') input.brand = body.brand;
  if (typeof body.category === 'string') input.category = body.category;
  if (typeof body.sku === 'string') input.sku = body.sku;
  if (body.price !== undefined) input.price = typeof body.price === 'string' ? Number(body.price) : (body.price as number);
  if (typeof body.currency === 'string') input.currency = body.currency.toUpperCase();
  return input;
}
