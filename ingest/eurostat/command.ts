// npm run ingest -- eurostat <file-or-folder> [--dataset CODE] [--source-url URL]
// Any Eurostat dataset in TSV (estat_<code>.tsv[.gz]) or SDMX-CSV 1.0 / 2.0; see parse.ts and snapshot.ts.
// The parser and the snapshot writer load when the command runs: domains/sharedTables.ts imports this
// file for the source name and options, and the server must not load them.
import { UsageError, type IngestCommand } from '../command.ts';

export const eurostatIngestCommand: IngestCommand = {
  source: 'eurostat',
  usage: '<file-or-folder> [--dataset CODE] [--source-url URL]',
  options: { dataset: { type: 'string' }, 'source-url': { type: 'string' } },
  async run({ path, dataDir, options, log, allowShrink }) {
    const { normaliseDatasetId } = await import('./parse.ts');
    const { eurostatSourceFiles, ingestEurostatFiles } = await import('./snapshot.ts');
    const dataset = options.dataset as string | undefined;
    if (dataset !== undefined && normaliseDatasetId(dataset) === null) throw new UsageError(`--dataset must be a Eurostat dataset code (nrg_bal_s), not "${dataset}"`);
    const files = await eurostatSourceFiles(path);
    if (files.length === 0) throw new UsageError(`no .tsv, .csv or .gz files in ${path}`);
    log(`ingest: ${files.length} Eurostat file(s) into ${dataDir}`);
    const { imported, skipped, datasets } = await ingestEurostatFiles({
      dataDir, path, dataset, log, sourceUrl: options['source-url'] as string | undefined, shrink: { allow: allowShrink === true, log },
    });
    if (datasets.length > 0) log(`ingest: dataset(s) replaced: ${datasets.join(', ')}`);
    return { imported: imported.length, rows: imported.reduce((sum, r) => sum + r.rowCount, 0), skipped: skipped.length };
  },
};
