// npm run ingest -- ets <file-or-folder> [--source-url URL]
// Files: the Union Registry's verified_emissions_<YYYY>_en.xlsx and the relational installation.csv /
// compliance.csv; a folder is read non-recursively, its .xlsx and .csv files by name.
// The parsers (exceljs) and the snapshot writer load when the command runs: the domain's index imports
// this file for its source name and options, and the server must not load them.
import { readdir, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { UsageError, type IngestCommand } from '../../../ingest/command.ts';
import { insideFolder } from '../../../ingest/sourceFiles.ts';
import { printableName } from '../../../ingest/errors.ts';

export async function etsSourceFiles(path: string): Promise<string[]> {
  if (!(await stat(path)).isDirectory()) return [path];
  const names = await readdir(path);
  return insideFolder(path, names.filter((name) => ['.csv', '.xlsx'].includes(extname(name).toLowerCase()) && !name.startsWith('.') && !name.startsWith('~$')).sort());
}

export const etsIngestCommand: IngestCommand = {
  source: 'ets',
  usage: '<file-or-folder> [--source-url URL]',
  options: { 'source-url': { type: 'string' } },
  async run({ path, dataDir, options, log }) {
    const files = await etsSourceFiles(path);
    if (files.length === 0) throw new UsageError(`no .xlsx or .csv files in ${path}`);
    log(`ingest: ${files.length} EU ETS file(s) into ${dataDir}`);
    const { ingestEtsFiles } = await import('./etsSnapshot.ts');
    const result = await ingestEtsFiles(files, {
      dataDir, sourceUrl: options['source-url'] as string | undefined, onProgress: (done, total) => log(`ingest: parsed ${done}/${total}`),
    });
    for (const record of result.imported) log(`ingest: ${printableName(record.sourceFile)} (${record.source}): ${record.rowCount} row(s)`);
    if (result.imported.length > 0) log(`ingest: the snapshot now holds ${result.installations} installation(s), ${result.emissions} installation-year(s)`);
    return { imported: result.imported.length, rows: result.imported.reduce((s, r) => s + r.rowCount, 0), skipped: result.skipped.length };
  },
};
