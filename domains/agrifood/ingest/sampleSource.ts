// Agri-food on a fresh clone: the generated portal exports, ingested like real ones (name order, so
// the older cereals export becomes version 1 and the newer one version 2 and the served facts). The
// generator and the snapshot writer load on first use (the server imports this file through the
// domain's index).
import { join } from 'node:path';
import { sampleSourceUrl } from '../../../engine/dataOrigin.ts';
import { fileExists, type SampleSource } from '../../../ingest/sampleSource.ts';
import { AGRIFOOD_PRICES } from '../datasets.ts';
import { agrifoodSourceFiles } from './command.ts';
import { AGRIFOOD_DATASETS } from './types.ts';

export const agrifoodSampleSource: SampleSource = {
  name: 'agrifood',
  async isLoaded(dataDir) {
    for (const dataset of AGRIFOOD_DATASETS) if (!(await fileExists(join(dataDir, `${AGRIFOOD_PRICES[dataset].name}.parquet`)))) return false;
    return true;
  },
  generate: async (sampleDir, options) => {
    const { generateAgrifoodSample } = await import('./sample.ts');
    await generateAgrifoodSample(sampleDir, { scale: options?.scale });
  },
  async ingest({ dataDir, sampleDir }) {
    const { ingestAgrifoodFiles } = await import('./snapshot.ts');
    const { imported } = await ingestAgrifoodFiles(await agrifoodSourceFiles(sampleDir), { dataDir, sourceUrl: sampleSourceUrl('agrifood') });
    return { files: imported.length, rows: imported.reduce((sum, record) => sum + record.rowCount, 0) };
  },
};
