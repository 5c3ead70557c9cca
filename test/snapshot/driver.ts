// A child process for the snapshot tests: runs the ingest CLI (ingest/cli.ts with every domain's
// commands) with a fault hook installed at one named commit step.
//   node --import tsx test/snapshot/driver.ts <fault> <step> <ingest args...>
// <fault>: `crash` (SIGKILL at the step: nothing after it runs, no finally, no cleanup),
// `ENOSPC` / `EROFS` / `EACCES` (that errno thrown at the step), `none`.
import { DOMAINS } from '../../domains/index.ts';
import { ingestCommandsOf } from '../../domains/registry.ts';
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

process.exitCode = await runIngestCli(args, ingestCommandsOf(DOMAINS), { log: (line) => process.stderr.write(`${line}\n`) });
