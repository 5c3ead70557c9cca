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

/**
 * `script` is relative to the project root, e.g. 'bin/ingest.ts'. `env` is added to this process's.
 * With `timeoutMs`, a command still running then (a server that started) is killed: code null, timedOut.
 */
export function runCli(script: string, args: string[] = [], env: NodeJS.ProcessEnv = {}, options: { timeoutMs?: number } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(projectRoot, script), ...args], {
      cwd: projectRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    let timedOut = false;
    const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ...(timedOut ? { timedOut } : {}) });
    });
  });
}
