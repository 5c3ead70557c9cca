// The SEBRA domain: its routes and how its tables are loaded.
import { getPeriodsWithMostPayments } from './periods.ts';
import { getMostSponsoredProgramme } from './programmes.ts';
import { loadSebra } from './tables.ts';
import { getTaxonomyForPeriod, getTaxonomyForYear } from './taxonomy.ts';
import { getUnusualPayments } from './unusual.ts';

export const sebraRoutes = [
  getPeriodsWithMostPayments,
  getTaxonomyForYear,
  getTaxonomyForPeriod,
  getMostSponsoredProgramme,
  getUnusualPayments,
];

export { loadSebra };
