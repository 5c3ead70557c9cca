// The ingest CLI's exit codes, and what turns an error into one. Listed by `npm run ingest -- --help`
// and in the README's Operations section.

export const EXIT = {
  /** Done (also: nothing new to import). */
  ok: 0,
  /** Malformed input: a source file could not be read as its format; nothing was written. */
  malformed: 1,
  /** Usage: a wrong command line (unknown source, missing path, bad option value). */
  usage: 2,
  /** Another ingest (or rollback) holds the data folder's lock; nothing was written. */
  locked: 3,
  /** Operator error: disk full, read-only or forbidden folder, too many open files, I/O error; nothing was published. */
  storage: 4,
  /** A republished day, series or period would shrink; nothing was written (rerun with --allow-shrink to accept). */
  shrink: 5,
  /** npm run fetch: some datasets failed (each listed with its address and reason); the others were published. */
  partial: 6,
} as const;

export const EXIT_CODE_HELP: ReadonlyArray<[number, string]> = [
  [EXIT.ok, 'done (also when every file was imported before)'],
  [EXIT.malformed, 'malformed input: every bad file, row and problem is listed; nothing written'],
  [EXIT.usage, 'usage error: unknown source, missing path, bad option'],
  [EXIT.locked, 'another ingest or rollback holds the data folder lock; nothing written'],
  [EXIT.storage, 'operator error: disk full, read-only or forbidden folder, I/O error; previous snapshot still served'],
  [EXIT.shrink, 'a republished key would lose rows; nothing written (--allow-shrink accepts it)'],
  [EXIT.partial, 'npm run fetch: some datasets failed (each listed with its address and reason, its served data unchanged); the rest was published'],
];

const STORAGE_CODES = new Map<string, string>([
  ['ENOSPC', 'disk full'],
  ['EDQUOT', 'disk quota exceeded'],
  ['EROFS', 'read-only file system'],
  ['EACCES', 'permission denied'],
  ['EPERM', 'operation not permitted'],
  ['EMFILE', 'too many open files'],
  ['ENFILE', 'too many open files in the system'],
  ['EIO', 'input/output error'],
  ['ENOTDIR', 'a path component is not a folder'],
  ['EISDIR', 'a file path is a folder'],
]);

// DuckDB reports failed writes as text, not as errno codes.
const STORAGE_MESSAGES: ReadonlyArray<[RegExp, string]> = [
  [/No space left on device/i, 'disk full'],
  [/Disk quota exceeded/i, 'disk quota exceeded'],
  [/Read-only file system/i, 'read-only file system'],
  [/Permission denied/i, 'permission denied'],
  [/Operation not permitted/i, 'operation not permitted'],
  [/Too many open files/i, 'too many open files'],
];

/** One line for an error caused by the machine rather than by the input or the code, else null. */
export function storageErrorLine(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  const errno = error as NodeJS.ErrnoException;
  const what = errno.code === undefined ? undefined : STORAGE_CODES.get(errno.code);
  if (what !== undefined) {
    const where = errno.path ? ` (${errno.syscall ?? 'access'} ${errno.path}${(errno as { dest?: string }).dest ? ` -> ${(errno as { dest?: string }).dest}` : ''})` : '';
    return `${what}: ${errno.code}${where}`;
  }
  for (const [pattern, text] of STORAGE_MESSAGES) {
    if (pattern.test(error.message)) return `${text}: ${error.message.split('\n')[0]!.slice(0, 300)}`;
  }
  return null;
}
