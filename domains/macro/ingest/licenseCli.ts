// npm run license -- <SERIES_ID> <APPROVED|PENDING|DENIED> [--data-dir DIR] (bin/license.ts)
// Changes the licence status of an ingested FRED series without re-ingesting it; the change is
// recorded with its time in macro_fred_licenses and in the import ledger. A running server serves
// the new status once it swaps in the new generation (the change is published as one, like an ingest).
// Exit codes: 0 done, 2 usage error or unknown series, 3 another ingest holds the lock, 4 operator error.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { EXIT, storageErrorLine } from '../../../ingest/exitCodes.ts';
import { withNewGeneration } from '../../../ingest/generations.ts';
import { LockedError } from '../../../ingest/lock.ts';
import { setFredLicense, UnknownSeriesError } from './snapshot.ts';
import { isLicenseStatus, LICENSE_STATUSES } from './types.ts';

const USAGE = `usage: npm run license -- <SERIES_ID> <${LICENSE_STATUSES.join('|')}> [--data-dir DIR]`;

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

