// The attribute keys of an analysis, in answer order: read by the route's response schema at import,
// without loading the rules engine (which loads on the first analysis).
export const ATTRIBUTE_NAMES = [
  'brand', 'gender', 'color', 'colors', 'product_type', 'use', 'material', 'size', 'model', 'storage', 'memory', 'volume',
  'weight', 'screen_size', 'power', 'pack_size', 'age',
] as const;
