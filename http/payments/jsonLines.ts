// Durable JSON-lines files (the revenue ledger, the paid-answer store): lines appended and fsynced
// before the caller goes on; a torn last line left by a crash is isolated by a newline first.
import { mkdir, open, type FileHandle } from 'node:fs/promises';
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

  constructor(
    readonly path: string,
    private readonly appendLines: (path: string, lines: readonly string[]) => Promise<AppendedLine[]> = appendLinesDurably,
  ) {}

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
