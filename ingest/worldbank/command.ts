// npm run ingest -- worldbank <file-or-folder> [--source-url URL]
// WDI bulk CSV (API_<ID>_DS2_...csv), Metadata_Country / Metadata_Indicator CSV and JSON API pages; see parse.ts and snapshot.ts.
// The parser and the snapshot writer load when the command runs: domains/sharedTables.ts imports this
// file for the source name and options, and the server must not load them.
import { UsageError, type IngestCommand } from '../command.ts';

export const worldBankIngestCommand: IngestCommand = {
  source: 'worldbank',
  usage: '<file-or-folder> [--source-url URL]',
  options: { 'source-url': { type: 'string' } },
  async run({ path, dataDir, options, log, allowShrink }) {
    const { ingestWorldBankFiles, worldBankSourceFiles } = await import('./snapshot.ts');
    const files = await worldBankSourceFiles(path);
    if (files.length === 0) throw new UsageError(`no .csv or .json files in ${path}`);
    log(`ingest: ${files.length} World Bank file(s) into ${dataDir}`);
    const { imported, skipped, indicators } = await ingestWorldBankFiles({
      dataDir, path, log, sourceUrl: options['source-url'] as string | undefined, shrink: { allow: allowShrink === true, log },
    });
    if (indicators.length > 0) log(`ingest: indicator(s) replaced: ${indicators.join(', ')}`);
    return { imported: imported.length, rows: imported.reduce((sum, r) => sum + r.rowCount, 0), skipped: skipped.length };
  },
};
