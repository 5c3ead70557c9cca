// Country data: the cooperation organisation's (OECD, coop) short-term indicators, the development
// bank's (World Bank WDI, devbank) structural indicators, the country overview and the structural
// analytics (trade openness, debt burden, energy dependency, country structure).
import type { Database } from '../../engine/database.ts';
import { defineDomain } from '../contract.ts';
import { worldBankTables } from '../sharedTables.ts';
import { oecdIngestCommand } from './ingest/oecdCommand.ts';
import { countrySampleSource } from './ingest/sampleSource.ts';
import { getCountryStructure, getDebtBurden, getEnergyDependency, getTradeOpenness } from './queries/analytics.ts';
import { getCoopCountry, getCoopSeries } from './queries/coop.ts';
import { loadCoop } from './queries/coopTables.ts';
import { coopCoverage, devbankCoverage } from './queries/coverage.ts';
import { getDevbankCountry, getDevbankSeries } from './queries/devbank.ts';
import { loadDevbank } from './queries/devbankTables.ts';
import { getCountryOverview } from './queries/overview.ts';

/** The OECD tables, then the devbank rollups (over the shared WDI tables, loaded before). */
async function loadCountry(db: Database, dataDir: string): Promise<void> {
  await loadCoop(db, dataDir);
  await loadDevbank(db);
}

export const countryDomain = defineDomain({
  name: 'country',
  tags: [
    {
      tag: 'country',
      title: 'Country data',
      description:
        'Country data from a cooperation organisation (coop: leading indicator, confidence, production, retail, unemployment) and a ' +
        'development bank (devbank: structural indicators), a country overview of every source present, and structural analytics ' +
        '(trade openness, debt burden, energy dependency, country structure).',
    },
  ],
  routes: [
    getCoopSeries, getCoopCountry, getCountryOverview, getDevbankSeries, getDevbankCountry,
    getTradeOpenness, getDebtBurden, getEnergyDependency, getCountryStructure,
  ],
  uses: [worldBankTables],
  load: loadCountry,
  coverage: [coopCoverage, devbankCoverage],
  sources: [{ command: oecdIngestCommand, sample: countrySampleSource }],
});
