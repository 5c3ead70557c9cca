// npm run ingest -- <source> <file-or-folder> [source options] [--data-dir DIR] [--allow-shrink]
// npm run ingest -- --help lists the sources, the options and the exit codes (ingest/exitCodes.ts):
// 0 done, 1 malformed input, 2 usage, 3 locked by another ingest, 4 operator error (disk full,
// read-only folder, ...), 5 a republished key would shrink. The work is ingest/cli.ts's.
import { buildServing, DOMAINS } from '../domains/index.ts';
import { ingestCommandsOf } from '../domains/registry.ts';
import { runIngestCli } from '../ingest/cli.ts';
import { endQuietlyOnClosedPipe, exitOnBadEngineSettings } from './commandLine.ts';

endQuietlyOnClosedPipe();
exitOnBadEngineSettings('ingest');

const log = (line: string) => process.stderr.write(`${line}\n`);
process.exitCode = await runIngestCli(process.argv.slice(2), ingestCommandsOf(DOMAINS), {
  log,
  // The server opens the generation's prebuilt serving database instead of loading it; only the
  // domains whose files changed are rebuilt (domains/servingDatabase.ts).
  prepare: (scratch) => buildServing(scratch, log),
});
