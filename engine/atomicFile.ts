// One file replaced whole: written to a temp file beside it, fsynced, then renamed over it, so a
// reader (or a crash) sees the old content or the new, never half of either.
import { open, rename } from 'node:fs/promises';

export async function writeFileAtomically(file: string, text: string): Promise<void> {
  const temporary = `${file}.tmp-${process.pid}`;
  const handle = await open(temporary, 'w');
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, file);
}

/** `value` as indented JSON and a final newline, replaced whole. */
export function writeJsonAtomically(file: string, value: unknown): Promise<void> {
  return writeFileAtomically(file, `${JSON.stringify(value, null, 1)}\n`);
}
