// Trade on a fresh clone: the generated Comext extracts, ingested like real ones. The generator and the
// snapshot writer load on first use (the server imports this file through the domain's index).
import { join } from 'node:path';
import { sampleSourceUrl } from '../../../engine/dataOrigin.ts';
import { fileExists, type SampleSource } from '../../../ingest/sampleSource.ts';
import { tradeSourceFiles } from './command.ts';
import { TRADE_DATASET } from './types.ts';

export const tradeSampleSource: SampleSource = {
  name: 'trade',
  isLoaded: (dataDir) => fileExists(join(dataDir, `${TRADE_DATASET}.parquet`)),
  generate: async (sampleDir, options) => {
    const { generateTradeSample } = await import('./sample.ts');
    await generateTradeSample(sampleDir, { scale: options?.scale });
  },
  async ingest({ dataDir, sampleDir }) {
    const { ingestTradeFiles } = await import('./snapshot.ts');
    const { imported } = await ingestTradeFiles(await tradeSourceFiles(sampleDir), { dataDir, sourceUrl: sampleSourceUrl('trade') });
    return { files: imported.length, rows: imported.reduce((sum, record) => sum + record.rowCount, 0) };
  },
};
