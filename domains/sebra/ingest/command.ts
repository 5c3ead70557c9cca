// npm run ingest -- sebra <file-or-folder> [--date YYYY-MM-DD] [--currency BGN|EUR] [--source-url URL]
// The parsers and the snapshot writer load when the command runs: the domain's index imports this
// file for its source name and options, and the server must not load them.
import { UsageError, type IngestCommand } from '../../../ingest/command.ts';
import type { Currency } from './types.ts';

export const sebraIngestCommand: IngestCommand = {
  source: 'sebra',
  usage: '<file-or-folder> [--date YYYY-MM-DD] [--currency BGN|EUR] [--source-url URL]',
  options: {
    date: { type: 'string' },
    currency: { type: 'string' },
    'source-url': { type: 'string' },
  },
  async run({ path, dataDir, options, log, allowShrink }) {
    const { isIsoDate } = await import('./reportTree.ts');
    const { sebraSourceFiles } = await import('./sourceFiles.ts');
    const { ingestSebraFiles } = await import('./snapshot.ts');
    const date = options.date as string | undefined;
    const currency = options.currency as string | undefined;
    if (date !== undefined && !isIsoDate(date)) throw new UsageError(`--date "${date}" is not YYYY-MM-DD`);
    if (currency !== undefined && currency !== 'BGN' && currency !== 'EUR') {
      throw new UsageError(`--currency must be BGN or EUR, not "${currency}"`);
    }
    const files = await sebraSourceFiles(path);
    if (files.length === 0) throw new UsageError(`no .xlsx or .json files in ${path}`);
    log(`ingest: ${files.length} file(s) into ${dataDir}`);
    const { imported, skipped } = await ingestSebraFiles(files, {
      dataDir,
      date,
      currency: currency as Currency | undefined,
      sourceUrl: options['source-url'] as string | undefined,
      shrink: { allow: allowShrink === true, log },
      onProgress: (done, total) => {
        if (done % 50 === 0 && done < total) log(`ingest: ${done}/${total} files read`);
      },
    });
    return {
      imported: imported.length,
      rows: imported.reduce((sum, record) => sum + record.rowCount, 0),
      skipped: skipped.length,
    };
  },
};
