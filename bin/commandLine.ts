// What every command-line entry point (`npm run <script>`) shares:
// - `--help` or `-h` prints the usage on stdout and exits 0 before the command does anything else
//   (starts no server, reads or writes no data);
// - a reader of stdout that goes away early (`| head`) ends the command quietly, no EPIPE stack trace.

/** Whether the arguments ask for help: `--help` or `-h` before any `--` terminator. */
export function helpRequested(argv: readonly string[] = process.argv.slice(2)): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

/** When help is asked for: `usage` on stdout and exit code 0 (stdout to a pipe, file or terminal is written synchronously on Linux). */
export function exitWithHelpIfAsked(usage: string, argv: readonly string[] = process.argv.slice(2)): void {
  if (!helpRequested(argv)) return;
  process.stdout.write(usage.endsWith('\n') ? usage : `${usage}\n`);
  process.exit(0);
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
