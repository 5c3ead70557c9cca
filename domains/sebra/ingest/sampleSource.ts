// SEBRA on a fresh clone: the generated daily reports, ingested like real ones. The generator and the
// snapshot writer load on first use (the server imports this file through the domain's index).
import { join } from 'node:path';
import { sampleSourceUrl } from '../../../engine/dataOrigin.ts';
import { fileExists, type SampleSource } from '../../../ingest/sampleSource.ts';
import { SEBRA_PAYMENTS } from '../datasets.ts';

export const sebraSampleSource: SampleSource = {
  name: 'sebra',
  isLoaded: (dataDir) => fileExists(join(dataDir, `${SEBRA_PAYMENTS.name}.parquet`)),
  generate: async (sampleDir, options) => {
    const { generateSebraSample } = await import('./sample.ts');
    await generateSebraSample(sampleDir, { scale: options?.scale });
  },
  async ingest({ dataDir, sampleDir, log }) {
    const { sebraSourceFiles } = await import('./sourceFiles.ts');
    const { ingestSebraFiles } = await import('./snapshot.ts');
    const files = await sebraSourceFiles(sampleDir);
    const { imported } = await ingestSebraFiles(files, {
      dataDir,
      sourceUrl: sampleSourceUrl('sebra'),
      onProgress: (done, total) => {
        if (done % 250 === 0 && done < total) log(`  ${done}/${total} files read`);
      },
    });
    return { files: imported.length, rows: imported.reduce((sum, record) => sum + record.rowCount, 0) };
  },
};
