// Macro and rates: EU inflation divergence (Eurostat HICP), the ECB stance and AAA curve, EUR/USD
// analytics (ECB reference rates), and derived US indicators from licensed reserve-bank (FRED) series.
// HICP (prc_hicp_manr) is ingested with the shared `eurostat` reader's command and read from its
// tables (domains/sharedTables.ts), loaded before macro's own.
import { defineDomain } from '../contract.ts';
import { eurostatTables } from '../sharedTables.ts';
import { ecbIngestCommand, eurofxrefIngestCommand, fredIngestCommand } from './ingest/command.ts';
import { ecbSampleSource, eurofxrefSampleSource, fredSampleSource, hicpSampleSource } from './ingest/sampleSource.ts';
import { MACRO_TAG, macroRoutes } from './queries/routes.ts';
import { centralBankCoverage, hicpCoverage } from './queries/coverage.ts';
import { loadMacro } from './queries/tables.ts';

export const macroDomain = defineDomain({
  name: 'macro',
  tags: [
    {
      tag: MACRO_TAG,
      title: 'Macro and rates',
      description:
        'Derived EU inflation divergence, euro-area central bank stance, yield-curve slopes, EURUSD analytics and derived US ' +
        'indicators. Reserve-bank (FRED) series are used as a runtime source for calculation only: derived values, never raw ' +
        'observations, and only for series the operator has APPROVED (otherwise 451 license_not_approved, never charged). ' +
        'The service is not endorsed by that reserve bank.',
    },
  ],
  routes: macroRoutes,
  uses: [eurostatTables],
  load: loadMacro,
  coverage: [hicpCoverage, centralBankCoverage],
  sources: [
    { command: ecbIngestCommand, sample: ecbSampleSource },
    { command: eurofxrefIngestCommand, sample: eurofxrefSampleSource },
    { command: fredIngestCommand, sample: fredSampleSource },
    { sample: hicpSampleSource },
  ],
});
