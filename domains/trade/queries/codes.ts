// Codes of the customs trade data: product names, the agri-food cereal products whose prices stand
// for each HS code in the market views, flows, and which partner codes are aggregates.

/** HS4 products of the cereals extract. Other codes are served too, without a name. */
export const PRODUCTS: ReadonlyArray<{ code: string; name: string; description: string }> = [
  { code: '1001', name: 'wheat', description: 'Wheat and meslin' },
  { code: '1003', name: 'barley', description: 'Barley' },
  { code: '1005', name: 'maize', description: 'Maize (corn)' },
];

/** Other names accepted for a product in `commodity`/`product` parameters. */
export const PRODUCT_ALIASES: Record<string, string> = { corn: '1005', meslin: '1001' };

/**
 * The agri-food cereal products (cereals_prices product_name) whose weekly prices make a product's
 * annual market price. Durum wheat is left out of 1001: it is priced far above common wheat and
 * reported by few states, so it would move the average with the set of reporting states.
 */
export const PRICE_PRODUCTS: Record<string, readonly string[]> = {
  '1001': ['Breadmaking common wheat', 'Feed wheat'],
  '1003': ['Feed barley', 'Malting barley'],
  '1005': ['Feed maize'],
};
export const PRICE_DATASET = 'cereals_prices';

/** The HS code an alias names (corn -> 1005); own keys only, so client text never reaches the prototype. */
export const productAlias = (text: string): string | undefined => (Object.hasOwn(PRODUCT_ALIASES, text) ? PRODUCT_ALIASES[text] : undefined);

/** The price products standing for an HS code (empty for other codes). */
export const priceProductsOf = (code: string): readonly string[] => (Object.hasOwn(PRICE_PRODUCTS, code) ? PRICE_PRODUCTS[code] : []);

/** Names of reporter aggregates (member states are named from the shared EU table). */
export const REPORTER_AGGREGATES: Record<string, string> = {
  EU27_2020: 'European Union (27 countries, from 2020)',
  EU28: 'European Union (28 countries, 2013-2020)',
};

export const FLOW_NAMES = { 1: 'import', 2: 'export' } as const;

/**
 * SQL: true when `column` is an aggregate partner (WORLD, EXT_/INT_ groupings, EU/EA areas) rather
 * than a country. Such partners never enter the partners ranking.
 */
export function isAggregatePartnerSql(column: string): string {
  return `(${column} = 'WORLD' OR regexp_matches(${column}, '^(EXT_|INT_)') OR regexp_matches(${column}, '^(EU|EA|EFTA)[0-9_]*$'))`;
}

export const WORLD = 'WORLD';
