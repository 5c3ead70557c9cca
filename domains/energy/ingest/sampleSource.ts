// The energy samples on a fresh clone: Eurostat TSVs, the WDI bulk CSVs and the ETS files, generated in
// their real formats and ingested like real ones (the Eurostat and WDI files by the generic readers).
// The generators and the snapshot writers load on first use (the server imports this file through the
// domain's index).
import { join } from 'node:path';
import { eurostatDatasetsInSnapshot } from '../../../ingest/eurostat/load.ts';
import { worldBankIndicatorsInSnapshot } from '../../../ingest/worldbank/load.ts';
import { fileExists, type SampleSource } from '../../../ingest/sampleSource.ts';
import { sampleSourceUrl } from '../../../engine/dataOrigin.ts';
import { ETS_EMISSIONS } from '../datasets.ts';
import { etsSourceFiles } from './etsCommand.ts';

const count = (records: ReadonlyArray<{ rowCount: number }>) => ({ files: records.length, rows: records.reduce((s, r) => s + r.rowCount, 0) });

export const energyEurostatSampleSource: SampleSource = {
  name: 'energy-eurostat',
  isLoaded: async (dataDir) => (await eurostatDatasetsInSnapshot(dataDir)).includes('nrg_bal_s'),
  generate: async (sampleDir, options) => (await import('./sample.ts')).generateEurostatEnergySample(sampleDir, { scale: options?.scale }),
  async ingest({ dataDir, sampleDir, log }) {
    const { ingestEurostatFiles } = await import('../../../ingest/eurostat/snapshot.ts');
    return count((await ingestEurostatFiles({ dataDir, path: sampleDir, log, sourceUrl: sampleSourceUrl('energy-eurostat') })).imported);
  },
};

export const energyWorldBankSampleSource: SampleSource = {
  name: 'energy-worldbank',
  isLoaded: async (dataDir) => (await worldBankIndicatorsInSnapshot(dataDir)).includes('EG.IMP.CONS.ZS'),
  generate: async (sampleDir) => (await import('./sample.ts')).generateWorldBankEnergySample(sampleDir),
  async ingest({ dataDir, sampleDir, log }) {
    const { ingestWorldBankFiles } = await import('../../../ingest/worldbank/snapshot.ts');
    return count((await ingestWorldBankFiles({ dataDir, path: sampleDir, log, sourceUrl: sampleSourceUrl('energy-worldbank') })).imported);
  },
};

export const etsSampleSource: SampleSource = {
  name: 'ets',
  isLoaded: (dataDir) => fileExists(join(dataDir, `${ETS_EMISSIONS.name}.parquet`)),
  generate: async (sampleDir, options) => (await import('./sample.ts')).generateEtsSample(sampleDir, { scale: options?.scale }),
  async ingest({ dataDir, sampleDir }) {
    const { ingestEtsFiles } = await import('./etsSnapshot.ts');
    return count((await ingestEtsFiles(await etsSourceFiles(sampleDir), { dataDir, sourceUrl: sampleSourceUrl('ets') })).imported);
  },
};
