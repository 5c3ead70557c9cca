// Titles and one-paragraph descriptions of the domains (catalog tags), from the specification's
// domain table. Order here is the order of the docs; a tag missing from the table still gets a
// page (titled by its tag) so a new domain is never left out of the documents.
import type { Route } from '../../queries/catalog.ts';

export interface Domain {
  tag: string;
  title: string;
  description: string;
}

const DOMAINS: readonly Domain[] = [
  {
    tag: 'sebra',
    title: 'SEBRA public payments',
    description:
      'Analytics over a national public payment system: days with payments, taxonomy of spend by economic account, ' +
      'most sponsored programmes, unusual payment activity. Currencies BGN and EUR. Only days with status HAS_PAYMENTS ' +
      'are used; amounts are sums and empty days are not zero-filled.',
  },
  { tag: 'ptp', title: 'Road accidents (PTP)', description: 'Road accident reports of a national interior ministry and clusters of deadly crash locations.' },
  { tag: 'cardgame', title: 'Card game', description: 'Bilingual (English and Bulgarian) collectible card data.' },
  { tag: 'agrifood', title: 'Agri-food prices', description: 'EU agri-food price datasets: cereals, oilseeds, pigmeat.' },
  {
    tag: 'trade',
    title: 'Trade',
    description: 'EU customs trade facts (value and quantity), trade balance and partners.',
  },
  { tag: 'markets', title: 'Markets', description: 'Market views that combine agri-food prices with trade.' },
  {
    tag: 'energy',
    title: 'Energy',
    description: 'Energy series, country cards, balances, electricity, scorecards, rankings and completeness.',
  },
  { tag: 'ets', title: 'Emissions trading', description: 'EU emissions-trading summaries and installations.' },
  {
    tag: 'macro',
    title: 'Macro and rates',
    description:
      'Derived EU inflation divergence, euro-area central bank stance, yield-curve slopes, EURUSD analytics and derived US indicators.',
  },
  { tag: 'rates', title: 'Rates', description: 'Derived interest-rate analytics: central bank stance and yield-curve slopes.' },
  {
    tag: 'country',
    title: 'Country data',
    description: 'Country data from a cooperation organisation (coop) and a development bank (devbank).',
  },
  { tag: 'product', title: 'Product analysis', description: 'POST analyzer of e-commerce product listings.' },
];

export function domainOf(tag: string): Domain {
  return DOMAINS.find((domain) => domain.tag === tag) ?? { tag, title: tag, description: '' };
}

export interface DomainRoutes {
  domain: Domain;
  routes: Route[];
}

/** The catalog grouped by tag: known domains in the table's order, then unknown tags alphabetically. */
export function groupByDomain(routes: readonly Route[]): DomainRoutes[] {
  const tags = [...new Set(routes.map((route) => route.tag))];
  const position = (tag: string) => {
    const index = DOMAINS.findIndex((domain) => domain.tag === tag);
    return index === -1 ? DOMAINS.length : index;
  };
  tags.sort((a, b) => position(a) - position(b) || a.localeCompare(b));
  return tags.map((tag) => ({ domain: domainOf(tag), routes: routes.filter((route) => route.tag === tag) }));
}
