// Durable JSON-lines files (the revenue ledger, the paid-answer store): one line appended and fsynced
// before the caller goes on; a torn last line left by a crash is isolated by a newline first.
import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Appends `line` (ending in a newline) durably; returns the file's size before the append and the bytes written. */
export async function appendLineDurably(path: string, line: string): Promise<{ sizeBefore: number; written: number }> {
  await mkdir(dirname(path), { recursive: true });
  const file = await open(path, 'a+');
  try {
    const { size } = await file.stat();
    let prefix = '';
    if (size > 0) {
      const last = Buffer.alloc(1);
      await file.read(last, 0, 1, size - 1);
      if (last[0] !== 0x0a) prefix = '\n'; // isolate a torn line left by a crash
    }
    await file.appendFile(`${prefix}${line}`);
    await file.sync();
    return { sizeBefore: size, written: Buffer.byteLength(prefix) + Buffer.byteLength(line) };
  } finally {
    await file.close();
  }
}
