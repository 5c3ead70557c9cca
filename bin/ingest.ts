// npm run ingest -- <source> <file-or-folder> [source options] [--data-dir DIR]
// Exit codes: 0 done, 1 malformed input (nothing written), 2 usage error.
import { access } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DOMAINS } from '../domains/index.ts';
import { ingestCommandsOf } from '../domains/registry.ts';
import { UsageError, type IngestCommand } from '../ingest/command.ts';
import { IngestRejectedError } from '../ingest/errors.ts';

/** One command per source, from the list of domains. */
const COMMANDS: readonly IngestCommand[] = ingestCommandsOf(DOMAINS);

function usage(): string {
  return COMMANDS.map((c) => `usage: npm run ingest -- ${c.source} ${c.usage} [--data-dir DIR]`).join('\n');
}

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

async function main(argv: string[]): Promise<number> {
  try {
    const [source] = argv;
    if (!source || source.startsWith('-')) throw new UsageError('missing <source>');
    const command = COMMANDS.find((c) => c.source === source);
    if (!command) throw new UsageError(`unknown source "${source}" (known: ${COMMANDS.map((c) => c.source).join(', ')})`);
    let parsed;
    try {
      parsed = parseArgs({
        args: argv.slice(1),
        allowPositionals: true,
        options: { ...command.options, 'data-dir': { type: 'string' } },
      });
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error));
    }
    const [path, ...extra] = parsed.positionals;
    if (!path) throw new UsageError('missing <file-or-folder>');
    if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
    const absolute = resolve(path);
    await access(absolute).catch(() => {
      throw new UsageError(`no such file or folder: ${absolute}`);
    });
    const { 'data-dir': dataDirOption, ...options } = parsed.values;
    const dataDir = resolve((dataDirOption as string | undefined) ?? process.env.DATA_DIR ?? 'data/parquet');
    const outcome = await command.run({ path: absolute, dataDir, options, log });
    log(`ingest: imported ${outcome.imported} file(s), ${outcome.rows} row(s); skipped ${outcome.skipped} already imported`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      log(`ingest: ${error.message}\n${usage()}`);
      return 2;
    }
    if (error instanceof IngestRejectedError) {
      log(`ingest: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

process.exitCode = await main(process.argv.slice(2));
