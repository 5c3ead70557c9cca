// `npm run ingest` (bin/ingest.ts) in this process: the same command list and serving build, its
// stderr lines collected. For tests about what the command decides; a child process (runCli in
// test/helpers/cli.ts) only where the process itself is the point (its exit code, its output).
import { buildServing, DOMAINS } from '../../domains/index.ts';
import { ingestCommandsOf } from '../../domains/registry.ts';
import { runIngestCli } from '../../ingest/cli.ts';
import type { CliResult } from './cli.ts';

/**
 * bin/ingest.ts's command with `env` set in process.env for the run (the ingest bounds and
 * SNAPSHOT_KEEP are read from there) and put back after it: its exit code and stderr. Runs of one
 * file must not overlap (the environment is the process's).
 */
export async function ingestInProcess(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const saved = new Map(Object.keys(env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, env);
  let stderr = '';
  try {
    const code = await runIngestCli(args, ingestCommandsOf(DOMAINS), { log: (line) => (stderr += `${line}\n`), prepare: buildServing });
    return { code, stdout: '', stderr };
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
