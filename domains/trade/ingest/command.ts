// npm run ingest -- trade <file-or-folder> [--source-url URL]
// The parser and the snapshot writer load when the command runs: the domain's index imports this
// file for its source name and options, and the server must not load them.
import { UsageError, type IngestCommand } from '../../../ingest/command.ts';
import { sourceFiles } from '../../../ingest/sourceFiles.ts';
import { printableName } from '../../../ingest/errors.ts';

/** .csv files of a folder (non-recursive) sorted by name; a file path is returned as is. */
export function tradeSourceFiles(path: string): Promise<string[]> {
  return sourceFiles(path, ['.csv']);
}

export const tradeIngestCommand: IngestCommand = {
  source: 'trade',
  usage: '<file-or-folder> [--source-url URL]',
  options: { 'source-url': { type: 'string' } },
  async run({ path, dataDir, options, log }) {
    const files = await tradeSourceFiles(path);
    if (files.length === 0) throw new UsageError(`no .csv files in ${path}`);
    log(`ingest: ${files.length} Comext SDMX-CSV file(s) into ${dataDir}`);
    const { ingestTradeFiles } = await import('./snapshot.ts');
    const result = await ingestTradeFiles(files, { dataDir, sourceUrl: options['source-url'] as string | undefined });
    for (const record of result.imported) log(`ingest: ${printableName(record.sourceFile)}: ${record.rowCount} observation(s)`);
    if (result.skippedRows > 0) log(`ingest: ${result.skippedRows} SUPPLEMENTARY_QUANTITY row(s) read and not kept`);
    if (result.imported.length > 0) log(`ingest: the snapshot now holds ${result.observations} trade observation(s)`);
    return {
      imported: result.imported.length,
      rows: result.imported.reduce((sum, record) => sum + record.rowCount, 0),
      skipped: result.skipped.length,
    };
  },
};
