// Runs one of the project's command-line entry points the way npm would, and collects its exit code
// and output. Under `npm test` the tests run compiled (test/helpers/compile-tests.js), and so do the
// entry points they start: tsx's loader would cost each child about 1.4 s of CPU.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const projectRoot = path.resolve(import.meta.dirname, '../..');

/** True when this file runs compiled: then every project file has a compiled .js beside its .ts. */
const COMPILED = import.meta.url.endsWith('.js');

/** The URL that imports a project .ts file (an absolute path) in this process: its compiled sibling under `npm test`. */
export function moduleUrl(file: string): string {
  return pathToFileURL(COMPILED ? file.replace(/\.ts$/, '.js') : file).href;
}

/** Node's arguments that run a project .ts file (relative to the project root): its compiled sibling under `npm test`, else through tsx. */
export function scriptArgs(script: string): string[] {
  const file = path.join(projectRoot, script);
  return COMPILED ? [file.replace(/\.ts$/, '.js')] : ['--import', 'tsx', file];
}

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
  return runCommand(process.execPath, [...scriptArgs(script), ...args], env, options);
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
