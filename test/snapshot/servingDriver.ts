// A child process for the incremental serving-database tests: the ingest CLI with the serving
// database built before publication (as bin/ingest.ts does) and a crash (SIGKILL) at one named step.
//   node --import tsx test/snapshot/servingDriver.ts <step> <ingest args...>
import { DOMAINS } from '../../domains/index.ts';
import { ingestCommandsOf } from '../../domains/registry.ts';
import { buildServingDatabase } from '../../domains/servingDatabase.ts';
import { runIngestCli } from '../../ingest/cli.ts';
import { setFaultHook } from '../../ingest/faults.ts';

const [step, ...args] = process.argv.slice(2);
setFaultHook((point) => {
  if (point === step) process.kill(process.pid, 'SIGKILL');
});

process.exitCode = await runIngestCli(args, ingestCommandsOf(DOMAINS), {
  log: (line) => process.stderr.write(`${line}\n`),
  prepare: async (scratch) => {
    await buildServingDatabase(DOMAINS, scratch);
  },
});
