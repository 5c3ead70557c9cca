// Energy and emissions trading: Eurostat energy statistics (any Eurostat dataset through the generic
// reader; the flagships nrg_bal_s, nrg_cb_e, nrg_ind_ei, nrg_ind_ren, nrg_pc_204), EU ETS verified
// emissions per installation, and the World Bank's energy indicators. Its sources: `eurostat` and
// `worldbank` (the generic readers' commands, registered here) and `ets`.
import type { Database } from '../../engine/database.ts';
import { eurostatIngestCommand } from '../../ingest/eurostat/command.ts';
import { loadEurostat } from '../../ingest/eurostat/load.ts';
import { worldBankIngestCommand } from '../../ingest/worldbank/command.ts';
import { loadWorldBank } from '../../ingest/worldbank/load.ts';
import { defineDomain } from '../contract.ts';
import { etsIngestCommand } from './ingest/etsCommand.ts';
import { loadEtsSnapshot } from './ingest/etsSnapshot.ts';
import { energyEurostatSampleSource, energyWorldBankSampleSource, etsSampleSource } from './ingest/sampleSource.ts';
import { energyCoverage } from './queries/coverage.ts';
import { buildEnergy, energyRoutes } from './queries/index.ts';

/** The Eurostat and WDI tables (idempotent loaders shared with other domains), the ETS tables, then the rollups. */
export async function loadEnergy(db: Database, dataDir: string): Promise<void> {
  await loadEurostat(db, dataDir);
  await loadWorldBank(db, dataDir);
  await loadEtsSnapshot(db, dataDir);
  await buildEnergy(db);
}

export const energyDomain = defineDomain({
  name: 'energy',
  tags: [
    {
      tag: 'energy',
      title: 'Energy',
      description:
        'Eurostat energy statistics (any ingested Eurostat dataset: series, latest, compare with dim.<key> filters), per-country cards ' +
        '(indicators, balance with import dependency, electricity, World Bank profile, scorecard with regime signals), rankings and the ' +
        'coverage report of the flagship datasets.',
    },
    {
      tag: 'ets',
      title: 'Emissions trading',
      description: 'EU ETS verified emissions from the Union Registry: totals per registry and the largest installations.',
    },
  ],
  routes: energyRoutes,
  coverage: [energyCoverage],
  load: loadEnergy,
  sources: [
    { command: eurostatIngestCommand, sample: energyEurostatSampleSource },
    { command: etsIngestCommand, sample: etsSampleSource },
    { command: worldBankIngestCommand, sample: energyWorldBankSampleSource },
  ],
});
