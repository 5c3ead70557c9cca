// The hand-written listings: category, language, the named attributes and the exact issue codes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeProduct } from '../../domains/product/rules/analyze.ts';
import { Ajv } from 'ajv';
import { toProductInput } from '../../domains/product/queries/body.ts';
import { PRODUCT_ANALYSIS_SCHEMA } from '../../domains/product/queries/analyze.ts';
import { LISTINGS } from './listings.ts';

test('at least 40 listings, half of them Bulgarian', () => {
  assert.ok(LISTINGS.length >= 40, `${LISTINGS.length} listings`);
  const bulgarian = LISTINGS.filter((listing) => listing.expected.language === 'bg').length;
  assert.ok(bulgarian * 2 >= LISTINGS.length, `${bulgarian} Bulgarian`);
  assert.equal(new Set(LISTINGS.map((listing) => listing.name)).size, LISTINGS.length, 'names are unique');
});

const validateAnswer = new Ajv({ strict: false, allowUnionTypes: true }).compile(PRODUCT_ANALYSIS_SCHEMA);

for (const listing of LISTINGS) {
  test(`listing: ${listing.name}`, () => {
    const result = analyzeProduct(toProductInput(listing.input));
    assert.ok(validateAnswer(result), `response schema: ${JSON.stringify(validateAnswer.errors)}`);
    const { expected } = listing;
    assert.equal(result.language.code, expected.language, 'language');
    assert.equal(result.product.category.id, expected.category, `category (matched: ${result.product.category.path})`);
    for (const [name, value] of Object.entries(expected.attributes ?? {})) {
      assert.equal((result.attributes as unknown as Record<string, unknown>)[name], value, `attribute ${name}`);
    }
    assert.deepEqual(
      result.issues.map((issue) => issue.code),
      expected.issues,
      `issues: ${JSON.stringify(result.issues.map((issue) => `${issue.code}: ${issue.message}`), null, 1)}`,
    );
  });
}
