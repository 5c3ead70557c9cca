// Product analysis: POST /api/v1/product/analyze, a deterministic bilingual (English / Bulgarian) rules
// engine over a product listing. No tables and no sources: the answer is computed from the request body.
import { defineDomain } from '../contract.ts';
import { analyzeProductRoute } from './queries/analyze.ts';

export const productDomain = defineDomain({
  name: 'product',
  tags: [
    {
      tag: 'product',
      title: 'Product analysis',
      description:
        'A rules engine for e-commerce product listings in English or Bulgarian: category from a bilingual taxonomy, attributes, ' +
        'quality and SEO scores, consistency issues with stable codes and concrete recommendations. Deterministic; POST a JSON body.',
    },
  ],
  routes: [analyzeProductRoute],
  // Nothing to load: the analyzer reads no tables.
  async load() {},
  sources: [],
});
