// A child process for the snapshot tests: runs the ingest CLI (ingest/cli.ts) with a fault hook
// installed at one named commit step. Its one command is PTP's, the source these tests ingest (the
// commit steps are the CLI's, the same for every source): loading only it keeps each child's start
// to a few seconds instead of every domain's.
//   node --import tsx test/snapshot/driver.ts <fault> <step> ptp <ingest args...>
// <fault>: `crash` (SIGKILL at the step: nothing after it runs, no finally, no cleanup),
// `ENOSPC` / `EROFS` / `EACCES` (that errno thrown at the step), `none`.
import { ptpIngestCommand } from '../../domains/ptp/ingest/command.ts';
import { runIngestCli } from '../../ingest/cli.ts';
import { setFaultHook } from '../../ingest/faults.ts';

const [fault, step, ...args] = process.argv.slice(2);
if (fault !== 'none') {
  setFaultHook((point) => {
    if (point !== step) return;
    if (fault === 'crash') process.kill(process.pid, 'SIGKILL');
    const error = new Error(`${fault}: injected at ${point}`) as NodeJS.ErrnoException;
    error.code = fault;
    error.syscall = 'write';
    error.path = `(injected at ${point})`;
    throw error;
  });
}

process.exitCode = await runIngestCli(args, [ptpIngestCommand], { log: (line) => process.stderr.write(`${line}\n`) });
