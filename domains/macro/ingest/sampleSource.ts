// The macro sources on a fresh clone: generated files in the real formats, ingested like real ones.
// The FRED sample is recorded APPROVED (so every route answers after npm start); real FRED files
// default to PENDING until the operator approves them.
import { join } from 'node:path';
import { eurostatDatasetsInSnapshot } from '../../../ingest/eurostat/load.ts';
import { ingestEurostatFiles } from '../../../ingest/eurostat/snapshot.ts';
import { sampleSourceUrl } from '../../../engine/dataOrigin.ts';
import { fileExists, type SampleSource } from '../../../ingest/sampleSource.ts';
import { sourceFiles } from '../../../ingest/sourceFiles.ts';
import { generateEcbSample, generateEurofxrefSample, generateFredSample, generateHicpSample } from './sample.ts';
import { ingestEcbFiles, ingestEurofxrefFiles, ingestFredFiles, type MacroIngestResult } from './snapshot.ts';
import { ECB_DATASET, EUROFXREF_DATASET, FRED_DATASET } from './types.ts';

const counted = (result: MacroIngestResult, dataset: string) => {
  const records = result.imported.filter((r) => r.dataset === dataset);
  return { files: records.length, rows: records.reduce((sum, r) => sum + r.rowCount, 0) };
};

export const ecbSampleSource: SampleSource = {
  name: 'ecb',
  isLoaded: (dataDir) => fileExists(join(dataDir, `${ECB_DATASET}.parquet`)),
  generate: (sampleDir, options) => generateEcbSample(sampleDir, { scale: options?.scale }),
  async ingest({ dataDir, sampleDir }) {
    return counted(await ingestEcbFiles(await sourceFiles(sampleDir, ['.csv']), { dataDir, sourceUrl: sampleSourceUrl('ecb') }), ECB_DATASET);
  },
};

export const eurofxrefSampleSource: SampleSource = {
  name: 'eurofxref',
  isLoaded: (dataDir) => fileExists(join(dataDir, `${EUROFXREF_DATASET}.parquet`)),
  generate: (sampleDir, options) => generateEurofxrefSample(sampleDir, { scale: options?.scale }),
  async ingest({ dataDir, sampleDir }) {
    return counted(await ingestEurofxrefFiles(await sourceFiles(sampleDir, ['.csv', '.zip']), { dataDir, sourceUrl: sampleSourceUrl('eurofxref') }), EUROFXREF_DATASET);
  },
};

export const fredSampleSource: SampleSource = {
  name: 'fred',
  isLoaded: (dataDir) => fileExists(join(dataDir, `${FRED_DATASET}.parquet`)),
  generate: (sampleDir, options) => generateFredSample(sampleDir, { scale: options?.scale }),
  async ingest({ dataDir, sampleDir }) {
    return counted(await ingestFredFiles(await sourceFiles(sampleDir, ['.csv', '.json']), { dataDir, license: 'APPROVED', sourceUrl: sampleSourceUrl('fred') }), FRED_DATASET);
  },
};

export const hicpSampleSource: SampleSource = {
  name: 'hicp',
  isLoaded: async (dataDir) => (await eurostatDatasetsInSnapshot(dataDir)).includes('prc_hicp_manr'),
  generate: (sampleDir) => generateHicpSample(sampleDir),
  async ingest({ dataDir, sampleDir, log }) {
    const result = await ingestEurostatFiles({ dataDir, path: sampleDir, log, sourceUrl: sampleSourceUrl('hicp') });
    return { files: result.imported.length, rows: result.imported.reduce((sum, r) => sum + r.rowCount, 0) };
  },
};
