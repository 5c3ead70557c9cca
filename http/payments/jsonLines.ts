// Durable JSON-lines files (the revenue ledger, the paid-answer store): lines appended and fsynced
// before the caller goes on; a torn last line left by a crash is isolated by a newline first.
import { mkdir, open, stat, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface AppendedLine {
  /** The file's size just before this line (and its isolating newline, if any). */
  sizeBefore: number;
  /** Bytes written for this line, the isolating newline included. */
  written: number;
}

async function openForAppend(path: string): Promise<FileHandle> {
  try {
    return await open(path, 'a+');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await mkdir(dirname(path), { recursive: true }); // only the first append creates the folder
    return open(path, 'a+');
  }
}

/**
 * Appends `lines` (each ending in a newline) with one open, one write and one fsync; the file is
 * opened afresh each time, so a ledger moved or removed by an operator is recreated, never written
 * through a stale handle.
 */
export async function appendLinesDurably(path: string, lines: readonly string[]): Promise<AppendedLine[]> {
  const file = await openForAppend(path);
  try {
    const { size } = await file.stat();
    let prefix = '';
    if (size > 0) {
      const last = Buffer.alloc(1);
      await file.read(last, 0, 1, size - 1);
      if (last[0] !== 0x0a) prefix = '\n'; // isolate a torn line left by a crash
    }
    const appended: AppendedLine[] = [];
    let offset = size;
    for (const [i, line] of lines.entries()) {
      const written = Buffer.byteLength(line) + (i === 0 ? prefix.length : 0);
      appended.push({ sizeBefore: offset, written });
      offset += written;
    }
    await file.appendFile(prefix + lines.join(''));
    await file.sync();
    return appended;
  } finally {
    await file.close();
  }
}

/**
 * A JSON-lines file kept open between appends (a paid request appends three times: opening, reading
 * the last byte and closing each time cost more than the write). Before each append one stat checks
 * that the path still names the open file at the size this handle left it: a file moved, removed or
 * replaced (a journal rewritten by rename), or written by someone else, is opened afresh (its last
 * line isolated if torn), so nothing is written through a stale handle or glued to a foreign line.
 */
export class AppendFile {
  private handle: FileHandle | null = null;
  private identity = '';
  private size = 0;

  constructor(readonly path: string) {}

  async appendLines(lines: readonly string[]): Promise<AppendedLine[]> {
    try {
      await this.ensureOpen();
      const appended: AppendedLine[] = [];
      let offset = this.size;
      for (const line of lines) {
        const written = Buffer.byteLength(line);
        appended.push({ sizeBefore: offset, written });
        offset += written;
      }
      await this.handle!.appendFile(lines.join(''));
      await this.handle!.sync();
      this.size = offset;
      return appended;
    } catch (error) {
      await this.close(); // the next append opens and measures the file afresh
      throw error;
    }
  }

  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = null;
    await handle?.close().catch(() => undefined);
  }

  private async ensureOpen(): Promise<void> {
    if (this.handle) {
      const current = await stat(this.path).catch(() => null);
      // The same file at the size this handle left it: nobody else wrote (another process, a crash's torn line).
      if (current && `${current.dev}:${current.ino}` === this.identity && current.size === this.size) return;
      await this.close();
    }
    const handle = await openForAppend(this.path);
    try {
      const { size, dev, ino } = await handle.stat();
      this.size = size;
      if (size > 0) {
        const last = Buffer.alloc(1);
        await handle.read(last, 0, 1, size - 1);
        if (last[0] !== 0x0a) {
          await handle.appendFile('\n'); // isolate a torn line left by a crash
          this.size += 1;
        }
      }
      this.identity = `${dev}:${ino}`;
      this.handle = handle;
    } catch (error) {
      await handle.close();
      throw error;
    }
  }
}

/** Appends one line durably; returns the file's size before the append and the bytes written. */
export async function appendLineDurably(path: string, line: string): Promise<AppendedLine> {
  return (await appendLinesDurably(path, [line]))[0];
}

interface QueuedLine {
  line: string;
  resolve: (appended: AppendedLine) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: appends are written in call order, and the lines that arrive while one write is
 * on its way to disk go together in the next (one open, one write, one fsync for all of them).
 * Each caller still resumes only once its own line is on disk; a failed write fails its whole group.
 */
export class DurableLineWriter {
  private queue: QueuedLine[] = [];
  private writing = false;

  private readonly file: AppendFile;
  private readonly appendLines: (path: string, lines: readonly string[]) => Promise<AppendedLine[]>;

  constructor(
    readonly path: string,
    appendLines?: (path: string, lines: readonly string[]) => Promise<AppendedLine[]>,
  ) {
    this.file = new AppendFile(path);
    this.appendLines = appendLines ?? ((_path, lines) => this.file.appendLines(lines));
  }

  /** Closes the file kept open between appends (the next append opens it again). */
  close(): Promise<void> {
    return this.file.close();
  }

  append(line: string): Promise<AppendedLine> {
    return new Promise((resolve, reject) => {
      this.queue.push({ line, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    while (this.queue.length > 0) {
      const group = this.queue;
      this.queue = [];
      try {
        const appended = await this.appendLines(this.path, group.map((queued) => queued.line));
        group.forEach((queued, i) => queued.resolve(appended[i]));
      } catch (error) {
        for (const queued of group) queued.reject(error);
      }
    }
    this.writing = false;
  }
}
