// The data folder's exclusive lock: DATA_DIR/ingest.lock, created with O_EXCL ('wx'), holding the
// holder's pid, start time, host and command as JSON. Every ingest, rollback and start-time recovery
// takes it; a second one is refused (LockedError). A lock whose pid is no longer alive on this host
// is stale (a killed ingest): it is taken over with a message.
import { mkdir, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';

export const LOCK_FILE = 'ingest.lock';

export interface LockHolder {
  pid: number;
  /** ISO time the holder took the lock. */
  started: string;
  host: string;
  command: string;
}

/** The lock is held by a live process. */
export class LockedError extends Error {
  constructor(
    readonly lockFile: string,
    readonly holder: LockHolder | null,
  ) {
    super(
      holder
        ? `another ingest holds ${lockFile}: pid ${holder.pid} on ${holder.host}, since ${holder.started} (${holder.command}); wait for it to finish`
        : `another ingest is taking ${lockFile}; wait for it to finish`,
    );
    this.name = 'LockedError';
  }
}

export interface Lock {
  file: string;
  release(): Promise<void>;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseHolder(text: string): LockHolder | null {
  try {
    const value = JSON.parse(text) as Partial<LockHolder>;
    if (typeof value.pid !== 'number' || !Number.isInteger(value.pid) || value.pid <= 0) return null;
    return { pid: value.pid, started: String(value.started ?? '?'), host: String(value.host ?? '?'), command: String(value.command ?? '?') };
  } catch {
    return null;
  }
}

/** A lock file without a complete holder record is given this long to be written before it counts as stale. */
const UNREADABLE_GRACE_MS = 10_000;

async function staleReason(file: string, text: string): Promise<string | null> {
  const holder = parseHolder(text);
  if (holder === null) {
    const age = Date.now() - (await stat(file)).mtimeMs;
    return age > UNREADABLE_GRACE_MS ? 'unreadable holder record' : null;
  }
  if (holder.host !== hostname()) return null; // another machine's pid cannot be checked here
  return alive(holder.pid) ? null : `pid ${holder.pid} (since ${holder.started}, ${holder.command}) is not running`;
}

/**
 * Takes DATA_DIR's lock or throws LockedError. A stale lock is moved aside with one rename (so of two
 * processes taking over the same stale lock only one succeeds) and the take-over is logged.
 */
export async function acquireLock(dataDir: string, command: string, log: (line: string) => void = () => {}): Promise<Lock> {
  const file = join(resolve(dataDir), LOCK_FILE);
  await mkdir(resolve(dataDir), { recursive: true });
  const holder: LockHolder = { pid: process.pid, started: new Date().toISOString(), host: hostname(), command };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(file, 'wx');
      try {
        await handle.writeFile(`${JSON.stringify(holder)}\n`);
        await handle.sync();
      } finally {
        await handle.close();
      }
      let released = false;
      return {
        file,
        async release() {
          if (released) return;
          released = true;
          await unlink(file).catch(() => {});
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue; // released meanwhile: try again
      throw error;
    }
    const reason = await staleReason(file, text);
    if (reason === null) throw new LockedError(file, parseHolder(text));
    const aside = `${file}.stale-${process.pid}`;
    try {
      await rename(file, aside);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    // Moved aside: check it was the stale record read above, not a fresh lock taken meanwhile.
    const moved = await readFile(aside, 'utf8').catch(() => '');
    if (moved !== text) {
      await rename(aside, file).catch(() => {});
      throw new LockedError(file, parseHolder(moved));
    }
    await unlink(aside).catch(() => {});
    log(`ingest: took over a stale lock ${file}: ${reason}`);
  }
  throw new LockedError(file, null);
}

/** The holder recorded in DATA_DIR's lock, or null when it is not locked. */
export async function lockHolder(dataDir: string): Promise<LockHolder | null> {
  const text = await readFile(join(resolve(dataDir), LOCK_FILE), 'utf8').catch(() => null);
  return text === null ? null : parseHolder(text);
}
