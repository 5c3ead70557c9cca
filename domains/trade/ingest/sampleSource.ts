// Trade on a fresh clone: the generated Comext extracts, ingested like real ones.
import { join } from 'node:path';
import { sampleSourceUrl } from '../../../engine/dataOrigin.ts';
import { fileExists, type SampleSource } from '../../../ingest/sampleSource.ts';
import { tradeSourceFiles } from './command.ts';
import { generateTradeSample } from './sample.ts';
import { ingestTradeFiles } from './snapshot.ts';
import { TRADE_DATASET } from './types.ts';

export const tradeSampleSource: SampleSource = {
  name: 'trade',
  isLoaded: (dataDir) => fileExists(join(dataDir, `${TRADE_DATASET}.parquet`)),
  generate: async (sampleDir, options) => {
    await generateTradeSample(sampleDir, { scale: options?.scale });
  },
  async ingest({ dataDir, sampleDir }) {
    const { imported } = await ingestTradeFiles(await tradeSourceFiles(sampleDir), { dataDir, sourceUrl: sampleSourceUrl('trade') });
    return { files: imported.length, rows: imported.reduce((sum, record) => sum + record.rowCount, 0) };
  },
};
