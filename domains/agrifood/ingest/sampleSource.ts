// Agri-food on a fresh clone: the generated portal exports, ingested like real ones (name order, so
// the older cereals export becomes version 1 and the newer one version 2 and the served facts).
import { join } from 'node:path';
import { sampleSourceUrl } from '../../../engine/dataOrigin.ts';
import { fileExists, type SampleSource } from '../../../ingest/sampleSource.ts';
import { agrifoodSourceFiles } from './command.ts';
import { generateAgrifoodSample } from './sample.ts';
import { agrifoodTable, ingestAgrifoodFiles } from './snapshot.ts';
import { AGRIFOOD_DATASETS } from './types.ts';

export const agrifoodSampleSource: SampleSource = {
  name: 'agrifood',
  async isLoaded(dataDir) {
    for (const dataset of AGRIFOOD_DATASETS) if (!(await fileExists(join(dataDir, `${agrifoodTable(dataset)}.parquet`)))) return false;
    return true;
  },
  generate: async (sampleDir, options) => {
    await generateAgrifoodSample(sampleDir, { scale: options?.scale });
  },
  async ingest({ dataDir, sampleDir }) {
    const { imported } = await ingestAgrifoodFiles(await agrifoodSourceFiles(sampleDir), { dataDir, sourceUrl: sampleSourceUrl('agrifood') });
    return { files: imported.length, rows: imported.reduce((sum, record) => sum + record.rowCount, 0) };
  },
};
