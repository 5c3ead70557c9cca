// The ingest CLI (bin/ingest.ts passes every domain's commands): parses the command line, takes the
// data folder's lock, runs the source's writer against a scratch copy of the current generation and
// publishes it as a new generation (ingest/generations.ts). Exit codes: ingest/exitCodes.ts.
import { access } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError, type IngestCommand, type IngestOutcome } from './command.ts';
import { IngestRejectedError } from './errors.ts';
import { EXIT, EXIT_CODE_HELP, storageErrorLine } from './exitCodes.ts';
import { DEFAULT_KEEP, keepFromEnv, withNewGeneration } from './generations.ts';
import { LockedError } from './lock.ts';
import { ShrinkRefusedError } from './shrink.ts';

export interface CliIo {
  log: (line: string) => void;
  /** Where --help goes (default stdout). */
  out?: (text: string) => void;
  env?: NodeJS.ProcessEnv;
  /** Builds the new generation's serving database before it is published (GenerationRunOptions.prepare). */
  prepare?: (scratchDir: string) => Promise<void>;
}

const GLOBAL_OPTIONS = {
  'data-dir': { type: 'string' },
  'allow-shrink': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export function usage(commands: readonly IngestCommand[]): string {
  return commands.map((c) => `usage: npm run ingest -- ${c.source} ${c.usage} [--data-dir DIR] [--allow-shrink]`).join('\n');
}

export function helpText(commands: readonly IngestCommand[]): string {
  const width = Math.max(...commands.map((c) => c.source.length));
  const lines = [
    'usage: npm run ingest -- <source> <file-or-folder> [source options] [--data-dir DIR] [--allow-shrink]',
    '',
    'Imports source files into a new snapshot generation under DATA_DIR (default data/parquet) and',
    'publishes it with one atomic pointer switch; a running server reloads it. Files imported before',
    '(same sha256) are skipped.',
    '',
    'sources:',
    ...commands.map((c) => `  ${c.source.padEnd(width)}  ${c.usage}`),
    '',
    'options (every source):',
    '  --data-dir DIR   the snapshot folder (default: $DATA_DIR, else data/parquet)',
    '  --allow-shrink   accept a republished day, series or period with fewer rows than held',
    '  --help, -h       this text',
    '',
    `generations kept for rollback: $SNAPSHOT_KEEP (default ${DEFAULT_KEEP}); npm run snapshot -- list | rollback [<id>]`,
    '',
    'exit codes:',
    ...EXIT_CODE_HELP.map(([code, text]) => `  ${code}  ${text}`),
  ];
  return lines.join('\n');
}

/** Runs one ingest command line; returns the exit code. Errors that are none of the known kinds are thrown. */
export async function runIngestCli(argv: readonly string[], commands: readonly IngestCommand[], io: CliIo): Promise<number> {
  const { log } = io;
  const help = io.out ?? ((text: string) => process.stdout.write(`${text}\n`));
  const env = io.env ?? process.env;
  let dataDir: string | undefined;
  try {
    const [source] = argv;
    if (source === '--help' || source === '-h' || source === 'help') {
      help(helpText(commands));
      return EXIT.ok;
    }
    if (!source || source.startsWith('-')) throw new UsageError('missing <source>');
    const command = commands.find((c) => c.source === source);
    if (!command) throw new UsageError(`unknown source "${source}" (known: ${commands.map((c) => c.source).join(', ')})`);
    let parsed;
    try {
      parsed = parseArgs({ args: argv.slice(1), allowPositionals: true, options: { ...command.options, ...GLOBAL_OPTIONS } });
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error));
    }
    if (parsed.values.help) {
      help(helpText(commands));
      return EXIT.ok;
    }
    const [path, ...extra] = parsed.positionals;
    if (!path) throw new UsageError('missing <file-or-folder>');
    if (extra.length > 0) throw new UsageError(`unexpected arguments: ${extra.join(' ')}`);
    const absolute = resolve(path);
    await access(absolute).catch(() => {
      throw new UsageError(`no such file or folder: ${absolute}`);
    });
    const { 'data-dir': dataDirOption, 'allow-shrink': allowShrink, help: _help, ...options } = parsed.values;
    const root = resolve((dataDirOption as string | undefined) ?? env.DATA_DIR ?? 'data/parquet');
    dataDir = root;
    let keep: number;
    try {
      keep = keepFromEnv(env);
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    const { value: outcome, generation } = await withNewGeneration<IngestOutcome>(
      root,
      { command: `ingest ${source}`, log, keep, prepare: io.prepare },
      (scratch) => command.run({ path: absolute, dataDir: scratch, options, log, allowShrink: allowShrink === true }),
      (result) => result.imported > 0,
    );
    log(`ingest: imported ${outcome.imported} file(s), ${outcome.rows} row(s); skipped ${outcome.skipped} already imported`);
    log(generation === null ? `ingest: nothing new; the snapshot in ${root} is unchanged` : `ingest: published generation ${generation} in ${root}`);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError) {
      log(`ingest: ${error.message}\n${usage(commands)}\n(npm run ingest -- --help lists the sources, options and exit codes)`);
      return EXIT.usage;
    }
    if (error instanceof IngestRejectedError) {
      log(`ingest: ${error.message}`);
      return EXIT.malformed;
    }
    if (error instanceof LockedError) {
      log(`ingest: refused: ${error.message}`);
      return EXIT.locked;
    }
    if (error instanceof ShrinkRefusedError) {
      log(`ingest: ${error.message}`);
      return EXIT.shrink;
    }
    const storage = storageErrorLine(error);
    if (storage !== null) {
      log(`ingest: stopped: ${storage}; ${dataDir ? `the snapshot in ${dataDir} is unchanged (the previous generation is still served)` : 'nothing was written'}`);
      return EXIT.storage;
    }
    throw error;
  }
}
