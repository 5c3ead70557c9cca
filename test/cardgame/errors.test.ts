// Every 400 of the specification's Errors table for the card operations (both path forms), the
// limits table (getCardsByClass: limit max 2000) and the 404s it states for the card lookups.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { expectError as expectApiError, startTestApp, type TestApp } from '../helpers/app.ts';
import { fixtureSnapshot } from './fixture.ts';

let app: TestApp;
before(async () => {
  app = await startTestApp(await fixtureSnapshot());
});
after(() => app?.close());

const expectError = async (path: string, status: 400 | 404, param: string | null): Promise<string> =>
  (await expectApiError(app, path, status, param)).message;

function cases(name: string, status: 400 | 404, list: Array<[path: string, param: string | null]>): void {
  describe(name, () => {
    for (const [path, param] of list) test(`${path} -> ${status}${param ? ` naming ${param}` : ''}`, async () => void (await expectError(path, status, param)));
  });
}

// getCard: neither name nor dbf_id -> 400; bad values -> 400 naming them.
cases('getCard 400', 400, [
  ['/api/cardgame/getCard', 'name'],
  ['/api/cardgame/getCard?name=', 'name'],
  ['/api/cardgame/getCard?name=%20%20', 'name'],
  ['/api/cardgame/getCard?dbf_id=abc', 'dbf_id'],
  ['/api/cardgame/getCard?dbf_id=1.5', 'dbf_id'],
  ['/api/cardgame/getCard?dbf_id=0', 'dbf_id'],
  ['/api/cardgame/getCard?dbf_id=99999999999', 'dbf_id'],
  ['/api/cardgame/getCard?name=Storm%20Caller&name=Ember%20Sprite', 'name'],
  ['/api/cardgame/getCard?card=Storm%20Caller', 'card'],
]);

// getCard: 404 when no English card matches (a Bulgarian name is not an English one).
cases('getCard 404', 404, [
  ['/api/cardgame/getCard?name=No%20Such%20Card', null],
  ['/api/cardgame/getCard?dbf_id=555', null],
  ['/api/cardgame/getCard?name=Storm%20Caller&dbf_id=104', null],
  [`/api/cardgame/getCard?name=${encodeURIComponent('Призовател на бурята')}`, null],
]);

cases('getTranslatedCardInBG 400', 400, [
  ['/api/cardgame/getTranslatedCardInBG', 'name'],
  ['/api/cardgame/getTranslatedCardInBG?name=', 'name'],
  ['/api/cardgame/getTranslatedCardInBG?name=%20', 'name'],
  ['/api/cardgame/getTranslatedCardInBG/%20', 'name'],
  ['/api/cardgame/getTranslatedCardInBG/Storm%20Caller?name=Storm%20Caller', 'name'],
]);

cases('getTranslatedCardInBG 404', 404, [
  ['/api/cardgame/getTranslatedCardInBG?name=No%20Such%20Card', null],
  ['/api/cardgame/getTranslatedCardInBG/No%20Such%20Card', null],
  ['/api/cardgame/getTranslatedCardInBG?name=Storm%20Calle', null],
]);

// getCardsByClass: class missing or unknown; invalid limit (< 1, > 2000, not an integer); invalid collectible.
cases('getCardsByClass 400', 400, [
  ['/api/cardgame/getCardsByClass', 'class'],
  ['/api/cardgame/getCardsByClass?limit=10', 'class'],
  ['/api/cardgame/getCardsByClass?class=', 'class'],
  ['/api/cardgame/getCardsByClass?class=%20', 'class'],
  ['/api/cardgame/getCardsByClass?class=Wizard', 'class'],
  ['/api/cardgame/getCardsByClass?class=SHAM', 'class'],
  ['/api/cardgame/getCardsByClass/Wizard', 'card_class'],
  [`/api/cardgame/getCardsByClass/${encodeURIComponent('Магьосница')}`, 'card_class'],
  ['/api/cardgame/getCardsByClass/SHAMAN?class=MAGE', 'class'],
  ['/api/cardgame/getCardsByClass?class=SHAMAN&limit=0', 'limit'],
  ['/api/cardgame/getCardsByClass?class=SHAMAN&limit=-1', 'limit'],
  ['/api/cardgame/getCardsByClass?class=SHAMAN&limit=2001', 'limit'],
  ['/api/cardgame/getCardsByClass?class=SHAMAN&limit=abc', 'limit'],
  ['/api/cardgame/getCardsByClass?class=SHAMAN&limit=1e3', 'limit'],
  ['/api/cardgame/getCardsByClass/SHAMAN?limit=0', 'limit'],
  ['/api/cardgame/getCardsByClass/SHAMAN?limit=2001', 'limit'],
  ['/api/cardgame/getCardsByClass?class=SHAMAN&collectible=yes', 'collectible'],
  ['/api/cardgame/getCardsByClass?class=SHAMAN&collectible=1', 'collectible'],
  ['/api/cardgame/getCardsByClass/SHAMAN?collectible=', 'collectible'],
]);

test('the unknown-class message names the classes it accepts', async () => {
  const message = await expectError('/api/cardgame/getCardsByClass?class=Wizard', 400, 'class');
  assert.match(message, /Wizard/);
  assert.match(message, /SHAMAN \(Шаман\)/);
});
