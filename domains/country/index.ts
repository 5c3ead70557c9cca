// Country data: the cooperation organisation's (OECD, coop) short-term indicators, the development
// bank's (World Bank WDI, devbank) structural indicators, the country overview and the structural
// analytics (trade openness, debt burden, energy dependency, country structure).
import { defineDomain } from '../contract.ts';
import { oecdIngestCommand } from './ingest/oecdCommand.ts';
import { getCoopCountry, getCoopSeries } from './queries/coop.ts';
import { loadCoop } from './queries/coopTables.ts';
import { coopCoverage } from './queries/coverage.ts';

export const countryDomain = defineDomain({
  name: 'country',
  tags: [
    {
      tag: 'country',
      title: 'Country data',
      description:
        'Country data from a cooperation organisation (coop: leading indicator, confidence, production, retail, unemployment) and a ' +
        'development bank (devbank: structural indicators), a country overview of every source present, and structural analytics.',
    },
  ],
  routes: [getCoopSeries, getCoopCountry],
  load: loadCoop,
  coverage: [coopCoverage],
  sources: [],
});
