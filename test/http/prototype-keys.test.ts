// Client (or file) text never indexes a plain object: names an object inherits (__proto__,
// constructor, toString, ...) are unknown values like any other, never a function or a prototype.
// The HTTP side (every string parameter of every route given these names, over the sample) is in
// test/http/fuzz.test.ts; these are the lookups themselves.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { priceProductsOf, productAlias } from '../../domains/trade/queries/codes.ts';
import { categoryKeyFor } from '../../domains/sebra/queries/categories.ts';
import { parseRegistry } from '../../domains/energy/queries/ets.ts';
import { parseGeo } from '../../domains/energy/queries/geo.ts';
import { resolveCardClass } from '../../domains/cardgame/queries/classes.ts';
import { ApiError } from '../../queries/shared/errors.ts';

export const INHERITED_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', '__defineGetter__', 'prototype'];

test('trade: product aliases and price products by own keys only', () => {
  assert.equal(productAlias('corn'), '1005');
  assert.deepEqual(priceProductsOf('9999'), []);
  for (const name of INHERITED_NAMES) {
    assert.equal(productAlias(name), undefined, name);
    assert.deepEqual(priceProductsOf(name), [], name);
  }
});

test('sebra: an account code named like an Object member is an "other" category', () => {
  for (const name of INHERITED_NAMES) assert.equal(categoryKeyFor(name, ''), 'other', name);
});

test('energy: registries and geos named like Object members are a 400, not a function', () => {
  for (const name of INHERITED_NAMES) {
    for (const parse of [() => parseRegistry(name), () => parseGeo(name, 'geo')]) {
      try {
        const parsed = parse() as { name: unknown };
        assert.ok(parsed.name === null || typeof parsed.name === 'string', `${name}: ${typeof parsed.name}`);
      } catch (error) {
        assert.ok(error instanceof ApiError && error.status === 400, `${name}: ${String(error)}`);
      }
    }
  }
});

test('cardgame: classes named like Object members are unknown', () => {
  assert.equal(resolveCardClass('mage'), 'MAGE');
  for (const name of INHERITED_NAMES) assert.equal(resolveCardClass(name), null, name);
});
