// Each rule on its own: a baseline listing that passes every rule, and per issue code a change of
// that baseline that makes exactly that rule fail. Plus the text primitives, the taxonomy, the
// scores rubric, the titles, determinism and the enhancement seam.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeProduct, applyEnhancement } from '../../domains/product/rules/analyze.ts';
import { detectBrand, extractAttributes, modelOf } from '../../domains/product/rules/attributes.ts';
import { TAXONOMY, buildTaxonomy, categoryPath, confidenceOf, resolveHint } from '../../domains/product/rules/category.ts';
import { RULES } from '../../domains/product/rules/checks.ts';
import type { ProductInput } from '../../domains/product/rules/context.ts';
import { TAXONOMY_ROWS } from '../../domains/product/rules/data/taxonomy.ts';
import { expectedAttributes } from '../../domains/product/rules/scores.ts';
import { bulgarianKey, detectLanguage, englishKey, hasHtml, stripHtml, tokenize } from '../../domains/product/rules/text.ts';
import { normalizeTitle, suggestTitle, truncateWords } from '../../domains/product/rules/titles.ts';
import { RULES_VERSION } from '../../domains/product/rules/version.ts';
import { LISTINGS } from './listings.ts';

const BASE: ProductInput = {
  title: 'Nike Air Max 90 Running Shoes, Black',
  description: 'Lightweight running shoes with a breathable mesh upper and a cushioned sole. Sizes 40 to 46, for road running and everyday training.',
  brand: 'Nike',
  price: 129.9,
  currency: 'EUR',
  sku: 'NK-90',
};

const codes = (input: ProductInput) => analyzeProduct(input).issues.map((issue) => issue.code);

test('the baseline listing passes every rule', () => {
  assert.deepEqual(codes(BASE), []);
});

/** Per rule: the change to the baseline that should make that rule, and only it, fail. */
const CASES: Record<string, Partial<ProductInput> & { also?: string[] }> = {
  TITLE_TOO_SHORT: { title: 'Nike shoes', also: [] },
  TITLE_TOO_LONG: { title: 'Nike Air Max 90 Running Shoes, Black, with breathable mesh upper and cushioned foam sole, road and track, lightweight, durable, comfortable all day long fit' },
  TITLE_ALL_CAPS: { title: 'NIKE AIR MAX 90 RUNNING SHOES, BLACK' },
  TITLE_HAS_HTML: { title: 'Nike Air Max 90 <b>Running Shoes</b>, Black' },
  TITLE_HAS_EMOJI: { title: 'Nike Air Max 90 Running Shoes, Black 👟' },
  TITLE_EXCESSIVE_PUNCTUATION: { title: 'Nike Air Max 90 Running Shoes, Black!!' },
  TITLE_PROMOTIONAL: { title: 'Nike Air Max 90 Running Shoes, Black, free shipping' },
  TITLE_KEYWORD_STUFFING: { title: 'Nike Air Max 90 Running Shoes, Black Shoes, Shoes' },
  TITLE_HAS_PRICE: { title: 'Nike Air Max 90 Running Shoes, Black, 129 EUR' },
  BRAND_MISSING: { brand: undefined, title: 'Air Max 90 Running Shoes, Black', also: [] },
  BRAND_NOT_IN_TITLE: { title: 'Air Max 90 Running Shoes, Black' },
  BRAND_CONFLICT: { title: 'Adidas Ultraboost 22 Running Shoes, Black' },
  CATEGORY_UNKNOWN: { title: 'Nike Air Max 90, Black', description: 'Lightweight, with a breathable mesh upper and a cushioned sole. Sizes 40 to 46, for the road and for every day of the week.' },
  CATEGORY_MISMATCH: { category: 'Home & Garden > Kitchen & Dining' },
  CATEGORY_HINT_UNKNOWN: { category: 'Spaceships' },
  PRICE_MISSING: { price: undefined, currency: undefined },
  PRICE_ZERO: { price: 0 },
  CURRENCY_MISSING: { currency: undefined },
  SKU_MISSING: { sku: undefined },
  DESCRIPTION_TOO_SHORT: { description: 'Light running shoes for men.' },
  DESCRIPTION_SHORT: { description: 'Lightweight running shoes with a breathable mesh upper and a soft sole.' },
  DESCRIPTION_TOO_LONG: { description: `${BASE.description} ${Array.from({ length: 1000 }, (_, i) => `w${i}`).join(' ')}` },
  DESCRIPTION_REPEATS_TITLE: { description: 'Nike Air Max 90 running shoes, black. Nike running shoes.', also: ['DESCRIPTION_SHORT'] },
  DESCRIPTION_HAS_HTML: { description: '<p>Lightweight running shoes with a breathable mesh upper and a cushioned sole.</p><p>Sizes 40 to 46, for road running and everyday training.</p>' },
  DESCRIPTION_HAS_EMOJI: { description: `${BASE.description} 🏃` },
  DESCRIPTION_ALL_CAPS: { description: BASE.description.toUpperCase() },
  DESCRIPTION_KEYWORD_STUFFING: { description: 'Shoes for running. Running shoes, shoes for the road, shoes for the track, shoes for the gym, shoes for every day, great shoes.' },
  DESCRIPTION_PROMOTIONAL: { description: `${BASE.description} Free shipping this week.` },
  DESCRIPTION_HAS_CONTACT_INFO: { description: `${BASE.description} More at https://shop.example.com/nike.` },
  COLOR_CONFLICT: { description: 'Lightweight white running shoes with a breathable mesh upper and a cushioned sole. Sizes 40 to 46, for road running and everyday training.' },
  GENDER_CONFLICT: { title: "Nike Air Max 90 Men's Running Shoes, Black", description: "Lightweight women's running shoes with a breathable mesh upper and a cushioned sole. Sizes 36 to 41, for road running and training." },
  LANGUAGE_MIXED: { description: 'Леки маратонки за бягане с дишаща мрежеста горна част и омекотена подметка. Номера от 40 до 46, за бягане по асфалт и тренировки.' },
};

test('every rule has a case here, and every case names a rule', () => {
  assert.deepEqual(Object.keys(CASES).sort(), RULES.map((rule) => rule.code).sort());
});

for (const rule of RULES) {
  test(`rule ${rule.code}`, () => {
    const { also = [], ...change } = CASES[rule.code];
    const input = { ...BASE, ...change } as ProductInput;
    for (const key of Object.keys(input) as Array<keyof ProductInput>) if (input[key] === undefined) delete input[key];
    const result = analyzeProduct(input);
    const got = result.issues.map((issue) => issue.code);
    assert.deepEqual(new Set(got), new Set([rule.code, ...also]), `${rule.code}: ${JSON.stringify(result.issues)}`);
    const issue = result.issues.find((candidate) => candidate.code === rule.code)!;
    assert.equal(issue.severity, rule.severity);
    assert.equal(issue.field, rule.field);
    assert.ok(issue.message.length > 0);
    // The rubric: the failed rule takes exactly its points.
    assert.equal(result.quality.title_score, 100 - result.issues.reduce((sum, i) => sum + (RULES.find((r) => r.code === i.code)!.penalty.title ?? 0), 0));
    assert.match(rule.code, /^[A-Z][A-Z0-9_]+$/);
  });
}

test('Bulgarian word forms reduce to one key (черен / черна / черно / черни)', () => {
  for (const group of [
    ['черен', 'черна', 'черно', 'черни', 'черният'],
    ['маратонки', 'маратонка', 'маратонките'],
    ['кожен', 'кожена', 'кожени'],
    ['памучен', 'памучна', 'памучни'],
    ['часовник', 'часовници'],
    ['синя', 'синьо', 'сини', 'син'],
  ]) {
    assert.equal(new Set(group.map(bulgarianKey)).size, 1, group.join(' '));
  }
  assert.equal(englishKey('shoes'), 'shoe');
  assert.equal(englishKey('batteries'), 'battery');
  assert.equal(englishKey("women's"), 'women');
  assert.equal(englishKey('dresses'), 'dress');
});

test('colours in every Bulgarian form are black, white, blue', () => {
  for (const [text, color] of [
    ['черен колан', 'black'], ['черна рокля', 'black'], ['черно палто', 'black'], ['черни обувки', 'black'],
    ['бял', 'white'], ['бяла', 'white'], ['бели', 'white'], ['синьо', 'blue'], ['тъмносиня', 'navy'], ['navy blue', 'navy'],
  ] as const) {
    assert.equal(extractAttributes({ title: text, description: '', brand: null, productType: null }).color, color, text);
  }
  // "red wine" names a wine, not a red product.
  assert.equal(extractAttributes({ title: 'червено вино', description: '', brand: null, productType: null }).color, null);
});

test('attribute patterns: sizes, units, model, brand', () => {
  const a = (title: string) => extractAttributes({ title, description: '', brand: detectBrand(title)?.brand ?? null, productType: null });
  assert.equal(a('Тениска размер XL').size, 'XL');
  assert.equal(a('Boots size 42.5').size, '42.5');
  assert.equal(a('Гуми 225/45 R17').size, '225/45R17');
  assert.equal(a('Hoodie S/M/L').size, 'S/M/L');
  assert.equal(a('Phone 128GB 8GB RAM').storage, '128 GB');
  assert.equal(a('Phone 128GB 8GB RAM').memory, '8 GB');
  assert.equal(a('Вода 1,5 л').volume, '1.5 l');
  assert.equal(a('Кафе 250 гр').weight, '250 g');
  assert.equal(a('Лаптоп 15.6" FHD').screen_size, '15.6 in');
  assert.equal(a('Сешоар 2200W').power, '2200 W');
  assert.equal(a('Чорапи 5 бр.').pack_size, '5');
  assert.equal(a('Пъзел за деца над 3 години').age, '3+');
  assert.equal(a('Puzzle 1000 pieces 12+').age, '12+');
  assert.equal(modelOf('Sony WH-1000XM5 Headphones', 'Sony'), 'WH-1000XM5');
  assert.equal(modelOf('Headphones WH-1000XM5 by Sony', null), 'WH-1000XM5');
  assert.equal(modelOf('Wool Socks 2026', null), null);
  assert.equal(detectBrand('The North Face jacket')?.brand, 'The North Face');
  assert.equal(detectBrand('Shoe horn')?.brand, undefined);
  // Men and women together: unisex.
  assert.equal(a("Men's and women's rain jacket").gender, 'unisex');
});

test('language detection: Cyrillic share of the letters, with the reason', () => {
  assert.equal(detectLanguage('Лаптоп Lenovo IdeaPad Slim 5', 'Лек лаптоп с екран 14 инча').code, 'bg');
  assert.equal(detectLanguage('Lenovo IdeaPad Slim 5 laptop', 'A light laptop with a 14 inch screen').code, 'en');
  assert.match(detectLanguage('Чанта', 'Кожена чанта').reason, /100% of the letters/);
  assert.equal(detectLanguage('123', '456').code, 'en');
});

test('HTML is read as text: tags removed, entities decoded', () => {
  assert.equal(stripHtml('<p>Tom &amp; Jerry&nbsp;<b>DVD</b></p>&#8364;5'), 'Tom & Jerry DVD €5');
  assert.ok(hasHtml('a <br/> b'));
  assert.ok(!hasHtml('5 < 6 and 7 > 3'));
  assert.deepEqual(tokenize('T-shirt, men’s').map((t) => t.key), ['t', 'shirt', 'men']);
});

test('taxonomy: data with dotted ids, English and Bulgarian labels, at least 150 leaves over ten areas', () => {
  assert.ok(TAXONOMY.leaves.length >= 150, `${TAXONOMY.leaves.length} leaves`);
  const tops = TAXONOMY_ROWS.filter(([id]) => !id.includes('.')).map(([, en]) => en);
  assert.deepEqual(tops, [
    'Animals & Pet Supplies', 'Apparel & Accessories', 'Electronics', 'Food, Beverages & Tobacco', 'Health & Beauty',
    'Home & Garden', 'Media', 'Sporting Goods', 'Toys & Games', 'Vehicles & Parts',
  ]);
  for (const [id, en, bg, keywords] of TAXONOMY_ROWS) {
    assert.match(id, /^\d+(\.\d+)*$/);
    assert.ok(en.length > 0 && /\p{Script=Cyrillic}/u.test(bg), id);
    const node = TAXONOMY.nodes.get(id)!;
    assert.equal(node.leaf, keywords.length > 0, `${id}: only leaves carry keywords`);
  }
  assert.equal(categoryPath(TAXONOMY, '2.2.2', 'en'), 'Apparel & Accessories > Shoes > Running Shoes');
  assert.equal(categoryPath(TAXONOMY, '2.2.2', 'bg'), 'Облекло и аксесоари > Обувки > Обувки за бягане');
  assert.throws(() => buildTaxonomy([['1', 'A', 'А', ''], ['1', 'B', 'Б', '']]), /duplicate/);
  assert.throws(() => buildTaxonomy([['1.1', 'A', 'А', 'x']]), /before its parent/);
});

test('category hints: dotted id, path or label in either language, keyword; null when unknown', () => {
  assert.equal(resolveHint(TAXONOMY, '2.2.1')?.id, '2.2.1');
  assert.equal(resolveHint(TAXONOMY, 'Apparel & Accessories > Shoes')?.id, '2.2');
  assert.equal(resolveHint(TAXONOMY, 'Обувки')?.id, '2.2');
  assert.equal(resolveHint(TAXONOMY, 'Дом и градина / Кухня и трапезария')?.id, '6.1');
  assert.equal(resolveHint(TAXONOMY, 'smartphone')?.id, '3.1.1');
  assert.equal(resolveHint(TAXONOMY, 'Spaceships'), null);
  // A hint on the same branch is not a mismatch.
  const input = { ...BASE, category: 'Apparel & Accessories' };
  assert.deepEqual(codes(input), []);
});

test('confidence: strength times margin, by hand', () => {
  assert.equal(confidenceOf(null, null), 0);
  // best 10, no runner-up: 1 x (0.5 + 0.5) = 1
  assert.equal(confidenceOf({ id: '3.1.1', score: 10, matched: [], inTitle: true }, null), 1);
  // best 5 (strength 0.5), runner-up 2.5 in another branch: margin 0.5 -> 0.5 x 0.75 = 0.375 -> 0.38
  assert.equal(confidenceOf({ id: '3.1.1', score: 5, matched: [], inTitle: true }, { id: '6.1.1', score: 2.5, matched: [], inTitle: true }), 0.38);
  // same branch, equal scores: margin floored at 0.25 -> 0.5 x 0.625 = 0.3125 -> 0.31
  assert.equal(confidenceOf({ id: '2.2.1', score: 5, matched: [], inTitle: true }, { id: '2.2.2', score: 5, matched: [], inTitle: true }), 0.31);
});

test('scores rubric on a worked example', () => {
  // No brand, no price, short description. Title "Dog bed" (7 chars): TITLE_TOO_SHORT -25.
  const result = analyzeProduct({ title: 'Dog bed', description: 'Soft bed.', sku: 'X' });
  assert.equal(result.quality.title_score, 75);
  // DESCRIPTION_TOO_SHORT -40.
  assert.equal(result.quality.description_score, 60);
  // Category 1.1.5 expects brand, product_type, pack_size|weight; listing fields category, price, currency, sku.
  // Present: category, sku, product_type (3 of 7) -> 43.
  assert.deepEqual(result.completeness, { score: 43, present: ['category', 'sku', 'product_type'], missing: ['price', 'currency', 'brand', 'pack_size_or_weight'] });
  assert.deepEqual(result.missing_attributes, ['brand', 'pack_size_or_weight']);
  // 0.45 x 75 + 0.35 x 60 + 0.2 x 43 = 33.75 + 21 + 8.6 = 63.35; minus BRAND_MISSING 5 and PRICE_MISSING 5 -> 53.
  assert.equal(result.quality.score, 53);
  // SEO: length 7 -> 0; no brand 0; product type in title 20; no attributes in title 0; clean title 10; short description 0.
  assert.equal(result.seo.score, 30);
  assert.deepEqual(expectedAttributes('2.3.4'), ['brand', 'product_type', 'color', 'material']);
  assert.deepEqual(expectedAttributes(null), ['brand', 'product_type']);
});

test('titles: normalised (recased, cleaned) and suggested (brand first, no promotion, attributes added)', () => {
  assert.equal(normalizeTitle('NIKE AIR MAX 90 MENS RUNNING SHOES BLACK!!!', 'en', 'Nike'), 'Nike Air Max 90 Mens Running Shoes Black');
  assert.equal(normalizeTitle('ДАМСКА РОКЛЯ MANGO ЧЕРНА 🔥', 'bg', null), 'Дамска рокля Mango черна');
  assert.equal(normalizeTitle('<b>USB кабел</b>  за  телефон', 'bg', null), 'USB кабел за телефон');
  assert.equal(suggestTitle({ normalizedTitle: 'Running Shoes Sale', brand: 'Nike', brandInTitle: false, additions: ['black'], stuffed: false }), 'Nike Running Shoes, black');
  assert.equal(suggestTitle({ normalizedTitle: 'Case Case iPhone Case', brand: null, brandInTitle: false, additions: [], stuffed: true }), 'Case iPhone');
  assert.equal(truncateWords('one two three', 9), 'one two');
  const result = analyzeProduct({ ...BASE, title: 'Air Max 90 running shoes', description: 'Lightweight running shoes in black with a breathable mesh upper, sizes 40 to 46, for road running and everyday training.' });
  assert.equal(result.seo.suggested_title, 'Nike Air Max 90 running shoes, black');
});

test('recommendations follow the issues and the missing attributes, with examples in the listing language', () => {
  const result = analyzeProduct({ title: 'ДАМСКА РОКЛЯ ЧЕРНА ПРОМОЦИЯ', description: 'Рокля.' });
  const recommendationCodes = result.recommendations.map((r) => r.code);
  assert.deepEqual(recommendationCodes, ['FIX_CAPITALIZATION', 'REMOVE_PROMOTIONAL_TEXT', 'ADD_BRAND', 'ADD_PRICE', 'ADD_SKU', 'EXPAND_DESCRIPTION', 'ADD_SIZE', 'ADD_MATERIAL']);
  assert.equal(result.recommendations[0].example, 'Дамска рокля черна промоция');
  assert.equal(result.recommendations[1].example, 'Дамска рокля черна');
  assert.equal(result.recommendations.find((r) => r.code === 'ADD_MATERIAL')!.example, 'Материя: 100% памук');
  for (const r of result.recommendations) assert.deepEqual(Object.keys(r), ['code', 'field', 'action', 'example']);
});

test('deterministic: the same listing gives a byte-identical answer, every time and in any order', () => {
  const first = LISTINGS.map((listing) => JSON.stringify(analyzeProduct(listing.input as ProductInput)));
  const again = [...LISTINGS].reverse().map((listing) => JSON.stringify(analyzeProduct(listing.input as ProductInput))).reverse();
  assert.deepEqual(again, first);
  assert.equal(analyzeProduct(BASE).rules_version, RULES_VERSION);
});

test('the enhancement seam can only replace texts', () => {
  const base = analyzeProduct({ ...BASE, price: undefined });
  const enhanced = analyzeProduct({ ...BASE, price: undefined }, {
    enhancer: {
      enhance: () => ({ suggested_title: '  Nike   Air Max 90  ', normalized_title: '', recommendation_examples: ['x'], ...({ quality: { score: 100 } } as object) }),
    },
  });
  assert.equal(enhanced.seo.suggested_title, 'Nike Air Max 90');
  assert.equal(enhanced.product.normalized_title, base.product.normalized_title);
  assert.deepEqual(enhanced.quality, base.quality);
  assert.equal(enhanced.recommendations[0].example, 'x');
  assert.deepEqual(Object.keys(enhanced), Object.keys(base));
  assert.notEqual(applyEnhancement(base, {}), base);
});

test('docs/product.md lists every rule with its severity and points', async () => {
  const { readFile } = await import('node:fs/promises');
  const doc = await readFile(new URL('../../docs/product.md', import.meta.url), 'utf8');
  for (const rule of RULES) {
    const line = doc.split('\n').find((candidate) => candidate.startsWith(`| \`${rule.code}\` |`));
    assert.ok(line, `${rule.code} is documented`);
    assert.ok(line.includes(`| ${rule.severity} |`), `${rule.code} severity`);
    for (const [part, label] of [['title', 'title'], ['description', 'description'], ['listing', 'quality']] as const) {
      const points = rule.penalty[part];
      if (points) assert.ok(line.includes(`${label} −${points}`), `${rule.code} ${label} points`);
    }
  }
});

test('odd input never throws and always answers the same (seeded fuzz: HTML fragments, lone surrogates, NUL, emoji, symbols)', () => {
  let seed = 42;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pieces = ['<p>', '</b>', '&amp;', '&#0;', '&#xD800;', '🔥', 'ЧЕРЕН', 'черна', 'Nike', 'for', 'за', '!!!', '$$', '42', 'XL', 'size', 'размер', '256GB', '1,5 л', '€', 'лв', '\n', '\u0000', '\uD83D', '"', "L'Oreal", '—', '|', '(', 'x'.repeat(300)];
  const text = (n: number) => Array.from({ length: Math.floor(random() * n) }, () => pieces[Math.floor(random() * pieces.length)]).join(random() < 0.5 ? ' ' : '');
  for (let i = 0; i < 300; i++) {
    const input: ProductInput = { title: text(20) || 'a', description: text(60) || 'b' };
    if (random() < 0.5) input.brand = text(3);
    if (random() < 0.5) input.category = text(4);
    if (random() < 0.3) input.price = random() < 0.2 ? 0 : random() * 1000;
    assert.equal(JSON.stringify(analyzeProduct(input)), JSON.stringify(analyzeProduct(input)));
  }
});

test('a Latin-script brand in a Cyrillic title is found where it names the product, as in an English title', () => {
  const brandOf = (title: string) => analyzeProduct({ title, description: '' }).product.brand;
  // Bulgarian names the product with `за <noun>` (face cream, dry dog food); the brand after it is the maker.
  assert.equal(brandOf('Хидратиращ крем за лице Nivea, 50 мл'), 'Nivea');
  assert.equal(brandOf('Суха храна за кучета Royal Canin Medium Adult, 15 кг'), 'Royal Canin');
  assert.equal(brandOf('Дамски обувки за бягане Asics Gel-Kayano 30, сини'), 'Asics');
  assert.equal(brandOf('Moisturizing Face Cream Nivea, 50 ml'), 'Nivea');
  // A brand right after the preposition is what the product fits, in either language; past the first segment it is not the product's.
  assert.equal(brandOf('Калъф за Samsung Galaxy S24, силиконов, прозрачен'), null);
  assert.equal(brandOf('Silicone Case for Samsung Galaxy S24'), null);
  assert.equal(brandOf('Крем за лице, подходящ за Nivea'), null);
  // The analysis no longer asks for a brand the title names.
  const result = analyzeProduct({ title: 'Хидратиращ крем за лице Nivea, 50 мл', description: '' });
  assert.ok(!result.missing_attributes.includes('brand'));
  assert.ok(!result.issues.some((issue) => issue.code === 'BRAND_MISSING'));
});
