// npm run ingest -- oecd <file-or-folder> [--vintage YYYY-MM[-DD]] [--source-url URL]
// The parser and the snapshot writer load when the command runs: the domain's index imports this
// file for its source name and options, and the server must not load them.
import { readdir, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { UsageError, type IngestCommand } from '../../../ingest/command.ts';
import { insideFolder } from '../../../ingest/sourceFiles.ts';
import { printableName } from '../../../ingest/errors.ts';

/** .csv files of a folder (non-recursive) sorted by name; a file path is returned as is. */
export async function oecdSourceFiles(path: string): Promise<string[]> {
  if (!(await stat(path)).isDirectory()) return [path];
  const names = await readdir(path);
  return insideFolder(path, names.filter((name) => extname(name).toLowerCase() === '.csv').sort());
}

export const oecdIngestCommand: IngestCommand = {
  source: 'oecd',
  usage: '<file-or-folder> [--vintage YYYY-MM[-DD]] [--source-url URL]',
  options: { vintage: { type: 'string' }, 'source-url': { type: 'string' } },
  async run({ path, dataDir, options, log }) {
    const { ingestOecdFiles, parseVintage } = await import('./oecdSnapshot.ts');
    const vintage = options.vintage === undefined ? undefined : parseVintage(String(options.vintage));
    const files = await oecdSourceFiles(path);
    if (files.length === 0) throw new UsageError(`no .csv files in ${path}`);
    log(`ingest: ${files.length} OECD file(s) (Data Explorer SDMX CSV or data.oecd.org export) into ${dataDir}, vintage ${vintage ?? 'the import date'}`);
    const result = await ingestOecdFiles(files, { dataDir, vintage, sourceUrl: options['source-url'] as string | undefined });
    for (const record of result.imported) log(`ingest: ${printableName(record.sourceFile)}: ${record.source}, ${record.rowCount} observation(s)`);
    if (result.skippedRows > 0) log(`ingest: ${result.skippedRows} row(s) of other series read and not kept`);
    if (result.imported.length > 0) log(`ingest: the snapshot now holds ${result.observations} OECD observation(s), every vintage`);
    return {
      imported: result.imported.length,
      rows: result.imported.reduce((sum, record) => sum + record.rowCount, 0),
      skipped: result.skipped.length,
    };
  },
};
