// PTP on a fresh clone: the generated per-accident files, ingested like real ones.
import { join } from 'node:path';
import { sampleSourceUrl } from '../../../engine/dataOrigin.ts';
import { fileExists, type SampleSource } from '../../../ingest/sampleSource.ts';
import { ptpSourceFiles } from './command.ts';
import { generatePtpSample } from './sample.ts';
import { ingestPtpFiles, PTP_TABLES } from './snapshot.ts';

export const ptpSampleSource: SampleSource = {
  name: 'ptp',
  isLoaded: (dataDir) => fileExists(join(dataDir, `${PTP_TABLES.crashes}.parquet`)),
  generate: async (sampleDir, options) => {
    await generatePtpSample(sampleDir, { scale: options?.scale });
  },
  async ingest({ dataDir, sampleDir }) {
    const { imported } = await ingestPtpFiles(await ptpSourceFiles(sampleDir), { dataDir, sourceUrl: sampleSourceUrl('ptp') });
    return { files: imported.length, rows: imported.reduce((sum, record) => sum + record.rowCount, 0) };
  },
};
