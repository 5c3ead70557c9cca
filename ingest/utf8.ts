// Whether a file is UTF-8, read in chunks (a file is never held whole): the question the readers of
// older Bulgarian exports ask before falling back to CP1251.
import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';

/** Bytes per read: large reads, as the check is cheap per byte and each read is a trip to libuv's pool. */
const READ_BYTES = 1024 * 1024;

/** The length of `bytes` up to its last whole UTF-8 sequence (a sequence cut by the chunk's end waits for the next chunk). */
function wholeSequencesLength(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: its lead is further back
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? bytes.length - back : bytes.length;
  }
  return bytes.length;
}

/** True when every byte of the file is well-formed UTF-8 (as TextDecoder's fatal mode judges it). */
export async function isUtf8File(path: string): Promise<boolean> {
  let carried: Buffer | null = null;
  for await (const chunk of createReadStream(path, { highWaterMark: READ_BYTES }) as AsyncIterable<Buffer>) {
    const bytes: Buffer = carried ? Buffer.concat([carried, chunk]) : chunk;
    const whole = wholeSequencesLength(bytes);
    if (!isUtf8(bytes.subarray(0, whole))) return false;
    carried = whole < bytes.length ? Buffer.from(bytes.subarray(whole)) : null;
  }
  return carried === null;
}
