// Card data on a fresh clone: the project's own English and Bulgarian sample sets. The generator and
// the snapshot writer load on first use (the server imports this file through the domain's index).
import { join } from 'node:path';
import { sampleSourceUrl } from '../../../engine/dataOrigin.ts';
import { fileExists, type SampleSource } from '../../../ingest/sampleSource.ts';
import { CARDGAME_CARDS } from '../datasets.ts';

export const cardgameSampleSource: SampleSource = {
  name: 'cardgame',
  isLoaded: (dataDir) => fileExists(join(dataDir, `${CARDGAME_CARDS.name}.parquet`)),
  // The sample is a fixed pair of small sets: scale does not apply.
  generate: async (sampleDir) => {
    const { generateCardgameSample } = await import('./sample.ts');
    await generateCardgameSample(sampleDir);
  },
  async ingest({ dataDir, sampleDir }) {
    const { SAMPLE_FILES } = await import('./sample.ts');
    const { ingestCardSets } = await import('./snapshot.ts');
    const sets = new Map([
      ['en', [join(sampleDir, SAMPLE_FILES.en)]],
      ['bg', [join(sampleDir, SAMPLE_FILES.bg)]],
    ] as const);
    const { imported } = await ingestCardSets(sets, { dataDir, sourceUrl: sampleSourceUrl('cardgame') });
    return { files: imported.length, rows: imported.reduce((sum, record) => sum + record.rowCount, 0) };
  },
};
