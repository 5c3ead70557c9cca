// The macro sources on a fresh clone: generated files in the real formats, ingested like real ones.
// The FRED sample is recorded APPROVED (so every route answers after npm start); real FRED files
// default to PENDING until the operator approves them. The generators and the snapshot writers load on
// first use (the server imports this file through the domain's index).
import { join } from 'node:path';
import { eurostatDatasetsInSnapshot } from '../../../ingest/eurostat/load.ts';
import { sampleSourceUrl } from '../../../engine/dataOrigin.ts';
import { fileExists, type SampleSource } from '../../../ingest/sampleSource.ts';
import { sourceFiles } from '../../../ingest/sourceFiles.ts';
import type { MacroIngestResult } from './snapshot.ts';
import { ECB_DATASET, EUROFXREF_DATASET, FRED_DATASET } from './types.ts';

const counted = (result: MacroIngestResult, dataset: string) => {
  const records = result.imported.filter((r) => r.dataset === dataset);
  return { files: records.length, rows: records.reduce((sum, r) => sum + r.rowCount, 0) };
};

export const ecbSampleSource: SampleSource = {
  name: 'ecb',
  isLoaded: (dataDir) => fileExists(join(dataDir, `${ECB_DATASET}.parquet`)),
  generate: async (sampleDir, options) => (await import('./sample.ts')).generateEcbSample(sampleDir, { scale: options?.scale }),
  async ingest({ dataDir, sampleDir }) {
    const { ingestEcbFiles } = await import('./snapshot.ts');
    return counted(await ingestEcbFiles(await sourceFiles(sampleDir, ['.csv']), { dataDir, sourceUrl: sampleSourceUrl('ecb') }), ECB_DATASET);
  },
};

export const eurofxrefSampleSource: SampleSource = {
  name: 'eurofxref',
  isLoaded: (dataDir) => fileExists(join(dataDir, `${EUROFXREF_DATASET}.parquet`)),
  generate: async (sampleDir, options) => (await import('./sample.ts')).generateEurofxrefSample(sampleDir, { scale: options?.scale }),
  async ingest({ dataDir, sampleDir }) {
    const { ingestEurofxrefFiles } = await import('./snapshot.ts');
    return counted(await ingestEurofxrefFiles(await sourceFiles(sampleDir, ['.csv', '.zip']), { dataDir, sourceUrl: sampleSourceUrl('eurofxref') }), EUROFXREF_DATASET);
  },
};

export const fredSampleSource: SampleSource = {
  name: 'fred',
  isLoaded: (dataDir) => fileExists(join(dataDir, `${FRED_DATASET}.parquet`)),
  generate: async (sampleDir, options) => (await import('./sample.ts')).generateFredSample(sampleDir, { scale: options?.scale }),
  async ingest({ dataDir, sampleDir }) {
    const { ingestFredFiles } = await import('./snapshot.ts');
    return counted(await ingestFredFiles(await sourceFiles(sampleDir, ['.csv', '.json']), { dataDir, license: 'APPROVED', sourceUrl: sampleSourceUrl('fred') }), FRED_DATASET);
  },
};

export const hicpSampleSource: SampleSource = {
  name: 'hicp',
  isLoaded: async (dataDir) => (await eurostatDatasetsInSnapshot(dataDir)).includes('prc_hicp_manr'),
  generate: async (sampleDir) => (await import('./sample.ts')).generateHicpSample(sampleDir),
  async ingest({ dataDir, sampleDir, log }) {
    const { ingestEurostatFiles } = await import('../../../ingest/eurostat/snapshot.ts');
    const result = await ingestEurostatFiles({ dataDir, path: sampleDir, log, sourceUrl: sampleSourceUrl('hicp') });
    return { files: result.imported.length, rows: result.imported.reduce((sum, r) => sum + r.rowCount, 0) };
  },
};
