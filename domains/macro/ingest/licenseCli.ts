// npm run license -- <SERIES_ID> <APPROVED|PENDING|DENIED> [--data-dir DIR] (bin/license.ts)
// npm run license -- list [--data-dir DIR]: each series' status in force, one tab-separated line each.
// Changes the licence status of an ingested FRED series without re-ingesting it; the change is
// recorded with its time in macro_fred_licenses and in the import ledger. A running server serves
// the new status once it swaps in the new generation (the change is published as one, like an ingest).
// Exit codes: 0 done, 2 usage error or unknown series, 3 another ingest holds the lock, 4 operator error.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { EXIT, storageErrorLine } from '../../../ingest/exitCodes.ts';
import { withNewGeneration } from '../../../ingest/generations.ts';
import { LockedError } from '../../../ingest/lock.ts';
import { listFredLicenses, setFredLicense, UnknownSeriesError } from './snapshot.ts';
import { isLicenseStatus, LICENSE_STATUSES } from './types.ts';

const USAGE = `usage: npm run license -- <SERIES_ID> <${LICENSE_STATUSES.join('|')}> [--data-dir DIR]
       npm run license -- list [--data-dir DIR]`;

/** --help: what the command does, and its exit codes. */
export const LICENSE_HELP = `${USAGE}

Sets the licence status of an ingested FRED series (a series not APPROVED answers 451), without
re-ingesting it; the change is published as a new generation of DATA_DIR (default data/parquet),
which a running server swaps in. \`list\` prints every series' status in force: series, status and
the time it was set, tab-separated.

Exit codes: 0 done, 2 usage or unknown series, 3 another ingest holds the lock, 4 operator error.`;

/** `prepare` builds the new generation's serving database before it is published (GenerationRunOptions.prepare). */
export async function runLicenseCli(argv: string[], prepare?: (scratchDir: string) => Promise<void>): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { 'data-dir': { type: 'string' } } });
  } catch (error) {
    process.stderr.write(`license: ${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const [series, status, ...extra] = parsed.positionals;
  if (series === 'list' && status === undefined) {
    const dataDir = resolve((parsed.values['data-dir'] as string | undefined) ?? process.env.DATA_DIR ?? 'data/parquet');
    const licenses = await listFredLicenses(dataDir);
    if (licenses.length === 0) process.stderr.write(`license: no FRED series in ${dataDir}\n`);
    for (const license of licenses) process.stdout.write(`${license.seriesId}\t${license.status}\t${license.changedAt}\n`);
    return 0;
  }
  if (!series || !status || extra.length > 0 || !isLicenseStatus(status.toUpperCase())) {
    process.stderr.write(`license: ${!series || !status ? 'missing arguments' : extra.length > 0 ? `unexpected arguments: ${extra.join(' ')}` : `unknown status ${JSON.stringify(status)}`}\n${USAGE}\n`);
    return 2;
  }
  const dataDir = resolve((parsed.values['data-dir'] as string | undefined) ?? process.env.DATA_DIR ?? 'data/parquet');
  try {
    const log = (line: string) => process.stderr.write(`${line}\n`);
    const { value: { previous, record } } = await withNewGeneration(dataDir, { command: `license ${series.toUpperCase()}`, log, prepare }, (scratch) =>
      setFredLicense(series.toUpperCase(), status.toUpperCase() as 'APPROVED', { dataDir: scratch }));
    process.stderr.write(`license: ${series.toUpperCase()} ${previous} -> ${status.toUpperCase()} at ${record.importDate}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UnknownSeriesError) {
      process.stderr.write(`license: ${error.message}\n`);
      return 2;
    }
    if (error instanceof LockedError) {
      process.stderr.write(`license: refused: ${error.message}\n`);
      return EXIT.locked;
    }
    const storage = storageErrorLine(error);
    if (storage !== null) {
      process.stderr.write(`license: stopped: ${storage}; the snapshot in ${dataDir} is unchanged\n`);
      return EXIT.storage;
    }
    throw error;
  }
}

