// npm run ingest -- agrifood <file-or-folder> [--dataset cereals_prices|oilseeds_prices|pigmeat_prices] [--source-url URL]
// The parsers and the snapshot writer load when the command runs: the domain's index imports this
// file for its source name and options, and the server must not load them.
import { UsageError, type IngestCommand } from '../../../ingest/command.ts';
import { sourceFiles } from '../../../ingest/sourceFiles.ts';
import { AGRIFOOD_DATASETS, isAgrifoodDataset } from './types.ts';
import { printableName } from '../../../ingest/errors.ts';

/** .json files of a folder (non-recursive) sorted by name; a file path is returned as is. */
export function agrifoodSourceFiles(path: string): Promise<string[]> {
  return sourceFiles(path, ['.json']);
}

export const agrifoodIngestCommand: IngestCommand = {
  source: 'agrifood',
  usage: `<file-or-folder> [--dataset ${AGRIFOOD_DATASETS.join('|')}] [--source-url URL]`,
  options: {
    dataset: { type: 'string' },
    'source-url': { type: 'string' },
  },
  async run({ path, dataDir, options, log, allowShrink }) {
    const dataset = options.dataset as string | undefined;
    if (dataset !== undefined && !isAgrifoodDataset(dataset)) {
      throw new UsageError(`--dataset must be one of ${AGRIFOOD_DATASETS.join(', ')} (got "${dataset}")`);
    }
    const files = await agrifoodSourceFiles(path);
    if (files.length === 0) throw new UsageError(`no .json files in ${path}`);
    log(`ingest: ${files.length} file(s) into ${dataDir}${dataset ? ` as ${dataset}` : ' (dataset detected from the field names)'}`);
    const { ingestAgrifoodFiles } = await import('./snapshot.ts');
    const result = await ingestAgrifoodFiles(files, {
      dataDir, dataset, sourceUrl: options['source-url'] as string | undefined, shrink: { allow: allowShrink === true, log },
    });
    for (const record of result.imported) log(`ingest: ${printableName(record.sourceFile)}: ${record.dataset}, ${record.rowCount} record(s)`);
    for (const [name, file] of Object.entries(result.current)) log(`ingest: ${name} now served from ${printableName(file)}`);
    return {
      imported: result.imported.length,
      rows: result.imported.reduce((sum, record) => sum + record.rowCount, 0),
      skipped: result.skipped.length,
    };
  },
};
