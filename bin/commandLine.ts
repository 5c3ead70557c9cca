// What every command-line entry point (`npm run <script>`) shares:
// - `--help` or `-h` prints the usage on stdout and exits 0 before the command does anything else
//   (starts no server, reads or writes no data);
// - an entry point statically imports only what its usage needs (this file, node:*, the module that
//   holds its usage text); the command's own modules (domains, the HTTP app, DuckDB, x402, ingest)
//   are loaded with `await import()` after the help check, so `--help` costs a fraction of a second
//   instead of seconds;
// - a reader of stdout that goes away early (`| head`) ends the command quietly, no EPIPE stack trace;
// - a module that is both a library and a command runs as the command only when it is the script node
//   was started with (isEntryPoint);
// - a command that opens DuckDB refuses a bad DUCKDB_THREADS before it starts, as `npm start` does
//   (exitOnBadEngineSettings), not with a stack trace from the first engine it opens.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { threadsFromEnv } from '../engine/settings.ts';

/**
 * Whether the module whose import.meta.url is `moduleUrl` is the script node was started with. Node
 * loads that script from its real path, while process.argv[1] keeps the path it was given: started
 * through a symlink, a plain comparison would say no, and the command would do nothing.
 */
export function isEntryPoint(moduleUrl: string): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return moduleUrl === pathToFileURL(realpathSync(path.resolve(script))).href;
  } catch {
    return false;
  }
}

/** A bad DUCKDB_THREADS: `<command>: <what is wrong>` on stderr and exit code 2, before anything is done. */
export function exitOnBadEngineSettings(command: string): void {
  try {
    threadsFromEnv();
  } catch (error) {
    process.stderr.write(`${command}: ${(error as Error).message}\n`);
    process.exit(2);
  }
}

/** Whether the arguments ask for help: `--help` or `-h` before any `--` terminator. */
export function helpRequested(argv: readonly string[] = process.argv.slice(2)): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

/**
 * Whether the arguments are nothing but `--help` and `-h`: what a command whose own parser decides
 * on help (an unknown option before --help is an error there) answers with its help for sure, so
 * its entry point can answer it before loading the command.
 */
export function onlyHelpRequested(argv: readonly string[] = process.argv.slice(2)): boolean {
  return argv.length > 0 && argv.every((arg) => arg === '--help' || arg === '-h');
}

/** `usage` on stdout and exit code 0 (stdout to a pipe, file or terminal is written synchronously on Linux). */
export function exitWithHelp(usage: string): never {
  process.stdout.write(usage.endsWith('\n') ? usage : `${usage}\n`);
  process.exit(0);
}

/** When help is asked for: exitWithHelp(usage). */
export function exitWithHelpIfAsked(usage: string, argv: readonly string[] = process.argv.slice(2)): void {
  if (helpRequested(argv)) exitWithHelp(usage);
}

export interface ClosedPipeOptions {
  /** Said before exiting when the reader went away (default: nothing). */
  onClosed?: () => void;
  /** Any other write error (default: thrown, as without this helper). */
  onError?: (error: NodeJS.ErrnoException) => void;
}

/** A reader of stdout that stops early (`| head`) closed the pipe: stop, with the exit code so far (0), no stack trace. */
export function endQuietlyOnClosedPipe(options: ClosedPipeOptions = {}): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') {
      if (!options.onError) throw error;
      options.onError(error);
      return;
    }
    options.onClosed?.();
    process.exit(process.exitCode ?? 0);
  });
}
