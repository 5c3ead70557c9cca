// The list of domains: one line each. The router, the documents, the ingest CLI, the first-start
// bootstrap and the benchmark all derive from it (domains/registry.ts); nothing else lists domains.
import type { Domain } from './contract.ts';
import { agrifoodDomain } from './agrifood/index.ts';
import { cardgameDomain } from './cardgame/index.ts';
import { ptpDomain } from './ptp/index.ts';
import { sebraDomain } from './sebra/index.ts';
import { tradeDomain } from './trade/index.ts';

/** In the order the documents show them. */
export const DOMAINS: readonly Domain[] = [
  sebraDomain,
  ptpDomain,
  cardgameDomain,
  agrifoodDomain,
  tradeDomain,
];
