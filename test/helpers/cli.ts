// Runs one of the project's command-line entry points (through tsx) the way npm would, and
// collects its exit code and output.
import { spawn } from 'node:child_process';
import path from 'node:path';

export const projectRoot = path.resolve(import.meta.dirname, '../..');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** True when it was still running after `timeoutMs` and was killed. */
  timedOut?: boolean;
}

export interface RunOptions {
  /** A command still running then (a server that started) is killed with its children: code null, timedOut. */
  timeoutMs?: number;
  /** Close the reading end of its stdout at once, as `| head` does once it has read enough. */
  closeStdout?: boolean;
}

/** `script` is relative to the project root, e.g. 'bin/ingest.ts'. `env` is added to this process's. */
export function runCli(script: string, args: string[] = [], env: NodeJS.ProcessEnv = {}, options: RunOptions = {}): Promise<CliResult> {
  return runCommand(process.execPath, ['--import', 'tsx', path.join(projectRoot, script), ...args], env, options);
}

/** Any command in the project folder (`npm run ...`), in its own process group so a timeout ends its children too. */
export function runCommand(command: string, args: string[], env: NodeJS.ProcessEnv = {}, options: RunOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: projectRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: options.timeoutMs !== undefined,
    });
    let stdout = '';
    let stderr = '';
    if (options.closeStdout) child.stdout.destroy();
    else child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let timedOut = false;
    const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, options.timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ...(timedOut ? { timedOut } : {}) });
    });
  });
}
