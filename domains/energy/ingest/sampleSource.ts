// The energy samples on a fresh clone: Eurostat TSVs, the WDI bulk CSVs and the ETS files, generated in
// their real formats and ingested like real ones (the Eurostat and WDI files by the generic readers).
import { join } from 'node:path';
import { eurostatDatasetsInSnapshot } from '../../../ingest/eurostat/load.ts';
import { ingestEurostatFiles } from '../../../ingest/eurostat/snapshot.ts';
import { worldBankIndicatorsInSnapshot } from '../../../ingest/worldbank/load.ts';
import { ingestWorldBankFiles } from '../../../ingest/worldbank/snapshot.ts';
import { fileExists, type SampleSource } from '../../../ingest/sampleSource.ts';
import { sampleSourceUrl } from '../../../engine/dataOrigin.ts';
import { etsSourceFiles } from './etsCommand.ts';
import { ETS_EMISSIONS, ingestEtsFiles } from './etsSnapshot.ts';
import { generateEtsSample, generateEurostatEnergySample, generateWorldBankEnergySample } from './sample.ts';

const count = (records: ReadonlyArray<{ rowCount: number }>) => ({ files: records.length, rows: records.reduce((s, r) => s + r.rowCount, 0) });

export const energyEurostatSampleSource: SampleSource = {
  name: 'energy-eurostat',
  isLoaded: async (dataDir) => (await eurostatDatasetsInSnapshot(dataDir)).includes('nrg_bal_s'),
  generate: (sampleDir, options) => generateEurostatEnergySample(sampleDir, { scale: options?.scale }),
  async ingest({ dataDir, sampleDir, log }) {
    return count((await ingestEurostatFiles({ dataDir, path: sampleDir, log, sourceUrl: sampleSourceUrl('energy-eurostat') })).imported);
  },
};

export const energyWorldBankSampleSource: SampleSource = {
  name: 'energy-worldbank',
  isLoaded: async (dataDir) => (await worldBankIndicatorsInSnapshot(dataDir)).includes('EG.IMP.CONS.ZS'),
  generate: (sampleDir) => generateWorldBankEnergySample(sampleDir),
  async ingest({ dataDir, sampleDir, log }) {
    return count((await ingestWorldBankFiles({ dataDir, path: sampleDir, log, sourceUrl: sampleSourceUrl('energy-worldbank') })).imported);
  },
};

export const etsSampleSource: SampleSource = {
  name: 'ets',
  isLoaded: (dataDir) => fileExists(join(dataDir, `${ETS_EMISSIONS}.parquet`)),
  generate: (sampleDir, options) => generateEtsSample(sampleDir, { scale: options?.scale }),
  async ingest({ dataDir, sampleDir }) {
    return count((await ingestEtsFiles(await etsSourceFiles(sampleDir), { dataDir, sourceUrl: sampleSourceUrl('ets') })).imported);
  },
};
