// Country data on a fresh clone: the generated OECD files (each vintage folder ingested with its
// vintage, oldest first) and the generated WDI bulk CSVs, ingested like real ones. The generator and
// the snapshot writers load on first use (the server imports this file through the domain's index).
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { sampleSourceUrl } from '../../../engine/dataOrigin.ts';
import { fileExists, type SampleSource } from '../../../ingest/sampleSource.ts';
import { worldBankIndicatorsInSnapshot } from '../../../ingest/worldbank/load.ts';
import { SAMPLE_WDI_OWNED_BY_ENERGY } from '../../../ingest/worldbank/sampleEconomies.ts';
import { COOP_DATASET } from '../datasets.ts';
import { DEVBANK_WDI_IDS } from '../indicators.ts';
import { oecdSourceFiles } from './oecdCommand.ts';

export const countrySampleSource: SampleSource = {
  name: 'country',
  async isLoaded(dataDir) {
    if (!(await fileExists(join(dataDir, `${COOP_DATASET}.parquet`)))) return false;
    const loaded = new Set(await worldBankIndicatorsInSnapshot(dataDir));
    return DEVBANK_WDI_IDS.every((id) => SAMPLE_WDI_OWNED_BY_ENERGY.has(id) || loaded.has(id));
  },
  generate: async (sampleDir, options) => {
    const { generateCountrySample } = await import('./sample.ts');
    await generateCountrySample(sampleDir, { scale: options?.scale });
  },
  async ingest({ dataDir, sampleDir, log }) {
    const { ingestOecdFiles } = await import('./oecdSnapshot.ts');
    const { ingestWorldBankFiles } = await import('../../../ingest/worldbank/snapshot.ts');
    let files = 0;
    let rows = 0;
    // Every vintage folder in one batch (one rewrite of the table), each file with its folder's vintage.
    const oecdDir = join(sampleDir, 'oecd');
    const vintageOfFile = new Map<string, string>();
    for (const vintage of (await readdir(oecdDir)).filter((name) => /^\d{4}-\d{2}$/.test(name)).sort()) {
      for (const file of await oecdSourceFiles(join(oecdDir, vintage))) vintageOfFile.set(file, vintage);
    }
    const oecd = await ingestOecdFiles([...vintageOfFile.keys()], { dataDir, vintageOf: (file) => vintageOfFile.get(file), sourceUrl: sampleSourceUrl('country') });
    files += oecd.imported.length;
    rows += oecd.imported.reduce((sum, record) => sum + record.rowCount, 0);
    const { imported } = await ingestWorldBankFiles({ dataDir, path: join(sampleDir, 'worldbank'), log, sourceUrl: sampleSourceUrl('country') });
    files += imported.length;
    rows += imported.reduce((sum, record) => sum + record.rowCount, 0);
    return { files, rows };
  },
};
