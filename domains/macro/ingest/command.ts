// npm run ingest -- ecb <file-or-folder>            ECB Data API csvdata files (.csv)
// npm run ingest -- eurofxref <file-or-folder>      eurofxref-hist.csv or eurofxref-hist.zip
// npm run ingest -- fred <file-or-folder> [--license APPROVED|PENDING|DENIED] [--series ID]
//                                                   FRED graph CSV, date,value copies, API JSON
// The parsers and the snapshot writer load when a command runs: the domain's index imports this file
// for the source names and options, and the server must not load them.
import { UsageError, type IngestCommand, type IngestOutcome } from '../../../ingest/command.ts';
import { sourceFiles } from '../../../ingest/sourceFiles.ts';
import type { MacroIngestResult } from './snapshot.ts';
import { isLicenseStatus, LICENSE_STATUSES } from './types.ts';
import { printableName } from '../../../ingest/errors.ts';

function outcome(result: MacroIngestResult): IngestOutcome {
  return { imported: result.imported.length, rows: result.imported.reduce((sum, r) => sum + r.rowCount, 0), skipped: result.skipped.length };
}

export const ecbIngestCommand: IngestCommand = {
  source: 'ecb',
  usage: '<file-or-folder> [--source-url URL]',
  options: { 'source-url': { type: 'string' } },
  async run({ path, dataDir, options, log }) {
    const files = await sourceFiles(path, ['.csv']);
    if (files.length === 0) throw new UsageError(`no .csv files in ${path}`);
    log(`ingest: ${files.length} ECB csvdata file(s) into ${dataDir}`);
    const { ingestEcbFiles } = await import('./snapshot.ts');
    const result = await ingestEcbFiles(files, { dataDir, sourceUrl: options['source-url'] as string | undefined });
    for (const r of result.imported) log(`ingest: ${printableName(r.sourceFile)}: ${r.rowCount} observation(s)`);
    return outcome(result);
  },
};

export const eurofxrefIngestCommand: IngestCommand = {
  source: 'eurofxref',
  usage: '<file-or-folder> [--source-url URL]',
  options: { 'source-url': { type: 'string' } },
  async run({ path, dataDir, options, log }) {
    const files = await sourceFiles(path, ['.csv', '.zip']);
    if (files.length === 0) throw new UsageError(`no .csv or .zip files in ${path}`);
    log(`ingest: ${files.length} ECB reference-rate file(s) into ${dataDir}`);
    const { ingestEurofxrefFiles } = await import('./snapshot.ts');
    const result = await ingestEurofxrefFiles(files, { dataDir, sourceUrl: options['source-url'] as string | undefined });
    for (const r of result.imported) log(`ingest: ${printableName(r.sourceFile)}: ${r.rowCount} rate(s)`);
    return outcome(result);
  },
};

export const fredIngestCommand: IngestCommand = {
  source: 'fred',
  usage: `<file-or-folder> [--license ${LICENSE_STATUSES.join('|')}] [--series ID] [--source-url URL]`,
  options: { license: { type: 'string' }, series: { type: 'string' }, 'source-url': { type: 'string' } },
  async run({ path, dataDir, options, log }) {
    const license = options.license as string | undefined;
    if (license !== undefined && !isLicenseStatus(license.toUpperCase())) {
      throw new UsageError(`--license must be one of ${LICENSE_STATUSES.join(', ')}, not ${JSON.stringify(license)}`);
    }
    const files = await sourceFiles(path, ['.csv', '.json']);
    if (files.length === 0) throw new UsageError(`no .csv or .json files in ${path}`);
    log(`ingest: ${files.length} FRED file(s) into ${dataDir}`);
    const { ingestFredFiles } = await import('./snapshot.ts');
    const result = await ingestFredFiles(files, {
      dataDir,
      sourceUrl: options['source-url'] as string | undefined,
      license: license === undefined ? undefined : (license.toUpperCase() as 'APPROVED' | 'PENDING' | 'DENIED'),
      series: options.series as string | undefined,
    });
    for (const r of result.imported) {
      log(r.dataset === 'macro_fred_licenses' ? `ingest: licence ${printableName(r.sourceFile)} at ${r.importDate}` : `ingest: ${printableName(r.sourceFile)}: ${r.rowCount} observation(s)`);
    }
    return outcome(result);
  },
};
