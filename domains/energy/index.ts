// Energy and emissions trading: Eurostat energy statistics (any Eurostat dataset through the generic
// reader; the flagships nrg_bal_s, nrg_cb_e, nrg_ind_ei, nrg_ind_ren, nrg_pc_204), EU ETS verified
// emissions per installation, and the World Bank's energy indicators. Its own command is `ets`; its
// Eurostat and WDI samples are ingested by the shared readers (`eurostat`, `worldbank`: domains/sharedTables.ts).
import type { Database } from '../../engine/database.ts';
import { defineDomain } from '../contract.ts';
import { eurostatTables, worldBankTables } from '../sharedTables.ts';
import { etsIngestCommand } from './ingest/etsCommand.ts';
import { energyEurostatSampleSource, energyWorldBankSampleSource, etsSampleSource } from './ingest/sampleSource.ts';
import { energyCoverage } from './queries/coverage.ts';
import { loadEtsSnapshot } from './queries/etsTables.ts';
import { buildEnergy, energyRoutes } from './queries/index.ts';

/** The ETS tables, then the rollups (over them and the shared Eurostat and WDI tables, loaded before). */
export async function loadEnergy(db: Database, dataDir: string): Promise<void> {
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
  uses: [eurostatTables, worldBankTables],
  load: loadEnergy,
  sources: [
    { sample: energyEurostatSampleSource },
    { command: etsIngestCommand, sample: etsSampleSource },
    { sample: energyWorldBankSampleSource },
  ],
});
