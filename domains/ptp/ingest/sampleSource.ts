// PTP on a fresh clone: the generated per-accident files, ingested like real ones. The generator and the
// snapshot writer load on first use (the server imports this file through the domain's index).
import { join } from 'node:path';
import { sampleSourceUrl } from '../../../engine/dataOrigin.ts';
import { fileExists, type SampleSource } from '../../../ingest/sampleSource.ts';
import { PTP_CRASHES } from '../datasets.ts';
import { ptpSourceFiles } from './command.ts';

export const ptpSampleSource: SampleSource = {
  name: 'ptp',
  isLoaded: (dataDir) => fileExists(join(dataDir, `${PTP_CRASHES.name}.parquet`)),
  generate: async (sampleDir, options) => {
    const { generatePtpSample } = await import('./sample.ts');
    await generatePtpSample(sampleDir, { scale: options?.scale });
  },
  async ingest({ dataDir, sampleDir }) {
    const { ingestPtpFiles } = await import('./snapshot.ts');
    const { imported } = await ingestPtpFiles(await ptpSourceFiles(sampleDir), { dataDir, sourceUrl: sampleSourceUrl('ptp') });
    return { files: imported.length, rows: imported.reduce((sum, record) => sum + record.rowCount, 0) };
  },
};
