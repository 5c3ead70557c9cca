// npm run license -- <SERIES_ID> <APPROVED|PENDING|DENIED> [--data-dir DIR] | list: the work is
// domains/macro/ingest/licenseCli.ts's; the new generation gets its serving database like an ingest's.
import { LICENSE_HELP, runLicenseCli } from '../domains/macro/ingest/licenseCli.ts';
import { endQuietlyOnClosedPipe, exitOnBadEngineSettings, exitWithHelpIfAsked } from './commandLine.ts';

exitWithHelpIfAsked(LICENSE_HELP);
endQuietlyOnClosedPipe();
exitOnBadEngineSettings('license');

const { buildServing } = await import('../domains/index.ts');
process.exitCode = await runLicenseCli(process.argv.slice(2), buildServing);
