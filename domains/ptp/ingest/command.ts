// npm run ingest -- ptp <file-or-folder> [--source-url URL]
// The parsers and the snapshot writer load when the command runs: the domain's index imports this
// file for its source name and options, and the server must not load them.
import { UsageError, type IngestCommand } from '../../../ingest/command.ts';
import { sourceFiles } from '../../../ingest/sourceFiles.ts';
import { PTP_FILE_EXTENSIONS } from './types.ts';

/** .json and .csv files of a folder (non-recursive) sorted by name; a file path is returned as is. */
export function ptpSourceFiles(path: string): Promise<string[]> {
  return sourceFiles(path, PTP_FILE_EXTENSIONS);
}

export const ptpIngestCommand: IngestCommand = {
  source: 'ptp',
  usage: '<file-or-folder> [--source-url URL]',
  options: {
    'source-url': { type: 'string' },
  },
  async run({ path, dataDir, options, log, allowShrink }) {
    const files = await ptpSourceFiles(path);
    if (files.length === 0) throw new UsageError(`no .json or .csv files in ${path}`);
    log(`ingest: ${files.length} file(s) into ${dataDir}`);
    const { ingestPtpFiles } = await import('./snapshot.ts');
    const result = await ingestPtpFiles(files, {
      dataDir,
      sourceUrl: options['source-url'] as string | undefined,
      shrink: { allow: allowShrink === true, log },
      onProgress: (done, total) => {
        if (done % 10 === 0 && done < total) log(`ingest: ${done}/${total} files read`);
      },
    });
    if (result.imported.length > 0) {
      const c = result.coordinates;
      log(`ingest: coordinates: ${c.as_given} as given, ${c.swapped} swapped, ${c.missing} missing, ${c.out_of_area} outside Bulgaria (kept without coordinates)`);
      log(`ingest: snapshot holds ${result.crashes} accident(s) in ${result.clusters} location cluster(s)`);
    }
    return {
      imported: result.imported.length,
      rows: result.imported.reduce((sum, record) => sum + record.rowCount, 0),
      skipped: result.skipped.length,
    };
  },
};
