// Card data on a fresh clone: the project's own English and Bulgarian sample sets.
import { join } from 'node:path';
import { sampleSourceUrl } from '../../../engine/dataOrigin.ts';
import { fileExists, type SampleSource } from '../../../ingest/sampleSource.ts';
import { SAMPLE_FILES, generateCardgameSample } from './sample.ts';
import { CARD_TABLE, ingestCardSets } from './snapshot.ts';

export const cardgameSampleSource: SampleSource = {
  name: 'cardgame',
  isLoaded: (dataDir) => fileExists(join(dataDir, `${CARD_TABLE}.parquet`)),
  // The sample is a fixed pair of small sets: scale does not apply.
  generate: async (sampleDir) => {
    await generateCardgameSample(sampleDir);
  },
  async ingest({ dataDir, sampleDir }) {
    const sets = new Map([
      ['en', [join(sampleDir, SAMPLE_FILES.en)]],
      ['bg', [join(sampleDir, SAMPLE_FILES.bg)]],
    ] as const);
    const { imported } = await ingestCardSets(sets, { dataDir, sourceUrl: sampleSourceUrl('cardgame') });
    return { files: imported.length, rows: imported.reduce((sum, record) => sum + record.rowCount, 0) };
  },
};
