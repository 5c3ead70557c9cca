// Shared by the snapshot tests: PTP source files in two batches, the ingest CLI in process or as a
// child with an injected fault (driver.ts), and the byte answers of a snapshot's data routes.
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DOMAINS } from '../../domains/index.ts';
import { ptpIngestCommand } from '../../domains/ptp/ingest/command.ts';
import { ingestCommandsOf, routesOf } from '../../domains/registry.ts';
import { openSnapshotDatabase } from '../../domains/servingDatabase.ts';
import { runIngestCli } from '../../ingest/cli.ts';
import { setFaultHook } from '../../ingest/faults.ts';
import { serveTestApp } from '../helpers/app.ts';
import { projectRoot, scriptArgs } from '../helpers/cli.ts';
import { tempDir } from '../ingest/fixtures.ts';
import { FIXTURE_ROWS, portalJson } from '../ptp/fixture.ts';

export { tempDir };

/** The PTP fixture split by year: first.json holds the 2024 accidents, second.json the 2025 ones. */
export async function ptpBatches(): Promise<{ first: string; second: string }> {
  const dir = await tempDir('snapshot-src-');
  const first = join(dir, 'first.json');
  const second = join(dir, 'second.json');
  await writeFile(first, portalJson(FIXTURE_ROWS.filter((row) => row[1]!.includes('.2024 '))));
  await writeFile(second, portalJson(FIXTURE_ROWS.filter((row) => row[1]!.includes('.2025 '))));
  return { first, second };
}

/** The ingest CLI in this process; returns the exit code and the log. */
export async function ingest(args: string[]): Promise<{ code: number; log: string }> {
  const lines: string[] = [];
  const code = await runIngestCli(args, ingestCommandsOf(DOMAINS), { log: (line) => lines.push(line) });
  return { code, log: lines.join('\n') };
}

/**
 * driver.ts's operator errors in this process: the errno `fault` (ENOSPC, EROFS, ...) thrown at the
 * commit step `step` of PTP's ingest command; the exit code and the log. The hook is removed after.
 */
export async function ingestWithFaultInProcess(fault: string, step: string, args: string[]): Promise<{ code: number; stderr: string }> {
  setFaultHook((point) => {
    if (point !== step) return;
    const error = new Error(`${fault}: injected at ${point}`) as NodeJS.ErrnoException;
    error.code = fault;
    error.syscall = 'write';
    error.path = `(injected at ${point})`;
    throw error;
  });
  let stderr = '';
  try {
    const code = await runIngestCli(args, [ptpIngestCommand], { log: (line) => (stderr += `${line}\n`) });
    return { code, stderr };
  } finally {
    setFaultHook(null);
  }
}

export interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** The ingest CLI in a child process with a fault injected at one commit step (see driver.ts: PTP's command only). */
export function ingestWithFault(fault: string, step: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...scriptArgs('test/snapshot/driver.ts'), fault, step, ...args], {
      cwd: projectRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}

/** Data routes answered from the PTP fixture (both batches hold rows for them). */
export const PTP_URLS = [
  '/api/ptp/getPtpPerCity?city=Plovdiv&year=2024',
  '/api/ptp/getPtpPerCity?city=Plovdiv&year=2025',
  '/api/ptp/getPtpPerRegion?region=Varna&year=2024',
  '/api/ptp/getPtpPerRegion?region=Varna&year=2025',
  '/api/ptp/getMostDeadlyLocations?from=01-2024&to=12-2025&limit=10',
];

/**
 * The PTP domain, the only data these tests ingest: an app of it alone answers the PTP routes byte for
 * byte as the whole app does (the same handlers over the same tables and import records), and starts
 * in a quarter of the CPU (every other domain's load runs too otherwise, over no files).
 */
const PTP_DOMAINS = DOMAINS.filter((domain) => domain.name === 'ptp');

/** Status and bytes of every PTP URL, answered by an app over dataDir's current generation. */
export async function answers(dataDir: string, urls: readonly string[] = PTP_URLS): Promise<Map<string, string>> {
  const app = await serveTestApp((await openSnapshotDatabase(PTP_DOMAINS, dataDir)).db, routesOf(PTP_DOMAINS));
  try {
    const out = new Map<string, string>();
    for (const url of urls) {
      const response = await app.request(url);
      out.set(url, `${response.status} ${Buffer.from(await response.arrayBuffer()).toString('base64')}`);
    }
    return out;
  } finally {
    await app.close();
  }
}
