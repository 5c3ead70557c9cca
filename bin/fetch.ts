// npm run fetch -- <source>... | --all [--data-dir DIR] [--allow-shrink]
// Downloads the named sources from their publishers and publishes what changed in one generation; the
// work is ingest/fetch/run.ts's. Exit codes (ingest/exitCodes.ts): 0 done or nothing changed, 2 usage,
// 3 locked, 4 operator error, 6 some datasets failed (listed) and the rest was published.
import { fetchHelpText, runFetchCli } from '../ingest/fetch/run.ts';
import { endQuietlyOnClosedPipe, exitOnBadEngineSettings, exitWithHelp, onlyHelpRequested } from './commandLine.ts';

// Any other use of --help is runFetchCli's to judge (an unknown option before it is an error).
if (onlyHelpRequested()) exitWithHelp(fetchHelpText());
endQuietlyOnClosedPipe();
exitOnBadEngineSettings('fetch');

const { buildServing, DOMAINS } = await import('../domains/index.ts');
const { ingestCommandsOf } = await import('../domains/registry.ts');

const log = (line: string) => process.stderr.write(`${line}\n`);
process.exitCode = await runFetchCli(process.argv.slice(2), {
  commands: ingestCommandsOf(DOMAINS),
  log,
  // The serving database is rebuilt only for the domains whose files changed (domains/servingDatabase.ts); the log says which.
  prepare: (scratchDir) => buildServing(scratchDir, log),
});
