// SEBRA on a fresh clone: the generated daily reports, ingested like real ones.
import { join } from 'node:path';
import { sampleSourceUrl } from '../../../engine/dataOrigin.ts';
import { fileExists, type SampleSource } from '../../../ingest/sampleSource.ts';
import { ingestSebraFiles, SNAPSHOT_FILES } from './snapshot.ts';
import { sebraSourceFiles } from './sourceFiles.ts';
import { generateSebraSample } from './sample.ts';

export const sebraSampleSource: SampleSource = {
  name: 'sebra',
  isLoaded: (dataDir) => fileExists(join(dataDir, SNAPSHOT_FILES.payments)),
  generate: async (sampleDir, options) => {
    await generateSebraSample(sampleDir, { scale: options?.scale });
  },
  async ingest({ dataDir, sampleDir, log }) {
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
