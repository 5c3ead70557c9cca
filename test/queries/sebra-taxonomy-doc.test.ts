// docs/sebra-taxonomy.md and domains/sebra/queries/categories.ts must say the same thing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CATEGORIES, CATEGORY_BY_CODE, categoryKeyFor } from '../../domains/sebra/queries/categories.ts';

const doc = readFileSync(new URL('../../docs/sebra-taxonomy.md', import.meta.url), 'utf8');
const rows = doc
  .split('\n')
  .filter((line) => /^\| [a-z]+ \|/.test(line))
  .map((line) => line.split('|').map((cell) => cell.trim()))
  .map(([, key, label, codes]) => ({ key, label, codes }));

test('every bucket is documented with its label, in the same order', () => {
  assert.deepEqual(rows.map((r) => [r.key, r.label]), CATEGORIES.map((c) => [c.key, c.label]));
});

test('every mapped code is listed under its bucket, and listed codes map there', () => {
  for (const row of rows.filter((r) => r.key !== 'other')) {
    const documented = [...row.codes.matchAll(/\b(\d{2})\b/g)].map((m) => m[1]).sort();
    const mapped = Object.entries(CATEGORY_BY_CODE).filter(([, key]) => key === row.key).map(([code]) => code).sort();
    assert.deepEqual(documented, mapped, row.key);
  }
});

test('documented uncoded lines map to their bucket by description', () => {
  for (const row of rows) {
    for (const [, description] of row.codes.matchAll(/"([^"]+)"/g)) {
      assert.equal(categoryKeyFor('', description), row.key, description);
    }
  }
  assert.equal(categoryKeyFor('18', 'Други разходи'), 'other');
  assert.equal(categoryKeyFor('99', 'unknown'), 'other');
});
