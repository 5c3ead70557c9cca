// npm run ingest -- <source> <file-or-folder> [--date YYYY-MM-DD] [--currency BGN|EUR] [--source-url URL] [--data-dir DIR]
// Exit codes: 0 done, 1 malformed input (nothing written), 2 usage error.
import { access } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { isIsoDate } from './sebra/reportTree.ts';
import type { Currency } from './sebra/types.ts';
import { IngestRejectedError, ingestSebraFiles } from './snapshot.ts';
import { sebraSourceFiles } from './sourceFiles.ts';

const USAGE =
  'usage: npm run ingest -- sebra <file-or-folder> [--date YYYY-MM-DD] [--currency BGN|EUR] [--source-url URL] [--data-dir DIR]';
const SOURCES = ['sebra'];

class UsageError extends Error {}

interface Command {
  source: string;
  path: string;
  date?: string;
  currency?: Currency;
  sourceUrl?: string;
  dataDir: string;
}

function parseCommand(argv: string[]): Command {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        date: { type: 'string' },
        currency: { type: 'string' },
        'source-url': { type: 'string' },
        'data-dir': { type: 'string' },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  const [source, path, ...extra] = positionals;
  if (!source) throw new UsageError('missing <source>');
  if (!SOURCES.includes(source)) throw new UsageError(`unknown source "${source}" (known: ${SOURCES.join(', ')})`);
  if (!path) throw new UsageError('missing <file-or-folder>');
  if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
  if (values.date !== undefined && !isIsoDate(values.date)) throw new UsageError(`--date "${values.date}" is not YYYY-MM-DD`);
  if (values.currency !== undefined && values.currency !== 'BGN' && values.currency !== 'EUR') {
    throw new UsageError(`--currency must be BGN or EUR, not "${values.currency}"`);
  }
  return {
    source,
    path: resolve(path),
    date: values.date,
    currency: values.currency as Currency | undefined,
    sourceUrl: values['source-url'],
    dataDir: resolve(values['data-dir'] ?? process.env.DATA_DIR ?? 'data/parquet'),
  };
}

async function main(argv: string[]): Promise<number> {
  let command: Command;
  try {
    command = parseCommand(argv);
    await access(command.path).catch(() => {
      throw new UsageError(`no such file or folder: ${command.path}`);
    });
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`ingest: ${error.message}\n${USAGE}\n`);
    return 2;
  }

  const files = await sebraSourceFiles(command.path);
  if (files.length === 0) {
    process.stderr.write(`ingest: no .xlsx or .json files in ${command.path}\n`);
    return 2;
  }
  process.stderr.write(`ingest: ${files.length} file(s) into ${command.dataDir}\n`);
  try {
    const { imported, skipped } = await ingestSebraFiles(files, {
      dataDir: command.dataDir,
      date: command.date,
      currency: command.currency,
      sourceUrl: command.sourceUrl,
      onProgress: (done, total) => {
        if (done % 50 === 0 && done < total) process.stderr.write(`ingest: ${done}/${total} files read\n`);
      },
    });
    const rows = imported.reduce((sum, record) => sum + record.rowCount, 0);
    process.stderr.write(`ingest: imported ${imported.length} file(s), ${rows} row(s); skipped ${skipped.length} already imported\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof IngestRejectedError)) throw error;
    process.stderr.write(`ingest: ${error.message}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
