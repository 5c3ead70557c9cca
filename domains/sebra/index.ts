// SEBRA: analytics over the national public payment system (MoF daily reports and the portal JSON).
import { defineDomain } from '../contract.ts';
import { sebraIngestCommand } from './ingest/command.ts';
import { sebraSampleSource } from './ingest/sampleSource.ts';
import { getPeriodsWithMostPayments } from './queries/periods.ts';
import { getMostSponsoredProgramme } from './queries/programmes.ts';
import { loadSebraServing } from './queries/load.ts';
import { getTaxonomyForPeriod, getTaxonomyForYear } from './queries/taxonomy.ts';
import { getUnusualPayments } from './queries/unusual.ts';

export const sebraDomain = defineDomain({
  name: 'sebra',
  tags: [
    {
      tag: 'sebra',
      title: 'SEBRA public payments',
      description:
        'Analytics over a national public payment system: days with payments, taxonomy of spend by economic account, ' +
        'most sponsored programmes, unusual payment activity. Currencies BGN and EUR. Only days with status HAS_PAYMENTS ' +
        'are used; amounts are sums and empty days are not zero-filled.',
    },
  ],
  routes: [getPeriodsWithMostPayments, getTaxonomyForYear, getTaxonomyForPeriod, getMostSponsoredProgramme, getUnusualPayments],
  load: loadSebraServing,
  sources: [{ command: sebraIngestCommand, sample: sebraSampleSource }],
});
